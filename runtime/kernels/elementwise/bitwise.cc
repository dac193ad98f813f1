// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BITWISE_XOR and RIGHT_SHIFT with NumPy broadcasting, over int8, uint8,
// int16, uint16, int32 and uint32 (the types TFLite's bitwise_xor.cc and
// right_shift.cc take; both inputs and the output share one type).
// RIGHT_SHIFT clamps the shift to [0, bits - 1] as TFLite does, so a
// negative or oversized shift is defined (no UB); signed values shift
// arithmetically.
#include <climits>
#include <cstdint>

#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

using elementwise::BinaryState;

template <typename T, typename Op>
void Run(OpContext& ctx, const Op& op) {
  const BinaryState& st = *ctx.state<BinaryState>();
  elementwise::EvalBinary(ctx, st.plan, ctx.input(0)->Data<T>(),
                          ctx.input(1)->Data<T>(), ctx.output(0)->Data<T>(),
                          op);
}

template <typename T>
T ShiftRight(T x, T y) {
  constexpr T kMax = static_cast<T>(sizeof(T) * CHAR_BIT - 1);
  const T s = y < T{0} ? T{0} : (y > kMax ? kMax : y);
  return static_cast<T>(x >> s);
}

template <typename T>
void Dispatch(OpContext& ctx, bool xor_op) {
  if (xor_op) {
    Run<T>(ctx, [](T a, T b) { return static_cast<T>(a ^ b); });
  } else {
    Run<T>(ctx, ShiftRight<T>);
  }
}

}  // namespace

absl::Status PrepareBitwise(OpContext& ctx) {
  BinaryState* st = nullptr;
  RETURN_IF_ERROR(elementwise::PrepareBroadcast2(ctx, &st));
  switch (ctx.input(0)->type) {
    case ir::DataType::kInt8:
    case ir::DataType::kUInt8:
    case ir::DataType::kInt16:
    case ir::DataType::kUInt16:
    case ir::DataType::kInt32:
    case ir::DataType::kUInt32:
      break;
    default:
      return elementwise::UnsupportedType(ctx, 0);
  }
  RETURN_IF_ERROR(elementwise::ExpectSameType(ctx, 0, 1));
  return elementwise::ExpectOutputType(ctx, 0, ctx.input(0)->type);
}

absl::Status EvalBitwise(OpContext& ctx) {
  const bool xor_op = ctx.op().kind == ir::OpKind::kBitwiseXor;
  switch (ctx.input(0)->type) {
    case ir::DataType::kInt8:
      Dispatch<int8_t>(ctx, xor_op);
      break;
    case ir::DataType::kUInt8:
      Dispatch<uint8_t>(ctx, xor_op);
      break;
    case ir::DataType::kInt16:
      Dispatch<int16_t>(ctx, xor_op);
      break;
    case ir::DataType::kUInt16:
      Dispatch<uint16_t>(ctx, xor_op);
      break;
    case ir::DataType::kInt32:
      Dispatch<int32_t>(ctx, xor_op);
      break;
    case ir::DataType::kUInt32:
      Dispatch<uint32_t>(ctx, xor_op);
      break;
    default:
      return elementwise::UnsupportedType(ctx, 0);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
