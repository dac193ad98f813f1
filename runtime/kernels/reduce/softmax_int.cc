// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer SOFTMAX over the last axis, as LiteRT's builtin kernel (the
// default "generic optimized" one) computes it:
//  - int8/uint8 input (int8/uint8/int16 output): a 256-entry float table
//    table[255 - d] = expf(-s_in * beta * d); per row, with m the row
//    maximum, e(x) = table[255 - m + x], sum = sum of e(x) in float (row
//    order), inv = 1 / (sum * s_out), and each output is round(e(x) * inv)
//    + zp_out for int8/int16 outputs, int(e(x) * inv + 0.5) for uint8
//    (TFLite's non-aarch64 QuantizeSoftmaxOutput), clamped;
//  - int16 -> int16 (zero points 0): TFLite's SoftmaxInt16: the input
//    difference to the row maximum scaled to [-10, 0] by a quantized
//    multiplier, exp via an interpolated 513-entry int16 table, the sum's
//    reciprocal via a table of 1 / (1 + x), all in fixed point.
// int8 -> int8 needs output zero point -128 and scale 1/256 (+-0.1%);
// int16 -> int16 needs output scale 1/32768 (+-0.1%).
#include <cmath>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using integer::kLut16Size;
using integer::Lut16Lookup;
using integer::PopulateLut16;

struct SoftmaxState : KernelState {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  ir::DataType in_type = ir::DataType::kInt8;
  ir::DataType out_type = ir::DataType::kInt8;
  int64_t rows = 0, depth = 0;
  // 8-bit inputs.
  float table[256] = {};
  float out_scale = 1.0f;
  int32_t out_zp = 0;
  // int16.
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
  int16_t exp_lut[kLut16Size] = {};
  int16_t recip_lut[kLut16Size] = {};
};

template <typename TIn, typename TOut>
void SoftmaxRow8(const SoftmaxState& s, const TIn* x, TOut* y) {
  int32_t max_val = std::numeric_limits<TIn>::min();
  for (int64_t j = 0; j < s.depth; ++j) {
    max_val = std::max(max_val, static_cast<int32_t>(x[j]));
  }
  // TFLite offsets a pointer to table[255 - max]; for int8 rows that start
  // is past the table's end (only start + x is inside), so index instead.
  const int32_t base = 255 - max_val;
  const float* t = s.table;
  float sum = 0.0f;
  for (int64_t j = 0; j < s.depth; ++j) sum += t[base + x[j]];
  const float inv = 1.0f / (sum * s.out_scale);
  const int32_t lo = std::numeric_limits<TOut>::min();
  const int32_t hi = std::numeric_limits<TOut>::max();
  for (int64_t j = 0; j < s.depth; ++j) {
    const float p = t[base + x[j]] * inv;
    int32_t q;
    if constexpr (std::is_same_v<TOut, uint8_t>) {
      q = static_cast<int32_t>(p + 0.5f);
    } else {
      q = static_cast<int32_t>(std::round(p)) + s.out_zp;
    }
    y[j] = static_cast<TOut>(std::max(std::min(hi, q), lo));
  }
}

void SoftmaxRow16(const SoftmaxState& s, const int16_t* x, int16_t* y) {
  int16_t max_in = std::numeric_limits<int16_t>::min();
  for (int64_t c = 0; c < s.depth; ++c) max_in = std::max(max_in, x[c]);
  int32_t sum = 0;  // Q16.15
  for (int64_t c = 0; c < s.depth; ++c) {
    const int32_t diff = x[c] - max_in;
    const int32_t scaled = numerics::MultiplyByQuantizedMultiplier(
        diff, s.input_multiplier, s.input_left_shift, s.rounding);
    const int32_t sym = scaled + 32767;
    const int16_t sat =
        static_cast<int16_t>(std::min(std::max(sym, -32768), 32767));
    y[c] = Lut16Lookup(sat, s.exp_lut);  // cache exp in the output
    sum += y[c];
  }
  const int headroom_plus_one =
      sum == 0 ? 32 : __builtin_clz(static_cast<uint32_t>(sum));
  const int32_t shifted_sum = static_cast<int32_t>(
      ((static_cast<int64_t>(sum) << (headroom_plus_one - 1)) + (1 << 13)) >>
      14);
  const int32_t sym_sum = shifted_sum + (-((1 << 15) + (1 << 16)));
  const int16_t sat_sum =
      static_cast<int16_t>(std::min(std::max(sym_sum, -32768), 32767));
  const int16_t reciprocal = Lut16Lookup(sat_sum, s.recip_lut);
  const int right_shift = 31 - headroom_plus_one;
  const int64_t round = int64_t{1} << (right_shift - 1);
  for (int64_t c = 0; c < s.depth; ++c) {
    const int32_t r = static_cast<int32_t>(
        (static_cast<int64_t>(y[c]) * reciprocal + round) >> right_shift);
    y[c] = static_cast<int16_t>(std::min(std::max(r, 0), 32767));
  }
}

