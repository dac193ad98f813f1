// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer FULLY_CONNECTED (TFLite's
// reference_integer_ops::FullyConnected[PerChannel]):
//  - int8 activations with int8 weights, per-channel (multiplier per
//    output unit, scales multiplied in double) or per-tensor (weights may
//    carry a zero point; the multiplier comes from the float product of
//    the scales, as TFLite's GetQuantizedConvolutionMultipler);
//  - int16 activations (zero point 0) with int8 weights: the accumulator
//    has the bias type (int64 bias or none: int64; int32 bias: int32),
//    requantized as current TFLite does for int16 (FullyConnectedInt16 /
//    FullyConnectedPerChannelInt16 pass the float scales):
//    round(acc * double(s_in) * double(s_w) / double(s_out)), half away
//    from zero (numerics::RequantizeByScale). LiteRT agrees; the int64
//    fixed-point multiply is 1 LSB off it now and then
//    (tests/interop/int_ops_litert.mjs);
//    With --rounding legacy (older TFLite, as tfjs-tflite), int16 runs
//    as those builds did: with an int64 bias, the int64 accumulator
//    requantized by the fixed-point multiply (reference kernel); else
//    ruy's 16x8 GEMM: an int32 accumulator rounded once (ruy's output
//    stage), as tfjs-tflite computes;
//    with --rounding double (TFLite Micro), the int64 accumulator (int64
//    bias or none) is requantized by the fixed-point multiply too, as
//    TFLite Micro's reference kernel does; an int32 bias keeps the float
//    scale (TFLite Micro's int16 kernel reads the bias as int64);
//  - uint8 activations with uint8 weights (per tensor).
// With --arithmetic xnnpack (numerics/xnnpack_arithmetic.h), 8-bit
// activations requantize as LiteRT's XNNPACK delegate does (float scale,
// round half to even) where XNNPACK accepts the scale.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/xnnpack_arithmetic.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/conv/conv.h"
#include "runtime/kernels/conv/fully_connected_simd.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using conv_internal::FcOutputShape;
using conv_internal::FcShape;
using conv_internal::kFcUnitsPerTask;
using integer::QuantInfo;

struct IntFcState : KernelState, integer::WeightedQuant {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  FcShape shape;
  ir::DataType type = ir::DataType::kInt8;
  int32_t weights_offset = 0;
  std::vector<int32_t> multiplier;  // per unit
  std::vector<int> shift;
  // int16: the real scale s_in * s_w / s_out per unit, in double (TFLite's
  // float-scale requantization); empty for 8-bit activations.
  std::vector<double> real_scale;
  // int16: an int32 accumulator (int32 bias, or ruy's GEMM under --rounding
  // legacy); ruy_rounding: requantized as ruy does, rounding once.
  bool int16_acc32 = false;
  bool ruy_rounding = false;
  std::vector<int64_t> weight_row_sums;  // sum of raw weights per unit
  // XNNPACK's float requantization scale per unit (--arithmetic xnnpack,
  // 8-bit activations); empty: TFLite's fixed-point multipliers.
  std::vector<float> xnn_scale;
  // The vector path (fully_connected_simd.h) when the op has one; RunIntFc is
  // its reference.
  std::unique_ptr<integer::FastFcPlan> fast;
};

// The output of unit u from its accumulator.
template <typename TAcc>
int32_t RequantizeUnit(const IntFcState& s, TAcc acc, int64_t u) {
  const size_t k = static_cast<size_t>(u);
  if constexpr (std::is_same_v<TAcc, int32_t>) {
    if (!s.xnn_scale.empty()) {
      return numerics::XnnpackRequantize(acc, s.xnn_scale[k], s.output_offset,
                                         s.act_min, s.act_max);
    }
  }
  if (!s.real_scale.empty()) {
    return numerics::RequantizeByScale(acc, s.real_scale[k], s.output_offset,
                                       s.act_min, s.act_max);
  }
  if constexpr (std::is_same_v<TAcc, int32_t>) {
    if (s.ruy_rounding) {
      return numerics::Clamp(numerics::MultiplyByQuantizedMultiplierSingle(
                                 acc, s.multiplier[k], s.shift[k]) +
                                 s.output_offset,
                             s.act_min, s.act_max);
    }
  }
  return integer::RequantizeAcc(acc, s.multiplier[k], s.shift[k],
                                s.output_offset, s.act_min, s.act_max,
                                s.rounding);
}

