// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// NumPy broadcasting of 2 or 3 inputs into an output, for every kernel
// family (float elementwise, integer binary ops): one plan, one walk.
//
// Prepare builds a BroadcastPlan once per shape (it lives in the op's
// KernelState, so eval allocates nothing). The plan drops output dims of
// size 1 and merges neighbouring dims that every input treats alike (all
// present or all broadcast), so the common cases reduce to a few contiguous
// rows: same shape -> one row; scalar operand -> one row with stride 0;
// per-channel [N,H,W,C] + [C] -> N*H*W rows of C.
//
// The walks cut the rows into chunks whose boundaries depend only on the
// shapes (ParallelChunks), so every element takes the same code path
// whatever the thread count: results are bit-identical.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_BROADCAST_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_BROADCAST_H_

#include <algorithm>
#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/parallel.h"

namespace qforge::runtime {

// Broadcasting handles this many dims (TFLite's limit is 6; the integer
// kernels keep it, see integer::PlanBroadcast2).
inline constexpr int kMaxBroadcastRank = 8;
// Elements per parallel chunk.
inline constexpr int64_t kBroadcastGrain = 16384;

struct BroadcastPlan {
  int rank = 1;        // >= 1 after collapsing
  int num_inputs = 2;  // 2 or 3
  std::array<int64_t, kMaxBroadcastRank> dims{};
  // Per input: element stride along each collapsed dim (0 = broadcast).
  std::array<std::array<int64_t, kMaxBroadcastRank>, 3> strides{};
  int64_t inner = 1;  // dims[rank - 1]
  int64_t outer = 1;  // product of dims[0 .. rank - 2]
  int64_t total = 0;  // output elements
};

// Builds the plan for inputs of `shapes` (2 or 3 of them) into `out` (the
// broadcast shape, which the caller has computed). Errors on a rank above
// kMaxBroadcastRank.
absl::Status MakeBroadcastPlan(const OpContext& ctx,
                               absl::Span<const Dims* const> shapes,
                               absl::Span<const int64_t> out,
                               BroadcastPlan* plan);

// Offsets of every input's row `row` (a multi-index over the outer dims).
inline std::array<int64_t, 3> RowOffsets(const BroadcastPlan& plan,
                                         int64_t row) {
  std::array<int64_t, 3> off{};
  for (int d = plan.rank - 2; d >= 0; --d) {
    const int64_t i = row % plan.dims[d];
    row /= plan.dims[d];
    for (int k = 0; k < plan.num_inputs; ++k) off[k] += i * plan.strides[k][d];
  }
  return off;
}

// Runs row_fn(offsets, out_offset, n) over the rows of `plan`: offsets[k]
// is the element offset of input k's (part of a) row, out_offset the
// output's; input k steps plan.strides[k][rank-1] (0 or 1) along the n
// elements. Short rows are grouped into chunks of ~kBroadcastGrain elements;
// rows longer than kBroadcastGrain (same-shape operands collapse into a single
// row) are cut into equal segments, so both cases spread over the threads.
template <typename RowFn>
void ForEachRow(const OpContext& ctx, const BroadcastPlan& plan,
                const RowFn& row_fn) {
  if (plan.total == 0) return;
  const int last = plan.rank - 1;
  if (plan.inner > kBroadcastGrain) {
    const int64_t segments =
        (plan.inner + kBroadcastGrain - 1) / kBroadcastGrain;
    const int64_t seg_len = (plan.inner + segments - 1) / segments;
    ParallelChunks(
        ctx, plan.outer * segments, 1,
        [&plan, &row_fn, segments, seg_len, last](int64_t begin, int64_t end) {
          for (int64_t t = begin; t < end; ++t) {
            const int64_t row = t / segments;
            const int64_t start = (t % segments) * seg_len;
            const int64_t n = std::min(plan.inner, start + seg_len) - start;
            std::array<int64_t, 3> off = RowOffsets(plan, row);
            for (int k = 0; k < plan.num_inputs; ++k) {
              off[k] += start * plan.strides[k][last];
            }
            row_fn(off, row * plan.inner + start, n);
          }
        });
    return;
  }
  const int64_t rows_per_chunk =
      std::max<int64_t>(1, kBroadcastGrain / std::max<int64_t>(plan.inner, 1));
  ParallelChunks(ctx, plan.outer, rows_per_chunk,
                 [&plan, &row_fn](int64_t begin, int64_t end) {
                   const int outer_rank = plan.rank - 1;
                   std::array<int64_t, kMaxBroadcastRank> index{};
                   std::array<int64_t, 3> off = RowOffsets(plan, begin);
                   int64_t rest = begin;
                   for (int d = outer_rank - 1; d >= 0; --d) {
                     index[d] = rest % plan.dims[d];
                     rest /= plan.dims[d];
                   }
                   for (int64_t row = begin; row < end; ++row) {
                     row_fn(off, row * plan.inner, plan.inner);
                     // Advance the multi-index (odometer) and the offsets.
                     for (int d = outer_rank - 1; d >= 0; --d) {
                       if (++index[d] < plan.dims[d]) {
                         for (int k = 0; k < plan.num_inputs; ++k) {
                           off[k] += plan.strides[k][d];
                         }
                         break;
                       }
                       index[d] = 0;
                       for (int k = 0; k < plan.num_inputs; ++k) {
                         off[k] -= (plan.dims[d] - 1) * plan.strides[k][d];
                       }
                     }
                   }
                 });
}

// f(out_index, a_index, b_index) for every output element of a two-input
// plan: the element-at-a-time form of ForEachRow, for kernels whose
// element function is not a vectorizable row loop.
template <typename F>
void ForEachElement(const OpContext& ctx, const BroadcastPlan& plan,
                    const F& f) {
  const int last = plan.rank - 1;
  const int64_t sa = plan.strides[0][last], sb = plan.strides[1][last];
  ForEachRow(ctx, plan,
             [sa, sb, &f](const std::array<int64_t, 3>& off, int64_t out_off,
                          int64_t n) {
               for (int64_t j = 0; j < n; ++j) {
                 f(out_off + j, off[0] + j * sa, off[1] + j * sb);
               }
             });
}

// True when every input is read in full, in the output's order (same
// shapes): element i of each input is element i of the output.
inline bool IsElementwise(const BroadcastPlan& plan) {
  if (plan.rank != 1) return false;
  for (int k = 0; k < plan.num_inputs; ++k) {
    if (plan.strides[k][0] != 1 && plan.total > 1) return false;
  }
  return true;
}

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_BROADCAST_H_
