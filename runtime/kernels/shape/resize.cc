// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR on NHWC tensors, with the
// sampling coordinates exactly as TFLite's reference kernels compute them
// (reference/resize_bilinear.h ComputeInterpolationValues,
// reference/resize_nearest_neighbor.h GetNearestNeighbor), in float.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

absl::Status ResolveResize(const OpContext& ctx, Dims* shape) {
  shape_ops::IntValues size;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "size", &size));
  if (size.size() != 2) {
    return ctx.Error(absl::StrCat("size '", ctx.input(1)->name(), "' holds ",
                                  size.size(), " values; it must be [h, w]"));
  }
  if (size[0] < 1 || size[1] < 1) {
    return ctx.Error(
        absl::StrCat("size ", DimsString(size), " must be positive"));
  }
  const RtTensor* in = ctx.input(0);
  *shape = Dims{in->dim(0), size[0], size[1], in->dim(3)};
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

// Scale from output to input coordinates along one axis.
float Scale(int64_t in_size, int64_t out_size, bool align_corners) {
  if (align_corners && out_size > 1) {
    return static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1);
  }
  return static_cast<float>(in_size) / static_cast<float>(out_size);
}

struct Interp {
  float pos;
  int64_t lo, hi;
};

// ComputeInterpolationValues.
Interp Interpolation(int64_t value, float scale, bool half_pixel,
                     int64_t in_size) {
  Interp r;
  r.pos = half_pixel ? (static_cast<float>(value) + 0.5f) * scale - 0.5f
                     : static_cast<float>(value) * scale;
  r.lo = std::max<int64_t>(static_cast<int64_t>(std::floor(r.pos)), 0);
  r.lo = std::min(r.lo, in_size - 1);  // safety net; never binds in practice
  r.hi = std::min<int64_t>(static_cast<int64_t>(std::ceil(r.pos)), in_size - 1);
  return r;
}

// GetNearestNeighbor.
int64_t Nearest(int64_t value, int64_t in_size, int64_t out_size,
                bool align_corners, bool half_pixel) {
  const float scale = Scale(in_size, out_size, align_corners);
  const float offset = half_pixel ? 0.5f : 0.0f;
  const float p = (static_cast<float>(value) + offset) * scale;
  int64_t r = align_corners ? static_cast<int64_t>(std::round(p))
                            : static_cast<int64_t>(std::floor(p));
  r = std::min(r, in_size - 1);
  if (half_pixel) r = std::max<int64_t>(r, 0);
  return r;
}

// Eval's start: the output shape from the current size values; the input
// must not be empty.
absl::Status ResizeOutput(OpContext& ctx, Dims* shape) {
  RETURN_IF_ERROR(
      shape_ops::SetResolvedShape(ctx, /*in_eval=*/true, ResolveResize, shape));
  const RtTensor* in = ctx.input(0);
  if (in->dim(1) == 0 || in->dim(2) == 0) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' ",
                                  DimsString(in->shape), " is empty"));
  }
  return absl::OkStatus();
}

// run(begin, end) over `rows` output rows of `row_values` values each, in
// chunks of about 16K values.
template <typename Run>
void ParallelRows(const OpContext& ctx, int64_t rows, int64_t row_values,
                  const Run& run) {
  ParallelChunks(ctx, rows,
                 std::max<int64_t>(
                     1, (int64_t{1} << 14) / std::max<int64_t>(1, row_values)),
                 run);
}

// nearest: RESIZE_NEAREST_NEIGHBOR moves elements of any type; bilinear
// interpolation takes float32.
absl::Status PrepareResizeOf(OpContext& ctx, bool nearest) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "input"));
  const RtTensor* in = ctx.input(0);
  if (in->rank() != 4) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' has shape ",
                                  DimsString(in->shape), "; it must be 4-D"));
  }
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &elem));
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 0, 0));
  const auto opts = ir::OptionsOr<ir::ResizeOptions>(ctx.op().options);
  if (!nearest) {
    if (in->type != ir::DataType::kFloat32) {
      return ctx.Unsupported(absl::StrCat("input '", in->name(), "' is ",
                                          ir::DataTypeName(in->type),
                                          "; this kernel takes float32"));
    }
    if (opts.align_corners && opts.half_pixel_centers) {
      return ctx.Error(
          "if half_pixel_centers is true, align_corners must be false");
    }
  }
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "size"));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1})) return absl::OkStatus();
  return shape_ops::SetResolvedShape(ctx, /*in_eval=*/false, ResolveResize);
}

}  // namespace

