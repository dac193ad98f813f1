// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/rounding_choice.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "pipeline/recovery.h"
#include "pipeline/target_metric.h"
#include "quantizer/quantize.h"
#include "report/report.h"

namespace qforge::pipeline {
namespace {

// GPTQ is the default: over the corpus models of
// bench/weights/forms_rounding.md it is the best single method on most
// model x form cells. A candidate replaces it only on evidence: a higher
// score by kMarginDb on at least kMinCheckSamples check samples. Chosen on
// one or two check samples, the choice followed noise there (conv_fc_mnist,
// 6 calibration digits: 35 dB below GPTQ on the evaluation digits).
constexpr int64_t kMinCheckSamples = 8;
constexpr double kMarginDb = 1.0;
constexpr size_t kDefault = 2;  // "gptq" in the candidate list

quantizer::WeightRounding Rounding(bool awq, bool clip, bool gptq,
                                   bool awq_mul = false) {
  quantizer::WeightRounding r;
  r.awq = awq || awq_mul;
  r.awq_mul = awq_mul;
  r.clip_mse = clip;
  r.gptq = gptq;
  return r;
}

// `rounding` applied to the float model `work`.
absl::Status ApplyRounding(const RoundingChoiceInputs& in,
                           const std::vector<int64_t>& fit,
                           quantizer::WeightRounding rounding, ir::Model& work,
                           const Hooks& silent) {
  if (!rounding.Any()) return absl::OkStatus();
  RecoverySettings args;
  args.rounding = rounding;
  args.samples = in.max_samples;
  args.seed = in.seed;
  const size_t num_ops = work.subgraphs[0].operators.size();
  return ApplyRecovery(args, work, in.data, fit, in.keep_float,
                       std::vector<int>(num_ops, 8), in.grids, in.fc_per_tensor,
                       in.threads, in.numerics, silent);
}

absl::StatusOr<double> Score(const RoundingChoiceInputs& in,
                             const ir::Model& candidate, const Hooks& hooks) {
  ASSIGN_OR_RETURN(quantizer::QuantizeResult q,
                   quantizer::Quantize(candidate, nullptr, in.options));
  report::ReportOptions ro;
  ro.threads = in.threads;
  ro.histogram_layers = 0;
  ro.numerics = in.numerics;
  ro.samples = in.check;
  ro.progress = hooks.Progress("optimize: check");
  ASSIGN_OR_RETURN(const report::Report r,
                   report::BuildReport(*in.float_model, q.model, *in.data, ro));
  return TargetMetricOf(r, TargetMetric::kWorst, false)
      .value_or(-std::numeric_limits<double>::infinity());
}

}  // namespace

absl::StatusOr<RoundingChoice> ChooseWeightRounding(
    const RoundingChoiceInputs& in, ir::Model& work, const Hooks& hooks) {
  const Hooks silent = hooks.Silent();
  RoundingChoice choice;
  choice.check_samples = static_cast<int64_t>(in.check.size());
  choice.fit_samples = static_cast<int64_t>(in.fit.size());
  // In order of preference on a tie: the simpler first.
  choice.candidates = {
      {"nearest", Rounding(false, false, false)},
      {"weight-clip", Rounding(false, true, false)},
      {"gptq", Rounding(false, false, true)},
      {"gptq+weight-clip", Rounding(false, true, true)},
      {"awq", Rounding(true, false, false)},
      {"awq+weight-clip", Rounding(true, true, false)},
      {"awq+gptq", Rounding(true, false, true)},
      {"awq-mul", Rounding(true, false, false, true)},
      {"awq-mul+weight-clip", Rounding(true, true, false, true)},
      {"awq-mul+gptq", Rounding(true, false, true, true)},
  };
  for (RoundingCandidate& c : choice.candidates) {
    // Each from the float model: AWQ may insert MULs, which moves the op
    // indices the later methods take, so its result is not shared.
    ir::Model m = *in.float_model;
    RETURN_IF_ERROR(ApplyRounding(in, in.fit, c.rounding, m, silent));
    ASSIGN_OR_RETURN(c.worst_sqnr_db, Score(in, m, hooks));
  }
  // The best by score (the first on a tie; NaN never wins), if it clears
  // the default by the margin on enough samples.
  size_t best = 0;
  for (size_t k = 1; k < choice.candidates.size(); ++k) {
    if (choice.candidates[k].worst_sqnr_db >
        choice.candidates[best].worst_sqnr_db) {
      best = k;
    }
  }
  const double default_db = choice.candidates[kDefault].worst_sqnr_db;
  const bool evidence =
      choice.check_samples >= kMinCheckSamples &&
      choice.candidates[best].worst_sqnr_db >= default_db + kMarginDb;
  choice.chosen = static_cast<int>(evidence ? best : kDefault);
  // The method chosen, fitted again on every sample: the check samples
  // served the choice and now serve the fit (as a model selected on a
  // validation split is retrained on all of it). The written model is the
  // chosen flag's own result on the same --data.
  std::vector<int64_t> all = in.fit;
  all.insert(all.end(), in.check.begin(), in.check.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  choice.refit_samples = static_cast<int64_t>(all.size());
  work = *in.float_model;
  RETURN_IF_ERROR(ApplyRounding(
      in, all, choice.candidates[static_cast<size_t>(choice.chosen)].rounding,
      work, silent));
  std::string scores;
  for (const RoundingCandidate& c : choice.candidates) {
    absl::StrAppend(&scores, scores.empty() ? "" : ", ", c.name, " ",
                    absl::StrFormat("%.2f", c.worst_sqnr_db));
  }
  const std::string why =
      !evidence && choice.check_samples < kMinCheckSamples
          ? absl::StrFormat("the default: fewer than %d check samples",
                            kMinCheckSamples)
      : !evidence
          ? absl::StrFormat("the default: none %.0f dB above it", kMarginDb)
          : "the best";
  hooks.Note(absl::StrFormat(
      "optimize accuracy: weight rounding %s (%s), refitted on all %lld "
      "samples (worst output SQNR on %lld check samples, fitted on %lld: %s "
      "dB)",
      choice.candidates[static_cast<size_t>(choice.chosen)].name, why,
      static_cast<long long>(choice.refit_samples),
      static_cast<long long>(choice.check_samples),
      static_cast<long long>(choice.fit_samples), scores));
  return choice;
}

}  // namespace qforge::pipeline
