// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// DEPTHWISE_CONV_2D (float32): input [N, H, W, C], filter [1, KH, KW, C * M],
// optional bias [C * M]; output channel c * M + m reads input channel c.
// As in TFLite's float kernel, the multiplier M comes from the shapes
// (filter channels / input channels); the option is not consulted.
//
// Multiplier 1 (the common case) runs a direct kernel with channels
// innermost: for a block of W channels it keeps the KH x KW filter vectors
// in registers (3x3 and 5x5 are compiled for their size) and walks an output
// row, with bounds checks only at the left and right borders. Other
// multipliers run a plain loop.
// Tasks are whole output rows, so every output is computed the same way
// for any thread count.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv/conv.h"

namespace qforge::runtime {
namespace {

using conv_internal::ActRange;
using conv_internal::Vec;

struct DepthwiseState : KernelState {
  int64_t batches = 0, in_h = 0, in_w = 0, in_c = 0, out_c = 0, mult = 1;
  Window wy, wx;
  ActRange act;
  int64_t x_lo = 0, x_hi = 0;  // output columns whose taps are all inside
  int64_t rows_per_task = 1, tasks = 1;
  std::vector<float> zero_bias;
};

// One output row (b, oy).
struct RowArgs {
  const DepthwiseState* s;
  const float* in_batch;  // input + b * H * W * C
  const float* filter;    // [KH, KW, C * M]
  const float* bias;      // [C * M]
  float* out_row;         // output + ((b * OH + oy) * OW) * C * M
  int64_t oy;
};

// Output pixels are computed kPixels at a time where no bounds checks are
// needed: each has its own accumulator, so the FMA chains overlap (one
// chain of KH x KW dependent FMAs per pixel would be latency-bound). The
// order of the sum per pixel is the same either way.
constexpr int kPixels = 8;

// Channels [c0, c0 + W) of one output row, multiplier 1, any filter size:
// filter rows outside the input are skipped, columns checked at the
// borders only. Sum order: bias, then taps in (ky, kx) order.
// A row's output pixels: pixel(ox, checked) one at a time where the window
// may leave the input in x (checked) or near the end, pixels(ox) for
// kPixels at once where it lies inside.
template <typename Pixel, typename Pixels>
inline void WalkRow(const DepthwiseState& s, const Pixel& pixel,
                    const Pixels& pixels) {
  const int64_t ow = s.wx.out;
  int64_t ox = 0;
  for (; ox < s.x_lo; ++ox) pixel(ox, true);
  for (; ox + kPixels <= s.x_hi; ox += kPixels) pixels(ox);
  for (; ox < s.x_hi; ++ox) pixel(ox, false);
  for (; ox < ow; ++ox) pixel(ox, true);
}

// Stores kPixels clamped pixels, `c` floats apart, from `out`.
template <typename V>
inline void StorePixels(float* out, int64_t c, const typename V::T* acc,
                        typename V::T lo, typename V::T hi) {
#pragma GCC unroll 8
  for (int p = 0; p < kPixels; ++p)
    V::Store(out + p * c, V::Clamp(acc[p], lo, hi));
}

template <int W>
void DepthwiseBlock(const RowArgs& r, int64_t c0) {
  using V = Vec<W>;
  using T = typename V::T;
  const DepthwiseState& s = *r.s;
  const int64_t kh = s.wy.filter, kw = s.wx.filter;
  const int64_t c = s.in_c;
  const T bv = V::Load(r.bias + c0);
  const T lo = V::Splat(s.act.lo), hi = V::Splat(s.act.hi);
  const int64_t iy0 = r.oy * s.wy.stride - s.wy.pad;
  int64_t ky_begin = 0, ky_end = kh;
  while (ky_begin < kh && iy0 + ky_begin * s.wy.dilation < 0) ++ky_begin;
  while (ky_end > ky_begin && iy0 + (ky_end - 1) * s.wy.dilation >= s.in_h) {
    --ky_end;
  }
  const float* in_c0 = r.in_batch + c0;
  const int64_t row_stride = s.in_w * c;
  const int64_t sx = s.wx.stride, dx = s.wx.dilation;
  auto pixel = [&](int64_t ox, bool checked) {
    T acc = bv;
    const int64_t ix0 = ox * sx - s.wx.pad;
    for (int64_t ky = ky_begin; ky < ky_end; ++ky) {
      const float* in_row = in_c0 + (iy0 + ky * s.wy.dilation) * row_stride;
      const float* w_row = r.filter + ky * kw * c + c0;
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int64_t ix = ix0 + kx * dx;
        if (checked && (ix < 0 || ix >= s.in_w)) continue;
        acc = V::Fma(V::Load(in_row + ix * c), V::Load(w_row + kx * c), acc);
      }
    }
    V::Store(r.out_row + ox * c + c0, V::Clamp(acc, lo, hi));
  };
  // kPixels unchecked pixels starting at ox.
  auto pixels = [&](int64_t ox) {
    T acc[kPixels];
    for (int p = 0; p < kPixels; ++p) acc[p] = bv;
    const int64_t ix0 = ox * sx - s.wx.pad;
    for (int64_t ky = ky_begin; ky < ky_end; ++ky) {
      const float* in_row =
          in_c0 + (iy0 + ky * s.wy.dilation) * row_stride + ix0 * c;
      const float* w_row = r.filter + ky * kw * c + c0;
      for (int64_t kx = 0; kx < kw; ++kx) {
        const T w = V::Load(w_row + kx * c);
        const float* in = in_row + kx * dx * c;
#pragma GCC unroll 8
        for (int p = 0; p < kPixels; ++p) {
          acc[p] = V::Fma(V::Load(in + p * sx * c), w, acc[p]);
        }
      }
    }
    StorePixels<V>(r.out_row + ox * c + c0, c, acc, lo, hi);
  };
  WalkRow(s, pixel, pixels);
}

// A K x K filter on an output row whose filter rows all lie inside the
// input (the common case): weights stay in registers. Sum order: bias,
// then taps in (kx, ky) order.
template <int W, int K>
void DepthwiseBlockInterior(const RowArgs& r, int64_t c0) {
  using V = Vec<W>;
  using T = typename V::T;
  const DepthwiseState& s = *r.s;
  const int64_t c = s.in_c;
  T wv[K * K];
  for (int t = 0; t < K * K; ++t) wv[t] = V::Load(r.filter + t * c + c0);
  const T bv = V::Load(r.bias + c0);
  const T lo = V::Splat(s.act.lo), hi = V::Splat(s.act.hi);
  const int64_t iy0 = r.oy * s.wy.stride - s.wy.pad;
  const int64_t row_stride = s.in_w * c;
  const int64_t sx = s.wx.stride, dx = s.wx.dilation, dy = s.wy.dilation;
  std::array<const float*, K> rows;
  for (int ky = 0; ky < K; ++ky) {
    rows[ky] = r.in_batch + c0 + (iy0 + ky * dy) * row_stride;
  }
  auto pixel = [&](int64_t ox, bool checked) {
    T acc = bv;
    const int64_t ix0 = ox * sx - s.wx.pad;
#pragma GCC unroll 8
    for (int kx = 0; kx < K; ++kx) {
      const int64_t ix = ix0 + kx * dx;
      if (checked && (ix < 0 || ix >= s.in_w)) continue;
#pragma GCC unroll 8
      for (int ky = 0; ky < K; ++ky) {
        acc = V::Fma(V::Load(rows[ky] + ix * c), wv[ky * K + kx], acc);
      }
    }
    V::Store(r.out_row + ox * c + c0, V::Clamp(acc, lo, hi));
  };
  auto pixels = [&](int64_t ox) {
    T acc[kPixels];
#pragma GCC unroll 8
    for (int p = 0; p < kPixels; ++p) acc[p] = bv;
    const int64_t ix0 = ox * sx - s.wx.pad;
#pragma GCC unroll 8
    for (int kx = 0; kx < K; ++kx) {
#pragma GCC unroll 8
      for (int ky = 0; ky < K; ++ky) {
        const float* in = rows[ky] + (ix0 + kx * dx) * c;
#pragma GCC unroll 8
        for (int p = 0; p < kPixels; ++p) {
          acc[p] = V::Fma(V::Load(in + p * sx * c), wv[ky * K + kx], acc[p]);
        }
      }
    }
    StorePixels<V>(r.out_row + ox * c + c0, c, acc, lo, hi);
  };
  WalkRow(s, pixel, pixels);
}

template <int W>
void DepthwiseChannels(const RowArgs& r, int64_t c0) {
  const DepthwiseState& s = *r.s;
  const int64_t iy0 = r.oy * s.wy.stride - s.wy.pad;
  const bool rows_inside =
      iy0 >= 0 && iy0 + (s.wy.filter - 1) * s.wy.dilation < s.in_h;
  if (s.wy.filter == 3 && s.wx.filter == 3) {
    if (rows_inside) return DepthwiseBlockInterior<W, 3>(r, c0);
    return DepthwiseBlock<W>(r, c0);
  }
  if (s.wy.filter == 5 && s.wx.filter == 5 && rows_inside) {
    return DepthwiseBlockInterior<W, 5>(r, c0);
  }
  DepthwiseBlock<W>(r, c0);
}

void DepthwiseRowMult1(const RowArgs& r) {
  using conv_internal::kMaxLanes;
  const int64_t c = r.s->in_c;
  int64_t c0 = 0;
  for (; c0 + kMaxLanes <= c; c0 += kMaxLanes) {
    DepthwiseChannels<kMaxLanes>(r, c0);
  }
  if constexpr (kMaxLanes > 8) {
    for (; c0 + 8 <= c; c0 += 8) DepthwiseChannels<8>(r, c0);
  }
  if constexpr (kMaxLanes > 4) {
    for (; c0 + 4 <= c; c0 += 4) DepthwiseChannels<4>(r, c0);
  }
  for (; c0 < c; ++c0) DepthwiseChannels<1>(r, c0);
}

// Any multiplier: output channel oc reads input channel oc / M.
void DepthwiseRowGeneric(const RowArgs& r) {
  const DepthwiseState& s = *r.s;
  const int64_t oc_count = s.out_c;
  const int64_t iy0 = r.oy * s.wy.stride - s.wy.pad;
  for (int64_t ox = 0; ox < s.wx.out; ++ox) {
    float* out = r.out_row + ox * oc_count;
    for (int64_t oc = 0; oc < oc_count; ++oc) out[oc] = 0.0f;
    const int64_t ix0 = ox * s.wx.stride - s.wx.pad;
    for (int64_t ky = 0; ky < s.wy.filter; ++ky) {
      const int64_t iy = iy0 + ky * s.wy.dilation;
      if (iy < 0 || iy >= s.in_h) continue;
      for (int64_t kx = 0; kx < s.wx.filter; ++kx) {
        const int64_t ix = ix0 + kx * s.wx.dilation;
        if (ix < 0 || ix >= s.in_w) continue;
        const float* in = r.in_batch + (iy * s.in_w + ix) * s.in_c;
        const float* w = r.filter + (ky * s.wx.filter + kx) * oc_count;
        for (int64_t ic = 0; ic < s.in_c; ++ic) {
          for (int64_t m = 0; m < s.mult; ++m) {
            const int64_t oc = ic * s.mult + m;
            out[oc] += in[ic] * w[oc];
          }
        }
      }
    }
    for (int64_t oc = 0; oc < oc_count; ++oc) {
      out[oc] = Vec<1>::Clamp(out[oc] + r.bias[oc], s.act.lo, s.act.hi);
    }
  }
}

}  // namespace

