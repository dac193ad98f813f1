// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV (float32): inputs output_shape (int32 [4]), weights
// [O, KH, KW, C], input [N, H, W, C], optional bias [O]. Output
// `output_shape`. As TFLite: the padding is the one a forward convolution
// from the output size would use (SAME/VALID arithmetic on the output's
// height and width, no dilation); the computation is the shared transposed
// convolution (transpose_conv.h).
#include "runtime/kernels/conv/transpose_conv.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/conv/gemm.h"

namespace qforge::runtime {
namespace {

struct TransposeConvState : KernelState {
  conv_internal::TransposeGeometry g;
  conv_internal::TransposeConvCore core;
  ir::Padding padding = ir::Padding::kSame;
  bool weights_ready = false;
  bool shape_pending = false;  // output_shape only known in eval
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
  conv_internal::TransposeGeometry& g = s->g;
  if (v[0] != g.batches || v[3] != g.out_c) {
    return ctx.Error(absl::StrCat(
        "output_shape '", shape.name(), "' is [", v[0], ",", v[1], ",", v[2],
        ",", v[3], "]; its batch must be the input's (", g.batches,
        ") and its depth the weights' output channels (", g.out_c, ")"));
  }
  g.out_h = v[1];
  g.out_w = v[2];
  g.pad_h = TransposePad(s->padding, g.out_h, g.kh, g.stride_h);
  g.pad_w = TransposePad(s->padding, g.out_w, g.kw, g.stride_w);
  s->core.PlanOutput(g);
  *out_shape = Dims{v[0], v[1], v[2], v[3]};
  return absl::OkStatus();
}

}  // namespace

namespace conv_internal {

void TransposeConvCore::PlanGemm(const TransposeGeometry& g) {
  g_ = g;
  const int64_t m = g.batches * g.in_h * g.in_w;
  const int64_t n = g.kh * g.kw * g.out_c;
  plan_ = conv_internal::PlanGemm(m, n, g.in_c);
  packed_.resize(static_cast<size_t>(PackedSize(g.in_c, n)));
  col_.resize(static_cast<size_t>(m * n));
  zero_bias_.assign(static_cast<size_t>(PaddedColumns(n)), 0.0f);
}

void TransposeConvCore::PlanOutput(const TransposeGeometry& g) {
  g_ = g;
  const int64_t rows = g.batches * g.out_h;
  const int64_t row_work =
      std::max<int64_t>(1, g.out_w * g.out_c * g.kh * g.kw);
  constexpr int64_t kMinTaskWork = int64_t{1} << 18;
  tasks_ = SplitWork(rows, (kMinTaskWork + row_work - 1) / row_work,
                     &rows_per_task_);
}

void TransposeConvCore::PackWeights(const float* w) {
  // B[c][(ky * KW + kx) * O + o] = w[o][ky][kx][c].
  const int64_t taps = g_.kh * g_.kw;
  const int64_t c_count = g_.in_c;
  const int64_t o_count = g_.out_c;
  PackRhsFn(
      [&](int64_t c, int64_t j) {
        const int64_t tap = j / o_count, o = j % o_count;
        return w[(o * taps + tap) * c_count + c];
      },
      g_.in_c, taps * g_.out_c, packed_.data());
}

void TransposeConvCore::Run(ThreadPool& pool, const float* in,
                            const float* bias, float* out) {
  const TransposeGeometry& g = g_;
  const int64_t n = g.kh * g.kw * g.out_c;
  // col = input x filter^T (no bias, no clamp).
  const ActRange none{-std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::infinity()};
  auto a = [&](int64_t, int64_t row0, int64_t, float*,
               int64_t* lda) -> const float* {
    *lda = g.in_c;
    return in + row0 * g.in_c;
  };
  auto pb = [&](int64_t) -> const float* { return packed_.data(); };
  auto zb = [&](int64_t) -> const float* { return zero_bias_.data(); };
  auto c = [&](int64_t) { return col_.data(); };
  GemmOperands ops{a, false, pb, zb, c, n, none};
  RunGemm(pool, plan_, 1, ops, nullptr);

  // Gather: output (b, oy, ox) sums col[(b, iy, ix), (ky, kx), :] over the
  // taps with oy = iy * stride - pad + ky (and likewise for x).
  const int64_t rows = g.batches * g.out_h;
  const int64_t oc = g.out_c;
  auto task = [&](int64_t t) {
    const int64_t r0 = t * rows_per_task_;
    const int64_t r1 = std::min(rows, r0 + rows_per_task_);
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / g.out_h, oy = row % g.out_h;
      for (int64_t ox = 0; ox < g.out_w; ++ox) {
        float* o = out + (row * g.out_w + ox) * oc;
        std::fill(o, o + oc, 0.0f);
        FoldTransposedTaps(
            oy, ox, g.kh, g.kw, g.stride_h, g.stride_w, g.pad_h, g.pad_w,
            g.in_h, g.in_w, 0,
            [&](int none, int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
              const float* src = col_.data() +
                                 ((b * g.in_h + iy) * g.in_w + ix) * n +
                                 (ky * g.kw + kx) * oc;
              for (int64_t j = 0; j < oc; ++j) o[j] += src[j];
              return none;
            });
        for (int64_t j = 0; j < oc; ++j) {
          const float v = bias != nullptr ? o[j] + bias[j] : o[j];
          o[j] = Vec<1>::Clamp(v, g.act.lo, g.act.hi);
        }
      }
    }
  };
  pool.ParallelFor(tasks_, task);
}

void SetTransposeSizes(const RtTensor& input, const RtTensor& weights,
                       TransposeGeometry* g) {
  g->batches = input.dim(0);
  g->in_h = input.dim(1);
  g->in_w = input.dim(2);
  g->in_c = input.dim(3);
  g->out_c = weights.dim(0);
  g->kh = weights.dim(1);
  g->kw = weights.dim(2);
}

}  // namespace conv_internal

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
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_h", opts.stride_h));
  RETURN_IF_ERROR(ExpectPositive(ctx, "stride_w", opts.stride_w));
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
  RETURN_IF_ERROR(
      conv_internal::ExpectFloatBias(ctx, 3, weights, weights.dim(0)));

  TransposeConvState* s = ctx.StateOrNew<TransposeConvState>();
  conv_internal::TransposeGeometry& g = s->g;
  conv_internal::SetTransposeSizes(input, weights, &g);
  g.stride_h = opts.stride_h;
  g.stride_w = opts.stride_w;
  g.act = act;
  s->padding = opts.padding;
  s->core.PlanGemm(g);
  s->weights_ready = weights.is_constant && weights.data != nullptr;
  if (s->weights_ready) s->core.PackWeights(weights.Data<float>());

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
  if (!s.weights_ready) s.core.PackWeights(ctx.input(1)->Data<float>());
  const RtTensor* bias = ctx.input(3);
  s.core.Run(ctx.pool(), ctx.input(2)->Data<float>(),
             bias != nullptr ? bias->Data<float>() : nullptr,
             output.Data<float>());
  return absl::OkStatus();
}

}  // namespace qforge::runtime
