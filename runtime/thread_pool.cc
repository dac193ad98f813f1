// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/thread_pool.h"

#include <algorithm>
#include <chrono>

namespace qforge::runtime {
namespace {

// How long a waiting thread spins before it sleeps: longer than the gap
// between two parallel loops of consecutive ops, short enough not to burn a
// core when the interpreter is idle.
constexpr int64_t kSpinMicros = 100;

constexpr int kIndexBits = 32;
constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
// The index of a loop whose function is being written: no task of it can
// be claimed yet.
constexpr uint64_t kClosed = kIndexMask;
constexpr int64_t kMaxTasksPerLoop = int64_t{1} << 31;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until pred() holds or ~kSpinMicros pass; returns pred().
template <typename Pred>
bool PoolSpinUntil(Pred pred) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicros);
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (pred()) return true;
      CpuRelax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return pred();
  }
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) {
    threads =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  num_threads_ = threads;
  for (int i = 1; i < threads; ++i)
    workers_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true);
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::RunTasks(uint64_t word) {
  const uint64_t loop = word >> kIndexBits;
  // Read after the claim word: if they already belong to a later loop, that
  // loop has closed this one's word and no claim below can succeed.
  const Fn* fn = fn_.load(std::memory_order_acquire);
  const uint64_t n =
      static_cast<uint64_t>(num_tasks_.load(std::memory_order_acquire));
  for (;;) {
    if ((word >> kIndexBits) != loop || (word & kIndexMask) >= n) return;
    if (!claim_.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
      continue;
    }
    (*fn)(static_cast<int64_t>(word & kIndexMask));
    if (tasks_done_.fetch_add(1) + 1 == static_cast<int64_t>(n) &&
        caller_sleeping_.load()) {
      { std::lock_guard<std::mutex> lock(mu_); }
      done_cv_.notify_one();
    }
    word = claim_.load(std::memory_order_acquire);
  }
}

void ThreadPool::WorkerLoop() {
  uint64_t seen = 0;
  uint64_t word = 0;
  // A new loop whose tasks may be claimed, or stop.
  auto ready = [&] {
    if (stop_.load(std::memory_order_relaxed)) return true;
    word = claim_.load();
    return (word >> kIndexBits) != seen && (word & kIndexMask) != kClosed;
  };
  for (;;) {
    if (!PoolSpinUntil(ready)) {
      std::unique_lock<std::mutex> lock(mu_);
      sleeping_workers_.fetch_add(1);
      work_cv_.wait(lock, ready);
      sleeping_workers_.fetch_sub(1);
    }
    if (stop_.load()) return;
    seen = word >> kIndexBits;
    RunTasks(word);
  }
}

void ThreadPool::ParallelFor(int64_t num_tasks, Fn fn) {
  if (num_tasks <= 0) return;
  if (workers_.empty() || num_tasks == 1) {
    for (int64_t t = 0; t < num_tasks; ++t) fn(t);
    return;
  }
  if (num_tasks > kMaxTasksPerLoop) {
    for (int64_t base = 0; base < num_tasks; base += kMaxTasksPerLoop) {
      const int64_t count = std::min(kMaxTasksPerLoop, num_tasks - base);
      ParallelFor(count, [&fn, base](int64_t t) { fn(base + t); });
    }
    return;
  }
  // The previous loop is done (every task ran), so no thread can claim from
  // it; close the new loop's word before its function changes.
  const uint64_t loop =
      (claim_.load(std::memory_order_relaxed) >> kIndexBits) + 1;
  claim_.store((loop << kIndexBits) | kClosed);
  num_tasks_.store(num_tasks, std::memory_order_release);
  fn_.store(&fn, std::memory_order_release);
  tasks_done_.store(0, std::memory_order_relaxed);
  const uint64_t word = loop << kIndexBits;
  claim_.store(word);
  if (sleeping_workers_.load() > 0) {
    { std::lock_guard<std::mutex> lock(mu_); }
    work_cv_.notify_all();
  }
  RunTasks(word);
  auto done = [&] { return tasks_done_.load() == num_tasks; };
  if (!PoolSpinUntil(done)) {
    std::unique_lock<std::mutex> lock(mu_);
    caller_sleeping_.store(true);
    done_cv_.wait(lock, done);
    caller_sleeping_.store(false);
  }
}

}  // namespace qforge::runtime
