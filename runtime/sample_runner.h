// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SampleRunner: runs models over samples of a data set on worker threads,
// the sample loop of calibrate, recovery's layer captures, report and run.
//
// Contract:
//  - Workers: as many as `threads` (<= 0: all cores), at most one per
//    block of samples, at least one. Each owns one interpreter per model,
//    single-threaded, and the buffers its samples are loaded into, reused
//    sample after sample. Worker 0 is the calling thread, so `threads` 1
//    never uses a second core. With `split_ops` and fewer blocks than
//    threads, one worker runs instead, its interpreters splitting each
//    sample's ops over the threads.
//  - Samples are handed out in order, `block` at a time, and a worker runs
//    a block's samples in order. Which worker gets which block depends on
//    timing, so results must be combined in an order that does not: per
//    sample or per block, in sample order (InSampleOrder below), or per
//    worker in worker order when the merge is exact (min, max, counts).
//  - Errors: fn's error for sample k is returned as "sample <index>
//    (<name>): <message>", as is a sample that cannot be loaded. Every
//    sample before the first failing one runs, and none after it starts
//    once the failure is seen: the error returned is the first in sample
//    order, whatever the thread count.
//  - progress(done, total) after each sample that ran, one call at a time.
#ifndef QFORGE_RUNTIME_SAMPLE_RUNNER_H_
#define QFORGE_RUNTIME_SAMPLE_RUNNER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "formats/data/data_source.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "runtime/interpreter.h"

namespace qforge::runtime {

struct SampleRunnerOptions {
  int threads = 0;    // <= 0: all cores
  int64_t block = 1;  // samples handed to a worker at a time
  // Fewer blocks than threads: one worker, its interpreters on all threads.
  bool split_ops = false;
  // For every interpreter; `threads` is the runner's to set.
  InterpreterOptions interpreter;
  // Prefixed, with ": ", to the error of an interpreter of the model of the
  // same index that cannot be created.
  std::vector<std::string> model_names;
  std::function<void(int64_t done, int64_t total)> progress;
};

// What one worker owns; fn gets it with each sample, its inputs loaded.
struct SampleWorker {
  int index = 0;                                           // in [0, workers())
  std::vector<std::unique_ptr<Interpreter>> interpreters;  // one per model
  // The sample's tensors, in model input order. fn may move them out; the
  // next sample is then loaded into new buffers.
  std::vector<ir::HostTensor> inputs;
};

class SampleRunner {
 public:
  // fn(worker, k) runs sample samples[k] (k: its position in `samples`).
  using SampleFn = absl::FunctionRef<absl::Status(SampleWorker&, int64_t)>;

  // Creates every worker's interpreters, in parallel. `models`, `data` and
  // `samples` (indices into `data`) must outlive the runner.
  static absl::StatusOr<SampleRunner> Create(
      absl::Span<const ir::Model* const> models,
      const formats::SampleSource& data, absl::Span<const int64_t> samples,
      SampleRunnerOptions options);

  int workers() const { return static_cast<int>(workers_.size()); }
  // Each interpreter's: 1, or the threads with split_ops and one worker.
  int interpreter_threads() const { return options_.interpreter.threads; }
  SampleWorker& worker(int w) { return workers_[static_cast<size_t>(w)]; }

  absl::Status Run(SampleFn fn);

 private:
  SampleRunner(const formats::SampleSource& data,
               absl::Span<const int64_t> samples, SampleRunnerOptions options)
      : data_(&data), samples_(samples), options_(std::move(options)) {}

  const formats::SampleSource* data_;
  absl::Span<const int64_t> samples_;
  SampleRunnerOptions options_;
  std::vector<SampleWorker> workers_;
};

// Folds per-sample results in sample order, whichever worker finishes
// first: Add(k, result) for k = 0, 1, ... from any thread; merge(k, result)
// runs, one call at a time, as soon as every earlier result was added.
// Results wait only while an earlier one is missing.
template <typename T>
class InSampleOrder {
 public:
  explicit InSampleOrder(std::function<void(int64_t, T&)> merge)
      : merge_(std::move(merge)) {}

  void Add(int64_t k, T result) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.emplace(k, std::move(result));
    while (!pending_.empty() && pending_.begin()->first == next_) {
      merge_(next_, pending_.begin()->second);
      pending_.erase(pending_.begin());
      ++next_;
    }
  }

 private:
  std::function<void(int64_t, T&)> merge_;
  std::mutex mu_;
  std::map<int64_t, T> pending_;
  int64_t next_ = 0;
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_SAMPLE_RUNNER_H_