QF_KERNEL_AS(PrepareResizeBilinear, PrepareResizeOf(ctx, /*nearest=*/false))
QF_KERNEL_AS(PrepareResizeNearestNeighbor,
             PrepareResizeOf(ctx, /*nearest=*/true))

absl::Status EvalResizeBilinear(OpContext& ctx) {
  Dims shape;
  RETURN_IF_ERROR(ResizeOutput(ctx, &shape));
  const auto opts = ir::OptionsOr<ir::ResizeOptions>(ctx.op().options);
  const RtTensor* in = ctx.input(0);
  const int64_t batches = in->dim(0), in_h = in->dim(1), in_w = in->dim(2),
                depth = in->dim(3);
  const int64_t out_h = shape[1], out_w = shape[2];
  const float h_scale = Scale(in_h, out_h, opts.align_corners);
  const float w_scale = Scale(in_w, out_w, opts.align_corners);
  const float* src = in->Data<float>();
  float* dst = ctx.output(0)->Data<float>();
  const bool hp = opts.half_pixel_centers;

  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / out_h, y = row % out_h;
      const Interp iy = Interpolation(y, h_scale, hp, in_h);
      const float dy = iy.pos - static_cast<float>(iy.lo);
      const float* r0 = src + (b * in_h + iy.lo) * in_w * depth;
      const float* r1 = src + (b * in_h + iy.hi) * in_w * depth;
      float* o = dst + row * out_w * depth;
      for (int64_t x = 0; x < out_w; ++x) {
        const Interp ix = Interpolation(x, w_scale, hp, in_w);
        const float dx = ix.pos - static_cast<float>(ix.lo);
        const float* p00 = r0 + ix.lo * depth;
        const float* p10 = r1 + ix.lo * depth;
        const float* p01 = r0 + ix.hi * depth;
        const float* p11 = r1 + ix.hi * depth;
        for (int64_t c = 0; c < depth; ++c) {
          o[c] = p00[c] * (1 - dy) * (1 - dx) + p10[c] * dy * (1 - dx) +
                 p01[c] * (1 - dy) * dx + p11[c] * dy * dx;
        }
        o += depth;
      }
    }
  };
  ParallelRows(ctx, batches * out_h, out_w * depth, run);
  return absl::OkStatus();
}

absl::Status EvalResizeNearestNeighbor(OpContext& ctx) {
  Dims shape;
  RETURN_IF_ERROR(ResizeOutput(ctx, &shape));
  const auto opts = ir::OptionsOr<ir::ResizeOptions>(ctx.op().options);
  const RtTensor* in = ctx.input(0);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &elem));
  const int64_t batches = in->dim(0), in_h = in->dim(1), in_w = in->dim(2),
                depth = in->dim(3);
  const int64_t out_h = shape[1], out_w = shape[2];
  const size_t pixel = static_cast<size_t>(depth) * elem;
  const uint8_t* src = in->data;
  uint8_t* dst = ctx.output(0)->data;
  if (pixel == 0) return absl::OkStatus();

  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t b = row / out_h, y = row % out_h;
      const int64_t in_y =
          Nearest(y, in_h, out_h, opts.align_corners, opts.half_pixel_centers);
      const uint8_t* r =
          src + static_cast<size_t>((b * in_h + in_y) * in_w) * pixel;
      uint8_t* o = dst + static_cast<size_t>(row * out_w) * pixel;
      for (int64_t x = 0; x < out_w; ++x) {
        const int64_t in_x = Nearest(x, in_w, out_w, opts.align_corners,
                                     opts.half_pixel_centers);
        std::memcpy(o, r + static_cast<size_t>(in_x) * pixel, pixel);
        o += pixel;
      }
    }
  };
  ParallelRows(ctx, batches * out_h, out_w * depth, run);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