template <typename TIn, typename TW, typename TAcc, typename TBias>
void RunIntFc(OpContext& ctx, const IntFcState& s) {
  const auto io = integer::GetWeightedTensors<TIn, TW, TBias>(ctx, 0, 1, 2);
  const int64_t unit_tasks =
      (s.shape.units + kFcUnitsPerTask - 1) / kFcUnitsPerTask;
  ctx.pool().ParallelFor(s.shape.batch * unit_tasks, [&](int64_t t) {
    const int64_t b = t / unit_tasks;
    const int64_t u0 = (t % unit_tasks) * kFcUnitsPerTask;
    const int64_t u1 = std::min(s.shape.units, u0 + kFcUnitsPerTask);
    const int64_t d = s.shape.depth;
    const TIn* x = io.x + b * d;
    int64_t x_sum = 0;
    if (s.weights_offset != 0) {
      for (int64_t i = 0; i < d; ++i) x_sum += x[i];
    }
    for (int64_t u = u0; u < u1; ++u) {
      const TW* w = io.w + u * d;
      // sum (w + wo)(x + xo) = sum w x + xo sum w + wo sum x + d wo xo,
      // exact in int64; TAcc then wraps as TFLite's accumulator would.
      int64_t dot = 0;
      if (sizeof(TIn) == 1) {
        int32_t dot32 = 0;
        for (int64_t i = 0; i < d; ++i) {
          dot32 += static_cast<int32_t>(w[i]) * static_cast<int32_t>(x[i]);
        }
        dot = dot32;
      } else {
        for (int64_t i = 0; i < d; ++i) {
          dot += static_cast<int32_t>(w[i]) * static_cast<int32_t>(x[i]);
        }
      }
      int64_t acc64 =
          dot +
          int64_t{s.input_offset} * s.weight_row_sums[static_cast<size_t>(u)] +
          int64_t{s.weights_offset} * x_sum +
          d * int64_t{s.weights_offset} * s.input_offset;
      if (io.bias != nullptr) acc64 += io.bias[u];
      const TAcc acc = static_cast<TAcc>(acc64);
      io.y[b * s.shape.units + u] = static_cast<TIn>(RequantizeUnit(s, acc, u));
    }
  });
}

}  // namespace

