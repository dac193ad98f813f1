// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The thread pool runs every task of a ParallelFor in the caller's
// requantization rounding mode (numerics/fixed_point.h), whichever thread
// takes the task: kernels' results must not depend on the thread count.
#include "runtime/thread_pool.h"

#include <atomic>

#include "gtest/gtest.h"
#include "numerics/fixed_point.h"

namespace qforge::runtime {
namespace {

using numerics::ActiveRounding;
using numerics::Rounding;
using numerics::ScopedRounding;

int CountTasksIn(ThreadPool& pool, Rounding expected) {
  std::atomic<int> matching{0};
  pool.ParallelFor(64, [&](int64_t) {
    if (ActiveRounding() == expected) ++matching;
  });
  return matching.load();
}

TEST(ThreadPoolTest, TasksRunInTheCallersRounding) {
  ThreadPool pool(4);
  {
    const ScopedRounding rounding(Rounding::kDouble);
    EXPECT_EQ(CountTasksIn(pool, Rounding::kDouble), 64);
  }
  {
    const ScopedRounding rounding(Rounding::kSingle);
    EXPECT_EQ(CountTasksIn(pool, Rounding::kSingle), 64);
  }
}

TEST(ThreadPoolTest, RunsEveryTaskOnce) {
  ThreadPool pool(3);
  std::atomic<int> seen[100] = {};
  pool.ParallelFor(100, [&](int64_t t) { ++seen[t]; });
  for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
}

}  // namespace
}  // namespace qforge::runtime
