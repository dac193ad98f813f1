// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes the float single-op models of testdata/ops/: ops qforge quantizes
// that no corpus model uses, so that tests/interop/int_ops_litert.mjs has a
// model to quantize and run in LiteRT for them (its other cases are corpus
// unit models). Constants are fixed, so the files are reproducible:
//   make_op_models OUT_DIR
//
//   matrix_set_diag.tflite        MATRIX_SET_DIAG(x [2, 3, 4], d [2, 3]):
//                                 both activations, non-square matrices;
//   matrix_set_diag_const.tflite  MATRIX_SET_DIAG(x [1, 4, 4], constant
//                                 [1, 4]) whose values lie outside x's
//                                 range, as a mask setting the diagonal of
//                                 attention scores.
//   embedding_lookup_blocks.tflite  EMBEDDING_LOOKUP(ids [4], table
//                                 [32, 128]) and
//   fc_blocks.tflite              FULLY_CONNECTED(x [2, 256], w [64, 256],
//                                 bias [64]): weights whose magnitude
//                                 changes along a row, as outlier input
//                                 channels make it, for the blockwise
//                                 weight forms (tests/interop/
//                                 weight_forms_litert.sh).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "base/status_macros.h"
#include "formats/tflite_writer.h"
#include "ir/validate.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::OpModel;
constexpr ir::DataType kF32 = ir::DataType::kFloat32;

absl::Status Write(OpModel& m, const std::string& path) {
  RETURN_IF_ERROR(ir::ValidateModel(m.model()));
  return formats::WriteTfliteFile(m.model(), path);
}

absl::Status MatrixSetDiag(const std::string& dir) {
  {
    OpModel m;
    const int x = m.Input(kF32, {2, 3, 4}, "x");
    const int d = m.Input(kF32, {2, 3}, "diagonal");
    const int y = m.Output(kF32, {2, 3, 4}, "y");
    m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
    RETURN_IF_ERROR(Write(m, dir + "/matrix_set_diag.tflite"));
  }
  OpModel m;
  const int x = m.Input(kF32, {1, 4, 4}, "scores");
  const int d =
      m.Constant<float>({1, 4}, {-2.0f, 0.0f, 0.5f, 3.0f}, "diagonal");
  const int y = m.Output(kF32, {1, 4, 4}, "masked");
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  return Write(m, dir + "/matrix_set_diag_const.tflite");
}

// Deterministic values in [-1, 1) scaled per column: every 16th column of
// a row is 8x larger.
std::vector<float> RowValues(int rows, int cols) {
  std::vector<float> v(static_cast<size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const float base = std::sin(0.37f * static_cast<float>(r * cols + c) +
                                  0.11f * static_cast<float>(r));
      v[static_cast<size_t>(r) * cols + c] = (c % 16 == 3 ? 8.0f : 1.0f) * base;
    }
  }
  return v;
}

absl::Status BlockModels(const std::string& dir) {
  {
    OpModel m;
    const int ids = m.Input(ir::DataType::kInt32, {4}, "ids");
    const int table = m.Constant<float>({32, 128}, RowValues(32, 128), "table");
    const int y = m.Output(kF32, {4, 128}, "rows");
    m.Op(ir::OpKind::kEmbeddingLookup, {ids, table}, {y});
    RETURN_IF_ERROR(Write(m, dir + "/embedding_lookup_blocks.tflite"));
  }
  OpModel m;
  const int x = m.Input(kF32, {2, 256}, "x");
  const int w = m.Constant<float>({64, 256}, RowValues(64, 256), "weights");
  std::vector<float> b(64);
  for (int i = 0; i < 64; ++i) b[static_cast<size_t>(i)] = 0.01f * i;
  const int bias = m.Constant<float>({64}, b, "bias");
  const int y = m.Output(kF32, {2, 64}, "y");
  m.Op(ir::OpKind::kFullyConnected, {x, w, bias}, {y},
       ir::FullyConnectedOptions{});
  return Write(m, dir + "/fc_blocks.tflite");
}

}  // namespace
}  // namespace qforge

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_op_models OUT_DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  for (absl::Status s :
       {qforge::MatrixSetDiag(dir), qforge::BlockModels(dir)}) {
    if (!s.ok()) {
      std::fprintf(stderr, "make_op_models: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }
  return 0;
}
