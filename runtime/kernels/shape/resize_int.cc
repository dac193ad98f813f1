// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer RESIZE_BILINEAR (int8, uint8, int16) on NHWC tensors, as TFLite's
// reference_ops::ResizeBilinearInteger: sampling positions in 10-bit fixed
// point (scale_10 = round(2^10 * in / out), or (in - 1) / (out - 1) with
// align_corners; half_pixel_centers shifts by scale_10 / 2 - 2^9), the four
// neighbours weighted in 20-bit fixed point in int64 and rounded: half away
// from zero in TFLite's double-rounding build, (v + 2^19) >> 20 (halves up)
// in its single-rounding one (TFLITE_SINGLE_ROUNDING, LiteRT's), which the
// op's rounding mode selects. Half-pixel 2x upsampling weighs neighbours by
// 1/4 and 3/4, so halves are common. Raw values are interpolated: the
// output is meant to carry the input's scale and zero point (qforge's
// quantizer gives it them); like TFLite, other parameters are not refused.
// RESIZE_NEAREST_NEIGHBOR needs no integer kernel: it moves bytes.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct ResizeState : KernelState {
  ir::DataType type = ir::DataType::kInt8;
  int32_t batches = 0, in_h = 0, in_w = 0, depth = 0, out_h = 0, out_w = 0;
  int32_t h_scale_10 = 0, w_scale_10 = 0;
  bool half_pixel = false;
  numerics::Rounding rounding = numerics::Rounding::kSingle;
};

// TFLite's ComputeInterpolationValuesInteger.
void Interp10(int32_t value, int32_t scale_10, bool half_pixel, int32_t in_size,
              int32_t* scaled, int32_t* lo, int32_t* hi) {
  *scaled = half_pixel ? value * scale_10 + scale_10 / 2 - (1 << 9)
                       : value * scale_10;
  *lo = std::max(*scaled / (1 << 10), 0);
  *hi = std::min((*scaled + (1 << 10) - 1) / (1 << 10), in_size - 1);
}

int32_t Scale10(int32_t in, int32_t out, bool align_corners) {
  if (align_corners && out > 1) {
    return ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  }
  return ((1 << 10) * in + out / 2) / out;
}

template <typename T>
void RunResize(OpContext& ctx, const ResizeState& s) {
  const T* src = ctx.input(0)->Data<T>();
  T* dst = ctx.output(0)->Data<T>();
  const int64_t rows = int64_t{s.batches} * s.out_h;
  const int64_t row_elems = int64_t{s.out_w} * s.depth;
  const ResizeState* sp = &s;
  ParallelChunks(
      ctx, rows,
      std::max<int64_t>(
          1, integer::kElementwiseChunk / std::max<int64_t>(1, row_elems)),
      [sp, src, dst](int64_t begin, int64_t end) {
        const ResizeState& s = *sp;
        constexpr int64_t kOne = 1 << 10;
        for (int64_t row = begin; row < end; ++row) {
          const int64_t b = row / s.out_h;
          const int32_t y = static_cast<int32_t>(row % s.out_h);
          int32_t iy = 0, y0 = 0, y1 = 0;
          Interp10(y, s.h_scale_10, s.half_pixel, s.in_h, &iy, &y0, &y1);
          const int64_t dy = iy - kOne * y0;
          const T* r0 = src + (b * s.in_h + y0) * s.in_w * s.depth;
          const T* r1 = src + (b * s.in_h + y1) * s.in_w * s.depth;
          T* o = dst + row * s.out_w * s.depth;
          for (int32_t x = 0; x < s.out_w; ++x) {
            int32_t ix = 0, x0 = 0, x1 = 0;
            Interp10(x, s.w_scale_10, s.half_pixel, s.in_w, &ix, &x0, &x1);
            const int64_t dx = ix - kOne * x0;
            for (int32_t c = 0; c < s.depth; ++c) {
              const int64_t v =
                  int64_t{r0[x0 * s.depth + c]} * (kOne - dy) * (kOne - dx) +
                  int64_t{r1[x0 * s.depth + c]} * dy * (kOne - dx) +
                  int64_t{r0[x1 * s.depth + c]} * (kOne - dy) * dx +
                  int64_t{r1[x1 * s.depth + c]} * dy * dx;
              if (s.rounding == numerics::Rounding::kSingle) {
                o[c] = static_cast<T>((v + (1 << 19)) >> 20);
              } else {
                const int64_t round = v > 0 ? (1 << 19) : -(1 << 19);
                o[c] = static_cast<T>((v + round) / (1 << 20));
              }
            }
            o += s.depth;
          }
        }
      });
}

}  // namespace

absl::Status PrepareIntResizeBilinear(OpContext& ctx) {
  const RtTensor* in = nullptr;
  const RtTensor* size = nullptr;
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 0, &in));
  RETURN_IF_ERROR(integer::RequireConstant(ctx, 1, "size", &size));
  RtTensor* out = ctx.output(0);
  if (out->type != in->type) {
    return ctx.Unsupported(absl::StrCat("input is ", ir::DataTypeName(in->type),
                                        ", output ",
                                        ir::DataTypeName(out->type)));
  }
  if (in->rank() != 4) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' has shape ",
                                  DimsString(in->shape), "; it must be 4-D"));
  }
  if (size->type != ir::DataType::kInt32 || size->NumElements() != 2) {
    return ctx.Error(
        absl::StrCat("size '", size->name(), "' must be int32 [h, w]"));
  }
  integer::QuantInfo qi, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo));
  const auto opts = ir::OptionsOr<ir::ResizeOptions>(ctx.op().options);
  if (opts.align_corners && opts.half_pixel_centers) {
    return ctx.Error(
        "if half_pixel_centers is true, align_corners must be false");
  }
  const int32_t* hw = size->Data<int32_t>();
  if (hw[0] < 1 || hw[1] < 1 || in->dim(1) < 1 || in->dim(2) < 1 ||
      in->dim(1) > (1 << 20) || in->dim(2) > (1 << 20) || hw[0] > (1 << 20) ||
      hw[1] > (1 << 20)) {
    return ctx.Error(absl::StrCat("cannot resize ", DimsString(in->shape),
                                  " to [", hw[0], ", ", hw[1], "]"));
  }
  auto state = std::make_unique<ResizeState>();
  ResizeState& s = *state;
  s.type = in->type;
  s.batches = static_cast<int32_t>(in->dim(0));
  s.in_h = static_cast<int32_t>(in->dim(1));
  s.in_w = static_cast<int32_t>(in->dim(2));
  s.depth = static_cast<int32_t>(in->dim(3));
  s.out_h = hw[0];
  s.out_w = hw[1];
  s.half_pixel = opts.half_pixel_centers;
  s.rounding = ctx.rounding();
  s.h_scale_10 = Scale10(s.in_h, s.out_h, opts.align_corners);
  s.w_scale_10 = Scale10(s.in_w, s.out_w, opts.align_corners);
  ctx.SetOutputShape(0, Dims{in->dim(0), hw[0], hw[1], in->dim(3)});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntResizeBilinear(OpContext& ctx) {
  const ResizeState& s = *ctx.state<ResizeState>();
  return integer::ForActivationType(
      ctx, s.type, "RESIZE_BILINEAR activation type",
      [&](auto t) { RunResize<decltype(t)>(ctx, s); });
}

}  // namespace qforge::runtime