template <typename TIn, typename TOut>
void RunSoftmax(OpContext& ctx, const SoftmaxState& s) {
  const TIn* x = ctx.input(0)->Data<TIn>();
  TOut* y = ctx.output(0)->Data<TOut>();
  const int64_t chunk = std::max<int64_t>(
      1, integer::kElementwiseChunk / std::max<int64_t>(1, s.depth));
  ParallelChunks(ctx, s.rows, chunk, [&s, x, y](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      if constexpr (std::is_same_v<TIn, int16_t>) {
        SoftmaxRow16(s, x + r * s.depth, y + r * s.depth);
      } else {
        SoftmaxRow8<TIn, TOut>(s, x + r * s.depth, y + r * s.depth);
      }
    }
  });
}

}  // namespace

absl::Status PrepareIntSoftmax(OpContext& ctx) {
  const RtTensor* in = nullptr;
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 0, &in));
  RtTensor* out = ctx.output(0);
  if (in->rank() < 1) return ctx.Error("input must have rank >= 1");
  const bool in16 = in->type == ir::DataType::kInt16;
  const bool ok_types =
      (in->type == out->type) || (!in16 && out->type == ir::DataType::kInt16);
  if (!ok_types) {
    return ctx.Unsupported(absl::StrCat("SOFTMAX from ",
                                        ir::DataTypeName(in->type), " to ",
                                        ir::DataTypeName(out->type)));
  }
  integer::QuantInfo qi, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi, in16));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, in16));
  if (in->type == ir::DataType::kInt8 && out->type == ir::DataType::kInt8 &&
      (qo.zero_point != -128 ||
       std::abs(qo.scale - 1.f / 256) > 0.001f * 1.f / 256)) {
    return ctx.Error(absl::StrCat("int8 SOFTMAX output '", out->name(),
                                  "' must have scale 1/256 and zero point "
                                  "-128; it has ",
                                  qo.scale, ", ", qo.zero_point));
  }
  if (in16 && std::abs(qo.scale - 1.f / 32768) > 0.001f * 1.f / 32768) {
    return ctx.Error(absl::StrCat("int16 SOFTMAX output '", out->name(),
                                  "' must have scale 1/32768; it has ",
                                  qo.scale));
  }
  if (in16 && in->rank() > 4) {
    return ctx.Unsupported("int16 SOFTMAX of rank > 4");
  }
  const float beta = ir::OptionsOr<ir::SoftmaxOptions>(ctx.op().options).beta;
  if (!std::isfinite(beta)) return ctx.Error("beta must be finite");
  auto state = std::make_unique<SoftmaxState>();
  SoftmaxState& s = *state;
  s.rounding = ctx.rounding();
  s.in_type = in->type;
  s.out_type = out->type;
  s.depth = in->shape.back();
  s.rows = s.depth == 0 ? 0 : in->NumElements() / s.depth;
  s.out_scale = qo.scale;
  s.out_zp = qo.zero_point;
  if (!in16) {
    const float scale = -qi.scale * beta;
    for (int32_t v = 0; v <= 255; ++v) {
      s.table[255 - v] = std::exp(scale * static_cast<float>(v));
    }
  } else {
    const int32_t range = 65535;
    PopulateLut16<double>(
        10.0 / range, 32767, 2.0 / range, 0,
        [](double v) { return std::exp(v); }, s.exp_lut);
    PopulateLut16<double>(
        1.0 / range, -32768, 2.0 / range, 0,
        [](double v) { return 1.0 / (1.0 + v); }, s.recip_lut);
    // TFLite: the float product s_in * beta, then the double division.
    const double real = static_cast<double>(qi.scale * beta) / (10.0 / 65535.0);
    numerics::QuantizeMultiplier(real, &s.input_multiplier,
                                 &s.input_left_shift);
    if (s.input_left_shift > 30) {
      return ctx.Error(absl::StrCat("SOFTMAX input scale ", qi.scale,
                                    " times beta ", beta, " is too large"));
    }
  }
  ctx.SetOutputShape(0, in->shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntSoftmax(OpContext& ctx) {
  const SoftmaxState& s = *ctx.state<SoftmaxState>();
  if (s.rows == 0) return absl::OkStatus();
  using DT = ir::DataType;
  if (s.in_type == DT::kInt16) {
    RunSoftmax<int16_t, int16_t>(ctx, s);
  } else if (s.in_type == DT::kInt8) {
    if (s.out_type == DT::kInt16) {
      RunSoftmax<int8_t, int16_t>(ctx, s);
    } else {
      RunSoftmax<int8_t, int8_t>(ctx, s);
    }
  } else {
    if (s.out_type == DT::kInt16) {
      RunSoftmax<uint8_t, int16_t>(ctx, s);
    } else {
      RunSoftmax<uint8_t, uint8_t>(ctx, s);
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
