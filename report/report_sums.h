// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What a report keeps of its samples: everything Finish needs, merged
// exactly (exact_sum.h, integer counts and histograms), so that the sums of
// any split of the samples, merged in any order, finish into the report of
// all of them (report --shard, merge-reports; partial.h).
#ifndef QFORGE_REPORT_REPORT_SUMS_H_
#define QFORGE_REPORT_REPORT_SUMS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "calibration/histogram.h"
#include "report/exact_sum.h"
#include "report/task_metrics.h"

namespace qforge::report {

// Top-1 / top-5 agreement of one output, by the class count of the samples
// (a classifier output has one; the report judges the samples that have the
// class count of its first sample).
struct ClassCounts {
  uint64_t judged = 0, top1 = 0, top5 = 0;
};
struct OutputClasses {
  int64_t first_position = -1;  // of the first sample seen (report order)
  int64_t first_classes = 0;    // its class count (0: not a classifier)
  std::map<int64_t, ClassCounts> counts;  // class count > 0 -> counts
};

struct ReportSums {
  // Per compared tensor (Plan::slots): the quantized run, the
  // exact-input run's own and rounding noise, and the float model's
  // rounded run's propagated noise (attribution.h).
  std::vector<ExactErrorSums> slots, own, rounding, propagated;
  std::vector<ExactErrorSums> outputs;  // per model output
  std::vector<OutputClasses> classes;   // per model output
  std::vector<TaskSums> tasks;          // per model output (task_metrics.h)
  // What the task metrics were judged with, so that only sums of the same
  // merge and the merge finishes them alike: the --task overrides
  // ("OUTPUT=KIND") and the --labels fingerprint ("" without labels).
  std::vector<std::string> task_overrides;
  std::string labels;
  // Float values of the layers that may get a histogram, by capture.
  std::map<int, calibration::Histogram> histograms;
};

// Adds `from` to `into`; InvalidArgument when they are not of the same
// models (different slot or output counts).
absl::Status MergeSums(const ReportSums& from, ReportSums& into);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_REPORT_SUMS_H_
