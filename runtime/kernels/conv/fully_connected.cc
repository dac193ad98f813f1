// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// FULLY_CONNECTED (float32): weights [O, I], input of any rank read as
// [NumElements / I, I], optional bias [O]. Output [batch, O], or with
// keep_num_dims the input's shape with its last dimension replaced by O
// (which then requires the last input dimension to be I), as in TFLite.
// One GEMM: A is the input in place, B the weights transposed (packed in
// prepare when they are constant, on every eval otherwise). Constant weights
// of kInPlaceWeightBytes or more are read in place instead, one dot product
// per output: a packed copy would double a large model's memory (its
// weights are views of the mapped file), and reading the weights once is
// the cost either way when the input has few rows.
#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/parallel.h"
#include "runtime/kernels/conv/gemm.h"

namespace qforge::runtime {
namespace {

constexpr int64_t kInPlaceWeightBytes = int64_t{64} << 20;

struct FullyConnectedState : KernelState {
  int64_t batch = 0, in = 0, out = 0;
  conv_internal::ActRange act;
  conv_internal::GemmPlan plan;
  std::vector<float> packed, bias;
  bool weights_ready = false, bias_ready = false;
  bool in_place = false;  // dot products on the constant weights
};

// 16 independent partial sums (one vector register), added in a fixed
// order: the same bits on every run and thread count.
float Dot(const float* a, const float* b, int64_t k) {
  float acc[16] = {};
  int64_t i = 0;
  for (; i + 16 <= k; i += 16) {
    for (int j = 0; j < 16; ++j) acc[j] += a[i + j] * b[i + j];
  }
  for (; i < k; ++i) acc[i % 16] += a[i] * b[i];
  for (int width = 8; width >= 1; width /= 2) {
    for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
  }
  return acc[0];
}

void EvalInPlace(OpContext& ctx, const FullyConnectedState& s) {
  const float* in = ctx.input(0)->Data<float>();
  const float* weights = ctx.input(1)->Data<float>();
  float* out = ctx.output(0)->Data<float>();
  ParallelChunks(ctx, s.out, 64, [&](int64_t n0, int64_t n1) {
    for (int64_t n = n0; n < n1; ++n) {
      const float* w = weights + n * s.in;
      for (int64_t b = 0; b < s.batch; ++b) {
        const float v = Dot(in + b * s.in, w, s.in) + s.bias[n];
        out[b * s.out + n] = std::min(std::max(v, s.act.lo), s.act.hi);
      }
    }
  });
}

}  // namespace

absl::Status PrepareFullyConnected(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::FullyConnectedOptions>(ctx.op().options);
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 0, -1, "input"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 1, 2, "weights"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  if (opts.weights_format != 0) {
    return ctx.Unsupported(absl::StrCat(
        "weights_format ", static_cast<int>(opts.weights_format),
        " (shuffled int8 weights) is not supported on float inputs"));
  }
  if (ctx.num_outputs() > 1) {
    return ctx.Unsupported(
        "a second output (the shuffled-weights workspace) is not supported");
  }
  conv_internal::ActRange act;
  RETURN_IF_ERROR(conv_internal::ActivationRange(ctx, opts.activation, &act));
  const RtTensor& input = *ctx.input(0);
  const RtTensor& weights = *ctx.input(1);
  const RtTensor* bias = ctx.input(2);
  const int64_t out_units = weights.dim(0);
  const int64_t in_units = weights.dim(1);
  const int64_t total = input.NumElements();
  if (in_units == 0 || total % in_units != 0) {
    return ctx.Error(
        absl::StrCat("input '", input.name(), "' ", DimsString(input.shape),
                     " has ", total, " elements, not a multiple of the ",
                     in_units, " input features of weights '", weights.name(),
                     "' ", DimsString(weights.shape), " (dimension 1)"));
  }
  RETURN_IF_ERROR(conv_internal::ExpectFloatBias(ctx, 2, weights, out_units));
  if (opts.keep_num_dims &&
      (input.rank() == 0 || input.dim(input.rank() - 1) != in_units)) {
    return ctx.Error(absl::StrCat(
        "keep_num_dims: the last dimension of input '", input.name(), "' ",
        DimsString(input.shape), " must equal the ", in_units,
        " input features of weights '", weights.name(), "'"));
  }
  // keep_num_dims: the input's shape with the last dimension replaced.
  Dims out_shape(input.shape.begin(), input.shape.end());
  if (opts.keep_num_dims) {
    out_shape.back() = out_units;
  } else {
    out_shape.resize(2);
    out_shape[0] = total / in_units;
    out_shape[1] = out_units;
  }

  FullyConnectedState* s = ctx.StateOrNew<FullyConnectedState>();
  s->batch = total / in_units;
  s->in = in_units;
  s->out = out_units;
  s->act = act;
  s->plan = conv_internal::PlanGemm(s->batch, out_units, in_units);
  s->bias.resize(static_cast<size_t>(conv_internal::PaddedColumns(out_units)));
  s->weights_ready = weights.is_constant && weights.data != nullptr;
  s->in_place = s->weights_ready &&
                out_units * in_units * int64_t{4} >= kInPlaceWeightBytes;
  s->packed.clear();
  if (!s->in_place) {
    s->packed.resize(
        static_cast<size_t>(conv_internal::PackedSize(in_units, out_units)));
  }
  if (s->weights_ready && !s->in_place) {
    conv_internal::PackRhs(weights.Data<float>(), in_units, out_units, 1,
                           in_units, s->packed.data());
  }
  s->bias_ready =
      bias == nullptr || (bias->is_constant && bias->data != nullptr);
  if (s->bias_ready) {
    conv_internal::PackBias(bias == nullptr ? nullptr : bias->Data<float>(),
                            out_units, s->bias.data());
  }
  ctx.SetOutputShape(0, std::move(out_shape));
  return absl::OkStatus();
}

absl::Status EvalFullyConnected(OpContext& ctx) {
  FullyConnectedState& s = *ctx.state<FullyConnectedState>();
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  if (!s.weights_ready) {
    conv_internal::PackRhs(ctx.input(1)->Data<float>(), s.in, s.out, 1, s.in,
                           s.packed.data());
  }
  if (!s.bias_ready) {
    conv_internal::PackBias(ctx.input(2)->Data<float>(), s.out, s.bias.data());
  }
  if (s.in_place) {
    EvalInPlace(ctx, s);
    return absl::OkStatus();
  }
  const float* in = ctx.input(0)->Data<float>();
  float* out = output.Data<float>();
  auto a = [&](int64_t, int64_t row0, int64_t, float*,
               int64_t* lda) -> const float* {
    *lda = s.in;
    return in + row0 * s.in;
  };
  auto b = [&](int64_t) -> const float* { return s.packed.data(); };
  auto bias = [&](int64_t) -> const float* { return s.bias.data(); };
  auto c = [&](int64_t) { return out; };
  conv_internal::GemmOperands ops{a, false, b, bias, c, s.out, s.act};
  conv_internal::RunGemm(ctx.pool(), s.plan, 1, ops, nullptr);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
