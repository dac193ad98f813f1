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
  using Fn = absl::FunctionRef<void(int64_t)>;
  void WorkerLoop();
  // Claims and runs tasks of the loop whose claim word is `word` until none
  // is left or a newer loop has begun.
  void RunTasks(uint64_t word);

  int num_threads_;
  std::vector<std::thread> workers_;
  // Tasks are claimed without a lock: the high 32 bits of claim_ number the
  // loop, the low 32 bits count the tasks claimed. A claim is a
  // compare-exchange on the whole word, so a thread that read an earlier
  // loop's function can never claim a task of a later loop. fn_ and
  // num_tasks_ are written before claim_ is published and only after the
  // previous loop's tasks are all done.
  std::atomic<uint64_t> claim_{0};
  std::atomic<const Fn*> fn_{nullptr};
  std::atomic<int64_t> num_tasks_{0};
  std::atomic<int64_t> tasks_done_{0};
  // Waiting threads spin before they sleep: waking a sleeping thread costs
  // tens of microseconds, more than many ops take. The counts of sleepers
  // tell the other side whether it must take the mutex to wake them.
  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::atomic<int> sleeping_workers_{0};
  std::atomic<bool> caller_sleeping_{false};
  std::atomic<bool> stop_{false};
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_THREAD_POOL_H_
