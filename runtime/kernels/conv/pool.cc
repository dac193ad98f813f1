// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D (float32), NHWC. As TFLite's reference
// kernels: the window is clipped to the input (padding never counts), the
// average divides the sum by the number of input pixels inside the window,
// the maximum starts from the lowest float and takes std::max (so a NaN
// input is skipped), then the fused activation clamps.
//
// Channels are innermost: each output pixel accumulates whole input pixels
// (contiguous C floats) into its output slot. Tasks are output rows.
#include <algorithm>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv/conv.h"

namespace qforge::runtime {
namespace {

using conv_internal::Vec;

struct PoolState : KernelState {
  bool average = false;
  int64_t batches = 0, in_h = 0, in_w = 0, c = 0;
  Window wy, wx;
  conv_internal::ActRange act;
  int64_t rows_per_task = 1, tasks = 1;
};

// out[i] = op(out[i], in[i]) over c floats.
template <bool kMax>
void Combine(float* out, const float* in, int64_t c) {
  constexpr int W = conv_internal::kMaxLanes;
  using V = Vec<W>;
  int64_t i = 0;
  for (; i + W <= c; i += W) {
    const typename V::T x = V::Load(in + i), o = V::Load(out + i);
    // std::max(o, x) == (o < x) ? x : o == Max(x, o).
    V::Store(out + i, kMax ? V::Max(x, o) : o + x);
  }
  for (; i < c; ++i)
    out[i] = kMax ? Vec<1>::Max(in[i], out[i]) : out[i] + in[i];
}

// Output index range [begin, end) of input positions a window covers.
void Clip(const Window& w, int64_t o, int64_t* begin, int64_t* end) {
  const int64_t origin = o * w.stride - w.pad;
  *begin = std::max<int64_t>(0, origin);
  *end = std::min(w.in, origin + w.filter);
}

// Some output window covers no input pixel (only padding).
bool HasEmptyWindow(const Window& w) {
  for (int64_t o = 0; o < w.out; ++o) {
    int64_t begin, end;
    Clip(w, o, &begin, &end);
    if (end <= begin) return true;
  }
  return false;
}

absl::Status PreparePool(OpContext& ctx, bool average) {
  const auto opts = ir::OptionsOr<ir::Pool2DOptions>(ctx.op().options);
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 0, 4, "input"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_h", opts.stride_h));
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_w", opts.stride_w));
  RETURN_IF_ERROR(ExpectPositive(ctx, "filter_height", opts.filter_height));
  RETURN_IF_ERROR(ExpectPositive(ctx, "filter_width", opts.filter_width));
  conv_internal::ActRange act;
  RETURN_IF_ERROR(conv_internal::ActivationRange(ctx, opts.activation, &act));
  const RtTensor& input = *ctx.input(0);

  PoolState* s = ctx.StateOrNew<PoolState>();
  s->average = average;
  s->batches = input.dim(0);
  s->in_h = input.dim(1);
  s->in_w = input.dim(2);
  s->c = input.dim(3);
  s->act = act;
  s->wy = Window{s->in_h, opts.filter_height, opts.stride_h, 1};
  s->wx = Window{s->in_w, opts.filter_width, opts.stride_w, 1};
  RETURN_IF_ERROR(ComputeWindow(ctx, opts.padding, "height", &s->wy));
  RETURN_IF_ERROR(ComputeWindow(ctx, opts.padding, "width", &s->wx));
  if (input.NumElements() > 0 &&
      (HasEmptyWindow(s->wy) || HasEmptyWindow(s->wx))) {
    return ctx.Error(absl::StrCat("a pooling window of input '", input.name(),
                                  "' ", DimsString(input.shape), " (filter ",
                                  opts.filter_height, "x", opts.filter_width,
                                  ", stride ", opts.stride_h, "x",
                                  opts.stride_w, ") covers only padding"));
  }
  const int64_t rows = s->batches * s->wy.out;
  const int64_t row_work = std::max<int64_t>(
      1, s->wx.out * s->c * opts.filter_height * opts.filter_width);
  constexpr int64_t kMinTaskWork = int64_t{1} << 18;
  s->tasks = conv_internal::SplitWork(
      rows, (kMinTaskWork + row_work - 1) / row_work, &s->rows_per_task);
  ctx.SetOutputShape(0, Dims{s->batches, s->wy.out, s->wx.out, s->c});
  return absl::OkStatus();
}

template <bool kMax>
void PoolRows(const PoolState& s, const float* in, float* out, int64_t r0,
              int64_t r1) {
  const int64_t c = s.c;
  const float init = kMax ? std::numeric_limits<float>::lowest() : 0.0f;
  for (int64_t row = r0; row < r1; ++row) {
    const int64_t b = row / s.wy.out, oy = row % s.wy.out;
    int64_t y0, y1;
    Clip(s.wy, oy, &y0, &y1);
    const float* in_b = in + b * s.in_h * s.in_w * c;
    for (int64_t ox = 0; ox < s.wx.out; ++ox) {
      int64_t x0, x1;
      Clip(s.wx, ox, &x0, &x1);
      float* o = out + (row * s.wx.out + ox) * c;
      std::fill(o, o + c, init);
      for (int64_t iy = y0; iy < y1; ++iy) {
        for (int64_t ix = x0; ix < x1; ++ix) {
          Combine<kMax>(o, in_b + (iy * s.in_w + ix) * c, c);
        }
      }
      const float count = static_cast<float>((y1 - y0) * (x1 - x0));
      for (int64_t i = 0; i < c; ++i) {
        const float v = kMax ? o[i] : o[i] / count;
        o[i] = Vec<1>::Clamp(v, s.act.lo, s.act.hi);
      }
    }
  }
}

absl::Status EvalPool(OpContext& ctx) {
  const PoolState& s = *ctx.state<PoolState>();
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  const float* in = ctx.input(0)->Data<float>();
  float* out = output.Data<float>();
  const int64_t rows = s.batches * s.wy.out;
  auto task = [&](int64_t t) {
    const int64_t r0 = t * s.rows_per_task;
    const int64_t r1 = std::min(rows, r0 + s.rows_per_task);
    if (s.average) {
      PoolRows<false>(s, in, out, r0, r1);
    } else {
      PoolRows<true>(s, in, out, r0, r1);
    }
  };
  ctx.pool().ParallelFor(s.tasks, task);
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PrepareAveragePool2D, PreparePool(ctx, /*average=*/true))
QF_KERNEL_AS(EvalAveragePool2D, EvalPool(ctx))
QF_KERNEL_AS(PrepareMaxPool2D, PreparePool(ctx, /*average=*/false))
QF_KERNEL_AS(EvalMaxPool2D, EvalPool(ctx))

}  // namespace qforge::runtime
