// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/conv/batch_matmul_shape.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/options.h"

namespace qforge::runtime {
namespace {

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

}  // namespace

absl::Status ComputeBatchMatMulShape(const OpContext& ctx, const RtTensor& lhs,
                                     const RtTensor& rhs,
                                     BatchMatMulShape* shape) {
  const auto opts = ir::OptionsOr<ir::BatchMatMulOptions>(ctx.op().options);
  for (const RtTensor* t : {&lhs, &rhs}) {
    if (t->rank() < 2) {
      return ctx.Error(absl::StrCat("'", t->name(), "' ", DimsString(t->shape),
                                    " must have rank 2 or more"));
    }
  }
  const int lr = lhs.rank(), rr = rhs.rank();
  BatchMatMulShape& s = *shape;
  s.adj_x = opts.adj_x;
  s.adj_y = opts.adj_y;
  s.m = opts.adj_x ? lhs.dim(lr - 1) : lhs.dim(lr - 2);
  s.k = opts.adj_x ? lhs.dim(lr - 2) : lhs.dim(lr - 1);
  const int64_t rhs_k = opts.adj_y ? rhs.dim(rr - 1) : rhs.dim(rr - 2);
  s.n = opts.adj_y ? rhs.dim(rr - 2) : rhs.dim(rr - 1);
  if (s.k != rhs_k) {
    return ctx.Error(
        absl::StrCat("lhs '", lhs.name(), "' ", DimsString(lhs.shape),
                     (opts.adj_x ? " (adj_x)" : ""), " has inner dimension ",
                     s.k, " but rhs '", rhs.name(), "' ", DimsString(rhs.shape),
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
  s.lhs_batches = NumElements(lb);
  s.rhs_batches = NumElements(rb);
  BroadcastIndex(out_batch, lb, rb, &s.lhs_index, &s.rhs_index);
  s.output_shape = out_batch;
  s.output_shape.push_back(s.m);
  s.output_shape.push_back(s.n);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
