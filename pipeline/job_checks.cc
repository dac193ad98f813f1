// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/job_checks.h"

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "pipeline/target_metric.h"
#include "report/task_kind.h"

namespace qforge::pipeline {
namespace {

// --eval-cmd's flags that do not go together.
absl::Status CheckEval(const QuantizeJob& job) {
  const EvalSettings& e = job.eval;
  const EvalSettings defaults;
  if (!e.active()) {
    if (!std::isnan(e.min) || !std::isnan(e.max) ||
        e.budget != defaults.budget || e.timeout != defaults.timeout) {
      return UsageError(
          "--eval-min, --eval-max, --eval-budget and --eval-timeout go with "
          "--eval-cmd");
    }
    return absl::OkStatus();
  }
  if (e.cmd.find("{model}") == std::string::npos) {
    return UsageError(absl::StrCat(
        "--eval-cmd '", e.cmd,
        "' has no {model}: qforge puts each candidate model's path there"));
  }
  if (std::isnan(e.min) == std::isnan(e.max)) {
    return UsageError(
        "--eval-cmd needs one of --eval-min X (accept a score >= X) and "
        "--eval-max X (accept a score <= X)");
  }
  if (std::isinf(e.min) || std::isinf(e.max)) {
    return UsageError("--eval-min / --eval-max must be finite");
  }
  if (e.budget < 1) return UsageError("--eval-budget must be >= 1");
  if (!(e.timeout > 0)) return UsageError("--eval-timeout must be > 0");
  if (job.data.empty() || !job.stats.empty()) {
    return UsageError(
        "--eval-cmd needs --data (the search calibrates on part of the "
        "samples and ranks the ops to raise on the rest), not --stats");
  }
  if (!job.target.active() && job.target.metric != "worst") {
    return UsageError(
        "--target-metric bounds --target-sqnr; --eval-cmd's score is its "
        "own metric");
  }
  return absl::OkStatus();
}

}  // namespace

bool Searches(const QuantizeJob& job) {
  return job.target.active() || job.eval.active();
}

const char* SearchName(const QuantizeJob& job) {
  if (!job.target.active()) return "eval-cmd";
  return std::isnan(job.target.value) ? "target-sqnr" : "target";
}

absl::Status CheckJob(const QuantizeJob& job, RecoverySettings& recovery) {
  const bool data = !job.data.empty();
  if (!job.report.empty() && !data) {
    return UsageError(
        "--report needs --data (the report runs on those samples)");
  }
  if (!job.report.empty() && SamePath(job.report, job.output)) {
    return UsageError(
        absl::StrCat("--report ", job.report, " is the output model's path"));
  }
  if ((!job.tasks.empty() || !job.labels.empty()) && job.report.empty() &&
      !job.target.active()) {
    return UsageError(
        "--task and --labels say how outputs are judged: give --report or a "
        "target too");
  }
  for (const std::string& task : job.tasks) {
    absl::StatusOr<report::TaskOverride> o = report::ParseTaskOverride(task);
    if (!o.ok()) return UsageError(std::string(o.status().message()));
  }
  const TargetSettings& t = job.target;
  RETURN_IF_ERROR(CheckEval(job));
  const bool search = Searches(job);
  if (t.active() && (!data || !job.stats.empty())) {
    return UsageError(
        "--target-sqnr needs --data (it calibrates on part of the samples "
        "and checks on the rest), not --stats");
  }
  if (search && t.steps < 0) {
    return UsageError("--target-steps must be >= 0");
  }
  const std::optional<TargetMetric> metric = ParseTargetMetric(t.metric);
  if (!metric.has_value()) {
    return UsageError(absl::StrCat("--target-metric ", t.metric,
                                   ": not a metric the search knows"));
  }
  if (!std::isnan(t.sqnr) && !std::isnan(t.value)) {
    return UsageError(
        "--target-sqnr and --target are one bound: give one of them");
  }
  if (!std::isnan(t.sqnr) && *metric != TargetMetric::kWorst &&
      *metric != TargetMetric::kMean && *metric != TargetMetric::kTop1) {
    return UsageError(absl::StrCat("--target-metric ", t.metric,
                                   " takes --target VALUE, not --target-sqnr"));
  }
  if (!std::isnan(t.value) &&
      (!std::isfinite(t.value) ||
       (IsFraction(*metric) && (t.value < 0 || t.value > 1)) ||
       (LowerIsBetter(*metric) && t.value < 0))) {
    return UsageError(absl::StrCat(
        "--target ", t.value, ": --target-metric ", t.metric, " takes ",
        IsFraction(*metric)      ? "a fraction in 0..1"
        : LowerIsBetter(*metric) ? "a largest error >= 0"
                                 : "a finite number of dB"));
  }
  if (*metric == TargetMetric::kAccuracy && job.labels.empty()) {
    return UsageError("--target-metric accuracy needs --labels");
  }
  std::error_code ec;
  if (*metric == TargetMetric::kAccuracy &&
      std::filesystem::is_directory(job.labels, ec)) {
    return UsageError(absl::StrCat(
        "--target-metric accuracy needs --labels FILE (one class a sample); ",
        job.labels, " is a directory (segmentation masks)"));
  }
  if (!search && (t.max_size > 0 || t.max_float_ops >= 0 ||
                  t.max_latency_ratio > 0 || t.metric != "worst")) {
    return UsageError(
        "--max-size, --max-float-ops, --max-latency-ratio and --target-metric "
        "bound --target-sqnr's search; give --target-sqnr (or --target) too");
  }
  if (!search && (!t.trials_dir.empty() || t.trial_shards != 1)) {
    return UsageError(
        "--trials-dir and --trial-shards spread --target-sqnr's trials over "
        "eval-trial workers; give --target-sqnr too");
  }
  if (search && (job.recovery.rounding.awq || job.recovery.rounding.awq_mul)) {
    // An op the search raises to float takes its own weights back, which
    // would undo one side of an AWQ fold and not the other.
    return UsageError(
        "--awq rescales layers in pairs, which --target-sqnr's float steps "
        "would split; use them apart");
  }
  RETURN_IF_ERROR(ResolveRecovery(recovery));
  if (recovery.Any() && (!data || !job.stats.empty())) {
    return UsageError(
        "--equalize, --bias-correction, --adaround, --gptq, --awq, "
        "--weight-clip mse and --optimize fast|accuracy "
        "change the float model's weights, so they calibrate on --data "
        "themselves (not --stats)");
  }
  return absl::OkStatus();
}

}  // namespace qforge::pipeline
