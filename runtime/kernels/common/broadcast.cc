// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/common/broadcast.h"

#include "absl/strings/str_cat.h"

namespace qforge::runtime {

absl::Status MakeBroadcastPlan(const OpContext& ctx,
                               absl::Span<const Dims* const> shapes,
                               absl::Span<const int64_t> out,
                               BroadcastPlan* plan) {
  const int rank = static_cast<int>(out.size());
  if (rank > kMaxBroadcastRank) {
    return ctx.Unsupported(absl::StrCat("broadcast of rank ", rank, " (output ",
                                        DimsString(out), "); the limit is ",
                                        kMaxBroadcastRank));
  }
  const int n = static_cast<int>(shapes.size());
  *plan = BroadcastPlan{};
  plan->num_inputs = n;
  plan->total = NumElements(out);

  // Each input's own element strides, aligned to the output's dims.
  std::array<std::array<int64_t, kMaxBroadcastRank>, 3> in_size{};
  std::array<std::array<int64_t, kMaxBroadcastRank>, 3> in_stride{};
  for (int k = 0; k < n; ++k) {
    const Dims& s = *shapes[static_cast<size_t>(k)];
    const int offset = rank - static_cast<int>(s.size());
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t size = d >= offset ? s[static_cast<size_t>(d - offset)] : 1;
      in_size[k][d] = size;
      in_stride[k][d] = stride;
      stride *= size;
    }
  }

  // Collapse: drop size-1 output dims, merge neighbours that every input
  // treats the same way (present in full, or broadcast).
  int r = 0;
  std::array<bool, 3> prev_full{};
  for (int d = 0; d < rank; ++d) {
    if (out[static_cast<size_t>(d)] == 1) continue;
    std::array<bool, 3> full{};
    for (int k = 0; k < n; ++k) full[k] = in_size[k][d] != 1;
    const bool merge = r > 0 && full == prev_full;
    if (merge) {
      plan->dims[r - 1] *= out[static_cast<size_t>(d)];
      for (int k = 0; k < n; ++k) {
        plan->strides[k][r - 1] = full[k] ? in_stride[k][d] : 0;
      }
    } else {
      plan->dims[r] = out[static_cast<size_t>(d)];
      for (int k = 0; k < n; ++k) {
        plan->strides[k][r] = full[k] ? in_stride[k][d] : 0;
      }
      ++r;
    }
    prev_full = full;
  }
  if (r == 0) {  // every output dim is 1 (or the output is a scalar)
    plan->dims[0] = 1;
    r = 1;
  }
  plan->rank = r;
  plan->inner = plan->dims[r - 1];
  plan->outer = 1;
  for (int d = 0; d < r - 1; ++d) plan->outer *= plan->dims[d];
  if (plan->total == 0) plan->outer = 0;
  return absl::OkStatus();
}

}  // namespace qforge::runtime
