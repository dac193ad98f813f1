// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The conv family's shared helpers (conv.h): activation ranges, input
// checks, the integer and hybrid FULLY_CONNECTED's shapes.
#include "runtime/kernels/conv/conv.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace qforge::runtime::conv_internal {

absl::Status ActivationRange(const OpContext& ctx, ir::Activation act,
                             ActRange* range) {
  switch (act) {
    // Unbounded sides are infinite, as in LiteRT's XNNPACK path (TFLite's
    // reference kernels clamp to +/-FLT_MAX instead): an overflow stays inf.
    case ir::Activation::kNone:
      range->lo = -std::numeric_limits<float>::infinity();
      range->hi = std::numeric_limits<float>::infinity();
      return absl::OkStatus();
    case ir::Activation::kRelu:
      range->lo = 0.0f;
      range->hi = std::numeric_limits<float>::infinity();
      return absl::OkStatus();
    case ir::Activation::kReluN1To1:
      range->lo = -1.0f;
      range->hi = 1.0f;
      return absl::OkStatus();
    case ir::Activation::kRelu6:
      range->lo = 0.0f;
      range->hi = 6.0f;
      return absl::OkStatus();
    case ir::Activation::kTanh:
      return ctx.Unsupported(
          "fused activation TANH is not supported on this op");
    case ir::Activation::kSignBit:
      return ctx.Unsupported(
          "fused activation SIGN_BIT is not supported on this op");
  }
  return ctx.Error(absl::StrCat("fused activation value ",
                                static_cast<int>(act), " is unknown"));
}

absl::Status ExpectFloatInput(const OpContext& ctx, int i, int rank,
                              const char* role) {
  const RtTensor* t = ctx.input(i);
  if (t == nullptr) {
    return ctx.Error(absl::StrCat("input ", i, " (", role, ") is missing"));
  }
  if (t->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(
        absl::StrCat("input ", i, " (", role, ") '", t->name(), "' is ",
                     ir::DataTypeName(t->type), "; this kernel takes float32"));
  }
  if (rank >= 0 && t->rank() != rank) {
    return ctx.Error(absl::StrCat("input ", i, " (", role, ") '", t->name(),
                                  "' has shape ", DimsString(t->shape),
                                  "; it must have rank ", rank));
  }
  for (int64_t d : t->shape) {
    if (d < 0) {
      return ctx.Error(absl::StrCat("input ", i, " (", role, ") '", t->name(),
                                    "' has a negative dimension ",
                                    DimsString(t->shape)));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadFloatConv(const OpContext& ctx, bool depthwise,
                           ConvGeometry* g, ActRange* act) {
  RETURN_IF_ERROR(ExpectFloatInput(ctx, 0, 4, "input"));
  RETURN_IF_ERROR(ExpectFloatInput(ctx, 1, 4, "filter"));
  RETURN_IF_ERROR(ExpectFloatOutput(ctx));
  RETURN_IF_ERROR(ReadConvGeometry(ctx, depthwise, g));
  return ActivationRange(ctx, g->activation, act);
}

absl::Status ExpectFloatBias(const OpContext& ctx, int i,
                             const RtTensor& weights, int64_t channels) {
  const RtTensor* bias = ctx.input(i);
  if (bias == nullptr) return absl::OkStatus();
  RETURN_IF_ERROR(ExpectFloatInput(ctx, i, -1, "bias"));
  if (bias->NumElements() != channels) {
    return ctx.Error(
        absl::StrCat("bias '", bias->name(), "' ", DimsString(bias->shape),
                     " has ", bias->NumElements(), " elements; '",
                     weights.name(), "' has ", channels, " output channels"));
  }
  return absl::OkStatus();
}

absl::Status ExpectFloatOutput(const OpContext& ctx) {
  if (ctx.num_outputs() < 1 || ctx.output(0) == nullptr) {
    return ctx.Error("output 0 is missing");
  }
  const RtTensor* out = ctx.output(0);
  if (out->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat("output 0 '", out->name(), "' is ",
                                        ir::DataTypeName(out->type),
                                        "; this kernel produces float32"));
  }
  return absl::OkStatus();
}

absl::Status FcOutputShape(OpContext& ctx, const RtTensor& in,
                           const RtTensor& w, FcShape* s) {
  const auto o = ir::OptionsOr<ir::FullyConnectedOptions>(ctx.op().options);
  if (o.weights_format != 0) {
    return ctx.Unsupported("shuffled FULLY_CONNECTED weights");
  }
  if (w.rank() != 2) {
    return ctx.Error(absl::StrCat("weights '", w.name(), "' have shape ",
                                  DimsString(w.shape), "; expected rank 2"));
  }
  s->units = w.dim(0);
  s->depth = w.dim(1);
  const int64_t n = in.NumElements();
  if (s->depth == 0) {
    s->batch = in.rank() > 0 ? n / std::max<int64_t>(1, in.shape.back()) : 1;
  } else {
    if (n % s->depth != 0) {
      return ctx.Error(absl::StrCat(
          "input '", in.name(), "' ", DimsString(in.shape), " has ", n,
          " elements, not a multiple of depth ", s->depth));
    }
    s->batch = n / s->depth;
  }
  if (o.keep_num_dims) {
    if (in.rank() == 0 || in.shape.back() != s->depth) {
      return ctx.Error(absl::StrCat(
          "keep_num_dims: input '", in.name(), "' ", DimsString(in.shape),
          " must end in the weights depth ", s->depth));
    }
    Dims out = in.shape;
    out.back() = s->units;
    ctx.SetOutputShape(0, out);
  } else {
    ctx.SetOutputShape(0, Dims{s->batch, s->units});
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime::conv_internal
