// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer CONV_2D and DEPTHWISE_CONV_2D, as TFLite's reference integer
// kernels compute them:
//  - int8 activations, int8 per-channel (or per-tensor) symmetric weights,
//    int32 bias, int32 accumulators, requantized per output channel with
//    MultiplyByQuantizedMultiplier (double rounding);
//  - int16 activations (zero point 0), int8 weights, int32 or int64 bias;
//    CONV_2D accumulates in the bias type (int64 bias: the int64
//    MultiplyByQuantizedMultiplier; int32 or no bias: int32 and the
//    double-rounding one), DEPTHWISE_CONV_2D always in int64;
//  - uint8 activations with uint8 per-tensor asymmetric weights (TFLite's
//    legacy kernel; its multiplier is computed from the float product of
//    the two scales).
// With --arithmetic xnnpack (numerics/xnnpack_arithmetic.h), 8-bit
// convolutions requantize as LiteRT's XNNPACK delegate does (float scale,
// round half to even) where XNNPACK accepts the scale.
// Padded taps contribute nothing (not the zero point), as in TFLite.
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/xnnpack_arithmetic.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/conv/conv2d_simd.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using integer::QuantInfo;

struct ConvState : KernelState, ConvDims, integer::WeightedQuant {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  bool depthwise = false;
  ir::DataType type = ir::DataType::kInt8;
  std::vector<int32_t> multiplier;
  std::vector<int> shift;
  // XNNPACK's float requantization scale per output channel (--arithmetic
  // xnnpack, 8-bit activations); empty: TFLite's fixed-point multipliers.
  std::vector<float> xnn_scale;
  // Filter with its zero point folded in (w - zp), widened to int16.
  std::vector<int16_t> filter;
  // Scratch per task: im2col patch (int16) or depthwise accumulators.
  integer::ScratchSlots scratch;
  // The vector path (conv2d_simd.h) when the op has one; the loops below
  // are its reference.
  std::unique_ptr<integer::FastConvPlan> fast;
};

