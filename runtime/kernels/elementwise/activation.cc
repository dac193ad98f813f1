// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Float32 activations, as TFLite computes them:
//  - LOGISTIC, TANH: Eigen's vectorised rational approximations (what
//    TFLite's optimized float kernels call), a few ulp from the exact values.
//  - RELU x<0?0:x; RELU6 / RELU_N1_TO_1 / RELU_0_TO_1 clamp with
//    `v > hi ? hi : v < lo ? lo : v` (NaN passes through).
//  - LEAKY_RELU x > 0 ? x : x * alpha (alpha may be > 1 or < 0).
//  - HARD_SWISH x * min(6, max(0, x + 3)) / 6.
//  - GELU exact 0.5 x erfc(-x / sqrt 2) (TFLite's erfc form, no cancellation
//    for large negative x); approximate 0.5 x (1 + tanh(sqrt(2/pi) (x +
//    0.044715 x^3))).
//  - ELU x < 0 ? expm1(x) : x.
// PrepareFloatUnary is shared with the unary maths in unary.cc.
#include <cmath>

// GCC 12 reports a false -Wmaybe-uninitialized inside its own AVX-512
// intrinsics (_mm512_undefined_ps, GCC bug 105593) when Eigen's packet
// code is inlined here.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

struct Io {
  const float* in;
  float* out;
  int64_t n;
};

Io FloatIo(OpContext& ctx) {
  return {ctx.input(0)->Data<float>(), ctx.output(0)->Data<float>(),
          ctx.output(0)->NumElements()};
}

template <typename Op>
absl::Status Unary(OpContext& ctx, const Op& op) {
  const Io io = FloatIo(ctx);
  elementwise::EvalUnary(ctx, io.in, io.out, io.n, op);
  return absl::OkStatus();
}

// Applies an Eigen array expression builder to every chunk.
template <typename Expr>
absl::Status EigenUnary(OpContext& ctx, const Expr& expr) {
  const Io io = FloatIo(ctx);
  ParallelChunks(
      ctx, io.n, elementwise::kGrain, [&io, &expr](int64_t begin, int64_t end) {
        const Eigen::Index len = static_cast<Eigen::Index>(end - begin);
        Eigen::Map<const Eigen::ArrayXf> in(io.in + begin, len);
        Eigen::Map<Eigen::ArrayXf> out(io.out + begin, len);
        expr(in, out);
      });
  return absl::OkStatus();
}

template <typename T>
inline T Clamp(T v, T lo, T hi) {
  return v > hi ? hi : v < lo ? lo : v;
}

// sqrt(2 / pi), as TFLite's kSqrt2dPi (M_2_SQRTPI * M_SQRT1_2).
constexpr float kSqrt2OverPi =
    static_cast<float>(1.12837916709551257390 * 0.70710678118654752440);
constexpr float kSqrtHalf = static_cast<float>(0.70710678118654752440);

}  // namespace

absl::Status PrepareFloatUnary(OpContext& ctx) {
  RETURN_IF_ERROR(elementwise::CheckArity(ctx, 1, 1));
  if (ctx.input(0)->type != ir::DataType::kFloat32) {
    return elementwise::UnsupportedType(ctx, 0);
  }
  RETURN_IF_ERROR(
      elementwise::ExpectOutputType(ctx, 0, ir::DataType::kFloat32));
  ctx.SetOutputShape(0, ctx.input(0)->shape);
  return absl::OkStatus();
}

absl::Status EvalLogistic(OpContext& ctx) {
  return EigenUnary(ctx,
                    [](const auto& in, auto& out) { out = in.logistic(); });
}

absl::Status EvalTanh(OpContext& ctx) {
  return EigenUnary(ctx, [](const auto& in, auto& out) { out = in.tanh(); });
}

absl::Status EvalRelu(OpContext& ctx) {
  return Unary(ctx, [](float v) { return v < 0.0f ? 0.0f : v; });
}

absl::Status EvalRelu6(OpContext& ctx) {
  return Unary(ctx, [](float v) { return Clamp(v, 0.0f, 6.0f); });
}

absl::Status EvalReluN1To1(OpContext& ctx) {
  return Unary(ctx, [](float v) { return Clamp(v, -1.0f, 1.0f); });
}

absl::Status EvalRelu0To1(OpContext& ctx) {
  return Unary(ctx, [](float v) { return Clamp(v, 0.0f, 1.0f); });
}

absl::Status EvalLeakyRelu(OpContext& ctx) {
  const float alpha =
      ir::OptionsOr<ir::LeakyReluOptions>(ctx.op().options).alpha;
  return Unary(ctx, [alpha](float v) { return v > 0.0f ? v : v * alpha; });
}

absl::Status EvalHardSwish(OpContext& ctx) {
  return Unary(ctx, [](float v) {
    return v * std::min(6.0f, std::max(0.0f, v + 3.0f)) / 6.0f;
  });
}

absl::Status EvalGelu(OpContext& ctx) {
  if (ir::OptionsOr<ir::GeluOptions>(ctx.op().options).approximate) {
    return EigenUnary(ctx, [](const auto& in, auto& out) {
      out = 0.5f * in *
            (1.0f + (kSqrt2OverPi * (in + 0.044715f * in.cube())).tanh());
    });
  }
  return Unary(ctx,
               [](float v) { return 0.5f * v * std::erfc(v * -kSqrtHalf); });
}

absl::Status EvalElu(OpContext& ctx) {
  return Unary(ctx, [](float v) { return v < 0.0f ? std::expm1(v) : v; });
}

}  // namespace qforge::runtime

#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
