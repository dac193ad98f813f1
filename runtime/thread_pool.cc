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

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

template <typename Pred>
bool ThreadPool::SpinUntil(Pred pred) {
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
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::RunTasks() {
  for (;;) {
    int64_t task;
    const absl::FunctionRef<void(int64_t)>* fn;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (fn_ == nullptr || next_task_ >= num_tasks_) return;
      task = next_task_++;
      fn = fn_;
    }
    (*fn)(task);
    {
      std::lock_guard<std::mutex> lock(mu_);
      tasks_done_seen_.store(++tasks_done_, std::memory_order_release);
      if (tasks_done_ == num_tasks_) done_cv_.notify_all();
    }
  }
}

void ThreadPool::WorkerLoop() {
  uint64_t seen = 0;
  for (;;) {
    SpinUntil([&] {
      return generation_seen_.load(std::memory_order_acquire) != seen;
    });
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    RunTasks();
  }
}

void ThreadPool::ParallelFor(int64_t num_tasks,
                             absl::FunctionRef<void(int64_t)> fn) {
  if (num_tasks <= 0) return;
  if (workers_.empty() || num_tasks == 1) {
    for (int64_t t = 0; t < num_tasks; ++t) fn(t);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = &fn;
    num_tasks_ = num_tasks;
    next_task_ = 0;
    tasks_done_ = 0;
    tasks_done_seen_.store(0, std::memory_order_relaxed);
    generation_seen_.store(++generation_, std::memory_order_release);
  }
  work_cv_.notify_all();
  RunTasks();
  SpinUntil([&] {
    return tasks_done_seen_.load(std::memory_order_acquire) == num_tasks;
  });
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return tasks_done_ == num_tasks_; });
  fn_ = nullptr;
}

}  // namespace qforge::runtime
