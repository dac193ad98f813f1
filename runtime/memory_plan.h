// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Arena planning: give every activation an offset so that tensors alive at
// the same time never overlap, and the arena stays small. Greedy by size
// (largest first, each at the lowest offset that fits between the tensors
// already placed whose lifetimes intersect), as TFLite's arena planner does.
#ifndef QFORGE_RUNTIME_MEMORY_PLAN_H_
#define QFORGE_RUNTIME_MEMORY_PLAN_H_

#include <cstddef>
#include <vector>

namespace qforge::runtime {

struct PlanItem {
  int id = 0;
  size_t bytes = 0;
  int first = 0;  // op that produces it
  int last = 0;   // last op that reads it (inclusive)
};

struct MemoryPlan {
  std::vector<size_t> offsets;  // parallel to the items
  size_t total_bytes = 0;
};

// Deterministic: ties are broken by item order.
MemoryPlan PlanArena(const std::vector<PlanItem>& items, size_t alignment);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_MEMORY_PLAN_H_
