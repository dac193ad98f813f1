// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/sample_runner.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace qforge::runtime {
namespace {

// fn(w) for w in [0, n): 0 on the calling thread, each other on a thread of
// its own; returns when all are done.
void OnEachWorker(int n, absl::FunctionRef<void(int)> fn) {
  std::vector<std::thread> threads;
  for (int w = 1; w < n; ++w) threads.emplace_back([fn, w] { fn(w); });
  fn(0);
  for (std::thread& t : threads) t.join();
}

int64_t NumBlocks(int64_t samples, int64_t block) {
  return (samples + block - 1) / block;
}

}  // namespace

absl::StatusOr<SampleRunner> SampleRunner::Create(
    absl::Span<const ir::Model* const> models,
    const formats::SampleSource& data, absl::Span<const int64_t> samples,
    SampleRunnerOptions options) {
  const int threads =
      options.threads > 0
          ? options.threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.block = std::max<int64_t>(1, options.block);
  const int64_t blocks =
      NumBlocks(static_cast<int64_t>(samples.size()), options.block);
  int workers = 1;
  options.interpreter.threads = 1;
  if (options.split_ops && blocks < threads) {
    options.interpreter.threads = threads;
  } else {
    workers = static_cast<int>(std::clamp<int64_t>(blocks, 1, threads));
  }
  SampleRunner runner(data, samples, std::move(options));
  const SampleRunnerOptions& o = runner.options_;
  runner.workers_.resize(static_cast<size_t>(workers));
  std::vector<absl::Status> status(static_cast<size_t>(workers));
  OnEachWorker(workers, [&](int w) {
    SampleWorker& worker = runner.workers_[static_cast<size_t>(w)];
    worker.index = w;
    for (size_t m = 0; m < models.size(); ++m) {
      absl::StatusOr<std::unique_ptr<Interpreter>> interpreter =
          Interpreter::Create(*models[m], o.interpreter);
      if (!interpreter.ok()) {
        const absl::Status& s = interpreter.status();
        status[static_cast<size_t>(w)] =
            m < o.model_names.size()
                ? absl::Status(s.code(), absl::StrCat(o.model_names[m], ": ",
                                                      s.message()))
                : s;
        return;
      }
      worker.interpreters.push_back(std::move(*interpreter));
    }
  });
  for (const absl::Status& s : status) RETURN_IF_ERROR(s);
  return runner;
}

absl::Status SampleRunner::Run(SampleFn fn) {
  const int64_t n = static_cast<int64_t>(samples_.size());
  const int64_t block = options_.block;
  const int64_t blocks = NumBlocks(n, block);
  std::atomic<int64_t> next_block{0};
  // The first failing sample seen so far (n: none). It only falls, and no
  // sample after it starts, so every sample before the last value ran.
  std::atomic<int64_t> first_failure{n};
  // Each worker's failing sample, if any: (k, error).
  std::vector<std::pair<int64_t, absl::Status>> failures(workers_.size(),
                                                         {n, absl::OkStatus()});
  std::mutex progress_mu;
  int64_t done = 0;
  OnEachWorker(workers(), [&](int w) {
    SampleWorker& worker = workers_[static_cast<size_t>(w)];
    for (;;) {
      const int64_t b = next_block.fetch_add(1, std::memory_order_relaxed);
      if (b >= blocks) return;
      for (int64_t k = b * block; k < std::min(n, (b + 1) * block); ++k) {
        if (k > first_failure.load(std::memory_order_relaxed)) return;
        const int64_t index = samples_[static_cast<size_t>(k)];
        absl::Status s = data_->GetInto(index, worker.inputs);
        if (s.ok()) s = fn(worker, k);
        if (!s.ok()) {
          failures[static_cast<size_t>(w)] = {
              k, absl::Status(s.code(), absl::StrCat("sample ", index, " (",
                                                     data_->SampleName(index),
                                                     "): ", s.message()))};
          int64_t seen = first_failure.load();
          while (k < seen && !first_failure.compare_exchange_weak(seen, k)) {
          }
          return;
        }
        if (options_.progress) {
          std::lock_guard<std::mutex> lock(progress_mu);
          options_.progress(++done, n);
        }
      }
    }
  });
  const auto first = std::min_element(
      failures.begin(), failures.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  return first == failures.end() ? absl::OkStatus() : first->second;
}

}  // namespace qforge::runtime
