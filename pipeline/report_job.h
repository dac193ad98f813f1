// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A report as `qforge report` and `qforge quantize --report` make it: the
// --data samples opened for the pair of models, the report built, the ops
// left float explained by the quantizer, the runtime section, and the
// --min-sqnr check.
#ifndef QFORGE_PIPELINE_REPORT_JOB_H_
#define QFORGE_PIPELINE_REPORT_JOB_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "pipeline/data_spec.h"
#include "pipeline/hooks.h"
#include "report/partial.h"
#include "report/report.h"
#include "runtime/profile.h"

namespace qforge::pipeline {

struct ReportRun {
  std::string float_label, quant_label;  // as the report names the models
  int threads = 0;
  // Note the data layer's notes (wav remainders); off when the caller
  // opened the same data already and noted them.
  bool data_notes = true;
  // Files the caller will write: refused if one is a data file.
  std::vector<std::string> outputs;
  numerics::Modes numerics;  // of the quantized model's interpreters
  // Where the quantized model will run: the report's runtime section.
  runtime::Runtime runtime_profile = runtime::Runtime::kLitert;
  // --task OUTPUT=KIND (report/task_kind.h) and --labels FILE or DIR.
  std::vector<std::string> tasks;
  std::string labels;
};

// --task and --labels into report options: the overrides parsed, and the
// labels file read (one integer class per line, in --data sample order;
// blank lines ignored) with its fingerprint, or a directory of
// segmentation masks noted (report/label_masks.h: read by the report).
// InvalidArgument naming the flag or the file's line for what is not that.
absl::Status SetTaskOptions(const std::vector<std::string>& tasks,
                            const std::string& labels,
                            report::ReportOptions& options);

// The data are opened for the float model; when that fails and the
// quantized model takes integer inputs, for the quantized model (integer
// data of the input's type, taken as is).
absl::StatusOr<report::Report> MakeReport(const ir::Model& float_model,
                                          const ir::Model& quant_model,
                                          const DataSpec& data,
                                          const ReportRun& run,
                                          const Hooks& hooks);

// report --shard K/N: the sums of the report's samples i with i % N == K,
// with the fingerprints merge-reports checks. `float_bytes` and
// `quant_bytes` are the model files (hashed into the fingerprint).
absl::StatusOr<report::PartialReport> MakePartialReport(
    const ir::Model& float_model, absl::Span<const uint8_t> float_bytes,
    const ir::Model& quant_model, absl::Span<const uint8_t> quant_bytes,
    const DataSpec& data, const ReportRun& run, int shard_index,
    int shard_count, const Hooks& hooks);

// merge-reports: the partial report files merged (MergePartials), the
// models they name read again and checked against their hashes, and the
// report finished as MakeReport finishes it. Shards not given are listed
// in `missing` (the report then covers the others' samples only).
struct MergedReport {
  report::Report report;
  int shard_count = 1;
  std::vector<int> missing;
};
absl::StatusOr<MergedReport> MergeReports(
    const std::vector<std::string>& partial_paths,
    runtime::Runtime runtime_profile = runtime::Runtime::kLitert);

// Fills the reason of each float op the report found and the runtime did
// not explain: whether the quantizer has an integer form of the op
// (quantizer/op_quant_spec.h).
void ExplainFloatOps(const ir::Model& quant_model, report::Report& report);

// AccuracyBoundError (exit code 4) naming the outputs below `min_sqnr`.
absl::Status CheckMinSqnr(const report::Report& report, double min_sqnr);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_REPORT_JOB_H_
