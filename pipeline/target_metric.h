// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What quantize's target bounds (--target-metric) and how a report
// measures it: output SQNR, or a task metric of the report
// (report/task_metrics.h). pipeline/precision_search.h searches for it.
#ifndef QFORGE_PIPELINE_TARGET_METRIC_H_
#define QFORGE_PIPELINE_TARGET_METRIC_H_

#include <optional>
#include <string>

#include "report/report.h"

namespace qforge::pipeline {

// What the target bounds, on the check samples: the worst output's SQNR
// (dB), the mean of the outputs' SQNRs (dB), or a task metric of the
// report (report/task_metrics.h), the worst output's of its kind: top-1 /
// top-5 agreement and --labels accuracy of classifier outputs, mask
// agreement and mean IoU of segmentations, the mean and the 95th
// percentile point error of landmarks (in the output's units; lower is
// better), detection recall, score decision agreement. Fractions are in
// 0..1, except top-1 under --target-sqnr (percent, as it always was).
enum class TargetMetric {
  kWorst,
  kMean,
  kTop1,
  kTop5,
  kAccuracy,
  kMaskAgreement,
  kMiou,
  kLandmarkPx,
  kLandmarkP95,
  kDetectionRecall,
  kDecisionAgreement
};

// --target-metric's names: "worst", "mean", "top1", "top5", "accuracy",
// "mask-agreement", "miou", "landmark-px", "landmark-p95",
// "detection-recall", "decision-agreement".
const char* TargetMetricName(TargetMetric m);
std::optional<TargetMetric> ParseTargetMetric(const std::string& name);
// Landmark errors: the target is a maximum.
bool LowerIsBetter(TargetMetric m);
// Fractions in 0..1 (with --target).
bool IsFraction(TargetMetric m);
// "mask agreement 0.9912", "worst output 31.20 dB".
std::string TargetMetricText(TargetMetric m, double value, bool percent);

// The metric of a report: the worst output's of the metric's kind
// (`percent`: kTop1 in percent, as --target-sqnr top1); nullopt when no
// output has it.
std::optional<double> TargetMetricOf(const report::Report& r, TargetMetric m,
                                     bool percent);
// What the metric needs of a model ("segmentation output"), for the error
// when it has none.
const char* TargetMetricNeeds(TargetMetric m);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_TARGET_METRIC_H_