absl::Status PrepareDepthwiseConv2D(OpContext& ctx) {
  ConvGeometry g;
  ActRange act;
  RETURN_IF_ERROR(
      conv_internal::ReadFloatConv(ctx, /*depthwise=*/true, &g, &act));
  const RtTensor& input = *ctx.input(0);
  const RtTensor& filter = *ctx.input(1);

  if (filter.dim(0) != 1) {
    return ctx.Error(absl::StrCat("filter '", filter.name(), "' ",
                                  DimsString(filter.shape),
                                  " must have shape [1, KH, KW, channels]"));
  }
  const int64_t in_c = input.dim(3);
  const int64_t out_c = filter.dim(3);
  if (in_c == 0 || out_c % in_c != 0) {
    return ctx.Error(absl::StrCat(
        "filter '", filter.name(), "' ", DimsString(filter.shape), " has ",
        out_c, " channels, not a multiple of the ", in_c,
        " channels of input '", input.name(), "' ", DimsString(input.shape),
        " (output channels = input channels x depth multiplier)"));
  }
  RETURN_IF_ERROR(conv_internal::ExpectFloatBias(ctx, 2, filter, out_c));

  DepthwiseState* s = ctx.StateOrNew<DepthwiseState>();
  s->batches = input.dim(0);
  s->in_h = input.dim(1);
  s->in_w = input.dim(2);
  s->in_c = in_c;
  s->out_c = out_c;
  s->mult = out_c / in_c;
  s->act = act;
  RETURN_IF_ERROR(ComputeConvWindows(ctx, g, input.dim(1), input.dim(2),
                                     filter.dim(1), filter.dim(2), &s->wy,
                                     &s->wx));
  // Columns ox with 0 <= ox*sx - pad and ox*sx - pad + (kw-1)*dx < in_w.
  const int64_t sx = s->wx.stride;
  const int64_t span = (s->wx.filter - 1) * s->wx.dilation;
  s->x_lo = std::min(s->wx.out, (s->wx.pad + sx - 1) / sx);
  const int64_t last = s->in_w - 1 - span + s->wx.pad;  // max ox * sx
  s->x_hi = last < 0 ? 0 : std::min(s->wx.out, last / sx + 1);
  s->x_hi = std::max(s->x_hi, s->x_lo);
  s->zero_bias.assign(static_cast<size_t>(out_c), 0.0f);

  const int64_t rows = s->batches * s->wy.out;
  const int64_t row_flops = std::max<int64_t>(
      1, 2 * s->wx.out * out_c * filter.dim(1) * filter.dim(2));
  constexpr int64_t kMinTaskFlops = int64_t{1} << 17;
  s->tasks = conv_internal::SplitWork(
      rows, (kMinTaskFlops + row_flops - 1) / row_flops, &s->rows_per_task);
  ctx.SetOutputShape(0, Dims{s->batches, s->wy.out, s->wx.out, out_c});
  return absl::OkStatus();
}

absl::Status EvalDepthwiseConv2D(OpContext& ctx) {
  const DepthwiseState& s = *ctx.state<DepthwiseState>();
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  const float* in = ctx.input(0)->Data<float>();
  const float* filter = ctx.input(1)->Data<float>();
  const RtTensor* bias_t = ctx.input(2);
  const float* bias =
      bias_t != nullptr ? bias_t->Data<float>() : s.zero_bias.data();
  float* out = output.Data<float>();
  const int64_t rows = s.batches * s.wy.out;
  auto task = [&](int64_t t) {
    const int64_t r0 = t * s.rows_per_task;
    const int64_t r1 = std::min(rows, r0 + s.rows_per_task);
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / s.wy.out;
      RowArgs r{&s,   in + b * s.in_h * s.in_w * s.in_c, filter,
                bias, out + row * s.wx.out * s.out_c,    row % s.wy.out};
      if (s.mult == 1) {
        DepthwiseRowMult1(r);
      } else {
        DepthwiseRowGeneric(r);
      }
    }
  };
  ctx.pool().ParallelFor(s.tasks, task);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
