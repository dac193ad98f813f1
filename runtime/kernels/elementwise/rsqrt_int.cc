// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer RSQRT, as TFLite's elementwise.cc.
// int8 (RsqrtEvalQuantized): for v = q_in - zp_in,
//   v == 0: the type's maximum;
//   else:   d = MultiplyByQuantizedMultiplier(1, M(v), s(v) + 20), with
//           M(v), s(v) = 1 / sqrt(v) from GetInvSqrtQuantizedMultiplierExp
//           (numerics/fixed_point_math.h), then
//           zp_out + MultiplyByQuantizedMultiplier(d, M, s - 20),
//           M, s = QuantizeMultiplier(1 / (sqrt(s_in) * s_out)) with the
//           square root and product in float, the reciprocal in double;
// clamped to the type's range; evaluated once per input byte into a table.
// An input below the zero point (a negative real value) is an error at run
// time, as in TFLite.
// int16 (zero points 0): TFLite's interpolated int16 table
// (LUTPopulate<int16_t> in float of x -> 1 / sqrt(x), x <= 0 giving
// 32767 * s_out, read through LUTLookup).
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/fixed_point_math.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct RsqrtState : KernelState {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  ir::DataType type = ir::DataType::kInt8;
  int64_t size = 0;
  int32_t in_zp = 0, out_zp = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int8_t lut[256] = {};
  int16_t lut16[integer::kLut16Size] = {};
};

template <typename T>
T RsqrtOne(const RsqrtState& s, int32_t q) {
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  constexpr int kShift = 20;
  const int32_t v = q - s.in_zp;
  if (v == 0) return static_cast<T>(kMax);
  int32_t inv_m = 0;
  int inv_s = 0;
  numerics::fixed::InvSqrtQuantizedMultiplierExp(v, &inv_m, &inv_s);
  const int32_t d = numerics::MultiplyByQuantizedMultiplier(
      int32_t{1}, inv_m, inv_s + kShift, s.rounding);
  const int32_t out = numerics::MultiplyByQuantizedMultiplier(
                          d, s.multiplier, s.shift - kShift, s.rounding) +
                      s.out_zp;
  return static_cast<T>(numerics::Clamp(out, kMin, kMax));
}

template <typename T>
absl::Status RunRsqrt(OpContext& ctx, const RsqrtState& s) {
  const T* x = ctx.input(0)->Data<T>();
  T* y = ctx.output(0)->Data<T>();
  for (int64_t i = 0; i < s.size; ++i) {
    if (x[i] < s.in_zp) {
      return ctx.Error(
          absl::StrCat("input element ", i, " is ", static_cast<int>(x[i]),
                       ", below the zero point ", s.in_zp,
                       ": RSQRT is only defined for positive values"));
    }
  }
  const RsqrtState* sp = &s;
  ParallelChunks(ctx, s.size, integer::kElementwiseChunk,
                 [sp, x, y](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {
                     if constexpr (sizeof(T) == 1) {
                       y[i] =
                           static_cast<T>(sp->lut[static_cast<uint8_t>(x[i])]);
                     } else {
                       y[i] = integer::Lut16Lookup(x[i], sp->lut16);
                     }
                   }
                 });
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareIntRsqrt(OpContext& ctx) {
  const RtTensor* in = nullptr;
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 0, &in));
  RtTensor* out = ctx.output(0);
  if (in->type == ir::DataType::kUInt8 || out->type != in->type) {
    return ctx.Unsupported(absl::StrCat("RSQRT of ", ir::DataTypeName(in->type),
                                        " into ", ir::DataTypeName(out->type),
                                        " (TFLite has int8 and int16 forms)"));
  }
  const bool is_int16 = in->type == ir::DataType::kInt16;
  integer::QuantInfo qi, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi, is_int16));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, is_int16));
  auto state = std::make_unique<RsqrtState>();
  RsqrtState& s = *state;
  s.rounding = ctx.rounding();
  s.type = in->type;
  s.size = in->NumElements();
  s.in_zp = qi.zero_point;
  s.out_zp = qo.zero_point;
  const double real = 1.0 / static_cast<double>(std::sqrt(qi.scale) * qo.scale);
  numerics::QuantizeMultiplier(real, &s.multiplier, &s.shift);
  if (!is_int16 && s.shift > 30 + 20) {
    return ctx.Error(
        absl::StrCat("rescaling factor ", real, " of RSQRT is too large"));
  }
  if (is_int16) {
    const float out_scale = qo.scale;
    integer::PopulateLut16<float>(
        qi.scale, 0, qo.scale, 0,
        [out_scale](float v) {
          return v <= 0.0f ? 32767.0f * out_scale : 1.0f / std::sqrt(v);
        },
        s.lut16);
  } else {
    for (int32_t q = -128; q <= 127; ++q) {
      s.lut[static_cast<uint8_t>(q)] = q < s.in_zp ? 0 : RsqrtOne<int8_t>(s, q);
    }
  }
  ctx.SetOutputShape(0, in->shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntRsqrt(OpContext& ctx) {
  const RsqrtState& s = *ctx.state<RsqrtState>();
  if (s.type == ir::DataType::kInt16) return RunRsqrt<int16_t>(ctx, s);
  return RunRsqrt<int8_t>(ctx, s);
}

}  // namespace qforge::runtime
