// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV (float32): inputs output_shape (int32 [4]), weights
// [O, KH, KW, C], input [N, H, W, C], optional bias [O]. Output
// `output_shape`. As TFLite: the padding is the one a forward convolution
// from the output size would use (SAME/VALID arithmetic on the output's
// height and width, no dilation), and input pixel (y, x) spreads
// input * filter over output (y * stride - pad + ky, x * stride - pad + kx);
// then bias and the fused activation.
//
// Computed as a GEMM, col = input[N*H*W, C] x filter^T[C, KH*KW*O], then a
// gather per output row (each output element sums the col entries that
// land on it in a fixed order), so tasks never write the same element.
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv.h"
#include "runtime/kernels/conv_internal.h"

namespace qforge::runtime {
namespace {

struct TransposeConvState : KernelState {
  int64_t batches = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t out_h = 0, out_w = 0, out_c = 0, kh = 0, kw = 0;
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  ir::Padding padding = ir::Padding::kSame;
  conv_internal::ActRange act;
  conv_internal::GemmPlan plan;
  std::vector<float> packed, col, zero_bias;
  bool weights_ready = false;
  bool shape_pending = false;  // output_shape only known in eval
  int64_t rows_per_task = 1, tasks = 1;
};

// TFLite's padding for TRANSPOSE_CONV: that of a forward conv over the
// output size (never an error; a negative total counts as 0).
int64_t TransposePad(ir::Padding padding, int64_t size, int64_t filter,
                     int64_t stride) {
  const int64_t conv_out = padding == ir::Padding::kSame
                               ? (size + stride - 1) / stride
                               : (size - filter + stride) / stride;
  const int64_t total = (conv_out - 1) * stride + filter - size;
  return total > 0 ? total / 2 : 0;
}

// Reads and checks output_shape; configures the output geometry.
absl::Status Configure(const OpContext& ctx, TransposeConvState* s,
                       Dims* out_shape) {
  const RtTensor& shape = *ctx.input(0);
  const int32_t* v = shape.Data<int32_t>();
  for (int i = 0; i < 4; ++i) {
    if (v[i] < 0) {
      return ctx.Error(absl::StrCat("output_shape '", shape.name(),
                                    "' has a negative value ", v[i]));
    }
  }
  if (v[0] != s->batches || v[3] != s->out_c) {
    return ctx.Error(absl::StrCat(
        "output_shape '", shape.name(), "' is [", v[0], ",", v[1], ",", v[2],
        ",", v[3], "]; its batch must be the input's (", s->batches,
        ") and its depth the weights' output channels (", s->out_c, ")"));
  }
  s->out_h = v[1];
  s->out_w = v[2];
  s->pad_h = TransposePad(s->padding, s->out_h, s->kh, s->stride_h);
  s->pad_w = TransposePad(s->padding, s->out_w, s->kw, s->stride_w);
  const int64_t rows = s->batches * s->out_h;
  const int64_t row_work =
      std::max<int64_t>(1, s->out_w * s->out_c * s->kh * s->kw);
  constexpr int64_t kMinTaskWork = int64_t{1} << 18;
  s->tasks = conv_internal::SplitWork(
      rows, (kMinTaskWork + row_work - 1) / row_work, &s->rows_per_task);
  *out_shape = Dims{v[0], v[1], v[2], v[3]};
  return absl::OkStatus();
}

void PackWeights(TransposeConvState& s, const float* w) {
  // B[c][(ky * KW + kx) * O + o] = w[o][ky][kx][c].
  const int64_t taps = s.kh * s.kw;
  const int64_t c_count = s.in_c;
  const int64_t o_count = s.out_c;
  conv_internal::PackRhsFn(
      [&](int64_t c, int64_t j) {
        const int64_t tap = j / o_count, o = j % o_count;
        return w[(o * taps + tap) * c_count + c];
      },
      s.in_c, taps * s.out_c, s.packed.data());
}

}  // namespace

absl::Status PrepareTransposeConv(OpContext& ctx) {
  const auto opts = ir::OptionsOr<ir::TransposeConvOptions>(ctx.op().options);
  const RtTensor* shape = ctx.input(0);
  if (shape == nullptr) return ctx.Error("input 0 (output_shape) is missing");
  if (shape->type != ir::DataType::kInt32) {
    return ctx.Unsupported(absl::StrCat("output_shape '", shape->name(),
                                        "' is ", ir::DataTypeName(shape->type),
                                        "; it must be int32"));
  }
  if (shape->rank() != 1 || shape->dim(0) != 4) {
    return ctx.Error(absl::StrCat("output_shape '", shape->name(), "' ",
                                  DimsString(shape->shape),
                                  " must hold 4 values"));
  }
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 1, 4, "weights"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 2, 4, "input"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  const RtTensor& weights = *ctx.input(1);
  const RtTensor& input = *ctx.input(2);
  const RtTensor* bias = ctx.input(3);
  RETURN_IF_ERROR(
      conv_internal::ExpectPositive(ctx, "stride_h", opts.stride_h));
  RETURN_IF_ERROR(
      conv_internal::ExpectPositive(ctx, "stride_w", opts.stride_w));
  if (opts.padding != ir::Padding::kSame &&
      opts.padding != ir::Padding::kValid) {
    return ctx.Error(absl::StrCat("padding value ",
                                  static_cast<int>(opts.padding),
                                  " is neither SAME nor VALID"));
  }
  conv_internal::ActRange act;
  RETURN_IF_ERROR(conv_internal::ActivationRange(ctx, opts.activation, &act));
  if (weights.dim(3) != input.dim(3)) {
    return ctx.Error(absl::StrCat(
        "weights '", weights.name(), "' ", DimsString(weights.shape), " have ",
        weights.dim(3), " input channels (dimension 3) but input '",
        input.name(), "' ", DimsString(input.shape), " has ", input.dim(3)));
  }
  if (bias != nullptr) {
    RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 3, -1, "bias"));
    if (bias->NumElements() != weights.dim(0)) {
      return ctx.Error(absl::StrCat(
          "bias '", bias->name(), "' ", DimsString(bias->shape), " has ",
          bias->NumElements(), " elements; weights '", weights.name(),
          "' have ", weights.dim(0), " output channels"));
    }
  }

  TransposeConvState* s = ctx.state<TransposeConvState>();
  if (s == nullptr) {
    ctx.set_state(std::make_unique<TransposeConvState>());
    s = ctx.state<TransposeConvState>();
  }
  s->batches = input.dim(0);
  s->in_h = input.dim(1);
  s->in_w = input.dim(2);
  s->in_c = input.dim(3);
  s->out_c = weights.dim(0);
  s->kh = weights.dim(1);
  s->kw = weights.dim(2);
  s->stride_h = opts.stride_h;
  s->stride_w = opts.stride_w;
  s->padding = opts.padding;
  s->act = act;
  const int64_t m = s->batches * s->in_h * s->in_w;
  const int64_t n = s->kh * s->kw * s->out_c;
  s->plan = conv_internal::PlanGemm(m, n, s->in_c);
  s->packed.resize(static_cast<size_t>(conv_internal::PackedSize(s->in_c, n)));
  s->col.resize(static_cast<size_t>(m * n));
  s->zero_bias.assign(static_cast<size_t>(conv_internal::PaddedColumns(n)),
                      0.0f);
  s->weights_ready = weights.is_constant && weights.data != nullptr;
  if (s->weights_ready) PackWeights(*s, weights.Data<float>());

  if (!shape->is_constant) ctx.SetShapeDependsOnData();
  s->shape_pending = !ctx.InputValueKnown(0);
  if (s->shape_pending) return absl::OkStatus();
  Dims out_shape;
  RETURN_IF_ERROR(Configure(ctx, s, &out_shape));
  ctx.SetOutputShape(0, std::move(out_shape));
  return absl::OkStatus();
}

