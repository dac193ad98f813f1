// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MediaPipe's pooling pair (float32, NHWC), as in
// mediapipe/util/tflite/operations/max_pool_argmax.cc and max_unpooling.cc:
//
// MaxPoolingWithArgmax2D: input [N, H, W, C] -> values and indices, both
//   float32 [N, OH, OW, C]. Output size as TensorFlow's windowed ops (SAME
//   ceil(H / stride), VALID (H - filter + stride) / stride), padding
//   TFLite's ComputePadding. The window is clipped to the input; the
//   maximum starts from the lowest float and takes strictly greater values;
//   the value is clamped by the fused activation; the index is its position
//   in the window, ky * filter_w + kx, stored as a float plus 0.1 (so
//   truncation gives the integer back). Equal maxima: the window is scanned
//   column by column (x outer, y inner), as LiteRT's XNNPACK delegate does,
//   where MediaPipe's reference kernel scans row by row. The two differ
//   only on exact ties, which upscaled images make common, and a tie
//   broken the other way moves the output where it unpools.
// MaxUnpooling2D: values and indices [N, H, W, C] -> [N, H * filter_h,
//   W * filter_w, C], zero except where each value returns to the position
//   its index names (y * stride - pad + ky, x * stride - pad + kx), padding
//   TFLite's ComputePadding with output and input swapped. Positions outside
//   the output are skipped, as MediaPipe does for untrusted indices.
//
// LiteRT runs both in XNNPACK (argmax pooling / unpooling), whose index
// tensor holds uint32 window positions instead: it never leaves the
// delegate in MediaPipe's models, and the values agree.
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/custom/custom.h"
#include "runtime/kernels/custom/mediapipe_params.h"

namespace qforge::runtime {
namespace {

using mediapipe::PoolParams;

struct MediaPipePoolState : KernelState {
  PoolParams params;
  int64_t pad_h = 0, pad_w = 0;
};

absl::Status ExpectCounts(const OpContext& ctx, int inputs, int outputs) {
  if (ctx.num_inputs() != inputs || ctx.num_outputs() != outputs) {
    return ctx.Error(absl::StrCat("has ", ctx.num_inputs(), " inputs and ",
                                  ctx.num_outputs(), " outputs; takes ", inputs,
                                  " and gives ", outputs));
  }
  return absl::OkStatus();
}

// TFLite's CalculateActivationRange for float: only RELU (1), RELU_N1_TO_1
// (2) and RELU6 (3) clamp.
void ActivationRange(int32_t activation, float* lo, float* hi) {
  *lo = std::numeric_limits<float>::lowest();
  *hi = std::numeric_limits<float>::max();
  if (activation == 1) {
    *lo = 0.f;
  } else if (activation == 2) {
    *lo = -1.f;
    *hi = 1.f;
  } else if (activation == 3) {
    *lo = 0.f;
    *hi = 6.f;
  }
}

}  // namespace

absl::Status PrepareMaxPoolingWithArgmax2D(OpContext& ctx) {
  RETURN_IF_ERROR(ExpectCounts(ctx, 1, 2));
  const RtTensor* input = ctx.input(0);
  RETURN_IF_ERROR(mediapipe::ExpectFloat(ctx, input, "input", 4, ""));
  for (int o = 0; o < 2; ++o) {
    if (ctx.output(o)->type != ir::DataType::kFloat32) {
      return ctx.Unsupported(
          absl::StrCat("output ", o, " '", ctx.output(o)->name(), "' is ",
                       ir::DataTypeName(ctx.output(o)->type),
                       "; MediaPipe's kernel writes float32"));
    }
  }
  MediaPipePoolState* s = ctx.StateOrNew<MediaPipePoolState>();
  RETURN_IF_ERROR(mediapipe::ReadPoolParams(ctx, &s->params));
  const PoolParams& p = s->params;
  const int64_t h = input->dim(1), w = input->dim(2);
  Window wy{h, p.filter_h, p.stride_h}, wx{w, p.filter_w, p.stride_w};
  RETURN_IF_ERROR(ComputeWindow(ctx, p.padding, "height", &wy));
  RETURN_IF_ERROR(ComputeWindow(ctx, p.padding, "width", &wx));
  const int64_t oh = wy.out, ow = wx.out;
  s->pad_h = wy.pad;
  s->pad_w = wx.pad;
  const Dims shape{input->dim(0), oh, ow, input->dim(3)};
  ctx.SetOutputShape(0, shape);
  ctx.SetOutputShape(1, shape);
  return absl::OkStatus();
}

absl::Status EvalMaxPoolingWithArgmax2D(OpContext& ctx) {
  const MediaPipePoolState& s = *ctx.state<MediaPipePoolState>();
  const PoolParams& p = s.params;
  const RtTensor& input = *ctx.input(0);
  RtTensor& values = *ctx.output(0);
  RtTensor& indices = *ctx.output(1);
  const int64_t n = input.dim(0), h = input.dim(1), w = input.dim(2),
                c = input.dim(3);
  const int64_t oh = values.dim(1), ow = values.dim(2);
  float lo, hi;
  ActivationRange(p.activation, &lo, &hi);
  const float* in = input.Data<float>();
  float* out = values.Data<float>();
  float* idx = indices.Data<float>();
  ctx.pool().ParallelFor(n * oh, [&](int64_t row) {
    const int64_t b = row / oh, oy = row % oh;
    const int64_t y0 = oy * p.stride_h - s.pad_h;
    const int64_t ky0 = std::max<int64_t>(0, -y0);
    const int64_t ky1 = std::min<int64_t>(p.filter_h, h - y0);
    for (int64_t ox = 0; ox < ow; ++ox) {
      const int64_t x0 = ox * p.stride_w - s.pad_w;
      const int64_t kx0 = std::max<int64_t>(0, -x0);
      const int64_t kx1 = std::min<int64_t>(p.filter_w, w - x0);
      const int64_t o = ((b * oh + oy) * ow + ox) * c;
      for (int64_t ch = 0; ch < c; ++ch) {
        float best = std::numeric_limits<float>::lowest();
        int64_t best_y = 0, best_x = 0;
        for (int64_t kx = kx0; kx < kx1; ++kx) {
          for (int64_t ky = ky0; ky < ky1; ++ky) {
            const float v = in[((b * h + y0 + ky) * w + x0 + kx) * c + ch];
            if (v > best) {
              best = v;
              best_y = ky;
              best_x = kx;
            }
          }
        }
        out[o + ch] = std::min(std::max(best, lo), hi);
        idx[o + ch] = static_cast<float>(best_y * p.filter_w + best_x) + 0.1f;
      }
    }
  });
  return absl::OkStatus();
}

absl::Status PrepareMaxUnpooling2D(OpContext& ctx) {
  RETURN_IF_ERROR(ExpectCounts(ctx, 2, 1));
  const RtTensor* input = ctx.input(0);
  const RtTensor* indices = ctx.input(1);
  RETURN_IF_ERROR(mediapipe::ExpectFloat(ctx, input, "input", 4, ""));
  RETURN_IF_ERROR(mediapipe::ExpectFloat(ctx, indices, "indices", 4, ""));
  if (indices->shape != input->shape) {
    return ctx.Error(absl::StrCat(
        "indices '", indices->name(), "' ", DimsString(indices->shape),
        " must have the shape of input '", input->name(), "' ",
        DimsString(input->shape)));
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat("output '", ctx.output(0)->name(),
                                        "' is ",
                                        ir::DataTypeName(ctx.output(0)->type),
                                        "; MediaPipe's kernel writes float32"));
  }
  MediaPipePoolState* s = ctx.StateOrNew<MediaPipePoolState>();
  RETURN_IF_ERROR(mediapipe::ReadPoolParams(ctx, &s->params));
  const PoolParams& p = s->params;
  const int64_t h = input->dim(1), w = input->dim(2);
  const int64_t oh = h * p.filter_h, ow = w * p.filter_w;
  s->pad_h = WindowPadBefore(p.stride_h, 1, oh, p.filter_h, h);
  s->pad_w = WindowPadBefore(p.stride_w, 1, ow, p.filter_w, w);
  ctx.SetOutputShape(0, Dims{input->dim(0), oh, ow, input->dim(3)});
  return absl::OkStatus();
}

