// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL (float32): lhs [..., M, K] (adj_x: [..., K, M]) times rhs
// [..., K, N] (adj_y: [..., N, K]), batch dimensions broadcast
// (batch_matmul_shape.h). Output [broadcast batch..., M, N]. No fused
// activation.
//
// Each output batch is one GEMM. rhs batches are packed once (in prepare
// when rhs is constant, as for a weight, else at the start of eval); an
// adj_x lhs is transposed into scratch first.
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "base/status_macros.h"
#include "runtime/kernels/conv/batch_matmul_shape.h"
#include "runtime/kernels/conv/gemm.h"

namespace qforge::runtime {
namespace {

struct BatchMatMulState : KernelState, BatchMatMulShape {
  conv_internal::GemmPlan plan;
  int64_t packed_stride = 0;
  std::vector<float> packed, lhs_t, bias;
  bool rhs_ready = false;
};

void PackRhsBatches(BatchMatMulState& s, const float* rhs) {
  for (int64_t b = 0; b < s.rhs_batches; ++b) {
    const float* src = rhs + b * s.k * s.n;
    float* dst = s.packed.data() + b * s.packed_stride;
    if (s.adj_y) {  // rhs batch is [N, K]
      conv_internal::PackRhs(src, s.k, s.n, 1, s.k, dst);
    } else {  // [K, N]
      conv_internal::PackRhs(src, s.k, s.n, s.n, 1, dst);
    }
  }
}

}  // namespace

absl::Status PrepareBatchMatMul(OpContext& ctx) {
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 0, -1, "lhs"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 1, -1, "rhs"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  const RtTensor& lhs = *ctx.input(0);
  const RtTensor& rhs = *ctx.input(1);
  BatchMatMulState* s = ctx.StateOrNew<BatchMatMulState>();
  RETURN_IF_ERROR(ComputeBatchMatMulShape(ctx, lhs, rhs, s));
  const int64_t m = s->m, n = s->n, k = s->k;
  s->plan = conv_internal::PlanGemm(m, n, k);
  s->packed_stride = conv_internal::PackedSize(k, n);
  s->packed.resize(static_cast<size_t>(s->rhs_batches * s->packed_stride));
  s->lhs_t.resize(s->adj_x ? static_cast<size_t>(lhs.NumElements()) : 0);
  s->bias.assign(static_cast<size_t>(conv_internal::PaddedColumns(n)), 0.0f);
  s->rhs_ready = rhs.is_constant && rhs.data != nullptr;
  if (s->rhs_ready) PackRhsBatches(*s, rhs.Data<float>());

  ctx.SetOutputShape(0, s->output_shape);
  return absl::OkStatus();
}

absl::Status EvalBatchMatMul(OpContext& ctx) {
  BatchMatMulState& s = *ctx.state<BatchMatMulState>();
  RtTensor& output = *ctx.output(0);
  if (output.NumElements() == 0) return absl::OkStatus();
  if (!s.rhs_ready) PackRhsBatches(s, ctx.input(1)->Data<float>());
  const float* lhs = ctx.input(0)->Data<float>();
  if (s.adj_x) {  // [K, M] -> [M, K] per batch
    for (int64_t b = 0; b < s.lhs_batches; ++b) {
      const float* src = lhs + b * s.k * s.m;
      float* dst = s.lhs_t.data() + b * s.k * s.m;
      for (int64_t i = 0; i < s.m; ++i) {
        for (int64_t j = 0; j < s.k; ++j) dst[i * s.k + j] = src[j * s.m + i];
      }
    }
    lhs = s.lhs_t.data();
  }
  float* out = output.Data<float>();
  const conv_internal::ActRange none{-std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::infinity()};
  auto a = [&](int64_t b, int64_t row0, int64_t, float*,
               int64_t* lda) -> const float* {
    *lda = s.k;
    return lhs + s.lhs_index[static_cast<size_t>(b)] * s.m * s.k + row0 * s.k;
  };
  auto pb = [&](int64_t b) -> const float* {
    return s.packed.data() +
           s.rhs_index[static_cast<size_t>(b)] * s.packed_stride;
  };
  auto bias = [&](int64_t) -> const float* { return s.bias.data(); };
  auto c = [&](int64_t b) { return out + b * s.m * s.n; };
  conv_internal::GemmOperands ops{a, false, pb, bias, c, s.n, none};
  conv_internal::RunGemm(ctx.pool(), s.plan,
                         static_cast<int64_t>(s.lhs_index.size()), ops,
                         nullptr);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
