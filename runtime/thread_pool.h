// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A fixed pool of worker threads for intra-op parallelism.
//
// Determinism rule for kernels: results must not depend on the thread count.
// Split work only over output elements (never over a reduction), into tasks
// whose boundaries depend on the problem size alone; ParallelFor then only
// decides which thread runs which task.
#ifndef QFORGE_RUNTIME_THREAD_POOL_H_
#define QFORGE_RUNTIME_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

namespace qforge::runtime {

class ThreadPool {
 public:
  // `threads` <= 0 means all cores. 1 runs everything on the caller.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return num_threads_; }

  // Runs fn(task) for task in [0, num_tasks), in parallel; returns when all
  // are done. The caller's thread takes part. Not reentrant. A FunctionRef,
  // not a std::function: kernels call this for every op of every sample,
  // and a std::function of a lambda with more than two captures allocates.
  void ParallelFor(int64_t num_tasks, absl::FunctionRef<void(int64_t)> fn);

 private:
  void WorkerLoop();
  void RunTasks();
  // Spins until pred() holds or ~kSpinMicros pass; returns pred().
  template <typename Pred>
  static bool SpinUntil(Pred pred);

  int num_threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  const absl::FunctionRef<void(int64_t)>* fn_ = nullptr;
  int64_t num_tasks_ = 0;
  int64_t next_task_ = 0;
  int64_t tasks_done_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  // Copies of generation_ and tasks_done_ that waiting threads spin on
  // before they sleep: waking a sleeping thread costs tens of
  // microseconds, more than many ops take. State changes stay under mu_.
  std::atomic<uint64_t> generation_seen_{0};
  std::atomic<int64_t> tasks_done_seen_{0};
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_THREAD_POOL_H_
