// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/calibrate.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "calibration/collector.h"
#include "runtime/interpreter.h"

namespace qforge::calibration {

absl::StatusOr<StatsFile> Calibrate(const ir::Model& model,
                                    absl::Span<const uint8_t> model_bytes,
                                    const formats::SampleSource& data,
                                    const CalibrateOptions& options) {
  if (options.shard_count < 1 || options.shard_index < 0 ||
      options.shard_index >= options.shard_count) {
    return absl::InvalidArgumentError(
        absl::StrCat("--shard ", options.shard_index, "/", options.shard_count,
                     ": need 0 <= K < N"));
  }
  if (data.size() == 0) {
    return absl::InvalidArgumentError("the data set has no samples");
  }
  std::vector<int64_t> samples;
  for (int64_t i = options.shard_index; i < data.size();
       i += options.shard_count) {
    if (options.holdout_every > 1 &&
        i % options.holdout_every == options.holdout_every - 1) {
      continue;
    }
    samples.push_back(i);
  }
  if (samples.empty()) {
    return absl::InvalidArgumentError(
        "no sample left to calibrate on after the check set");
  }
  int threads =
      options.threads > 0
          ? options.threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(
      std::min<int64_t>(threads, std::max<int64_t>(1, samples.size())));

  // One interpreter and collector per worker; samples are handed out in
  // order. Statistics merge exactly, so the result does not depend on
  // which worker saw which sample.
  struct Worker {
    std::unique_ptr<runtime::Interpreter> interpreter;
    std::unique_ptr<StatsCollector> collector;
    std::vector<ir::HostTensor> inputs;
    absl::Status status;
  };
  std::vector<Worker> workers(static_cast<size_t>(threads));
  for (Worker& w : workers) {
    runtime::InterpreterOptions io;
    io.threads = 1;
    // Ops qforge cannot run, and all after them, are left out: their
    // tensors get no statistics and stay float when quantized.
    io.skip_unrunnable = true;
    io.numerics = options.numerics;
    ASSIGN_OR_RETURN(w.interpreter, runtime::Interpreter::Create(model, io));
    w.collector =
        std::make_unique<StatsCollector>(model, options.histogram_stride);
  }
  std::atomic<int64_t> next{0}, done{0};
  std::atomic<bool> failed{false};
  std::mutex progress_mu;
  auto work = [&](Worker& w) {
    for (;;) {
      const int64_t k = next.fetch_add(1);
      if (k >= static_cast<int64_t>(samples.size()) || failed) return;
      // The worker's input buffers are reused sample after sample.
      absl::Status s = data.GetInto(samples[k], w.inputs);
      w.collector->SetSample(static_cast<uint64_t>(samples[k]));
      if (s.ok()) s = w.interpreter->Run(w.inputs, w.collector.get());
      if (!s.ok()) {
        w.status =
            absl::Status(s.code(), absl::StrCat("sample ", samples[k], " (",
                                                data.SampleName(samples[k]),
                                                "): ", s.message()));
        failed = true;
        return;
      }
      const int64_t d = ++done;
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mu);
        options.progress(d, static_cast<int64_t>(samples.size()));
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t i = 1; i < workers.size(); ++i) {
    pool.emplace_back([&, i] { work(workers[i]); });
  }
  work(workers[0]);
  for (std::thread& t : pool) t.join();
  // The first failure in sample order is reported.
  for (Worker& w : workers) RETURN_IF_ERROR(w.status);

  std::map<std::pair<int, int>, TensorStats> merged;
  for (Worker& w : workers) {
    for (TensorStats& t : w.collector->Finish()) {
      auto [it, inserted] =
          merged.emplace(std::make_pair(t.subgraph, t.tensor), t);
      if (!inserted) it->second.Merge(t);
    }
  }
  StatsFile out;
  out.fingerprint.model_hash =
      HashBytes(model_bytes.data(), model_bytes.size());
  // After the samples: array files were hashed as they were read.
  ASSIGN_OR_RETURN(out.fingerprint.data_hash, data.Fingerprint());
  out.fingerprint.tool_version = QFORGE_VERSION;
  out.fingerprint.total_samples = static_cast<uint64_t>(data.size());
  out.fingerprint.histogram_stride = options.histogram_stride;
  out.fingerprint.shard_count = options.shard_count;
  if (options.shard_count > 1) out.fingerprint.shards = {options.shard_index};
  out.samples = samples.size();
  for (auto& entry : merged) out.tensors.push_back(std::move(entry.second));
  if (out.tensors.empty()) {
    return absl::InvalidArgumentError(
        "the model has no float32 activations to calibrate");
  }
  // Data with no finite value gives no range to quantize with: say so now
  // rather than write statistics every range method would fail on.
  const ir::Subgraph& entry = model.subgraphs[0];
  for (const TensorStats& t : out.tensors) {
    if (t.subgraph != 0 || t.count > 0 || t.nan + t.pos_inf + t.neg_inf == 0)
      continue;
    for (size_t i = 0; i < entry.inputs.size(); ++i) {
      if (entry.inputs[i] != t.tensor) continue;
      return absl::InvalidArgumentError(absl::StrCat(
          "input ", i, " '", t.name, "': all ", t.nan + t.pos_inf + t.neg_inf,
          " values are NaN or Inf (", t.nan,
          " NaN); calibration needs "
          "finite data"));
    }
  }
  return out;
}

}  // namespace qforge::calibration
