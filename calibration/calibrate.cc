// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/calibrate.h"

#include <map>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "calibration/collector.h"
#include "runtime/sample_runner.h"

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
  runtime::SampleRunnerOptions ro;
  ro.threads = options.threads;
  // Ops qforge cannot run, and all after them, are left out: their tensors
  // get no statistics and stay float when quantized.
  ro.interpreter.skip_unrunnable = true;
  ro.interpreter.numerics = options.numerics;
  ro.progress = options.progress;
  ASSIGN_OR_RETURN(runtime::SampleRunner runner,
                   runtime::SampleRunner::Create({&model}, data, samples, ro));
  // One collector per worker. Statistics merge exactly, so the result does
  // not depend on which worker saw which sample.
  std::vector<std::unique_ptr<StatsCollector>> collectors;
  for (int w = 0; w < runner.workers(); ++w) {
    collectors.push_back(
        std::make_unique<StatsCollector>(model, options.histogram_stride));
  }
  RETURN_IF_ERROR(runner.Run([&](runtime::SampleWorker& w, int64_t k) {
    StatsCollector& collector = *collectors[static_cast<size_t>(w.index)];
    collector.SetSample(static_cast<uint64_t>(samples[static_cast<size_t>(k)]));
    return w.interpreters[0]->Run(w.inputs, &collector);
  }));

  std::map<std::pair<int, int>, TensorStats> merged;
  for (std::unique_ptr<StatsCollector>& collector : collectors) {
    for (TensorStats& t : collector->Finish()) {
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
