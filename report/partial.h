// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A partial report (`report --shard K/N`; docs/report-partial.md): the sums
// of one shard's samples (report_sums.h), versioned JSON with fingerprints
// that tie it to one pair of model files, one data set and one qforge, as
// calibration statistics files are. merge-reports merges the shards and
// finishes the report, byte-identical to one `report` over all samples.
#ifndef QFORGE_REPORT_PARTIAL_H_
#define QFORGE_REPORT_PARTIAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "numerics/modes.h"
#include "report/report_sums.h"

namespace qforge::report {

inline constexpr char kPartialFormatName[] = "qforge-report-partial";
// 2: task metrics (the tasks line, task_overrides and labels) and the
// float model's rounded run (propagated).
inline constexpr int kPartialFormatVersion = 2;

struct PartialFingerprint {
  // calibration::HashBytes of the two model files.
  std::string float_model_hash, quant_model_hash;
  std::string data_hash;  // the data set's fingerprint (all samples)
  std::string tool_version;
  // How the report ran: the interpreters' arithmetic, and which model the
  // data were opened for (ReportOptions).
  std::string numerics;
  bool data_for_quant_model = false;
  int64_t total_samples = 0;  // of the whole report
  int shard_count = 1;
  std::vector<int> shards;  // which shards these sums cover
};

struct PartialReport {
  int version = kPartialFormatVersion;
  PartialFingerprint fingerprint;
  // The models as given to `report`: the report's labels, and where
  // merge-reports reads them again (checked against the hashes).
  std::string float_model, quant_model;
  int64_t samples = 0;  // samples these sums saw
  ReportSums sums;
};

std::string SerializePartial(const PartialReport& partial);
// InvalidArgument naming `source` for anything the writer cannot produce.
absl::StatusOr<PartialReport> ParsePartial(const std::string& text,
                                           const std::string& source);
absl::StatusOr<PartialReport> ReadPartialFile(const std::string& path);

// Merges shards of one report: same models, data, qforge, numerics and
// shard count, disjoint shards; otherwise InvalidArgument naming the file
// (`sources`) that differs.
absl::StatusOr<PartialReport> MergePartials(
    absl::Span<const PartialReport> parts,
    absl::Span<const std::string> sources);

// The fingerprint's `numerics`: which integer arithmetic the interpreters
// reproduced (global flags --rounding, --arithmetic).
std::string NumericsFingerprint(const numerics::Modes& modes);

// The shards of 0..shard_count-1 the partial does not cover.
std::vector<int> MissingShards(const PartialReport& partial);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_PARTIAL_H_
