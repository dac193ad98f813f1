// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Unary maths, as TFLite's float kernels compute it:
//  - EXP, LOG, SQRT, SIN, COS, FLOOR, CEIL: the C library function.
//  - RSQRT 1 / sqrt(x); SQUARE x * x.
//  - ROUND: to nearest, ties to even (TFLite's RoundToNearest: floor, then
//    up when the fraction is > 0.5 or == 0.5 with an odd floor). Note the
//    result of rounding a negative value up to zero is +0, as in TFLite.
//  - NEG -x, ABS |x|, SIGN -1 / 0 / 1: float32 and int32 (NEG also int64);
//    integer NEG / ABS of the lowest value wrap. SIGN(NaN) is NaN, as LiteRT
//    (and TensorFlow) return it; TFLite's portable kernel would return 0.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

template <typename T = float, typename Op>
absl::Status Unary(OpContext& ctx, const Op& op) {
  elementwise::EvalUnary(ctx, ctx.input(0)->Data<T>(), ctx.output(0)->Data<T>(),
                         ctx.output(0)->NumElements(), op);
  return absl::OkStatus();
}

float RoundHalfToEven(float v) {
  const float floor_v = std::floor(v);
  const float diff = v - floor_v;
  if (diff < 0.5f || (diff == 0.5f && std::fmod(floor_v, 2.0f) == 0.0f)) {
    return floor_v;
  }
  return floor_v + 1.0f;
}

template <typename T>
T NegOf(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return -v;
  } else {
    return elementwise::WrapSub(T{0}, v);
  }
}

template <typename T>
T AbsOf(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(v);
  } else {
    return v < 0 ? elementwise::WrapSub(T{0}, v) : v;
  }
}

template <typename T>
T SignOf(T v) {
  if (v > T{0}) return T{1};
  if (v < T{0}) return T{-1};
  return v == T{0} ? T{0} : v;  // NaN stays NaN
}

}  // namespace

absl::Status EvalExp(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::exp(v); });
}

absl::Status EvalLog(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::log(v); });
}

absl::Status EvalSqrt(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::sqrt(v); });
}

absl::Status EvalRsqrt(OpContext& ctx) {
  return Unary(ctx, [](float v) { return 1.0f / std::sqrt(v); });
}

absl::Status EvalSquare(OpContext& ctx) {
  return Unary(ctx, [](float v) { return v * v; });
}

absl::Status EvalSin(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::sin(v); });
}

absl::Status EvalCos(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::cos(v); });
}

absl::Status EvalFloor(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::floor(v); });
}

absl::Status EvalCeil(OpContext& ctx) {
  return Unary(ctx, [](float v) { return std::ceil(v); });
}

absl::Status EvalRound(OpContext& ctx) { return Unary(ctx, RoundHalfToEven); }

namespace {

// takes_int64: TFLite's NEG also takes int64 (ABS and SIGN do not).
absl::Status PrepareSigned(OpContext& ctx, bool takes_int64) {
  RETURN_IF_ERROR(elementwise::CheckArity(ctx, 1, 1));
  const ir::DataType type = ctx.input(0)->type;
  const bool ok = type == ir::DataType::kFloat32 ||
                  type == ir::DataType::kInt32 ||
                  (type == ir::DataType::kInt64 && takes_int64);
  if (!ok) return elementwise::UnsupportedType(ctx, 0);
  RETURN_IF_ERROR(elementwise::ExpectOutputType(ctx, 0, type));
  ctx.SetOutputShape(0, ctx.input(0)->shape);
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PrepareSignedUnary, PrepareSigned(ctx, /*takes_int64=*/false))
QF_KERNEL_AS(PrepareNeg, PrepareSigned(ctx, /*takes_int64=*/true))

#define QF_SIGNED_UNARY(Name, Fn)                    \
  absl::Status Eval##Name(OpContext& ctx) {          \
    switch (ctx.input(0)->type) {                    \
      case ir::DataType::kFloat32:                   \
        return Unary<float>(ctx, Fn<float>);         \
      case ir::DataType::kInt32:                     \
        return Unary<int32_t>(ctx, Fn<int32_t>);     \
      case ir::DataType::kInt64:                     \
        return Unary<int64_t>(ctx, Fn<int64_t>);     \
      default:                                       \
        return elementwise::UnsupportedType(ctx, 0); \
    }                                                \
  }
QF_SIGNED_UNARY(Neg, NegOf)
QF_SIGNED_UNARY(Abs, AbsOf)
QF_SIGNED_UNARY(Sign, SignOf)
#undef QF_SIGNED_UNARY

}  // namespace qforge::runtime
