// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGICAL_NOT, as TFLite's kernel (kernels/logical.cc): bool in, bool out,
// the same shape. Bools are one byte, 0 or 1, so the result is 1 - x; a byte
// other than 0 or 1 (only a hand-made model can hold one) counts as true.
#include <cstdint>

#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {

absl::Status PrepareLogicalNot(OpContext& ctx) {
  RETURN_IF_ERROR(elementwise::CheckArity(ctx, 1, 1));
  if (ctx.input(0)->type != ir::DataType::kBool) {
    return elementwise::UnsupportedType(ctx, 0);
  }
  RETURN_IF_ERROR(elementwise::ExpectOutputType(ctx, 0, ir::DataType::kBool));
  ctx.SetOutputShape(0, ctx.input(0)->shape);
  return absl::OkStatus();
}

absl::Status EvalLogicalNot(OpContext& ctx) {
  elementwise::EvalUnary(
      ctx, ctx.input(0)->Data<uint8_t>(), ctx.output(0)->Data<uint8_t>(),
      ctx.output(0)->NumElements(), [](uint8_t v) { return uint8_t{v == 0}; });
  return absl::OkStatus();
}

}  // namespace qforge::runtime
