// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MediaPipe's Convolution2DTransposeBias (float32), as in
// mediapipe/util/tflite/operations/transpose_conv_bias.cc: TFLite's
// reference transposed convolution plus a bias, with the output size found
// from the input instead of an output_shape operand. Inputs: input
// [N, H, W, C], weights [O, KH, KW, C], bias [O]. With SAME padding,
//   pad = max(0, K - (H - 1) % stride - 1)   (per axis)
//   out = stride * (H - 1) + K - pad,  the first pad / 2 rows cut at the top;
// VALID: pad = 0. No activation. Computed by the shared transposed
// convolution (conv/transpose_conv.h).
#include <algorithm>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv/conv.h"
#include "runtime/kernels/conv/transpose_conv.h"
#include "runtime/kernels/custom/custom.h"
#include "runtime/kernels/custom/mediapipe_params.h"

namespace qforge::runtime {
namespace {

struct DeconvBiasState : KernelState {
  conv_internal::TransposeConvCore core;
  bool weights_ready = false;
};

}  // namespace

absl::Status PrepareConvolution2DTransposeBias(OpContext& ctx) {
  if (ctx.num_inputs() != 3 || ctx.num_outputs() != 1) {
    return ctx.Error(absl::StrCat("has ", ctx.num_inputs(), " inputs and ",
                                  ctx.num_outputs(),
                                  " outputs; takes input, weights, bias and "
                                  "gives 1 output"));
  }
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 0, 4, "input"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 1, 4, "weights"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 2, 1, "bias"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  const RtTensor& input = *ctx.input(0);
  const RtTensor& weights = *ctx.input(1);
  const RtTensor& bias = *ctx.input(2);
  if (weights.dim(3) != input.dim(3)) {
    return ctx.Error(absl::StrCat(
        "weights '", weights.name(), "' ", DimsString(weights.shape), " have ",
        weights.dim(3), " input channels (dimension 3) but input '",
        input.name(), "' ", DimsString(input.shape), " has ", input.dim(3)));
  }
  if (bias.dim(0) != weights.dim(0)) {
    return ctx.Error(absl::StrCat(
        "bias '", bias.name(), "' ", DimsString(bias.shape), " has ",
        bias.dim(0), " elements; weights '", weights.name(), "' have ",
        weights.dim(0), " output channels"));
  }
  mediapipe::TransposeParams p;
  RETURN_IF_ERROR(mediapipe::ReadTransposeParams(ctx, &p));

  conv_internal::TransposeGeometry g;
  conv_internal::SetTransposeSizes(input, weights, &g);
  g.stride_h = p.stride_h;
  g.stride_w = p.stride_w;
  // No activation, no clamp (MediaPipe adds the bias and stops).
  g.act = {-std::numeric_limits<float>::infinity(),
           std::numeric_limits<float>::infinity()};
  int64_t total_h = 0, total_w = 0;
  if (p.padding == ir::Padding::kSame) {
    total_h = std::max<int64_t>(0, g.kh - (g.in_h - 1) % g.stride_h - 1);
    total_w = std::max<int64_t>(0, g.kw - (g.in_w - 1) % g.stride_w - 1);
  }
  g.out_h = g.stride_h * (g.in_h - 1) + g.kh - total_h;
  g.out_w = g.stride_w * (g.in_w - 1) + g.kw - total_w;
  g.pad_h = total_h / 2;
  g.pad_w = total_w / 2;
  if (g.in_h < 1 || g.in_w < 1 || g.out_h < 0 || g.out_w < 0) {
    return ctx.Error(absl::StrCat("input '", input.name(), "' ",
                                  DimsString(input.shape),
                                  " has no pixels to spread"));
  }
  auto* s = ctx.StateOrNew<DeconvBiasState>();
  s->core.PlanGemm(g);
  s->core.PlanOutput(g);
  s->weights_ready = weights.is_constant && weights.data != nullptr;
  if (s->weights_ready) s->core.PackWeights(weights.Data<float>());
  ctx.SetOutputShape(0, Dims{g.batches, g.out_h, g.out_w, g.out_c});
  return absl::OkStatus();
}

absl::Status EvalConvolution2DTransposeBias(OpContext& ctx) {
  DeconvBiasState& s = *ctx.state<DeconvBiasState>();
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  if (!s.weights_ready) s.core.PackWeights(ctx.input(1)->Data<float>());
  s.core.Run(ctx.pool(), ctx.input(0)->Data<float>(),
             ctx.input(2)->Data<float>(), output.Data<float>());
  return absl::OkStatus();
}

}  // namespace qforge::runtime