// Prepare shared by both ops.
absl::Status PrepareConvCommon(OpContext& ctx, bool depthwise) {
  const RtTensor *in = nullptr, *w = nullptr, *bias = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(
      integer::RequireWeightedInOut(ctx, "filter", &in, &w, &bias, &out));
  const bool is_uint8 = in->type == ir::DataType::kUInt8;
  if (in->rank() != 4 || w->rank() != 4) {
    return ctx.Error(absl::StrCat(
        "input '", in->name(), "' ", DimsString(in->shape), " and filter '",
        w->name(), "' ", DimsString(w->shape), " must both have rank 4"));
  }
  auto state = std::make_unique<ConvState>();
  ConvState& s = *state;
  s.rounding = ctx.rounding();
  s.depthwise = depthwise;
  s.type = in->type;
  ir::Activation activation = ir::Activation::kNone;
  RETURN_IF_ERROR(ReadConvDims(ctx, depthwise, &s, &activation));

  // Quantization.
  const bool is_int16 = in->type == ir::DataType::kInt16;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(
      integer::ReadWeightedQuant(ctx, *in, *out, activation, &qi, &qo, &s));
  std::vector<float> wscales;
  int32_t filter_zp = 0;  // uint8 filters only
  if (is_uint8) {
    QuantInfo qw;
    RETURN_IF_ERROR(integer::ReadQuant(ctx, *w, "filter", &qw));
    filter_zp = qw.zero_point;
    wscales = {qw.scale};
    // TFLite's legacy uint8 path: the scale product in float.
    const double real = static_cast<double>(qi.scale * qw.scale) /
                        static_cast<double>(qo.scale);
    int32_t m = 0;
    int sh = 0;
    numerics::QuantizeMultiplier(real, &m, &sh);
    s.multiplier.assign(static_cast<size_t>(s.out_c), m);
    s.shift.assign(static_cast<size_t>(s.out_c), sh);
  } else {
    RETURN_IF_ERROR(integer::ReadWeightScales(ctx, *w, "filter", s.out_c,
                                              depthwise ? 3 : 0, &wscales));
    numerics::ChannelMultipliers cm = numerics::QuantizeChannelMultipliers(
        qi.scale, wscales.data(), static_cast<int>(wscales.size()), qo.scale,
        static_cast<int>(s.out_c));
    s.multiplier = std::move(cm.multiplier);
    s.shift = std::move(cm.shift);
  }
  RETURN_IF_ERROR(integer::CheckBias(ctx, bias, s.out_c, is_int16, qi.scale,
                                     wscales, qo.scale));
  s.xnn_scale = integer::XnnpackChannelScales(ctx, is_int16, qi.scale, wscales,
                                              qo.scale, s.out_c);
  for (int sh : s.shift) {
    if (sh > (is_int16 ? 7 : 30)) {
      return ctx.Error(absl::StrCat(
          "requantization scale input*filter/output is too large (shift ", sh,
          "); check the scales of '", in->name(), "' and '", out->name(), "'"));
    }
  }
  // Widened filter with its zero point removed.
  const int64_t wn = w->NumElements();
  s.filter.resize(static_cast<size_t>(wn));
  if (is_uint8) {
    const uint8_t* wd = w->Data<uint8_t>();
    for (int64_t i = 0; i < wn; ++i) {
      s.filter[static_cast<size_t>(i)] =
          static_cast<int16_t>(static_cast<int32_t>(wd[i]) - filter_zp);
    }
  } else {
    const int8_t* wd = w->Data<int8_t>();
    for (int64_t i = 0; i < wn; ++i) s.filter[static_cast<size_t>(i)] = wd[i];
  }
  // Scratch: a patch of k_h * k_w * in_c int16 (conv, one group) or out_c
  // int64 accumulators (depthwise).
  const size_t scratch_bytes =
      depthwise ? static_cast<size_t>(s.out_c) * sizeof(int64_t)
                : static_cast<size_t>(s.k_h * s.k_w * s.in_c) * sizeof(int16_t);
  s.scratch.Resize(integer::ScratchSlotCount(ctx), scratch_bytes);
  integer::ConvDesc d;
  static_cast<ConvDims&>(d) = s;
  d.depthwise = depthwise;
  d.type = s.type;
  d.input_zp = qi.zero_point;
  d.weights_zp = filter_zp;
  d.output_zp = qo.zero_point;
  d.act_min = s.act_min;
  d.act_max = s.act_max;
  d.scheme = s.xnn_scale.empty() ? integer::OutputStage::Scheme::kFixed
                                 : integer::OutputStage::Scheme::kXnnpack;
  d.rounding = s.rounding;
  d.multiplier = &s.multiplier;
  d.shift = &s.shift;
  d.xnn_scale = &s.xnn_scale;
  s.fast = integer::PrepareFastConv(ctx, d);
  ctx.SetOutputShape(0, Dims{s.batch, s.out_h, s.out_w, s.out_c});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

// The output of channel oc from its accumulator.
template <typename TAcc>
inline int32_t RequantizeChannel(const ConvState& s, TAcc acc, int64_t oc) {
  const size_t k = static_cast<size_t>(oc);
  if constexpr (std::is_same_v<TAcc, int32_t>) {
    if (!s.xnn_scale.empty()) {
      return numerics::XnnpackRequantize(acc, s.xnn_scale[k], s.output_offset,
                                         s.act_min, s.act_max);
    }
  }
  return integer::RequantizeAcc(acc, s.multiplier[k], s.shift[k],
                                s.output_offset, s.act_min, s.act_max,
                                s.rounding);
}

// One output row (batch b, row oy) of a regular convolution.
template <typename TIn, typename TAcc, typename TBias>
void ConvRow(ConvState& s, const TIn* input, const TBias* bias, TIn* output,
             int64_t b, int64_t oy) {
  integer::ScratchLease lease(&s.scratch);
  int16_t* patch = lease.As<int16_t>();
  const int64_t k_area = s.k_h * s.k_w;
  const int64_t patch_len = k_area * s.in_c;
  const int16_t off = static_cast<int16_t>(s.input_offset);
  for (int64_t ox = 0; ox < s.out_w; ++ox) {
    const int64_t iy0 = oy * s.stride_h - s.pad_top;
    const int64_t ix0 = ox * s.stride_w - s.pad_left;
    // im2col: (x - zero point), 0 outside the image.
    int16_t* p = patch;
    for (int64_t ky = 0; ky < s.k_h; ++ky) {
      const int64_t iy = iy0 + ky * s.dil_h;
      for (int64_t kx = 0; kx < s.k_w; ++kx, p += s.in_c) {
        const int64_t ix = ix0 + kx * s.dil_w;
        if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) {
          std::memset(p, 0, static_cast<size_t>(s.in_c) * sizeof(int16_t));
          continue;
        }
        const TIn* x = input + ((b * s.in_h + iy) * s.in_w + ix) * s.in_c;
        for (int64_t c = 0; c < s.in_c; ++c) {
          p[c] = static_cast<int16_t>(static_cast<int32_t>(x[c]) + off);
        }
      }
    }
    TIn* o = output + ((b * s.out_h + oy) * s.out_w + ox) * s.out_c;
    const int64_t oc_per_group = s.out_c / s.groups;
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      const int16_t* f = s.filter.data() + oc * k_area * s.filter_in_c;
      TAcc acc = 0;
      if (s.groups == 1) {
        // Products fit int32; int16 activations sum them in int64.
        for (int64_t i = 0; i < patch_len; ++i) {
          acc += static_cast<int32_t>(f[i]) * static_cast<int32_t>(patch[i]);
        }
      } else {
        const int64_t g = oc / oc_per_group;
        for (int64_t t = 0; t < k_area; ++t) {
          const int16_t* pt = patch + t * s.in_c + g * s.filter_in_c;
          const int16_t* ft = f + t * s.filter_in_c;
          for (int64_t c = 0; c < s.filter_in_c; ++c) {
            acc += static_cast<int32_t>(ft[c]) * static_cast<int32_t>(pt[c]);
          }
        }
      }
      if (bias != nullptr) acc += static_cast<TAcc>(bias[oc]);
      o[oc] = static_cast<TIn>(RequantizeChannel(s, acc, oc));
    }
  }
}

