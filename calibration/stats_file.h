// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The calibration statistics file (docs/stats-format.md): JSON, versioned,
// with a fingerprint that ties it to one model and one data set. Written
// deterministically (fixed key order, tensors sorted by subgraph and
// index), so merged shards are byte-identical to an unsharded run.
#ifndef QFORGE_CALIBRATION_STATS_FILE_H_
#define QFORGE_CALIBRATION_STATS_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "calibration/tensor_stats.h"

namespace qforge::calibration {

inline constexpr int kStatsFormatVersion = 1;

struct Fingerprint {
  std::string model_hash;  // FNV-1a 64 of the model file, hex
  std::string data_hash;   // the data set's fingerprint (all samples)
  std::string tool_version;
  uint64_t total_samples = 0;  // in the whole data set
  int histogram_stride = 1;    // see StatsCollector
  // Which shards of `shard_count` these stats cover; empty = all samples.
  int shard_count = 1;
  std::vector<int> shards;
};

struct StatsFile {
  Fingerprint fingerprint;
  uint64_t samples = 0;              // samples these stats saw
  std::vector<TensorStats> tensors;  // sorted by (subgraph, tensor)
};

std::string SerializeStats(const StatsFile& stats);
absl::StatusOr<StatsFile> ParseStats(const std::string& text,
                                     const std::string& source);
absl::StatusOr<StatsFile> ReadStatsFile(const std::string& path);

// Merges shards of one calibration run: same model, same data set, same
// shard count, disjoint shards. `sources` name them in errors.
absl::StatusOr<StatsFile> MergeStats(absl::Span<const StatsFile> parts,
                                     absl::Span<const std::string> sources);

// "a1b2..." FNV-1a 64 of bytes.
std::string HashBytes(const uint8_t* data, size_t size);

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_STATS_FILE_H_
