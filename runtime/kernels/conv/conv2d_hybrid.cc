// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Hybrid CONV_2D and DEPTHWISE_CONV_2D: float activations, int8 constant
// weights, float bias, as TFLite's hybrid kernels compute them. Each batch
// image is quantized to int8 on the fly:
//  - CONV_2D with per-channel weight scales that differ (TFLite's
//    EvalHybridPerChannel) and DEPTHWISE_CONV_2D: asymmetric quantization
//    (scale and zero point from the image's [min, max] widened to 0); the
//    int32 sum of w * (q - zp) over in-image taps is scaled to float,
//    conv: (acc * weight_scale[c]) * input_scale, depthwise:
//    acc * (weight_scale[c] * input_scale);
//  - CONV_2D with one weight scale (TFLite's EvalHybrid): symmetric
//    quantization (scale max|x| / 127), acc * (input_scale * weight_scale).
// Then + bias and the fused activation, in float.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct HybridConvState : KernelState, ConvDims {
  bool depthwise = false;
  bool per_channel = false;  // asymmetric input quantization
  float act_min = 0, act_max = 0;
  std::vector<float> weight_scales;  // per output channel
  std::vector<int8_t> quantized;     // the quantized input
  std::vector<float> scaling;        // per batch (times the weight scale
                                     // for the per-tensor path)
  std::vector<int32_t> offsets;      // per batch
};

absl::Status PrepareHybridConvCommon(OpContext& ctx, bool depthwise) {
  RETURN_IF_ERROR(ExpectType(ctx, 0, ir::DataType::kFloat32));
  const RtTensor* in = ctx.input(0);
  const RtTensor* w = nullptr;
  RETURN_IF_ERROR(integer::RequireConstant(ctx, 1, "filter", &w));
  const RtTensor* bias = ctx.input(2);
  if (w->type != ir::DataType::kInt8) {
    return ctx.Unsupported(absl::StrCat("hybrid filter '", w->name(), "' is ",
                                        ir::DataTypeName(w->type),
                                        "; expected int8"));
  }
  if (bias != nullptr && bias->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat("hybrid bias '", bias->name(), "' is ",
                                        ir::DataTypeName(bias->type)));
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Unsupported("hybrid convolution output must be float32");
  }
  if (in->rank() != 4 || w->rank() != 4) {
    return ctx.Error(absl::StrCat("input ", DimsString(in->shape),
                                  " and filter ", DimsString(w->shape),
                                  " must have rank 4"));
  }
  auto state = std::make_unique<HybridConvState>();
  HybridConvState& s = *state;
  s.depthwise = depthwise;
  ir::Activation act = ir::Activation::kNone;
  RETURN_IF_ERROR(ReadConvDims(ctx, depthwise, &s, &act));
  if (act == ir::Activation::kTanh || act == ir::Activation::kSignBit) {
    return ctx.Unsupported("fused TANH / SIGN_BIT on a hybrid convolution");
  }
  s.act_min = act == ir::Activation::kNone
                  ? std::numeric_limits<float>::lowest()
                  : (act == ir::Activation::kReluN1To1 ? -1.0f : 0.0f);
  s.act_max = act == ir::Activation::kRelu6
                  ? 6.0f
                  : (act == ir::Activation::kReluN1To1
                         ? 1.0f
                         : std::numeric_limits<float>::max());
  std::vector<float> scales;
  RETURN_IF_ERROR(integer::ReadWeightScales(ctx, *w, "filter", s.out_c,
                                            depthwise ? 3 : 0, &scales));
  s.per_channel = depthwise;
  for (float sc : scales) s.per_channel = s.per_channel || sc != scales[0];
  s.weight_scales.assign(static_cast<size_t>(s.out_c), scales[0]);
  if (scales.size() > 1) s.weight_scales = scales;
  if (bias != nullptr && bias->NumElements() != s.out_c) {
    return ctx.Error(absl::StrCat("bias '", bias->name(), "' has ",
                                  bias->NumElements(), " elements; expected ",
                                  s.out_c));
  }
  s.quantized.assign(static_cast<size_t>(in->NumElements()), 0);
  s.scaling.assign(static_cast<size_t>(std::max<int64_t>(s.batch, 1)), 1.0f);
  s.offsets.assign(static_cast<size_t>(std::max<int64_t>(s.batch, 1)), 0);
  ctx.SetOutputShape(0, Dims{s.batch, s.out_h, s.out_w, s.out_c});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