// One output row of a depthwise convolution.
template <typename TIn, typename TAcc, typename TBias>
void DepthwiseRow(ConvState& s, const TIn* input, const TBias* bias,
                  TIn* output, int64_t b, int64_t oy) {
  integer::ScratchLease lease(&s.scratch);
  TAcc* acc = lease.As<TAcc>();
  const int32_t off = s.input_offset;
  const int64_t m = s.depth_mult;
  for (int64_t ox = 0; ox < s.out_w; ++ox) {
    const int64_t iy0 = oy * s.stride_h - s.pad_top;
    const int64_t ix0 = ox * s.stride_w - s.pad_left;
    for (int64_t oc = 0; oc < s.out_c; ++oc) acc[oc] = 0;
    ForEachTapInside(
        s, iy0, ix0, [&](int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
          const TIn* x = input + ((b * s.in_h + iy) * s.in_w + ix) * s.in_c;
          const int16_t* f = s.filter.data() + (ky * s.k_w + kx) * s.out_c;
          if (m == 1) {
            for (int64_t c = 0; c < s.out_c; ++c) {
              acc[c] += static_cast<int32_t>(f[c]) *
                        (static_cast<int32_t>(x[c]) + off);
            }
          } else {
            for (int64_t ic = 0; ic < s.in_c; ++ic) {
              const int32_t xv = static_cast<int32_t>(x[ic]) + off;
              for (int64_t j = 0; j < m; ++j) {
                acc[ic * m + j] += static_cast<int32_t>(f[ic * m + j]) * xv;
              }
            }
          }
        });
    TIn* o = output + ((b * s.out_h + oy) * s.out_w + ox) * s.out_c;
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      TAcc a = acc[oc];
      if (bias != nullptr) a += static_cast<TAcc>(bias[oc]);
      o[oc] = static_cast<TIn>(RequantizeChannel(s, a, oc));
    }
  }
}

template <typename TIn, typename TAcc, typename TBias>
void RunConv(OpContext& ctx, ConvState& s, const TBias* bias) {
  const TIn* input = ctx.input(0)->Data<TIn>();
  TIn* output = ctx.output(0)->Data<TIn>();
  const int64_t rows = s.batch * s.out_h;
  struct Args {
    ConvState* s;
    const TIn* input;
    const TBias* bias;
    TIn* output;
  } args{&s, input, bias, output};
  const Args* a = &args;
  ctx.pool().ParallelFor(rows, [a](int64_t r) {
    const int64_t b = r / a->s->out_h;
    const int64_t oy = r % a->s->out_h;
    if (a->s->depthwise) {
      DepthwiseRow<TIn, TAcc, TBias>(*a->s, a->input, a->bias, a->output, b,
                                     oy);
    } else {
      ConvRow<TIn, TAcc, TBias>(*a->s, a->input, a->bias, a->output, b, oy);
    }
  });
}

absl::Status EvalConvCommon(OpContext& ctx) {
  ConvState& s = *ctx.state<ConvState>();
  if (s.batch * s.out_h * s.out_w * s.out_c == 0) return absl::OkStatus();
  if (s.fast != nullptr) {
    integer::RunFastConv(ctx, *s.fast);
    return absl::OkStatus();
  }
  const RtTensor* bias = ctx.input(2);
  switch (s.type) {
    case ir::DataType::kInt8:
      RunConv<int8_t, int32_t, int32_t>(ctx, s,
                                        bias ? bias->Data<int32_t>() : nullptr);
      return absl::OkStatus();
    case ir::DataType::kUInt8:
      RunConv<uint8_t, int32_t, int32_t>(
          ctx, s, bias ? bias->Data<int32_t>() : nullptr);
      return absl::OkStatus();
    case ir::DataType::kInt16:
      // TFLite accumulates int16 convolutions in the bias type (int32 bias
      // or none: int32 and the double-rounding requantization; int64 bias:
      // int64), depthwise ones always in int64.
      if (bias != nullptr && bias->type == ir::DataType::kInt64) {
        RunConv<int16_t, int64_t, int64_t>(ctx, s, bias->Data<int64_t>());
      } else if (s.depthwise) {
        RunConv<int16_t, int64_t, int32_t>(
            ctx, s, bias ? bias->Data<int32_t>() : nullptr);
      } else {
        RunConv<int16_t, int32_t, int32_t>(
            ctx, s, bias ? bias->Data<int32_t>() : nullptr);
      }
      return absl::OkStatus();
    default:
      break;
  }
  return ctx.Unsupported("conv activation type");
}

}  // namespace

QF_KERNEL_AS(PrepareIntConv2D, PrepareConvCommon(ctx, /*depthwise=*/false))
QF_KERNEL_AS(EvalIntConv2D, EvalConvCommon(ctx))

QF_KERNEL_AS(PrepareIntDepthwiseConv2D,
             PrepareConvCommon(ctx, /*depthwise=*/true))
QF_KERNEL_AS(EvalIntDepthwiseConv2D, EvalConvCommon(ctx))

}  // namespace qforge::runtime
