// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/target_metric.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"

namespace qforge::pipeline {
namespace {

// The metric's value over the outputs of one kind: the worst of them
// (the smallest; the largest for landmark errors); nullopt without one.
template <typename F>
std::optional<double> Worst(const report::Report& r, bool lower, F value) {
  std::optional<double> worst;
  for (const report::OutputReport& o : r.outputs) {
    const std::optional<double> v = value(o);
    if (!v.has_value() || std::isnan(*v)) continue;
    if (!worst.has_value() || (lower ? *v > *worst : *v < *worst)) worst = v;
  }
  return worst;
}

std::optional<double> Fraction(uint64_t a, uint64_t n) {
  if (n == 0) return std::nullopt;
  return static_cast<double>(a) / static_cast<double>(n);
}

std::string MetricText(TargetMetric m, double value, bool percent) {
  switch (m) {
    case TargetMetric::kWorst:
      return absl::StrFormat("worst output %.2f dB", value);
    case TargetMetric::kMean:
      return absl::StrFormat("mean output %.2f dB", value);
    case TargetMetric::kTop1:
      return percent ? absl::StrFormat("top-1 agreement %.1f%%", value)
                     : absl::StrFormat("top-1 agreement %.4f", value);
    case TargetMetric::kTop5:
      return absl::StrFormat("top-5 agreement %.4f", value);
    case TargetMetric::kAccuracy:
      return absl::StrFormat("accuracy %.4f", value);
    case TargetMetric::kMaskAgreement:
      return absl::StrFormat("mask agreement %.4f", value);
    case TargetMetric::kMiou:
      return absl::StrFormat("mean IoU %.4f", value);
    case TargetMetric::kLandmarkPx:
      return absl::StrFormat("mean point error %.4g", value);
    case TargetMetric::kLandmarkP95:
      return absl::StrFormat("p95 point error %.4g", value);
    case TargetMetric::kDetectionRecall:
      return absl::StrFormat("detection recall %.4f", value);
    case TargetMetric::kDecisionAgreement:
      return absl::StrFormat("decision agreement %.4f", value);
  }
  return absl::StrFormat("%.2f", value);
}

}  // namespace

std::optional<double> TargetMetricOf(const report::Report& r, TargetMetric m,
                                     bool percent) {
  using report::OutputReport;
  using report::TaskKind;
  auto task = [&](TaskKind kind, double report::TaskResult::*field) {
    return Worst(r, LowerIsBetter(m),
                 [&](const OutputReport& o) -> std::optional<double> {
                   if (o.task.kind != kind) return std::nullopt;
                   return o.task.*field;
                 });
  };
  switch (m) {
    case TargetMetric::kWorst:
      return report::MinOutputSqnr(r);
    case TargetMetric::kMean:
      return report::MeanOutputSqnr(r);
    case TargetMetric::kTop1: {
      std::optional<double> worst =
          Worst(r, false, [](const OutputReport& o) -> std::optional<double> {
            if (!o.classifier) return std::nullopt;
            return Fraction(o.top1_agree, o.samples);
          });
      if (worst.has_value() && percent) {
        // As --target-sqnr top1 always computed it.
        worst.reset();
        for (const OutputReport& o : r.outputs) {
          if (!o.classifier || o.samples == 0) continue;
          const double pct = 100.0 * static_cast<double>(o.top1_agree) /
                             static_cast<double>(o.samples);
          worst = worst.has_value() ? std::min(*worst, pct) : pct;
        }
      }
      return worst;
    }
    case TargetMetric::kTop5:
      return Worst(r, false,
                   [](const OutputReport& o) -> std::optional<double> {
                     if (!o.classifier || !o.top5_agree.has_value())
                       return std::nullopt;
                     return Fraction(*o.top5_agree, o.samples);
                   });
    case TargetMetric::kAccuracy:
      return task(TaskKind::kClassification,
                  &report::TaskResult::quant_accuracy);
    case TargetMetric::kMaskAgreement:
      return task(TaskKind::kSegmentation, &report::TaskResult::mask_agreement);
    case TargetMetric::kMiou:
      return task(TaskKind::kSegmentation, &report::TaskResult::mean_iou);
    case TargetMetric::kLandmarkPx:
      return task(TaskKind::kLandmarks, &report::TaskResult::point_error_mean);
    case TargetMetric::kLandmarkP95:
      return task(TaskKind::kLandmarks, &report::TaskResult::point_error_p95);
    case TargetMetric::kDetectionRecall:
      return task(TaskKind::kDetection, &report::TaskResult::recall);
    case TargetMetric::kDecisionAgreement:
      return task(TaskKind::kScore, &report::TaskResult::decision_agreement);
  }
  return std::nullopt;
}

const char* TargetMetricNeeds(TargetMetric m) {
  switch (m) {
    case TargetMetric::kWorst:
    case TargetMetric::kMean:
      return "output";
    case TargetMetric::kTop1:
      return "classifier output (made by SOFTMAX / LOG_SOFTMAX or named "
             "logit...)";
    case TargetMetric::kTop5:
      return "classifier output of more than 5 classes";
    case TargetMetric::kAccuracy:
      return "classifier output (and --labels)";
    case TargetMetric::kMaskAgreement:
    case TargetMetric::kMiou:
      return "segmentation output";
    case TargetMetric::kLandmarkPx:
    case TargetMetric::kLandmarkP95:
      return "landmarks output";
    case TargetMetric::kDetectionRecall:
      return "detection output with detections on the check samples";
    case TargetMetric::kDecisionAgreement:
      return "score output";
  }
  return "output";
}

const char* TargetMetricName(TargetMetric m) {
  switch (m) {
    case TargetMetric::kWorst:
      return "worst";
    case TargetMetric::kMean:
      return "mean";
    case TargetMetric::kTop1:
      return "top1";
    case TargetMetric::kTop5:
      return "top5";
    case TargetMetric::kAccuracy:
      return "accuracy";
    case TargetMetric::kMaskAgreement:
      return "mask-agreement";
    case TargetMetric::kMiou:
      return "miou";
    case TargetMetric::kLandmarkPx:
      return "landmark-px";
    case TargetMetric::kLandmarkP95:
      return "landmark-p95";
    case TargetMetric::kDetectionRecall:
      return "detection-recall";
    case TargetMetric::kDecisionAgreement:
      return "decision-agreement";
  }
  return "worst";
}

std::optional<TargetMetric> ParseTargetMetric(const std::string& name) {
  for (TargetMetric m :
       {TargetMetric::kWorst, TargetMetric::kMean, TargetMetric::kTop1,
        TargetMetric::kTop5, TargetMetric::kAccuracy,
        TargetMetric::kMaskAgreement, TargetMetric::kMiou,
        TargetMetric::kLandmarkPx, TargetMetric::kLandmarkP95,
        TargetMetric::kDetectionRecall, TargetMetric::kDecisionAgreement}) {
    if (name == TargetMetricName(m)) return m;
  }
  return std::nullopt;
}

std::string TargetMetricText(TargetMetric m, double value, bool percent) {
  return MetricText(m, value, percent);
}

bool LowerIsBetter(TargetMetric m) {
  return m == TargetMetric::kLandmarkPx || m == TargetMetric::kLandmarkP95;
}

bool IsFraction(TargetMetric m) {
  return m != TargetMetric::kWorst && m != TargetMetric::kMean &&
         !LowerIsBetter(m);
}

}  // namespace qforge::pipeline
