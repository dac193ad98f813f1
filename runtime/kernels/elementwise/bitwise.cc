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

template <typename T>
T ShiftRight(T x, T y) {
  constexpr T kMax = static_cast<T>(sizeof(T) * CHAR_BIT - 1);
  const T s = y < T{0} ? T{0} : (y > kMax ? kMax : y);
  return static_cast<T>(x >> s);
}

// Runs fn(T{}) for input 0's type among those TFLite's kernels take.
template <typename Fn>
absl::Status ForBitwiseType(const OpContext& ctx, const Fn& fn) {
  return elementwise::ForInputType<int8_t, uint8_t, int16_t, uint16_t, int32_t,
                                   uint32_t>(ctx, fn);
}

}  // namespace

absl::Status PrepareBitwise(OpContext& ctx) {
  BinaryState* st = nullptr;
  RETURN_IF_ERROR(elementwise::PrepareBroadcast2(ctx, &st));
  RETURN_IF_ERROR(ForBitwiseType(ctx, [](auto) {}));
  RETURN_IF_ERROR(elementwise::ExpectSameType(ctx, 0, 1));
  return elementwise::ExpectOutputType(ctx, 0, ctx.input(0)->type);
}

absl::Status EvalBitwiseXor(OpContext& ctx) {
  return ForBitwiseType(ctx, [&](auto t) {
    using T = decltype(t);
    elementwise::RunBinary<T>(ctx,
                              [](T a, T b) { return static_cast<T>(a ^ b); });
  });
}

absl::Status EvalRightShift(OpContext& ctx) {
  return ForBitwiseType(ctx, [&](auto t) {
    using T = decltype(t);
    elementwise::RunBinary<T>(ctx, ShiftRight<T>);
  });
}

}  // namespace qforge::runtime