absl::Status PrepareIntFullyConnected(OpContext& ctx) {
  const RtTensor *in = nullptr, *w = nullptr, *bias = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(
      integer::RequireWeightedInOut(ctx, "weights", &in, &w, &bias, &out));
  const bool is_uint8 = in->type == ir::DataType::kUInt8;
  const bool is_int16 = in->type == ir::DataType::kInt16;
  auto state = std::make_unique<IntFcState>();
  IntFcState& s = *state;
  s.rounding = ctx.rounding();
  s.type = in->type;
  RETURN_IF_ERROR(FcOutputShape(ctx, *in, *w, &s.shape));
  const auto o = ir::OptionsOr<ir::FullyConnectedOptions>(ctx.op().options);
  QuantInfo qi, qo;
  RETURN_IF_ERROR(
      integer::ReadWeightedQuant(ctx, *in, *out, o.activation, &qi, &qo, &s));
  const auto& wq = w->ir->quantization;
  const bool per_channel = wq.has_value() && wq->scale.size() > 1;
  std::vector<float> wscales;
  if (per_channel) {
    RETURN_IF_ERROR(integer::ReadWeightScales(ctx, *w, "weights", s.shape.units,
                                              0, &wscales));
    numerics::ChannelMultipliers cm = numerics::QuantizeChannelMultipliers(
        qi.scale, wscales.data(), static_cast<int>(wscales.size()), qo.scale,
        static_cast<int>(s.shape.units));
    s.multiplier = std::move(cm.multiplier);
    s.shift = std::move(cm.shift);
  } else {
    QuantInfo qw;
    RETURN_IF_ERROR(integer::ReadQuant(ctx, *w, "weights", &qw));
    wscales = {qw.scale};
    s.weights_offset = -qw.zero_point;
    // TFLite: the product of the two float scales in float, then double.
    const double real = static_cast<double>(qi.scale * qw.scale) /
                        static_cast<double>(qo.scale);
    int32_t m = 0;
    int sh = 0;
    numerics::QuantizeMultiplier(real, &m, &sh);
    s.multiplier.assign(static_cast<size_t>(s.shape.units), m);
    s.shift.assign(static_cast<size_t>(s.shape.units), sh);
  }
  RETURN_IF_ERROR(integer::CheckBias(ctx, bias, s.shape.units, is_int16,
                                     qi.scale, wscales, qo.scale));
  s.xnn_scale = integer::XnnpackChannelScales(ctx, is_int16, qi.scale, wscales,
                                              qo.scale, s.shape.units);
  const numerics::RoundingPolicy policy = ctx.modes().rounding;
  const bool legacy = is_int16 && policy == numerics::RoundingPolicy::kLegacy;
  const bool int64_bias = bias != nullptr && bias->type == ir::DataType::kInt64;
  s.int16_acc32 = is_int16 && !int64_bias && (bias != nullptr || legacy);
  s.ruy_rounding = legacy && s.int16_acc32;
  // TFLite Micro's int16 kernel (reference_integer_ops::FullyConnected with
  // an int64 bias or none) requantizes the int64 accumulator with the
  // fixed-point multiplier, not the float scale.
  const bool micro_fixed =
      is_int16 && !s.int16_acc32 && policy == numerics::RoundingPolicy::kDouble;
  if (is_int16 && !legacy && !micro_fixed) {
    for (int64_t u = 0; u < s.shape.units; ++u) {
      const float ws =
          wscales.size() == 1 ? wscales[0] : wscales[static_cast<size_t>(u)];
      s.real_scale.push_back(static_cast<double>(qi.scale) *
                             static_cast<double>(ws) /
                             static_cast<double>(qo.scale));
    }
  }
  const bool int64_acc = is_int16 && !s.int16_acc32;
  for (int sh : s.shift) {
    if (sh > (int64_acc ? 7 : 30)) {
      return ctx.Error(absl::StrCat(
          "requantization scale input*weights/output is too large (shift ", sh,
          "); check the scales of '", in->name(), "' and '", out->name(), "'"));
    }
  }
  s.weight_row_sums.assign(static_cast<size_t>(s.shape.units), 0);
  for (int64_t u = 0; u < s.shape.units; ++u) {
    int64_t sum = 0;
    for (int64_t i = 0; i < s.shape.depth; ++i) {
      sum += is_uint8 ? int64_t{w->Data<uint8_t>()[u * s.shape.depth + i]}
                      : int64_t{w->Data<int8_t>()[u * s.shape.depth + i]};
    }
    s.weight_row_sums[static_cast<size_t>(u)] = sum;
  }
  integer::FcDesc d;
  d.type = s.type;
  d.batch = s.shape.batch;
  d.depth = s.shape.depth;
  d.units = s.shape.units;
  d.input_zp = qi.zero_point;
  d.weights_zp = -s.weights_offset;
  d.output_zp = qo.zero_point;
  d.act_min = s.act_min;
  d.act_max = s.act_max;
  d.acc64 = int64_acc;
  // RequantizeUnit's order of precedence.
  using Scheme = integer::OutputStage::Scheme;
  d.scheme = !s.xnn_scale.empty()    ? Scheme::kXnnpack
             : !s.real_scale.empty() ? Scheme::kByScale
             : s.ruy_rounding        ? Scheme::kFixedSingle
                                     : Scheme::kFixed;
  d.rounding = s.rounding;
  d.multiplier = &s.multiplier;
  d.shift = &s.shift;
  d.xnn_scale = &s.xnn_scale;
  d.real_scale = &s.real_scale;
  s.fast = integer::PrepareFastFc(ctx, d);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntFullyConnected(OpContext& ctx) {
  IntFcState& s = *ctx.state<IntFcState>();
  if (s.shape.batch * s.shape.units == 0) return absl::OkStatus();
  if (s.fast != nullptr) {
    integer::RunFastFc(ctx, *s.fast);
    return absl::OkStatus();
  }
  switch (s.type) {
    case ir::DataType::kInt8:
      RunIntFc<int8_t, int8_t, int32_t, int32_t>(ctx, s);
      return absl::OkStatus();
    case ir::DataType::kUInt8:
      RunIntFc<uint8_t, uint8_t, int32_t, int32_t>(ctx, s);
      return absl::OkStatus();
    case ir::DataType::kInt16:
      if (s.int16_acc32) {
        RunIntFc<int16_t, int8_t, int32_t, int32_t>(ctx, s);
      } else {
        RunIntFc<int16_t, int8_t, int64_t, int64_t>(ctx, s);
      }
      return absl::OkStatus();
    default:
      break;
  }
  return ctx.Unsupported("fully-connected activation type");
}

}  // namespace qforge::runtime
