// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/common/window.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace qforge::runtime {
namespace {

template <typename Options>
ConvGeometry GeometryOf(const Options& o) {
  ConvGeometry g;
  g.padding = o.padding;
  g.activation = o.activation;
  g.stride_h = o.stride_h;
  g.stride_w = o.stride_w;
  g.dilation_h = o.dilation_h;
  g.dilation_w = o.dilation_w;
  return g;
}

}  // namespace

absl::Status ExpectPositive(const OpContext& ctx, const char* name,
                            int64_t value) {
  if (value <= 0) {
    return ctx.Error(absl::StrCat(name, " is ", value, "; it must be > 0"));
  }
  return absl::OkStatus();
}

int64_t WindowOutSize(ir::Padding padding, int64_t in, int64_t filter,
                      int64_t stride, int64_t dilation) {
  const int64_t effective = (filter - 1) * dilation + 1;
  switch (padding) {
    case ir::Padding::kSame:
      return (in + stride - 1) / stride;
    case ir::Padding::kValid:
      return (in + stride - effective) / stride;
  }
  return 0;
}

int64_t WindowPadBefore(int64_t stride, int64_t dilation, int64_t in,
                        int64_t filter, int64_t out) {
  const int64_t effective = (filter - 1) * dilation + 1;
  const int64_t total =
      std::max<int64_t>(0, (out - 1) * stride + effective - in);
  return total / 2;
}

absl::Status ComputeWindow(const OpContext& ctx, ir::Padding padding,
                           const char* what, Window* w) {
  if (padding != ir::Padding::kSame && padding != ir::Padding::kValid) {
    return ctx.Error(absl::StrCat("padding value ", static_cast<int>(padding),
                                  " is neither SAME nor VALID"));
  }
  w->out = WindowOutSize(padding, w->in, w->filter, w->stride, w->dilation);
  if (w->out < 0) {
    return ctx.Error(absl::StrCat(
        what, ": input size ", w->in, " is smaller than the effective filter ",
        "size ", (w->filter - 1) * w->dilation + 1, " (filter ", w->filter,
        ", dilation ", w->dilation, ") with VALID padding"));
  }
  w->pad = WindowPadBefore(w->stride, w->dilation, w->in, w->filter, w->out);
  return absl::OkStatus();
}

absl::Status ReadConvGeometry(const OpContext& ctx, bool depthwise,
                              ConvGeometry* g) {
  const ir::Options& o = ctx.op().options;
  *g = depthwise ? GeometryOf(ir::OptionsOr<ir::DepthwiseConv2DOptions>(o))
                 : GeometryOf(ir::OptionsOr<ir::Conv2DOptions>(o));
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_h", g->stride_h));
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_w", g->stride_w));
  RETURN_IF_ERROR(ExpectPositive(ctx, "dilation_h", g->dilation_h));
  return ExpectPositive(ctx, "dilation_w", g->dilation_w);
}

absl::Status ComputeConvWindows(const OpContext& ctx, const ConvGeometry& g,
                                int64_t in_h, int64_t in_w, int64_t k_h,
                                int64_t k_w, Window* wy, Window* wx) {
  *wy = Window{in_h, k_h, g.stride_h, g.dilation_h};
  *wx = Window{in_w, k_w, g.stride_w, g.dilation_w};
  RETURN_IF_ERROR(ComputeWindow(ctx, g.padding, "height", wy));
  return ComputeWindow(ctx, g.padding, "width", wx);
}

absl::Status ReadConvDims(const OpContext& ctx, bool depthwise, ConvDims* d,
                          ir::Activation* activation) {
  const RtTensor& in = *ctx.input(0);
  const RtTensor& w = *ctx.input(1);
  d->batch = in.dim(0);
  d->in_h = in.dim(1);
  d->in_w = in.dim(2);
  d->in_c = in.dim(3);
  d->k_h = w.dim(1);
  d->k_w = w.dim(2);
  ConvGeometry g;
  RETURN_IF_ERROR(ReadConvGeometry(ctx, depthwise, &g));
  *activation = g.activation;
  d->stride_h = g.stride_h;
  d->stride_w = g.stride_w;
  d->dil_h = g.dilation_h;
  d->dil_w = g.dilation_w;
  if (depthwise) {
    d->out_c = w.dim(3);
    if (w.dim(0) != 1 || d->in_c <= 0 || d->out_c % d->in_c != 0) {
      return ctx.Error(absl::StrCat(
          "depthwise filter '", w.name(), "' ", DimsString(w.shape),
          " does not fit input '", in.name(), "' ", DimsString(in.shape),
          " (filter [1, h, w, input channels x depth multiplier])"));
    }
    d->depth_mult = d->out_c / d->in_c;
  } else {
    d->out_c = w.dim(0);
    d->filter_in_c = w.dim(3);
    if (d->filter_in_c <= 0 || d->in_c % d->filter_in_c != 0 ||
        d->out_c % (d->in_c / d->filter_in_c) != 0) {
      return ctx.Error(absl::StrCat(
          "filter '", w.name(), "' ", DimsString(w.shape),
          " does not fit input '", in.name(), "' ", DimsString(in.shape),
          " (input channels a multiple of the filter's, output channels of "
          "the groups)"));
    }
    d->groups = d->in_c / d->filter_in_c;
  }
  if (d->k_h <= 0 || d->k_w <= 0) {
    return ctx.Error(absl::StrCat("filter '", w.name(), "' has shape ",
                                  DimsString(w.shape), "; empty window"));
  }
  Window wy, wx;
  RETURN_IF_ERROR(
      ComputeConvWindows(ctx, g, d->in_h, d->in_w, d->k_h, d->k_w, &wy, &wx));
  d->out_h = wy.out;
  d->out_w = wx.out;
  d->pad_top = wy.pad;
  d->pad_left = wx.pad;
  return absl::OkStatus();
}

}  // namespace qforge::runtime
