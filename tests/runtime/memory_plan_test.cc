// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/memory_plan.h"

#include <random>

#include "gtest/gtest.h"

namespace qforge::runtime {
namespace {

bool Overlaps(const PlanItem& a, size_t oa, const PlanItem& b, size_t ob) {
  const bool time = a.first <= b.last && b.first <= a.last;
  const bool space = oa < ob + b.bytes && ob < oa + a.bytes;
  return time && space;
}

TEST(MemoryPlanTest, ChainReusesMemory) {
  // A chain a -> b -> c -> d: a dies when c is produced, so c takes a's
  // bytes. By hand: a, c at offset 0 (256 B each); b, d at 256.
  const std::vector<PlanItem> items = {
      {0, 256, 0, 1}, {1, 256, 1, 2}, {2, 256, 2, 3}, {3, 256, 3, 4}};
  const MemoryPlan plan = PlanArena(items, 64);
  EXPECT_EQ(plan.total_bytes, 512u);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_EQ(plan.offsets[1], plan.offsets[3]);
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
}

TEST(MemoryPlanTest, LargestFirstFillsGaps) {
  // Big lives [0,2]; two small ones live at disjoint times after it and
  // beside it. Total must be big + one small (they share).
  const std::vector<PlanItem> items = {
      {0, 1024, 0, 2}, {1, 128, 1, 1}, {2, 128, 2, 2}, {3, 1024, 3, 4}};
  const MemoryPlan plan = PlanArena(items, 64);
  EXPECT_EQ(plan.total_bytes, 1024u + 128u);
  EXPECT_EQ(plan.offsets[3], 0u);  // reuses the first big tensor's bytes
}

TEST(MemoryPlanTest, RandomPlansNeverOverlapAndAreAligned) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<PlanItem> items;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      const int first = static_cast<int>(rng() % 30);
      const int last = first + static_cast<int>(rng() % 10);
      items.push_back({i, 64 * (1 + rng() % 50), first, last});
    }
    const MemoryPlan plan = PlanArena(items, 64);
    size_t sum = 0;
    for (size_t a = 0; a < items.size(); ++a) {
      EXPECT_EQ(plan.offsets[a] % 64, 0u);
      EXPECT_LE(plan.offsets[a] + items[a].bytes, plan.total_bytes);
      sum += items[a].bytes;
      for (size_t b = a + 1; b < items.size(); ++b) {
        EXPECT_FALSE(
            Overlaps(items[a], plan.offsets[a], items[b], plan.offsets[b]))
            << "trial " << trial << " items " << a << "," << b;
      }
    }
    EXPECT_LE(plan.total_bytes, sum);
    // Same input, same plan.
    EXPECT_EQ(PlanArena(items, 64).offsets, plan.offsets);
  }
}

}  // namespace
}  // namespace qforge::runtime
