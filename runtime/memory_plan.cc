// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/memory_plan.h"

#include <algorithm>
#include <numeric>

namespace qforge::runtime {

MemoryPlan PlanArena(const std::vector<PlanItem>& items, size_t alignment) {
  MemoryPlan plan;
  plan.offsets.assign(items.size(), 0);
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return items[a].bytes > items[b].bytes;
  });
  std::vector<size_t> placed;  // indices into items, sorted by offset
  for (size_t k : order) {
    const PlanItem& item = items[k];
    size_t offset = 0;
    for (size_t p : placed) {  // ascending offsets
      const PlanItem& other = items[p];
      const bool overlap_in_time =
          other.first <= item.last && item.first <= other.last;
      if (!overlap_in_time) continue;
      const size_t other_end = plan.offsets[p] + other.bytes;
      if (plan.offsets[p] >= offset + item.bytes) break;  // fits before it
      offset = std::max(offset, other_end);
      offset = (offset + alignment - 1) / alignment * alignment;
    }
    plan.offsets[k] = offset;
    plan.total_bytes = std::max(plan.total_bytes, offset + item.bytes);
    auto pos = std::lower_bound(
        placed.begin(), placed.end(), k,
        [&](size_t a, size_t b) { return plan.offsets[a] < plan.offsets[b]; });
    placed.insert(pos, k);
  }
  return plan;
}

}  // namespace qforge::runtime
