// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The thread pool runs every task of a ParallelFor exactly once, whichever
// thread takes it. (Numerics modes are values in each op's context, not
// thread state: tests/runtime/numerics_modes_test.cc.)
#include "runtime/thread_pool.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace qforge::runtime {
namespace {

TEST(ThreadPoolTest, RunsEveryTaskOnce) {
  ThreadPool pool(3);
  std::atomic<int> seen[100] = {};
  pool.ParallelFor(100, [&](int64_t t) { ++seen[t]; });
  for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
}

// Loops follow each other without a pause, with task counts from 1 to
// more than the threads: a thread still finishing one loop must never run a
// task of the next with the old function, nor miss or repeat a task.
TEST(ThreadPoolTest, BackToBackLoopsRunEveryTaskOnce) {
  for (int threads : {2, 3}) {
    ThreadPool pool(threads);
    for (int loop = 0; loop < 20000; ++loop) {
      const int64_t n = 1 + loop % 7;
      std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
      pool.ParallelFor(
          n, [&](int64_t t) { seen[static_cast<size_t>(t)].fetch_add(1); });
      for (const auto& s : seen) ASSERT_EQ(s.load(), 1) << "loop " << loop;
    }
  }
}

// After the workers fell asleep, a loop still wakes them and completes.
TEST(ThreadPoolTest, WakesSleepingWorkers) {
  ThreadPool pool(2);
  for (int round = 0; round < 3; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::atomic<int> count{0};
    pool.ParallelFor(64, [&](int64_t) { count.fetch_add(1); });
    EXPECT_EQ(count.load(), 64);
  }
}

}  // namespace
}  // namespace qforge::runtime
