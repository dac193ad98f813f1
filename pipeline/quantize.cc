// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/quantize.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/calibrate.h"
#include "calibration/range.h"
#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "pipeline/detector_head.h"
#include "pipeline/fast_path_plan.h"
#include "pipeline/float_region.h"
#include "pipeline/job_checks.h"
#include "pipeline/precision_search.h"
#include "pipeline/quantize_options.h"
#include "pipeline/report_job.h"
#include "quantizer/folded_model.h"
#include "quantizer/plan.h"
#include "quantizer/quantize.h"
#include "quantizer/recipe.h"
#include "quantizer/weight_forms.h"
#include "report/float_ops.h"
#include "report/render.h"
#include "report/task_kind.h"
#include "runtime/latency.h"
#include "runtime/profile.h"

namespace qforge::pipeline {
namespace {

// `status` with `prefix: ` before its message, same code.
absl::Status Prefixed(const std::string& prefix, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat(prefix, ": ", status.message()));
}

// Everything a run holds between its stages.
struct Run {
  Run(const QuantizeJob& job, const Hooks& hooks,
      const std::vector<std::string>& caller_outputs, Resolved resolved,
      RecoverySettings recovery, formats::ModelFile file)
      : job(job),
        hooks(hooks),
        caller_outputs(caller_outputs),
        resolved(std::move(resolved)),
        recovery(std::move(recovery)),
        file(std::move(file)) {}

  const QuantizeJob& job;
  const Hooks& hooks;
  const std::vector<std::string>& caller_outputs;
  Resolved resolved;
  RecoverySettings recovery;
  formats::ModelFile file;
  std::optional<formats::SampleSource> data;
  // The outputs, created before any work so that a path that cannot be
  // written fails first; each takes its name only once all are complete.
  std::optional<PendingFile> out, report, recipe;
  // The model calibrated and quantized: the float model, or its weights
  // after recovery (the report still compares with the float model).
  ir::Model work;
  std::vector<int64_t> fit, check;  // sample indices
  bool held_out = false;
  std::optional<calibration::StatsFile> stats;
  std::string method;
  std::optional<RoundingChoice> rounding_choice;  // --optimize accuracy