void HybridRow(const HybridConvState& s, const int8_t* w, const float* bias,
               float* y, int64_t b, int64_t oy) {
  const int8_t* q = s.quantized.data() + b * s.in_h * s.in_w * s.in_c;
  const int32_t zp = s.offsets[static_cast<size_t>(b)];
  const float sf = s.scaling[static_cast<size_t>(b)];
  const int64_t oc_per_group = s.depthwise ? 1 : s.out_c / s.groups;
  for (int64_t ox = 0; ox < s.out_w; ++ox) {
    const int64_t iy0 = oy * s.stride_h - s.pad_top;
    const int64_t ix0 = ox * s.stride_w - s.pad_left;
    float* out = y + ((b * s.out_h + oy) * s.out_w + ox) * s.out_c;
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      // The tap loop once per kind, so neither tests the kind per tap.
      const int32_t acc =
          s.depthwise
              ? FoldTapsInside(
                    s, iy0, ix0, int32_t{0},
                    [&](int32_t acc, int64_t ky, int64_t kx, int64_t iy,
                        int64_t ix) {
                      const int8_t* x = q + (iy * s.in_w + ix) * s.in_c;
                      return acc +
                             static_cast<int32_t>(
                                 w[(ky * s.k_w + kx) * s.out_c + oc]) *
                                 (static_cast<int32_t>(x[oc / s.depth_mult]) -
                                  zp);
                    })
              : FoldTapsInside(
                    s, iy0, ix0, int32_t{0},
                    [&](int32_t acc, int64_t ky, int64_t kx, int64_t iy,
                        int64_t ix) {
                      const int64_t g = oc / oc_per_group;
                      const int8_t* f =
                          w + ((oc * s.k_h + ky) * s.k_w + kx) * s.filter_in_c;
                      const int8_t* xg =
                          q + (iy * s.in_w + ix) * s.in_c + g * s.filter_in_c;
                      for (int64_t c = 0; c < s.filter_in_c; ++c) {
                        acc += static_cast<int32_t>(f[c]) *
                               (static_cast<int32_t>(xg[c]) - zp);
                      }
                      return acc;
                    });
      const float ws = s.weight_scales[static_cast<size_t>(oc)];
      float v;
      if (s.depthwise) {
        v = integer::UnfusedMul(static_cast<float>(acc), ws * sf);
      } else if (s.per_channel) {
        v = integer::UnfusedMul(static_cast<float>(acc) * ws, sf);
      } else {
        // sf already includes ws.
        v = integer::UnfusedMul(static_cast<float>(acc), sf);
      }
      if (bias != nullptr) v += bias[oc];
      out[oc] = std::min(s.act_max, std::max(s.act_min, v));
    }
  }
}

absl::Status EvalHybridConvCommon(OpContext& ctx) {
  HybridConvState& s = *ctx.state<HybridConvState>();
  if (s.batch * s.out_h * s.out_w * s.out_c == 0) return absl::OkStatus();
  const float* x = ctx.input(0)->Data<float>();
  const int64_t image = s.in_h * s.in_w * s.in_c;
  for (int64_t b = 0; b < s.batch; ++b) {
    float* sf = &s.scaling[static_cast<size_t>(b)];
    integer::QuantizeHybridInput(x + b * image, image, s.per_channel,
                                 s.quantized.data() + b * image, sf,
                                 &s.offsets[static_cast<size_t>(b)]);
    if (!s.per_channel) *sf *= s.weight_scales[0];
  }
  const auto t =
      integer::GetWeightedTensors<float, int8_t, float>(ctx, 0, 1, 2);
  ctx.pool().ParallelFor(s.batch * s.out_h, [&](int64_t r) {
    HybridRow(s, t.w, t.bias, t.y, r / s.out_h, r % s.out_h);
  });
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PrepareHybridConv2D,
             PrepareHybridConvCommon(ctx, /*depthwise=*/false))
QF_KERNEL_AS(EvalHybridConv2D, EvalHybridConvCommon(ctx))
QF_KERNEL_AS(PrepareHybridDepthwiseConv2D,
             PrepareHybridConvCommon(ctx, /*depthwise=*/true))
QF_KERNEL_AS(EvalHybridDepthwiseConv2D, EvalHybridConvCommon(ctx))

}  // namespace qforge::runtime
