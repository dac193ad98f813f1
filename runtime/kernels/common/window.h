// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite's SAME/VALID window arithmetic (kernels/padding.h:
// ComputeOutSize, ComputePaddingWithOffset) and the window options of
// CONV_2D and DEPTHWISE_CONV_2D (TFLite's ConvParams), shared by the float,
// integer and hybrid kernels of windowed ops and by the quantizer's layer
// inputs, so that every one of them sees the same geometry.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_WINDOW_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_WINDOW_H_

#include <cstdint>

#include "absl/status/status.h"
#include "ir/options.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

// Output size along one axis: SAME gives ceil(in / stride), VALID
// (in - effective_filter + stride) / stride (C++ division truncates towards
// zero, as in TFLite; negative when the input is smaller than the filter).
int64_t WindowOutSize(ir::Padding padding, int64_t in, int64_t filter,
                      int64_t stride, int64_t dilation);
// Padding before (top/left): max(0, (out - 1) * stride + effective_filter -
// in) / 2; the odd pixel goes after.
int64_t WindowPadBefore(int64_t stride, int64_t dilation, int64_t in,
                        int64_t filter, int64_t out);

// Checks a stride/dilation/filter option value (> 0).
absl::Status ExpectPositive(const OpContext& ctx, const char* name,
                            int64_t value);

// One spatial axis of a windowed op (conv, pool).
struct Window {
  int64_t in = 0;      // input size
  int64_t filter = 0;  // filter size
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t out = 0;  // output size
  int64_t pad = 0;  // padding before (top/left)
};

// Fills out/pad of `w` from in/filter/stride/dilation. Errors on a padding
// that is neither SAME nor VALID, and (naming `what`) when out would be
// negative.
absl::Status ComputeWindow(const OpContext& ctx, ir::Padding padding,
                           const char* what, Window* w);

// The window options of CONV_2D (`depthwise` false) or DEPTHWISE_CONV_2D.
struct ConvGeometry {
  ir::Padding padding = ir::Padding::kSame;
  ir::Activation activation = ir::Activation::kNone;
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
};
// Reads them from the op's options; strides and dilations must be > 0.
absl::Status ReadConvGeometry(const OpContext& ctx, bool depthwise,
                              ConvGeometry* g);

// The height and width windows of a conv with geometry `g` over an input of
// in_h x in_w with a k_h x k_w filter.
absl::Status ComputeConvWindows(const OpContext& ctx, const ConvGeometry& g,
                                int64_t in_h, int64_t in_w, int64_t k_h,
                                int64_t k_w, Window* wy, Window* wx);

// The shapes and window of a CONV_2D (filter [O, KH, KW, C / groups]) or
// DEPTHWISE_CONV_2D (filter [1, KH, KW, C * depth_mult]) over an NHWC
// input, as the integer and hybrid kernels keep them.
struct ConvDims {
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t out_h = 0, out_w = 0, out_c = 0, k_h = 0, k_w = 0;
  int64_t filter_in_c = 0, groups = 1, depth_mult = 1;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0;
};
// Reads them from input 0 and the filter (input 1), both of rank 4, and the
// op's options (ReadConvGeometry, whose fused activation goes to
// `activation`): the channel counts must fit and the window be non-empty.
absl::Status ReadConvDims(const OpContext& ctx, bool depthwise, ConvDims* d,
                          ir::Activation* activation);

// Folds fn over every tap (ky, kx) of g's k_h x k_w window, dilated by
// (dil_h, dil_w) from input pixel (iy0, ix0), that lies inside g's
// in_h x in_w image (padded taps are skipped), in row-major tap order:
// acc = fn(acc, ky, kx, iy, ix); returns acc. (A value, not a captured
// reference: an accumulator the compiler keeps in a register.) G is any
// geometry with those fields (ConvDims, ...).
template <typename G, typename T, typename Fn>
inline T FoldTapsInside(const G& g, int64_t iy0, int64_t ix0, T acc,
                        const Fn& fn) {
  for (int64_t ky = 0; ky < g.k_h; ++ky) {
    const int64_t iy = iy0 + ky * g.dil_h;
    if (iy < 0 || iy >= g.in_h) continue;
    for (int64_t kx = 0; kx < g.k_w; ++kx) {
      const int64_t ix = ix0 + kx * g.dil_w;
      if (ix < 0 || ix >= g.in_w) continue;
      acc = fn(acc, ky, kx, iy, ix);
    }
  }
  return acc;
}
// Calls fn(ky, kx, iy, ix) for each of those taps.
template <typename G, typename Fn>
inline void ForEachTapInside(const G& g, int64_t iy0, int64_t ix0,
                             const Fn& fn) {
  FoldTapsInside(g, iy0, ix0, 0,
                 [&](int none, int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
                   fn(ky, kx, iy, ix);
                   return none;
                 });
}

// A transposed convolution's taps into output pixel (oy, ox): folds
// acc = fn(acc, ky, kx, iy, ix) over every tap (ky, kx) of the k_h x k_w
// filter and input pixel (iy, ix) inside the in_h x in_w image with
// iy * stride_h - pad_top + ky = oy (and likewise in x), in row-major tap
// order; returns acc.
template <typename T, typename Fn>
inline T FoldTransposedTaps(int64_t oy, int64_t ox, int64_t k_h, int64_t k_w,
                            int64_t stride_h, int64_t stride_w, int64_t pad_top,
                            int64_t pad_left, int64_t in_h, int64_t in_w, T acc,
                            const Fn& fn) {
  for (int64_t ky = 0; ky < k_h; ++ky) {
    const int64_t ty = oy + pad_top - ky;
    if (ty < 0 || ty % stride_h != 0) continue;
    const int64_t iy = ty / stride_h;
    if (iy >= in_h) continue;
    for (int64_t kx = 0; kx < k_w; ++kx) {
      const int64_t tx = ox + pad_left - kx;
      if (tx < 0 || tx % stride_w != 0) continue;
      const int64_t ix = tx / stride_w;
      if (ix >= in_w) continue;
      acc = fn(acc, ky, kx, iy, ix);
    }
  }
  return acc;
}

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_WINDOW_H_
