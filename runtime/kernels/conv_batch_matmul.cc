// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL (float32): lhs [..., M, K] (adj_x: [..., K, M]) times rhs
// [..., K, N] (adj_y: [..., N, K]); the batch dimensions broadcast NumPy
// style (missing leading ones count as 1), as in TFLite. Output
// [broadcast batch..., M, N]. No fused activation.
//
// Each output batch is one GEMM. rhs batches are packed once (in prepare
// when rhs is constant, as for a weight, else at the start of eval); an
// adj_x lhs is transposed into scratch first.
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

struct BatchMatMulState : KernelState {
  int64_t m = 0, n = 0, k = 0;
  bool adj_x = false, adj_y = false;
  int64_t lhs_batches = 0, rhs_batches = 0;
  std::vector<int64_t> lhs_index, rhs_index;  // per output batch
  conv_internal::GemmPlan plan;
  int64_t packed_stride = 0;
  std::vector<float> packed, lhs_t, bias;
  bool rhs_ready = false;
};

// Row-major offsets of each output batch's lhs and rhs batch, given the
// batch shapes padded to the output's batch rank.
void BroadcastIndex(const Dims& out, const Dims& lhs, const Dims& rhs,
                    std::vector<int64_t>* li, std::vector<int64_t>* ri) {
  const size_t rank = out.size();
  const int64_t count = NumElements(out);
  li->assign(static_cast<size_t>(count), 0);
  ri->assign(static_cast<size_t>(count), 0);
  std::vector<int64_t> idx(rank, 0);
  for (int64_t o = 0; o < count; ++o) {
    int64_t l = 0, r = 0;
    for (size_t d = 0; d < rank; ++d) {
      l = l * lhs[d] + (lhs[d] == 1 ? 0 : idx[d]);
      r = r * rhs[d] + (rhs[d] == 1 ? 0 : idx[d]);
    }
    (*li)[static_cast<size_t>(o)] = l;
    (*ri)[static_cast<size_t>(o)] = r;
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
}

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
  const auto opts = ir::OptionsOr<ir::BatchMatMulOptions>(ctx.op().options);
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 0, -1, "lhs"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatInput(ctx, 1, -1, "rhs"));
  RETURN_IF_ERROR(conv_internal::ExpectFloatOutput(ctx));
  const RtTensor& lhs = *ctx.input(0);
  const RtTensor& rhs = *ctx.input(1);
  for (const RtTensor* t : {&lhs, &rhs}) {
    if (t->rank() < 2) {
      return ctx.Error(absl::StrCat("'", t->name(), "' ", DimsString(t->shape),
                                    " must have rank 2 or more"));
    }
  }
  const int lr = lhs.rank(), rr = rhs.rank();
  const int64_t m = opts.adj_x ? lhs.dim(lr - 1) : lhs.dim(lr - 2);
  const int64_t k = opts.adj_x ? lhs.dim(lr - 2) : lhs.dim(lr - 1);
  const int64_t rhs_k = opts.adj_y ? rhs.dim(rr - 1) : rhs.dim(rr - 2);
  const int64_t n = opts.adj_y ? rhs.dim(rr - 2) : rhs.dim(rr - 1);
  if (k != rhs_k) {
    return ctx.Error(
        absl::StrCat("lhs '", lhs.name(), "' ", DimsString(lhs.shape),
                     (opts.adj_x ? " (adj_x)" : ""), " has inner dimension ", k,
                     " but rhs '", rhs.name(), "' ", DimsString(rhs.shape),
                     (opts.adj_y ? " (adj_y)" : ""), " has ", rhs_k,
                     "; they must be equal"));
  }
  Dims lb(lhs.shape.begin(), lhs.shape.end() - 2);
  Dims rb(rhs.shape.begin(), rhs.shape.end() - 2);
  Dims out_batch;
  RETURN_IF_ERROR(BroadcastShapes(ctx, lb, rb, &out_batch));
  // Pad both batch shapes to the output's batch rank.
  while (lb.size() < out_batch.size()) lb.insert(lb.begin(), 1);
  while (rb.size() < out_batch.size()) rb.insert(rb.begin(), 1);

  BatchMatMulState* s = ctx.state<BatchMatMulState>();
  if (s == nullptr) {
    ctx.set_state(std::make_unique<BatchMatMulState>());
    s = ctx.state<BatchMatMulState>();
  }
  s->m = m;
  s->n = n;
  s->k = k;
  s->adj_x = opts.adj_x;
  s->adj_y = opts.adj_y;
  s->lhs_batches = NumElements(lb);
  s->rhs_batches = NumElements(rb);
  BroadcastIndex(out_batch, lb, rb, &s->lhs_index, &s->rhs_index);
  s->plan = conv_internal::PlanGemm(m, n, k);
  s->packed_stride = conv_internal::PackedSize(k, n);
  s->packed.resize(static_cast<size_t>(s->rhs_batches * s->packed_stride));
  s->lhs_t.resize(opts.adj_x ? static_cast<size_t>(lhs.NumElements()) : 0);
  s->bias.assign(static_cast<size_t>(conv_internal::PaddedColumns(n)), 0.0f);
  s->rhs_ready = rhs.is_constant && rhs.data != nullptr;
  if (s->rhs_ready) PackRhsBatches(*s, rhs.Data<float>());

  Dims out_shape = out_batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  ctx.SetOutputShape(0, std::move(out_shape));
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