absl::Status EvalTransposeConv(OpContext& ctx) {
  TransposeConvState& s = *ctx.state<TransposeConvState>();
  if (s.shape_pending) {
    Dims out_shape;
    RETURN_IF_ERROR(Configure(ctx, &s, &out_shape));
    RETURN_IF_ERROR(ctx.ResizeOutput(0, std::move(out_shape)));
  }
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  if (!s.weights_ready) PackWeights(s, ctx.input(1)->Data<float>());
  const float* in = ctx.input(2)->Data<float>();
  const RtTensor* bias_t = ctx.input(3);
  const float* bias = bias_t != nullptr ? bias_t->Data<float>() : nullptr;
  const int64_t n = s.kh * s.kw * s.out_c;

  // col = input x filter^T (no bias, no clamp).
  const conv_internal::ActRange none{-std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::infinity()};
  auto a = [&](int64_t, int64_t row0, int64_t, float*,
               int64_t* lda) -> const float* {
    *lda = s.in_c;
    return in + row0 * s.in_c;
  };
  auto pb = [&](int64_t) -> const float* { return s.packed.data(); };
  auto zb = [&](int64_t) -> const float* { return s.zero_bias.data(); };
  auto c = [&](int64_t) { return s.col.data(); };
  conv_internal::GemmOperands ops{a, false, pb, zb, c, n, none};
  conv_internal::RunGemm(ctx.pool(), s.plan, 1, ops, nullptr);

  // Gather: output (b, oy, ox) sums col[(b, iy, ix), (ky, kx), :] over the
  // taps with oy = iy * stride - pad + ky (and likewise for x).
  float* out = output.Data<float>();
  const int64_t rows = s.batches * s.out_h;
  const int64_t oc = s.out_c;
  auto task = [&](int64_t t) {
    const int64_t r0 = t * s.rows_per_task;
    const int64_t r1 = std::min(rows, r0 + s.rows_per_task);
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / s.out_h, oy = row % s.out_h;
      for (int64_t ox = 0; ox < s.out_w; ++ox) {
        float* o = out + (row * s.out_w + ox) * oc;
        std::fill(o, o + oc, 0.0f);
        for (int64_t ky = 0; ky < s.kh; ++ky) {
          const int64_t ny = oy + s.pad_h - ky;
          if (ny < 0 || ny % s.stride_h != 0) continue;
          const int64_t iy = ny / s.stride_h;
          if (iy >= s.in_h) continue;
          for (int64_t kx = 0; kx < s.kw; ++kx) {
            const int64_t nx = ox + s.pad_w - kx;
            if (nx < 0 || nx % s.stride_w != 0) continue;
            const int64_t ix = nx / s.stride_w;
            if (ix >= s.in_w) continue;
            const float* src = s.col.data() +
                               ((b * s.in_h + iy) * s.in_w + ix) * n +
                               (ky * s.kw + kx) * oc;
            for (int64_t j = 0; j < oc; ++j) o[j] += src[j];
          }
        }
        for (int64_t j = 0; j < oc; ++j) {
          const float v = bias != nullptr ? o[j] + bias[j] : o[j];
          o[j] = conv_internal::Vec<1>::Clamp(v, s.act.lo, s.act.hi);
        }
      }
    }
  };
  ctx.pool().ParallelFor(s.tasks, task);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
