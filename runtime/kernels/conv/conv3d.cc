// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_3D, float32, as TFLite's kernels/conv3d.cc (reference Conv3D):
//   input  [N, D, H, W, Cin]   filter [KD, KH, KW, Cin, Cout]
//   bias   [Cout] (optional)   output [N, OD, OH, OW, Cout]
// Strides and dilations per spatial axis; SAME / VALID padding per axis as
// for CONV_2D (ComputeWindow); fused activation clamp.
// Direct loops: for each output position, taps in (kd, kh, kw, ci) order
// accumulate into all Cout channels at once (the filter's Cout is
// contiguous), starting from the bias. Tasks are runs of output rows
// (n, od, oh); each output element is summed in one fixed order, so results
// do not depend on the thread count.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv/conv.h"

namespace qforge::runtime {
namespace {

using conv_internal::ActRange;

struct Conv3DState : KernelState {
  int64_t batches = 0, in_c = 0, out_c = 0;
  Window d, h, w;
  ActRange act;
  std::vector<float> bias;  // Cout values (zeros without a bias)
  int64_t rows_per_task = 1, tasks = 0;
};

// One output row (n, od, oh): OW x Cout values.
void Conv3DRow(const Conv3DState& s, const float* in, const float* filter,
               int64_t n, int64_t od, int64_t oh, float* out) {
  const int64_t C = s.in_c, K = s.out_c;
  const int64_t in_w_stride = C, in_h_stride = s.w.in * C,
                in_d_stride = s.h.in * in_h_stride,
                in_n_stride = s.d.in * in_d_stride;
  for (int64_t ow = 0; ow < s.w.out; ++ow) {
    float* acc = out + ow * K;
    std::copy(s.bias.begin(), s.bias.end(), acc);
    for (int64_t kd = 0; kd < s.d.filter; ++kd) {
      const int64_t id = od * s.d.stride - s.d.pad + kd * s.d.dilation;
      if (id < 0 || id >= s.d.in) continue;
      for (int64_t kh = 0; kh < s.h.filter; ++kh) {
        const int64_t ih = oh * s.h.stride - s.h.pad + kh * s.h.dilation;
        if (ih < 0 || ih >= s.h.in) continue;
        for (int64_t kw = 0; kw < s.w.filter; ++kw) {
          const int64_t iw = ow * s.w.stride - s.w.pad + kw * s.w.dilation;
          if (iw < 0 || iw >= s.w.in) continue;
          const float* x = in + n * in_n_stride + id * in_d_stride +
                           ih * in_h_stride + iw * in_w_stride;
          const float* f =
              filter + ((kd * s.h.filter + kh) * s.w.filter + kw) * C * K;
          for (int64_t ci = 0; ci < C; ++ci) {
            const float xv = x[ci];
            const float* fr = f + ci * K;
            for (int64_t k = 0; k < K; ++k) acc[k] += xv * fr[k];
          }
        }
      }
    }
    for (int64_t k = 0; k < K; ++k) {
      acc[k] = std::min(s.act.hi, std::max(s.act.lo, acc[k]));
    }
  }
}

}  // namespace

absl::Status PrepareConv3D(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::Conv3DOptions>(ctx.op().options);
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 0, 5, "input"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 1, 5, "filter"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  const RtTensor& input = *ctx.input(0);
  const RtTensor& filter = *ctx.input(1);
  if (filter.dim(3) != input.dim(4)) {
    return ctx.Error(absl::StrCat(
        "filter '", filter.name(), "' ", DimsString(filter.shape), " takes ",
        filter.dim(3), " input channels; input '", input.name(), "' ",
        DimsString(input.shape), " has ", input.dim(4)));
  }
  const RtTensor* bias = ctx.input(2);
  RETURN_IF_ERROR(
      conv_internal::ExpectFloatBias(ctx, 2, filter, filter.dim(4)));
  auto state = std::make_unique<Conv3DState>();
  Conv3DState& s = *state;
  s.batches = input.dim(0);
  s.in_c = input.dim(4);
  s.out_c = filter.dim(4);
  const int32_t strides[3] = {opts.stride_d, opts.stride_h, opts.stride_w};
  const int32_t dilations[3] = {opts.dilation_d, opts.dilation_h,
                                opts.dilation_w};
  const char* names[3] = {"depth", "height", "width"};
  Window* windows[3] = {&s.d, &s.h, &s.w};
  for (int a = 0; a < 3; ++a) {
    RETURN_IF_ERROR(ExpectPositive(ctx, "stride", strides[a]));
    RETURN_IF_ERROR(ExpectPositive(ctx, "dilation", dilations[a]));
    Window& w = *windows[a];
    w.in = input.dim(1 + a);
    w.filter = filter.dim(a);
    w.stride = strides[a];
    w.dilation = dilations[a];
    RETURN_IF_ERROR(ComputeWindow(ctx, opts.padding, names[a], &w));
  }
  RETURN_IF_ERROR(conv_internal::ActivationRange(ctx, opts.activation, &s.act));
  s.bias.assign(static_cast<size_t>(s.out_c), 0.f);
  if (bias != nullptr && bias->data != nullptr) {
    std::copy_n(bias->Data<float>(), s.out_c, s.bias.begin());
  }
  const int64_t rows = s.batches * s.d.out * s.h.out;
  const int64_t row_work = std::max<int64_t>(
      1, s.w.out * s.out_c * s.in_c * s.d.filter * s.h.filter * s.w.filter);
  s.tasks = conv_internal::SplitWork(
      rows, std::max<int64_t>(1, (int64_t{1} << 16) / row_work),
      &s.rows_per_task);
  ctx.SetOutputShape(0, Dims{s.batches, s.d.out, s.h.out, s.w.out, s.out_c});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalConv3D(OpContext& ctx) {
  Conv3DState* s = ctx.state<Conv3DState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  // A non-constant bias is read at every eval.
  const RtTensor* bias = ctx.input(2);
  if (bias != nullptr && !bias->is_constant) {
    std::copy_n(bias->Data<float>(), s->out_c, s->bias.begin());
  }
  const float* in = ctx.input(0)->Data<float>();
  const float* filter = ctx.input(1)->Data<float>();
  float* out = ctx.output(0)->Data<float>();
  const int64_t rows = s->batches * s->d.out * s->h.out;
  const int64_t row_size = s->w.out * s->out_c;
  const Conv3DState* sp = s;
  ctx.pool().ParallelFor(s->tasks, [=](int64_t task) {
    const int64_t r0 = task * sp->rows_per_task;
    const int64_t r1 = std::min(rows, r0 + sp->rows_per_task);
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t oh = r % sp->h.out;
      const int64_t od = (r / sp->h.out) % sp->d.out;
      const int64_t n = r / (sp->h.out * sp->d.out);
      Conv3DRow(*sp, in, filter, n, od, oh, out + r * row_size);
    }
  });
  return absl::OkStatus();
}

}  // namespace qforge::runtime
