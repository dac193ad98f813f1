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
#include "runtime/kernels/integer.h"
#include "runtime/kernels/integer_internal.h"

namespace qforge::runtime {
namespace {

struct HybridConvState : KernelState {
  bool depthwise = false;
  bool per_channel = false;  // asymmetric input quantization
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t out_h = 0, out_w = 0, out_c = 0, k_h = 0, k_w = 0;
  int64_t filter_in_c = 0, groups = 1, depth_mult = 1;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  float act_min = 0, act_max = 0;
  std::vector<float> weight_scales;  // per output channel
  std::vector<int8_t> quantized;     // the quantized input
  std::vector<float> scaling;        // per batch (times the weight scale
                                     // for the per-tensor path)
  std::vector<int32_t> offsets;      // per batch
};

void QuantizeImage(const float* x, int64_t n, bool asymmetric, int8_t* q,
                   float* scale, int32_t* offset) {
  float lo = 0, hi = 0;
  if (n > 0) {
    const auto mm = std::minmax_element(x, x + n);
    lo = *mm.first;
    hi = *mm.second;
  }
  if (!asymmetric) {
    const float range = std::max(std::abs(lo), std::abs(hi));
    *offset = 0;
    if (range == 0) {
      std::fill(q, q + n, 0);
      *scale = 1;
      return;
    }
    *scale = range / 127;
    const float inv = 127 / range;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t v = static_cast<int32_t>(std::round(x[i] * inv));
      q[i] = static_cast<int8_t>(std::min(127, std::max(-127, v)));
    }
    return;
  }
  const double qmin = -128, qmax = 127;
  const double rmin = static_cast<double>(std::min(0.0f, lo));
  const double rmax = static_cast<double>(std::max(0.0f, hi));
  if (rmin == rmax) {
    std::fill(q, q + n, 0);
    *scale = 1;
    *offset = 0;
    return;
  }
  const double s = (rmax - rmin) / (qmax - qmin);
  const double zp_min = qmin - rmin / s, zp_max = qmax - rmax / s;
  const double err_min = std::abs(qmin) + std::abs(rmin / s);
  const double err_max = std::abs(qmax) + std::abs(rmax / s);
  const double zp = err_min < err_max ? zp_min : zp_max;
  const int32_t nudged =
      zp <= qmin ? -128
                 : (zp >= qmax ? 127 : static_cast<int32_t>(std::round(zp)));
  *scale = static_cast<float>(s);
  *offset = nudged;
  const float inv = 1.0f / *scale;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(std::round(
        static_cast<float>(nudged) + integer::UnfusedMul(x[i], inv)));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
  }
}

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
  s.batch = in->dim(0);
  s.in_h = in->dim(1);
  s.in_w = in->dim(2);
  s.in_c = in->dim(3);
  s.k_h = w->dim(1);
  s.k_w = w->dim(2);
  ir::Padding padding = ir::Padding::kSame;
  ir::Activation act = ir::Activation::kNone;
  if (depthwise) {
    const auto o = ir::OptionsOr<ir::DepthwiseConv2DOptions>(ctx.op().options);
    padding = o.padding;
    act = o.activation;
    s.stride_h = o.stride_h;
    s.stride_w = o.stride_w;
    s.dil_h = o.dilation_h;
    s.dil_w = o.dilation_w;
    s.out_c = w->dim(3);
    if (w->dim(0) != 1 || s.in_c <= 0 || s.out_c % s.in_c != 0) {
      return ctx.Error(absl::StrCat("depthwise filter '", w->name(), "' ",
                                    DimsString(w->shape), " does not fit ",
                                    s.in_c, " input channels"));
    }
    s.depth_mult = s.out_c / s.in_c;
  } else {
    const auto o = ir::OptionsOr<ir::Conv2DOptions>(ctx.op().options);
    padding = o.padding;
    act = o.activation;
    s.stride_h = o.stride_h;
    s.stride_w = o.stride_w;
    s.dil_h = o.dilation_h;
    s.dil_w = o.dilation_w;
    s.out_c = w->dim(0);
    s.filter_in_c = w->dim(3);
    if (s.filter_in_c <= 0 || s.in_c % s.filter_in_c != 0 ||
        s.out_c % (s.in_c / s.filter_in_c) != 0) {
      return ctx.Error(absl::StrCat("filter '", w->name(), "' ",
                                    DimsString(w->shape), " does not fit ",
                                    s.in_c, " input channels"));
    }
    s.groups = s.in_c / s.filter_in_c;
  }
  if (s.stride_h <= 0 || s.stride_w <= 0 || s.dil_h <= 0 || s.dil_w <= 0 ||
      s.k_h <= 0 || s.k_w <= 0) {
    return ctx.Error(
        "strides, dilations and the filter window must be positive");
  }
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
  s.out_h = integer::WindowOutSize(padding, s.in_h, s.k_h, s.stride_h, s.dil_h);
  s.out_w = integer::WindowOutSize(padding, s.in_w, s.k_w, s.stride_w, s.dil_w);
  if (s.out_h < 0 || s.out_w < 0) {
    return ctx.Error("the input is smaller than the filter window");
  }
  s.pad_top =
      integer::WindowPadBefore(s.stride_h, s.dil_h, s.in_h, s.k_h, s.out_h);
  s.pad_left =
      integer::WindowPadBefore(s.stride_w, s.dil_w, s.in_w, s.k_w, s.out_w);
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
      int32_t acc = 0;
      for (int64_t ky = 0; ky < s.k_h; ++ky) {
        const int64_t iy = iy0 + ky * s.dil_h;
        if (iy < 0 || iy >= s.in_h) continue;
        for (int64_t kx = 0; kx < s.k_w; ++kx) {
          const int64_t ix = ix0 + kx * s.dil_w;
          if (ix < 0 || ix >= s.in_w) continue;
          const int8_t* x = q + (iy * s.in_w + ix) * s.in_c;
          if (s.depthwise) {
            acc += static_cast<int32_t>(w[(ky * s.k_w + kx) * s.out_c + oc]) *
                   (static_cast<int32_t>(x[oc / s.depth_mult]) - zp);
          } else {
            const int64_t g = oc / oc_per_group;
            const int8_t* f =
                w + ((oc * s.k_h + ky) * s.k_w + kx) * s.filter_in_c;
            const int8_t* xg = x + g * s.filter_in_c;
            for (int64_t c = 0; c < s.filter_in_c; ++c) {
              acc += static_cast<int32_t>(f[c]) *
                     (static_cast<int32_t>(xg[c]) - zp);
            }
          }
        }
      }
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
    QuantizeImage(x + b * image, image, s.per_channel,
                  s.quantized.data() + b * image, sf,
                  &s.offsets[static_cast<size_t>(b)]);
    if (!s.per_channel) *sf *= s.weight_scales[0];
  }
  struct Args {
    const HybridConvState* s;
    const int8_t* w;
    const float* bias;
    float* y;
  } args{&s, ctx.input(1)->Data<int8_t>(),
         ctx.input(2) ? ctx.input(2)->Data<float>() : nullptr,
         ctx.output(0)->Data<float>()};
  const Args* a = &args;
  ctx.pool().ParallelFor(s.batch * s.out_h, [a](int64_t r) {
    HybridRow(*a->s, a->w, a->bias, a->y, r / a->s->out_h, r % a->s->out_h);
  });
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareHybridConv2D(OpContext& ctx) {
  return PrepareHybridConvCommon(ctx, /*depthwise=*/false);
}
absl::Status EvalHybridConv2D(OpContext& ctx) {
  return EvalHybridConvCommon(ctx);
}
absl::Status PrepareHybridDepthwiseConv2D(OpContext& ctx) {
  return PrepareHybridConvCommon(ctx, /*depthwise=*/true);
}
absl::Status EvalHybridDepthwiseConv2D(OpContext& ctx) {
  return EvalHybridConvCommon(ctx);
}

}  // namespace qforge::runtime