absl::Status EvalMaxUnpooling2D(OpContext& ctx) {
  const MediaPipePoolState& s = *ctx.state<MediaPipePoolState>();
  const PoolParams& p = s.params;
  const RtTensor& input = *ctx.input(0);
  const float* in = input.Data<float>();
  const float* idx = ctx.input(1)->Data<float>();
  RtTensor& output = *ctx.output(0);
  float* out = output.Data<float>();
  const int64_t n = input.dim(0), h = input.dim(1), w = input.dim(2),
                c = input.dim(3);
  const int64_t oh = output.dim(1), ow = output.dim(2);
  std::memset(out, 0, static_cast<size_t>(output.NumElements()) * 4);
  // Each input pixel writes inside its own window; windows of different
  // batches never overlap, so batches run in parallel. Within a batch the
  // order is MediaPipe's (later pixels overwrite earlier ones).
  ctx.pool().ParallelFor(n, [&](int64_t b) {
    for (int64_t y = 0; y < h; ++y) {
      for (int64_t x = 0; x < w; ++x) {
        const int64_t i = ((b * h + y) * w + x) * c;
        for (int64_t ch = 0; ch < c; ++ch) {
          const float f = idx[i + ch];
          // MediaPipe truncates the float to int; values no int holds
          // (NaN, huge) cannot name a position in the window.
          if (!(std::fabs(f) < 2147483520.f)) continue;
          const int64_t k = static_cast<int32_t>(f);
          const int64_t oy = y * p.stride_h - s.pad_h + k / p.filter_w;
          const int64_t ox = x * p.stride_w - s.pad_w + k % p.filter_w;
          if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
          out[((b * oh + oy) * ow + ox) * c + ch] = in[i + ch];
        }
      }
    }
  });
  return absl::OkStatus();
}

}  // namespace qforge::runtime
