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

}  // namespace
}  // namespace qforge

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_op_models OUT_DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  for (absl::Status s : {qforge::MatrixSetDiag(dir)}) {
    if (!s.ok()) {
      std::fprintf(stderr, "make_op_models: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }
  return 0;
}
