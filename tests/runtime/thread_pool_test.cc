// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The thread pool runs every task of a ParallelFor exactly once, whichever
// thread takes it. (Numerics modes are values in each op's context, not
// thread state: tests/runtime/numerics_modes_test.cc.)
#include "runtime/thread_pool.h"

#include <atomic>

#include "gtest/gtest.h"

namespace qforge::runtime {
namespace {

TEST(ThreadPoolTest, RunsEveryTaskOnce) {
  ThreadPool pool(3);
  std::atomic<int> seen[100] = {};
  pool.ParallelFor(100, [&](int64_t t) { ++seen[t]; });
  for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
}

}  // namespace
}  // namespace qforge::runtime
