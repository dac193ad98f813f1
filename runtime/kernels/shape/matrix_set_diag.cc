// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MATRIX_SET_DIAG(input [..., M, N], diagonal [..., min(M, N)]): the input
// with the main diagonal of each innermost M x N matrix replaced by the
// diagonal's values, as TFLite's matrix_set_diag.cc computes it. The
// kernel copies elements, so it runs the quantized forms too; TFLite's
// copies raw values without looking at quantization parameters, so the
// integer form is faithful only with input, diagonal and output on one
// scale and zero point (legality_movement.cc, MatrixSetDiagRules).
//
// Types: those TFLite's kernel moves as themselves (float32, int8, uint8,
// int16, int32, int64); it copies any other type as float32 elements, which
// is garbage for types of another size, so they are refused here. TFLite's
// Prepare checks neither the diagonal's type nor its shape and reads past
// a diagonal that is too small; both are errors here.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

bool MatrixSetDiagTakes(ir::DataType type) {
  switch (type) {
    case ir::DataType::kFloat32:
    case ir::DataType::kInt8:
    case ir::DataType::kUInt8:
    case ir::DataType::kInt16:
    case ir::DataType::kInt32:
    case ir::DataType::kInt64:
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::Status PrepareMatrixSetDiag(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "input"));
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 1, "diagonal"));
  const RtTensor& in = *ctx.input(0);
  const RtTensor& diag = *ctx.input(1);
  if (!MatrixSetDiagTakes(in.type)) {
    return ctx.Unsupported(absl::StrCat(
        "input '", in.name(), "' is ", ir::DataTypeName(in.type),
        "; TFLite's kernel takes float32, int8, uint8, int16, int32 and "
        "int64"));
  }
  if (diag.type != in.type) {
    return ctx.Error(absl::StrCat(
        "diagonal '", diag.name(), "' is ", ir::DataTypeName(diag.type),
        ", input '", in.name(), "' is ", ir::DataTypeName(in.type)));
  }
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 0, 0));
  const int rank = in.rank();
  if (rank < 2) {
    return ctx.Error(absl::StrCat("input '", in.name(), "' has shape ",
                                  DimsString(in.shape),
                                  "; it must have rank >= 2"));
  }
  Dims want(in.shape.begin(), in.shape.end() - 2);
  want.push_back(std::min(in.dim(rank - 2), in.dim(rank - 1)));
  if (diag.shape != want) {
    return ctx.Error(absl::StrCat("diagonal '", diag.name(), "' has shape ",
                                  DimsString(diag.shape), "; input '",
                                  in.name(), "' ", DimsString(in.shape),
                                  " needs ", DimsString(want)));
  }
  return shape_ops::SetShape(ctx, 0, in.shape, /*in_eval=*/false);
}

absl::Status EvalMatrixSetDiag(OpContext& ctx) {
  const RtTensor& in = *ctx.input(0);
  const RtTensor& diag = *ctx.input(1);
  RtTensor& out = *ctx.output(0);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, in, &elem));
  const int64_t n = in.NumElements();
  if (n == 0) return absl::OkStatus();
  if (out.data != in.data) {
    std::memcpy(out.data, in.data, static_cast<size_t>(n) * elem);
  }
  const int rank = in.rank();
  const int64_t rows = in.dim(rank - 2), cols = in.dim(rank - 1);
  const int64_t d = std::min(rows, cols);
  const int64_t batches = n / (rows * cols);
  const uint8_t* src = diag.data;
  for (int64_t b = 0; b < batches; ++b) {
    uint8_t* matrix = out.data + static_cast<size_t>(b * rows * cols) * elem;
    for (int64_t i = 0; i < d; ++i) {
      std::memcpy(matrix + static_cast<size_t>(i * cols + i) * elem, src, elem);
      src += elem;
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