  const ir::Model& model() const { return file.model; }
};

// The caller's own outputs (quantize --json) may be neither an input nor
// one of the job's outputs.
absl::Status CheckCallerOutputs(const Run& run,
                                const std::vector<std::string>& inputs) {
  const QuantizeJob& job = run.job;
  std::vector<std::string> read = inputs;
  read.push_back(job.recipe);
  for (const std::string& out : run.caller_outputs) {
    for (const std::string& input : read) {
      if (!input.empty() && SamePath(out, input)) {
        return absl::FailedPreconditionError(absl::StrCat(
            out, ": refusing to overwrite an input file (", input, ")"));
      }
    }
    for (const std::string& other : {job.output, job.report, job.save_recipe}) {
      if (!other.empty() && SamePath(out, other)) {
        return UsageError(absl::StrCat(
            out, " is also the path of another output (", other, ")"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status OpenInputs(Run& run) {
  const QuantizeJob& job = run.job;
  if (absl::Status s = quantizer::CheckFloatModel(run.model()); !s.ok()) {
    return Prefixed(job.model, s);
  }
  if (run.resolved.needs_stats && job.stats.empty() && job.data.empty()) {
    return UsageError(absl::StrCat("--scheme ", run.resolved.scheme,
                                   " needs --stats STATS or --data SPEC"));
  }
  // No output may replace an input (model, stats, data files).
  std::vector<std::string> inputs = {job.model, job.stats};
  if (!job.data.empty()) {
    ASSIGN_OR_RETURN(run.data, OpenData(job.data, run.model(), run.hooks));
    for (std::string& path : DataInputPaths(job.data, *run.data)) {
      inputs.push_back(std::move(path));
    }
  }
  RETURN_IF_ERROR(CheckCallerOutputs(run, inputs));
  ASSIGN_OR_RETURN(run.out, PendingFile::Create(job.output, inputs));
  if (!job.report.empty()) {
    ASSIGN_OR_RETURN(run.report, PendingFile::Create(job.report, inputs));
  }
  if (!job.save_recipe.empty()) {
    inputs.push_back(job.recipe);
    ASSIGN_OR_RETURN(run.recipe, PendingFile::Create(job.save_recipe, inputs));
  }
  return absl::OkStatus();
}

// Every holdout-th sample (holdout-1, 2*holdout-1, ...) goes to the check
// set, which neither calibration nor recovery sees. Fewer samples than
// that leave none out; a target then checks on the calibration samples.
void SplitSamples(Run& run) {
  if (!run.data.has_value()) return;
  const int holdout = run.resolved.holdout;
  run.held_out = holdout > 0 && run.data->size() >= holdout;
  for (int64_t i = 0; i < run.data->size(); ++i) {
    const bool checks = run.held_out && i % holdout == holdout - 1;
    (checks ? run.check : run.fit).push_back(i);
  }
  const bool chooses_rounding = run.resolved.holdout > 0 && !Searches(run.job);
  if ((Searches(run.job) || chooses_rounding) && run.check.empty()) {
    run.check = run.fit;
    run.hooks.Note(absl::StrCat(
        chooses_rounding ? "optimize accuracy" : SearchName(run.job),
        ": fewer than 4 samples: checking on the calibration samples"));
  }
}

// Weight rounding for the weight-only and dynamic forms: each layer the
// scheme writes is rounded on the grid of its form (weight_forms.h), from
// its float inputs; layers whose weights stay float are left alone.
// The model as the quantizer numbers its ops (float16 weights folded), and
// what the rules ask of each op: recovery works on the file's ops.
struct FoldedRequests {
  quantizer::FoldedModel folded;
  std::vector<std::optional<quantizer::UserRequest>> requests;
};
absl::StatusOr<FoldedRequests> Fold(const ir::Model& model,
                                    const quantizer::QuantizeOptions& options) {
  ASSIGN_OR_RETURN(quantizer::FoldedModel folded,
                   quantizer::FoldedModel::Fold(model));
  ASSIGN_OR_RETURN(
      std::vector<std::optional<quantizer::UserRequest>> requests,
      quantizer::ResolveRequests(folded.model().subgraphs[0], options));
  return FoldedRequests{std::move(folded), std::move(requests)};
}

absl::Status RecoverWeightForms(Run& run) {
  const quantizer::QuantizeOptions& options = run.resolved.options;
  const RecoverySettings& r = run.recovery;
  const RecoverySettings& asked = run.job.recovery;  // before ResolveRecovery
  const bool choose = asked.optimize == "accuracy";
  if (choose && (asked.equalize || asked.bias_correction || asked.adaround ||
                 asked.rounding.Any())) {
    return UsageError(absl::StrCat(
        "--optimize accuracy chooses the weight rounding of --scheme ",
        run.resolved.scheme,
        " itself (among nearest, --weight-clip mse, --gptq, --awq and their "
        "pairs); give it alone, or one method without it"));
  }
  if (asked.optimize == "fast") {
    return UsageError(absl::StrCat(
        "--optimize fast is bias correction, which needs scheme int8 or "
        "int16x8; --scheme ",
        run.resolved.scheme, " takes --optimize accuracy"));
  }
  if (!choose && (r.equalize || r.bias_correction || r.adaround)) {
    return UsageError(absl::StrCat(
        "--equalize, --bias-correction and --adaround need scheme int8 or "
        "int16x8; --scheme ",
        run.resolved.scheme,
        " takes --gptq, --weight-clip mse, --awq or --optimize accuracy"));
  }
  ASSIGN_OR_RETURN(const FoldedRequests fr, Fold(run.model(), options));
  const quantizer::FoldedModel& folded = fr.folded;
  const ir::Subgraph& fsg = folded.model().subgraphs[0];
  const std::vector<std::optional<quantizer::UserRequest>>& requests =
      fr.requests;
  std::vector<bool> excluded(requests.size(), false);
  for (size_t j = 0; j < requests.size(); ++j) {
    excluded[j] = requests[j].has_value() &&
                  requests[j]->precision == quantizer::Precision::kFloat;
  }
  const std::vector<std::optional<quantizer::WeightGrid>> folded_grids =
      quantizer::PlannedWeightGrids(folded.model(), excluded, options);
  const size_t num_ops = run.model().subgraphs[0].operators.size();
  // Only weighted layers are kept float: AWQ folds into other ops (a
  // LayerNorm's MUL) whatever the scheme does with them.
  std::vector<bool> keep_float(num_ops, false);
  std::vector<std::optional<quantizer::WeightGrid>> grids(num_ops);
  for (size_t j = 0; j < folded_grids.size() && j < folded.num_ops(); ++j) {
    const size_t i = static_cast<size_t>(folded.FileOp(static_cast<int>(j)));
    grids[i] = folded_grids[j];
    keep_float[i] = !grids[i].has_value() &&
                    ir::GetOpInfo(fsg.operators[j].kind).weight_input >= 0;
  }
  // --scheme dynamic (int8): FULLY_CONNECTED's hybrid weights have one
  // scale for the tensor.
  const bool fc_per_tensor =
      options.scheme == quantizer::Scheme::kDynamic && options.weight_bits != 4;
  if (choose) {
    if (!run.data.has_value()) {
      return UsageError("--optimize accuracy needs --data");
    }
    RoundingChoiceInputs in;
    in.float_model = &run.model();
    in.data = &*run.data;
    in.fit = run.fit;
    in.check = run.check;
    in.keep_float = std::move(keep_float);
    in.grids = std::move(grids);
    in.fc_per_tensor = fc_per_tensor;
    in.options = options;
    in.max_samples = r.samples;
    in.seed = r.seed;
    in.threads = run.job.threads;
    in.numerics = run.job.numerics;
    absl::StatusOr<RoundingChoice> chosen =
        ChooseWeightRounding(in, run.work, run.hooks);
    if (!chosen.ok()) return Prefixed(run.job.model, chosen.status());
    run.rounding_choice = *std::move(chosen);
    return absl::OkStatus();
  }
  absl::Status s = ApplyRecovery(
      run.recovery, run.work, run.data.has_value() ? &*run.data : nullptr,
      run.fit, keep_float, std::vector<int>(num_ops, 8), grids, fc_per_tensor,
      run.job.threads, run.job.numerics, run.hooks);
  return s.ok() ? s : Prefixed(run.job.model, s);
}

absl::Status Recover(Run& run) {
  if (!run.recovery.Any()) return absl::OkStatus();
  const quantizer::QuantizeOptions& options = run.resolved.options;
  if (options.scheme == quantizer::Scheme::kWeightOnly ||
      options.scheme == quantizer::Scheme::kDynamic) {
    return RecoverWeightForms(run);
  }
  if (!run.resolved.needs_stats) {
    return UsageError(absl::StrCat(
        "weight recovery needs scheme int8, int16x8, weight-only or dynamic, "
        "not ",
        run.resolved.scheme));
  }
  // The rules name ops of the folded model; recovery works on the file's.
  ASSIGN_OR_RETURN(const FoldedRequests fr, Fold(run.model(), options));
  const quantizer::FoldedModel& folded = fr.folded;
  const ir::Subgraph& fsg = folded.model().subgraphs[0];
  const std::vector<std::optional<quantizer::UserRequest>>& requests =
      fr.requests;
  const std::vector<int> folded_bits =
      quantizer::PlannedWeightBits(fsg, options, requests);
  const size_t num_ops = run.model().subgraphs[0].operators.size();
  std::vector<bool> keep_float(num_ops, false);
  std::vector<int> weight_bits(num_ops, 8);
  for (size_t j = 0; j < requests.size() && j < folded.num_ops(); ++j) {
    const size_t i = static_cast<size_t>(folded.FileOp(static_cast<int>(j)));
    keep_float[i] = requests[j].has_value() &&
                    requests[j]->precision == quantizer::Precision::kFloat;
    weight_bits[i] = folded_bits[j];
  }
  absl::Status s = ApplyRecovery(
      run.recovery, run.work, &*run.data, run.fit, keep_float, weight_bits, {},
      options.fc_per_tensor, run.job.threads, run.job.numerics, run.hooks);
  return s.ok() ? s : Prefixed(run.job.model, s);
}

absl::Status ReadStats(Run& run) {
  const QuantizeJob& job = run.job;
  ASSIGN_OR_RETURN(run.stats, calibration::ReadStatsFile(job.stats));
  const absl::Span<const uint8_t> bytes = run.file.bytes();
  const std::string hash =
      calibration::HashBytes(bytes.data(), bytes.size(), run.stats->version);
  if (run.stats->fingerprint.model_hash != hash) {
    return absl::InvalidArgumentError(
        absl::StrCat(job.stats, ": statistics of another model (model hash ",
                     run.stats->fingerprint.model_hash, "; ", job.model,
                     " hashes to ", hash, ")"));
  }
  if (!calibration::StatsComplete(*run.stats)) {
    return absl::InvalidArgumentError(absl::StrCat(
        job.stats, ": covers ", run.stats->fingerprint.shards.size(), " of ",
        run.stats->fingerprint.shard_count,
        " shards of the data; merge all shards first"));
  }
  return calibration::CheckStatsMatchModel(*run.stats, run.model(), job.stats);
}

// Statistics from --stats, or calibrated on the fitting samples of --data.
absl::Status LoadOrCalibrate(Run& run) {
  if (!run.job.stats.empty()) return ReadStats(run);
  if (!run.data.has_value() || !run.resolved.needs_stats) {
    return absl::OkStatus();
  }
  calibration::CalibrateOptions co;
  if (run.held_out) co.holdout_every = run.resolved.holdout;
  co.threads = run.job.threads;
  co.numerics = run.job.numerics;
  co.histogram_stride = 1;  // every value: exact ranges for mse/kl/percentile
  co.progress = run.hooks.Progress("calibrate");
  absl::StatusOr<calibration::StatsFile> s =
      calibration::Calibrate(run.work, run.file.bytes(), *run.data, co);
  co.progress = nullptr;
  if (!s.ok()) return Prefixed(run.job.model, s.status());
  run.stats = std::move(*s);
  for (const std::string& note : UncalibratedNotes(run.model())) {
    run.hooks.Note(absl::StrCat("calibrate: ", note));
  }
  return absl::OkStatus();
}

// The range method: as asked, else mse when the histograms hold every value
// (--data, or calibrate --histogram-stride 1) and minmax on subsampled
// histograms, which may miss whole channels. --method auto searches a
// method per tensor.
absl::Status ChooseRanges(Run& run, QuantizeOutcome& outcome) {
  const QuantizeJob& job = run.job;
  quantizer::QuantizeOptions& options = run.resolved.options;
  run.method = run.resolved.method;
  if (run.method.empty()) {
    run.method =
        run.stats.has_value() && run.stats->fingerprint.histogram_stride == 1
            ? "mse"
            : "minmax";
  }
  const bool auto_method = run.method == "auto";
  if (auto_method && !(run.data.has_value() && run.resolved.needs_stats &&
                       job.stats.empty())) {
    return UsageError(
        "--method auto measures each choice on the samples: it needs --data "
        "(and scheme int8 or int16x8, without --stats)");
  }
  ASSIGN_OR_RETURN(options.range, calibration::ParseRangeMethod(
                                      auto_method ? "mse" : run.method));
  if (options.scheme == quantizer::Scheme::kInt16x8) {
    options.range.num_bits = 16;
  }
  if (!auto_method) return absl::OkStatus();
  ASSIGN_OR_RETURN(
      RangeSearchOutcome found,
      SearchRanges(run.model(), run.work, *run.stats, *run.data, run.fit,
                   options, job.threads, job.numerics, run.hooks));
  options.range_overrides = found.overrides;
  run.hooks.Note(absl::StrFormat(
      "method auto: %zu of %d tensors moved off mse, mean output SQNR %.2f -> "
      "%.2f dB on %lld calibration samples (%d trials)",
      found.overrides.size(), found.tensors, found.start_db, found.final_db,
      static_cast<long long>(found.samples), found.trials));
  outcome.ranges = std::move(found);
  return absl::OkStatus();
}

// The plan --target-sqnr found, as a table: each op raised, its form, what
// undoing it would lose (the metric) and save (bytes, estimated latency).
std::vector<std::string> PlanTable(const std::vector<PlanRow>& plan,
                                   const char* name) {
  std::vector<std::string> out;
  if (plan.empty()) return out;
  out.push_back(absl::StrCat(
      name,
      ": plan (gain: what undoing the step loses; bytes and LiteRT "
      "ms, estimated: what it costs)"));
  for (const PlanRow& r : plan) {
    out.push_back(
        r.gain_known
            ? absl::StrFormat("  op %d %s -> %s: gain %+.2f, %+lld bytes, "
                              "%+.3f ms",
                              r.op, r.type, r.precision, r.gain_db,
                              static_cast<long long>(r.bytes), r.latency_ms)
            : absl::StrFormat("  op %d %s -> %s", r.op, r.type, r.precision));
  }
  return out;
}

// Keeps a raw detector's head float (pipeline/detector_head.h): adds its
// rules to the options, and says so.
absl::Status KeepDetectorHeadFloat(Run& run) {
  std::vector<report::TaskOverride> overrides;
  for (const std::string& t : run.job.tasks) {
    absl::StatusOr<report::TaskOverride> o = report::ParseTaskOverride(t);
    if (!o.ok()) return o.status();
    overrides.push_back(*std::move(o));
  }
  ASSIGN_OR_RETURN(const DetectorHeadPlan head,
                   PlanDetectorHead(run.work, run.resolved.options, overrides));
  if (head.ops.empty()) return absl::OkStatus();
  run.resolved.options.rules.insert(run.resolved.options.rules.end(),
                                    head.rules.begin(), head.rules.end());
  run.hooks.Note(absl::StrFormat(
      "runtime litert: %zu ops of the detector head kept float (%s%s): int8 "
      "would round its score logits near the 0.5 decision to it",
      head.ops.size(), head.ops.front(), head.ops.size() > 1 ? ", ..." : ""));
  return absl::OkStatus();
}

absl::StatusOr<quantizer::QuantizeResult> SearchToTarget(
    Run& run, QuantizeOutcome& outcome) {
  const TargetSettings& target = run.job.target;
  SearchOptions so;
  so.has_target = target.active();
  so.target = target.bound();
  so.eval = run.job.eval;
  so.max_steps = target.steps;
  so.metric = ParseTargetMetric(target.metric).value_or(TargetMetric::kWorst);
  // --target-sqnr's top1 is a percentage, as it has always been.
  so.percent = so.metric == TargetMetric::kTop1 && std::isnan(target.value);
  if (!std::isnan(target.value)) so.note = "target";
  {
    report::ReportOptions task_options;
    RETURN_IF_ERROR(
        SetTaskOptions(run.job.tasks, run.job.labels, task_options));
    so.tasks = std::move(task_options.tasks);
    so.labels = std::move(task_options.labels);
    so.labels_fingerprint = std::move(task_options.labels_fingerprint);
  }
  so.max_size = target.max_size;
  so.max_float_ops = target.max_float_ops;
  so.max_latency_ratio = target.max_latency_ratio;
  so.trials_dir = target.trials_dir;
  so.trial_shards = target.trial_shards;
  if (!so.trials_dir.empty()) {
    const absl::Span<const uint8_t> bytes = run.file.bytes();
    so.float_model_hash = calibration::HashBytes(bytes.data(), bytes.size());
  }
  so.threads = run.job.threads;
  so.whole_float = !run.job.keep_integer && !run.job.strict;
  // litert: the search starts from the plan that keeps LiteRT's fast path.
  if (!run.job.keep_integer && !run.job.strict) {
    RETURN_IF_ERROR(KeepDetectorHeadFloat(run));
    ASSIGN_OR_RETURN(
        const FastPathPlan fast,
        PlanForFastPath(run.work, &*run.stats, run.resolved.options));
    run.resolved.options.rules.insert(run.resolved.options.rules.end(),
                                      fast.rules.begin(), fast.rules.end());
  }
  absl::StatusOr<SearchOutcome> found =
      SearchPrecision(run.model(), run.work, *run.stats, *run.data, run.check,
                      run.resolved.options, so, run.hooks);
  if (!found.ok()) return Prefixed(run.job.model, found.status());
  const EvalSettings& eval = run.job.eval;
  // "--eval-min 0.9"
  const std::string eval_bound =
      std::isnan(eval.max) ? absl::StrFormat("--eval-min %g", eval.min)
                           : absl::StrFormat("--eval-max %g", eval.max);
  std::string eval_runs;  // "candidate 1 (as asked): 0.52; ..."
  for (const EvalRun& r : found->eval_runs) {
    absl::StrAppend(&eval_runs, eval_runs.empty() ? "" : "; ", "candidate ",
                    r.candidate, " (", r.label,
                    "): ", absl::StrFormat("%.6g", r.score));
  }
  // Whether the target (not --eval-cmd) held on the plan found.
  const bool target_held = LowerIsBetter(so.metric)
                               ? found->check_db <= so.target
                               : found->check_db >= so.target;
  if (!found->met) {
    const bool top1 = so.metric == TargetMetric::kTop1;
    const std::string evals =
        eval.active()
            ? absl::StrCat("; --eval-cmd ran ", found->eval_runs.size(),
                           " times", eval_runs.empty() ? "" : ": ", eval_runs)
            : "";
    if (target.active() && !target_held && !std::isnan(target.value)) {
      return AccuracyBoundError(absl::StrFormat(
          "%s: --target %g (%s) not met: the best plan found reaches %s on "
          "the %zu check samples after raising %zu ops%s%s%s; nothing written",
          run.job.model, target.value, target.metric,
          TargetMetricText(so.metric, found->check_db, so.percent),
          run.check.size(), found->steps.size(),
          found->limit.empty() ? "" : "; ", found->limit, evals));
    }
    if (target.active() && !target_held) {
      return AccuracyBoundError(absl::StrFormat(
          "%s: --target-sqnr %.2f%s not met: the best plan found reaches "
          "%.2f%s on the %zu check samples after raising %zu ops%s%s%s; "
          "nothing written",
          run.job.model, target.sqnr, top1 ? "% top-1" : " dB", found->check_db,
          top1 ? "% top-1" : " dB", run.check.size(), found->steps.size(),
          found->limit.empty() ? "" : "; ", found->limit, evals));
    }
    const size_t runs = found->eval_runs.size();
    return AccuracyBoundError(absl::StrFormat(
        "%s: --eval-cmd %s not met: no plan tried was accepted in %zu run%s "
        "(%s) after raising %zu ops%s%s; nothing written",
        run.job.model, eval_bound, runs, runs == 1 ? "" : "s", eval_runs,
        found->steps.size(), found->limit.empty() ? "" : "; ", found->limit));
  }
  if (target.active() && std::isnan(target.value)) {
    run.hooks.Note(absl::StrFormat(
        "target-sqnr: %.2f dB >= %.2f on %zu check samples (every 4th: 3, 7, "
        "...) after raising %zu ops",
        found->check_db, target.sqnr, run.check.size(), found->steps.size()));
  } else if (target.active()) {
    run.hooks.Note(absl::StrFormat(
        "target: %s %s %g on %zu check samples (every 4th: 3, 7, ...) after "
        "raising %zu ops",
        TargetMetricText(so.metric, found->check_db, so.percent),
        LowerIsBetter(so.metric) ? "<=" : ">=", target.value, run.check.size(),
        found->steps.size()));
  }
  if (eval.active() && found->eval_score.has_value()) {
    run.hooks.Note(absl::StrFormat(
        "eval-cmd: score %.6g (%s) after raising %zu ops, %zu of "
        "--eval-budget %d runs%s",
        *found->eval_score, eval_bound, found->steps.size(),
        found->eval_runs.size(), eval.budget,
        found->eval_budget_spent
            ? " (budget spent: the cheapest plan accepted so far)"
            : ""));
  }
  outcome.target.emplace();
  outcome.target->check_db = found->check_db;
  outcome.target->check_samples = run.check.size();
  outcome.target->steps = found->steps;
  outcome.target->plan = found->plan;
  outcome.target->eval_runs = found->eval_runs;
  outcome.target->eval_score = found->eval_score;
  outcome.target->eval_budget_spent = found->eval_budget_spent;
  for (const std::string& line : PlanTable(found->plan, SearchName(run.job))) {
    run.hooks.Note(line);
  }
  return std::move(found->result);
}

// Quantizes with the options asked; for litert, with the ops XNNPACK runs
// only in float kept float where that makes the model faster.
absl::StatusOr<quantizer::QuantizeResult> QuantizeForRuntime(
    Run& run, QuantizeOutcome& outcome) {
  const calibration::StatsFile* stats = run.stats ? &*run.stats : nullptr;
  quantizer::QuantizeOptions& options = run.resolved.options;
  FastPathPlan fast;
  if (!run.job.keep_integer && !run.job.strict) {
    RETURN_IF_ERROR(KeepDetectorHeadFloat(run));
    ASSIGN_OR_RETURN(fast, PlanForFastPath(run.work, stats, options));
  }
  if (!fast.rules.empty()) {
    options.rules.insert(options.rules.end(), fast.rules.begin(),
                         fast.rules.end());
    outcome.latency.emplace();
  }
  if (!fast.ops.empty()) {
    run.hooks.Note(absl::StrFormat(
        "runtime litert: %zu ops kept float, where XNNPACK runs them "
        "(%s%s): estimated %.3f -> %.3f ms",
        fast.ops.size(), fast.ops.front(), fast.ops.size() > 1 ? ", ..." : "",
        fast.ms_before, fast.ms_after));
    outcome.latency->kept_float_for_speed = fast.ops;
  }
  if (!fast.sparse_ops.empty()) {
    run.hooks.Note(absl::StrFormat(
        "runtime litert: %zu sparse convolutions kept float, where XNNPACK "
        "runs them with sparse kernels (%s%s), and %zu ops with them (those "
        "kernels run only in a float graph): estimated %.3f -> %.3f ms",
        fast.sparse_ops.size(), fast.sparse_ops.front(),
        fast.sparse_ops.size() > 1 ? ", ..." : "", fast.between_ops,
        fast.ms_before, fast.ms_after));
    outcome.latency->kept_float_for_speed.insert(
        outcome.latency->kept_float_for_speed.end(), fast.sparse_ops.begin(),
        fast.sparse_ops.end());
  }
  return quantizer::Quantize(run.work, stats, options);
}

void EstimateLatency(const Run& run, const ir::Model& quantized,
                     QuantizeOutcome& outcome) {
  if (!outcome.latency.has_value()) outcome.latency.emplace();
  LatencyOutcome& l = *outcome.latency;
  l.float_ms = runtime::EstimateLitertLatency(run.model()).ms;
  const runtime::LatencyEstimate est =
      runtime::EstimateLitertLatency(quantized);
  l.quantized_ms = est.ms;
  l.partitions = est.partitions;
  for (const runtime::OpLatency& op : est.ops) {
    ++l.ops;
    if (op.xnnpack) {
      ++l.xnnpack_ops;
      continue;
    }
    l.off_fast_path.push_back({op.op_index, op.op, op.why_builtin});
  }
}

// tflm, armnn: what the runtime cannot run of the model written, and for
// tflm its float ops. The quantizer plans for the profile, so both should
// be empty; the outcome says so rather than assume it.
void FindRuntimeProblems(const Run& run, const ir::Model& quantized,
                         QuantizeOutcome& outcome) {
  const runtime::Runtime rt = run.resolved.options.runtime;
  for (runtime::UnsupportedOp& u : runtime::FindUnsupportedOps(rt, quantized)) {
    outcome.unsupported.push_back(
        {u.op_index, std::move(u.op), std::move(u.reason)});
  }
  if (rt != runtime::Runtime::kTflm) return;
  for (report::FloatOp& f : report::FindFloatOps(quantized)) {
    outcome.not_integer.push_back(
        {f.op_index, std::move(f.op), "computes in float32"});
  }
}

// The report of the model as written (unused tensors dropped) on the
// --data samples; the quantizer says why each op stayed float and what it
// repaired.
absl::Status WriteReport(Run& run, const std::vector<uint8_t>& written_bytes,
                         const quantizer::QuantizeResult& result,
                         QuantizeOutcome& outcome) {
  const QuantizeJob& job = run.job;
  ASSIGN_OR_RETURN(ir::Model written,
                   formats::ParseTflite(written_bytes, job.output));
  ReportRun rr;
  rr.float_label = job.model;
  rr.quant_label = job.output;
  rr.threads = job.threads;
  // Opened and noted once already when the pipeline calibrated on them.
  rr.data_notes = !(run.resolved.needs_stats && job.stats.empty());
  rr.numerics = job.numerics;
  rr.runtime_profile = run.resolved.options.runtime;
  rr.tasks = job.tasks;
  rr.labels = job.labels;
  ASSIGN_OR_RETURN(report::Report r,
                   MakeReport(run.model(), written, job.data, rr, run.hooks));
  for (report::FloatOp& f : r.float_ops) {
    for (const quantizer::KeptFloat& k : result.kept_float) {
      const size_t i = static_cast<size_t>(k.op_index);
      if (i < result.op_choices.size() &&
          result.op_choices[i].output == f.output) {
        f.reason = ExplainKeptFloat(run.model(), k);
      }
    }
  }
  for (const quantizer::Repair& rep : result.repairs) {
    r.repairs.push_back(
        absl::StrCat("op ", rep.op_index, " ", rep.op_name, ": ", rep.what));
  }
  ReportOutcome& ro = outcome.report.emplace();
  ro.path = job.report;
  ro.samples = r.samples;
  ro.worst_sqnr_db = report::MinOutputSqnr(r);
  for (const report::OutputReport& o : r.outputs) {
    if (o.metrics.sqnr_db == ro.worst_sqnr_db) {
      ro.worst_output = o.name;
      break;
    }
  }
  return run.report->Write(
      report::Render(r, report::FormatForPath(job.report)));
}

// Writes the model, then the recipe and report; commits all once complete.
absl::Status WriteOutputs(Run& run, quantizer::QuantizeResult result,
                          QuantizeOutcome& outcome) {
  const QuantizeJob& job = run.job;
  outcome.ops_quantized = result.ops_quantized;
  outcome.repairs = result.repairs;
  outcome.op_choices = result.op_choices;
  outcome.folded = result.folded;
  for (quantizer::KeptFloat k : result.kept_float) {
    k.reason = ExplainKeptFloat(run.model(), k);
    outcome.kept_float.push_back(std::move(k));
  }
  formats::WriteOptions write;
  write.drop_unused = true;
  // The model streams into the file, each buffer freed once written, so the
  // output never exists twice in memory; only --report keeps the bytes, to
  // run the model as written.
  std::vector<uint8_t> bytes;
  const bool keep_bytes = run.report.has_value();
  quantizer::QuantizeResult rest;  // all but the model, for the report
  rest.kept_float = result.kept_float;
  rest.repairs = result.repairs;
  rest.op_choices = result.op_choices;
  RETURN_IF_ERROR(formats::SerializeTfliteConsuming(
      std::move(result.model), write, [&](absl::Span<const uint8_t> piece) {
        outcome.output_bytes += piece.size();
        if (keep_bytes) bytes.insert(bytes.end(), piece.begin(), piece.end());
        return run.out->Write(piece);
      }));
  if (run.recipe.has_value()) {
    const quantizer::QuantizeOptions& options = run.resolved.options;
    const bool weight_forms =
        options.scheme == quantizer::Scheme::kWeightOnly ||
        options.scheme == quantizer::Scheme::kDynamic;
    if (rest.op_choices.empty() && !weight_forms) {
      return UsageError(absl::StrCat("--save-recipe: scheme ",
                                     run.resolved.scheme,
                                     " has no per-op precision"));
    }
    // The settings given (a default method depends on the statistics, so
    // it is not fixed here), so that --recipe reproduces the model.
    quantizer::RecipeSettings settings;
    if (!run.resolved.method.empty()) settings.method = run.resolved.method;
    if (options.weight_bits != 8) settings.weight_bits = options.weight_bits;
    if (options.block_size != 0) settings.block_size = options.block_size;
    if (options.fc_per_tensor) settings.fc_per_tensor = true;
    const bool records_holdout = run.held_out && job.stats.empty();
    RETURN_IF_ERROR(run.recipe->Write(quantizer::RecipeJson(
        run.resolved.scheme, rest.op_choices,
        records_holdout ? std::optional<int>(run.resolved.holdout)
                        : std::nullopt,
        settings)));
  }
  if (run.report.has_value()) {
    RETURN_IF_ERROR(WriteReport(run, bytes, rest, outcome));
  }
  // All complete: the model, then its report and recipe, take their names.
  RETURN_IF_ERROR(run.out->Commit());
  if (run.report.has_value()) RETURN_IF_ERROR(run.report->Commit());
  if (run.recipe.has_value()) RETURN_IF_ERROR(run.recipe->Commit());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<QuantizeOutcome> RunQuantizeJob(
    const QuantizeJob& job, const Hooks& hooks,
    const std::vector<std::string>& caller_outputs) {
  RecoverySettings recovery = job.recovery;
  RETURN_IF_ERROR(CheckJob(job, recovery));
  ASSIGN_OR_RETURN(Resolved resolved, ResolveOptions(job));
  ASSIGN_OR_RETURN(formats::ModelFile file, formats::OpenTfliteFile(job.model));
  Run run(job, hooks, caller_outputs, std::move(resolved), recovery,
          std::move(file));
  RETURN_IF_ERROR(OpenInputs(run));
  run.work = run.model();
  SplitSamples(run);
  RETURN_IF_ERROR(Recover(run));
  RETURN_IF_ERROR(LoadOrCalibrate(run));
  QuantizeOutcome outcome;
  outcome.scheme = run.resolved.scheme;
  outcome.runtime = runtime::RuntimeName(run.resolved.options.runtime);
  outcome.input_bytes = run.file.bytes().size();
  if (run.stats.has_value()) {
    outcome.calibration_samples = run.stats->samples;
    outcome.calibrated_here = job.stats.empty();
  }
  RETURN_IF_ERROR(ChooseRanges(run, outcome));
  outcome.method = run.method;
  outcome.rounding = run.rounding_choice;
  absl::StatusOr<quantizer::QuantizeResult> result;
  if (Searches(job) && run.stats.has_value() && run.data.has_value()) {
    result = SearchToTarget(run, outcome);
    if (!result.ok()) return result.status();
  } else {
    result = QuantizeForRuntime(run, outcome);
    if (!result.ok()) return Prefixed(job.model, result.status());
  }
  if (run.resolved.options.runtime == runtime::Runtime::kLitert) {
    EstimateLatency(run, result->model, outcome);
  } else {
    FindRuntimeProblems(run, result->model, outcome);
  }
  RETURN_IF_ERROR(WriteOutputs(run, std::move(*result), outcome));
  return outcome;
}

}  // namespace qforge::pipeline
