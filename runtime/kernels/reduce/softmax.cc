// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SOFTMAX, LOG_SOFTMAX and L2_NORMALIZATION (float32): normalizations of
// each row along the last axis, as TFLite's reference kernels
// (internal/reference/softmax.h, log_softmax.h, l2normalization.h):
//   SOFTMAX:     m = max(x); e_c = exp((x_c - m) * beta); y_c = e_c / sum(e)
//   LOG_SOFTMAX: m = max(x); y_c = x_c - m - log(sum(exp(x_c - m)))
//                (beta is not part of LOG_SOFTMAX)
//   L2_NORM:     y_c = x_c / max(sqrt(sum(x^2)), 1e-6)
// Sums run in index order, in float. Rows are independent; tasks are whole
// rows.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "runtime/kernels/reduce/reduce.h"

namespace qforge::runtime {
namespace {

// TFLite's hard-coded epsilon of the float L2 norm (kernels/l2norm.cc).
constexpr float kL2Epsilon = 1e-6f;

enum class NormKind { kSoftmax, kLogSoftmax, kL2 };

absl::Status PrepareNorm(OpContext& ctx, NormKind kind) {
  if (ctx.num_inputs() != 1 || ctx.num_outputs() != 1 ||
      ctx.input(0) == nullptr) {
    return ctx.Error("takes 1 input and 1 output");
  }
  const RtTensor& input = *ctx.input(0);
  if (input.type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat("input '", input.name(), "' is ",
                                        ir::DataTypeName(input.type),
                                        "; this kernel takes float32"));
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' is ",
                                  ir::DataTypeName(ctx.output(0)->type),
                                  "; it must be float32"));
  }
  if (input.rank() < 1) {
    return ctx.Error(absl::StrCat("input '", input.name(),
                                  "' is a scalar; it needs rank >= 1"));
  }
  if (kind == NormKind::kL2) {
    // TFLite's L2_NORMALIZATION checks both.
    if (input.rank() > 4) {
      return ctx.Error(absl::StrCat("input '", input.name(), "' has rank ",
                                    input.rank(), "; at most 4 is allowed"));
    }
    const ir::Activation act =
        ir::OptionsOr<ir::ActivationOptions>(ctx.op().options).activation;
    if (act != ir::Activation::kNone) {
      return ctx.Error(
          "a fused activation is not allowed on L2_NORMALIZATION (TFLite "
          "rejects it)");
    }
  }
  ctx.SetOutputShape(0, input.shape);
  return absl::OkStatus();
}

struct NormArgs {
  const float* in;
  float* out;
  int64_t depth;
  int64_t rows;
  int64_t rows_per_task;
  float beta;
};

template <NormKind K>
void NormRows(const NormArgs& a, int64_t task) {
  const int64_t r0 = task * a.rows_per_task;
  const int64_t r1 = std::min(a.rows, r0 + a.rows_per_task);
  const int64_t depth = a.depth;
  for (int64_t r = r0; r < r1; ++r) {
    const float* x = a.in + r * depth;
    float* y = a.out + r * depth;
    if constexpr (K == NormKind::kSoftmax) {
      float max = std::numeric_limits<float>::lowest();
      for (int64_t c = 0; c < depth; ++c) max = std::max(max, x[c]);
      float sum = 0.f;
      for (int64_t c = 0; c < depth; ++c) {
        const float e = std::exp((x[c] - max) * a.beta);
        y[c] = e;
        sum += e;
      }
      for (int64_t c = 0; c < depth; ++c) y[c] = y[c] / sum;
    } else if constexpr (K == NormKind::kLogSoftmax) {
      float max = std::numeric_limits<float>::lowest();
      for (int64_t c = 0; c < depth; ++c) max = std::max(max, x[c]);
      float sum = 0.f;
      for (int64_t c = 0; c < depth; ++c) sum += std::exp(x[c] - max);
      const float log_sum = std::log(sum);
      for (int64_t c = 0; c < depth; ++c) y[c] = x[c] - max - log_sum;
    } else {
      float sq = 0.f;
      for (int64_t c = 0; c < depth; ++c) sq += x[c] * x[c];
      const float norm = std::max(std::sqrt(sq), kL2Epsilon);
      for (int64_t c = 0; c < depth; ++c) y[c] = x[c] / norm;
    }
  }
}

template <NormKind K>
absl::Status EvalNorm(OpContext& ctx) {
  const RtTensor& input = *ctx.input(0);
  NormArgs args;
  args.in = input.Data<float>();
  args.out = ctx.output(0)->Data<float>();
  args.depth = input.dim(input.rank() - 1);
  args.rows = args.depth == 0 ? 0 : input.NumElements() / args.depth;
  args.beta = ir::OptionsOr<ir::SoftmaxOptions>(ctx.op().options).beta;
  constexpr int64_t kWorkPerTask = 16 * 1024;
  args.rows_per_task =
      std::max<int64_t>(1, kWorkPerTask / std::max<int64_t>(1, args.depth));
  const int64_t num_tasks =
      (args.rows + args.rows_per_task - 1) / args.rows_per_task;
  const NormArgs* a = &args;
  ctx.pool().ParallelFor(num_tasks,
                         [a](int64_t task) { NormRows<K>(*a, task); });
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PrepareSoftmax, PrepareNorm(ctx, NormKind::kSoftmax))
QF_KERNEL_AS(EvalSoftmax, EvalNorm<NormKind::kSoftmax>(ctx))
QF_KERNEL_AS(PrepareLogSoftmax, PrepareNorm(ctx, NormKind::kLogSoftmax))
QF_KERNEL_AS(EvalLogSoftmax, EvalNorm<NormKind::kLogSoftmax>(ctx))
QF_KERNEL_AS(PrepareL2Normalization, PrepareNorm(ctx, NormKind::kL2))
QF_KERNEL_AS(EvalL2Normalization, EvalNorm<NormKind::kL2>(ctx))

}  // namespace qforge::runtime
