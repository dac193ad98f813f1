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
#include "ir/model.h"

namespace qforge::calibration {

// 2: model hashes are XXH3-64 (version 1: FNV-1a 64); version 1 files are
// still read, and checked with the hash they were written with.
inline constexpr int kStatsFormatVersion = 2;
// The file's "format" and "histogram_grid" fields (stats-format.md).
inline constexpr char kStatsFormatName[] = "qforge-stats";
inline constexpr char kStatsHistogramGrid[] = "float32-top14";
// Bounds a stats file's numbers must keep: a count above 2^53 (values seen)
// is a damaged file, and sums of a few such counts cannot overflow.
inline constexpr uint64_t kMaxStatsCount = uint64_t{1} << 53;
inline constexpr int kMaxHistogramStride = 1024;

struct Fingerprint {
  std::string model_hash;  // HashBytes(version) of the model file, hex
  std::string data_hash;   // the data set's fingerprint (all samples)
  std::string tool_version;
  uint64_t total_samples = 0;  // in the whole data set
  int histogram_stride = 1;    // see StatsCollector
  // Which shards of `shard_count` these stats cover; empty = all samples.
  int shard_count = 1;
  std::vector<int> shards;
};

struct StatsFile {
  int version = kStatsFormatVersion;  // of the file read; written as is
  Fingerprint fingerprint;
  uint64_t samples = 0;              // samples these stats saw
  std::vector<TensorStats> tensors;  // sorted by (subgraph, tensor)
};

std::string SerializeStats(const StatsFile& stats);
// Strict: wrong JSON types and values the writer cannot produce (min > max,
// non-finite ranges, negative or huge counts, histograms whose counts do not
// sum, empty tensor tables, ...) are InvalidArgument naming the field
// (stats_parse.cc).
absl::StatusOr<StatsFile> ParseStats(const std::string& text,
                                     const std::string& source);
absl::StatusOr<StatsFile> ReadStatsFile(const std::string& path);

// Merges shards of one calibration run: same model, same data set, same
// shard count, disjoint shards. `sources` name them in errors.
absl::StatusOr<StatsFile> MergeStats(absl::Span<const StatsFile> parts,
                                     absl::Span<const std::string> sources);

// The statistics name tensors of `model`: each (subgraph, tensor) exists,
// is float32 and has the recorded name. InvalidArgument naming `source`.
absl::Status CheckStatsMatchModel(const StatsFile& stats,
                                  const ir::Model& model,
                                  const std::string& source);

// True when the file covers every shard of its data set.
bool StatsComplete(const StatsFile& stats);

// "a1b2..." (16 hex digits) hash of a model file for stats format
// `version`: XXH3-64 for 2, FNV-1a 64 for 1.
std::string HashBytes(const uint8_t* data, size_t size,
                      int version = kStatsFormatVersion);

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_STATS_FILE_H_
