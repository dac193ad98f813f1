// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// qforge quantize MODEL (--stats STATS | --data SPEC) -o OUT [options]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/range.h"
#include "cmd/cli_flags.h"
#include "cmd/command.h"
#include "cmd/data_flags.h"
#include "cmd/progress.h"
#include "cmd/recovery_flags.h"
#include "pipeline/fast_path_plan.h"
#include "pipeline/outcome_json.h"
#include "pipeline/quantize.h"
#include "report/runtime_section.h"

namespace qforge::cmd {
namespace {

// "  title: SOFTMAX x2 (ops 4, 9): why", one line per op type and reason.
void PrintGrouped(const char* title,
                  const std::vector<pipeline::RuntimeOpNote>& notes) {
  report::RuntimeOpGrouper groups;
  for (const pipeline::RuntimeOpNote& n : notes) {
    groups.Add(n.op_index, n.op, n.reason);
  }
  for (const report::RuntimeOpGroup& g : groups.Take()) {
    std::fprintf(stderr, "  %s: %s\n", title, report::GroupLine(g).c_str());
  }
}

// tflm, armnn: what the runtime cannot run of the model written, and for
// tflm its ops that are not integer (both should be none).
void PrintRuntimeProblems(const pipeline::QuantizeOutcome& o) {
  if (o.runtime == "litert") return;
  const char* who = o.runtime == "tflm" ? "TFLite Micro" : "Arm NN 20.08";
  if (o.unsupported.empty() && o.not_integer.empty()) {
    std::fprintf(stderr, "  %s: runs every op%s\n", who,
                 o.runtime == "tflm" ? ", every op integer" : "");
  }
  const std::string cannot = absl::StrCat(who, " cannot run");
  PrintGrouped(cannot.c_str(), o.unsupported);
  PrintGrouped("not integer", o.not_integer);
}

// The summary on stderr: what was quantized, what stayed float and why,
// what was repaired, the sizes, and how the model runs on its runtime.
void PrintSummary(const pipeline::QuantizeOutcome& o) {
  std::fprintf(stderr, "quantize (%s, %s): %d ops quantized, %zu kept float\n",
               o.scheme.c_str(), o.method.c_str(), o.ops_quantized,
               o.kept_float.size());
  if (o.calibration_samples > 0) {
    std::fprintf(stderr, "  calibrated on %llu samples (%s)\n",
                 static_cast<unsigned long long>(o.calibration_samples),
                 o.calibrated_here ? "--data" : "--stats");
  }
  // Ops kept float for LiteRT's fast path say so in one line, by type.
  std::map<std::string, int> for_speed, sparse, between;
  for (const quantizer::KeptFloat& k : o.kept_float) {
    if (k.reason.find(pipeline::kSparseFloatReason) != std::string::npos) {
      ++sparse[k.op_name];
      continue;
    }
    if (k.reason.find(pipeline::kSparseBetweenReason) != std::string::npos) {
      ++between[k.op_name];
      continue;
    }
    if (k.reason.find(pipeline::kFastPathFloatReason) != std::string::npos) {
      ++for_speed[k.op_name];
      continue;
    }
    std::fprintf(stderr, "  float: op %d %s: %s\n", k.op_index,
                 k.op_name.c_str(), k.reason.c_str());
  }
  if (!for_speed.empty()) {
    std::string ops;
    for (const auto& [op, n] : for_speed) {
      absl::StrAppend(&ops, ops.empty() ? "" : ", ", op, " x", n);
    }
    std::fprintf(stderr,
                 "  float where XNNPACK runs them faster: %s "
                 "(--keep-integer: integer)\n",
                 ops.c_str());
  }
  auto grouped = [](const std::map<std::string, int>& by_type) {
    std::string ops;
    for (const auto& [op, n] : by_type) {
      absl::StrAppend(&ops, ops.empty() ? "" : ", ", op, " x", n);
    }
    return ops;
  };
  if (!sparse.empty()) {
    std::fprintf(stderr,
                 "  float with their sparse weights: %s (XNNPACK runs these "
                 "sparse convs in float with sparse kernels; int8 has no "
                 "sparse kernel; --keep-integer: integer)\n",
                 grouped(sparse).c_str());
  }
  if (!between.empty()) {
    std::fprintf(stderr,
                 "  float with them: %s (XNNPACK's sparse kernels run only "
                 "in a float graph)\n",
                 grouped(between).c_str());
  }
  if (!o.folded.empty()) {
    // By type: "RELU x17".
    std::map<std::string, int> by_type;
    for (const auto& f : o.folded) ++by_type[f.op];
    std::string ops;
    for (const auto& [op, n] : by_type) {
      absl::StrAppend(&ops, ops.empty() ? "" : ", ", op, " x", n);
    }
    std::fprintf(stderr,
                 "  folded into the op before them: %s (exact in int8: no "
                 "op, no QUANTIZE/DEQUANTIZE for them)\n",
                 ops.c_str());
  }
  for (const quantizer::Repair& r : o.repairs) {
    std::fprintf(stderr, "  repaired: op %d %s: %s\n", r.op_index,
                 r.op_name.c_str(), r.what.c_str());
  }
  std::fprintf(stderr, "  size: %zu -> %zu bytes (%.1f%%)\n", o.input_bytes,
               o.output_bytes,
               100.0 * o.output_bytes / std::max<size_t>(1, o.input_bytes));
  if (o.latency.has_value()) {
    const pipeline::LatencyOutcome& l = *o.latency;
    std::fprintf(stderr,
                 "  LiteRT (estimated, one thread): %.3f -> %.3f ms; %d of %d "
                 "ops on XNNPACK in %d partitions\n",
                 l.float_ms, l.quantized_ms, l.xnnpack_ops, l.ops,
                 l.partitions);
    PrintGrouped("builtin kernels", l.off_fast_path);
    if (l.quantized_ms > l.float_ms) {
      // Users quantize for speed as often as for size: say when the model
      // written is not expected to deliver it.
      std::fprintf(stderr,
                   "  note: estimated slower than the float model in LiteRT "
                   "(%.2fx: the QUANTIZE/DEQUANTIZE around float ops, or the "
                   "ops in the builtin kernels); --scheme float16 halves the "
                   "size at float speed\n",
                   l.quantized_ms / l.float_ms);
    }
  }
  PrintRuntimeProblems(o);
  if (o.report.has_value()) {
    const pipeline::ReportOutcome& r = *o.report;
    std::string worst = "no outputs compared";
    if (!r.worst_output.empty()) {
      worst = std::isfinite(r.worst_sqnr_db)
                  ? absl::StrFormat("worst output '%s' %.2f dB SQNR",
                                    r.worst_output, r.worst_sqnr_db)
                  : "every output exact";
    }
    std::fprintf(stderr, "  report: %s (%lld samples; %s)\n", r.path.c_str(),
                 static_cast<long long>(r.samples), worst.c_str());
  }
}

// --json FILE ("-": stdout): the outcome as JSON (docs/quantize-json.md).
absl::Status RunQuantize(const pipeline::QuantizeJob& job,
                         const std::string& json, const GlobalFlags& flags) {
  pipeline::QuantizeJob run = job;
  run.numerics = flags.numerics;
  // The JSON file is created before the run (so that an unwritable path
  // fails first) and takes its name once the model has.
  std::optional<PendingFile> json_file;
  std::vector<std::string> caller_outputs;
  if (!json.empty() && json != "-") {
    const std::string inputs[] = {job.model, job.stats, job.recipe};
    ASSIGN_OR_RETURN(json_file, PendingFile::Create(json, inputs));
    caller_outputs.push_back(json);
  }
  ASSIGN_OR_RETURN(
      const pipeline::QuantizeOutcome outcome,
      pipeline::RunQuantizeJob(run, StderrHooks(flags.quiet), caller_outputs));
  if (!flags.quiet) PrintSummary(outcome);
  if (json.empty()) return absl::OkStatus();
  const std::string text = pipeline::QuantizeOutcomeJson(run, outcome);
  if (!json_file.has_value()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(json_file->Write(text));
  return json_file->Commit();
}

// --method, --scheme, --runtime, the model's input and output types.
void AddSchemeFlags(CLI::App* sub, pipeline::QuantizeJob* args) {
  sub->add_option("--method", args->method,
                  "Range method: minmax|percentile:P|kl|mse|auto (auto: per "
                  "tensor, the one that gives the best outputs on the "
                  "calibration samples; needs --data)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text == "auto") return "";
            absl::StatusOr<calibration::RangeSpec> spec =
                calibration::ParseRangeMethod(text);
            return spec.ok() ? ""
                             : "expected minmax, percentile:P (50 < P <= "
                               "100), kl or mse";
          },
          "METHOD"))
      ->default_str("mse when the histograms are exact, else minmax");
  sub->add_option("--scheme", args->scheme,
                  "int8|int16x8|dynamic|float16|weight-only (default: the "
                  "recipe's, else int8)")
      ->check(CLI::IsMember(
          {"int8", "int16x8", "dynamic", "float16", "weight-only"}));
  sub->add_option("--runtime", args->runtime,
                  "Where the model will run: litert (LiteRT with XNNPACK: "
                  "plans ranked by estimated latency), tflm (TFLite Micro: "
                  "integer only) or armnn (Arm NN 20.08); the forms written "
                  "run there and in LiteRT (docs/runtimes.md)")
      ->check(CLI::IsMember({"litert", "tflm", "armnn"}))
      ->capture_default_str();
  sub->add_option("--input-type", args->input_type, "float32|int8|uint8|int16")
      ->check(CLI::IsMember({"float32", "int8", "uint8", "int16"}));
  sub->add_option("--output-type", args->output_type,
                  "float32|int8|uint8|int16")
      ->check(CLI::IsMember({"float32", "int8", "uint8", "int16"}));
}

// Per-op precision: selectors, recipes, weight forms.
void AddPrecisionFlags(CLI::App* sub, pipeline::QuantizeJob* args) {
  sub->add_option(
      "--exclude-op,--float-op", args->float_ops,
      "Keep ops float: op index, op type, output tensor name, re:REGEX");
  sub->add_option("--int16-op", args->int16_ops,
                  "Run these ops in int16x8 (same selectors as --float-op); "
                  "QUANTIZE ops convert at int8/int16 borders");
  sub->add_option("--int8-op", args->int8_ops,
                  "Run these ops in int8 (e.g. inside --scheme int16x8)");
  sub->add_option("--int4-op", args->int4_ops,
                  "Run these ops in int8 with int4 weights (CONV_2D, "
                  "DEPTHWISE_CONV_2D, FULLY_CONNECTED; others int8)");
  sub->add_option("--weight-bits", args->weight_bits,
                  "4: int4 weights (per channel, in [-7, 7]) for every "
                  "CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED of the "
                  "int8 scheme, unless a rule says int8")
      ->check(CLI::IsMember({4, 8}))
      ->capture_default_str();
  sub->add_option("--block-size", args->block_size,
                  "--scheme weight-only / dynamic: one scale per block of N "
                  "weights along the input axis, where LiteRT has a kernel "
                  "(0: per channel; docs/weight-forms.md)")
      ->check(CLI::IsMember({0, 32, 64, 128, 256}))
      ->capture_default_str();
  sub->add_option("--float-weights", args->float_weights,
                  "float16: the ops that stay float store their weights as "
                  "float16 (behind DEQUANTIZE), halving them")
      ->check(CLI::IsMember({"float32", "float16"}))
      ->capture_default_str();
  sub->add_option("--int16-headroom", args->int16_headroom,
                  "Widen int16 activation ranges by this factor, so that "
                  "values beyond the calibration samples' range do not clip "
                  "(1: the calibrated range)")
      ->check(CLI::Range(1.0f, 256.0f))
      ->capture_default_str();
  sub->add_option("--recipe", args->recipe,
                  "Per-op precision rules (JSON, docs/recipe.md), applied "
                  "before --int8-op, --int16-op, --float-op");
  sub->add_option("--save-recipe", args->save_recipe,
                  "Write the recipe of the model written (every op's "
                  "precision), to reuse or edit");
  sub->add_flag("--strict", args->strict,
                "Fail (exit 3) if any op stays float");
  sub->add_flag("--keep-integer", args->keep_integer,
                "Give every op with an integer form that form, even where "
                "LiteRT runs its float form faster on XNNPACK (int8 PRELU, "
                "SOFTMAX, AVERAGE_POOL_2D, ...; docs/runtimes.md)");
  sub->add_flag("--fc-per-tensor", args->fc_per_tensor,
                "FULLY_CONNECTED weights per tensor instead of per channel");
}

// --target-sqnr and the bounds of its search.
void AddTargetFlags(CLI::App* sub, pipeline::QuantizeJob* args) {
  sub->add_option("--target-sqnr", args->target.sqnr,
                  "Find the cheapest per-op precision whose worst output "
                  "SQNR reaches DB on held-out samples (every 4th of --data)")
      ->type_name("DB")
      ->default_str("");
  sub->add_option("--target-steps", args->target.steps,
                  "At most this many ops raised by --target-sqnr (default "
                  "32)");
  sub->add_option("--target", args->target.value,
                  "Like --target-sqnr, for any --target-metric, in its units: "
                  "dB (worst, mean), a fraction in 0..1 (top1, top5, "
                  "accuracy, mask-agreement, miou, detection-recall, "
                  "decision-agreement) or the largest point error in the "
                  "output's units (landmark-px, landmark-p95)")
      ->type_name("VALUE")
      ->check(FiniteNumber())
      ->default_str("");
  sub->add_option("--target-metric", args->target.metric,
                  "What the target bounds on the check samples (the worst "
                  "output of its kind): worst (the worst output's SQNR, dB), "
                  "mean (the outputs' mean SQNR, dB), top1 (top-1 agreement; "
                  "percent with --target-sqnr), top5, accuracy (needs "
                  "--labels), mask-agreement, miou, landmark-px (mean point "
                  "error), landmark-p95, detection-recall, "
                  "decision-agreement (docs/report-json.md#task-metrics)")
      ->check(CLI::IsMember({"worst", "mean", "top1", "top5", "accuracy",
                             "mask-agreement", "miou", "landmark-px",
                             "landmark-p95", "detection-recall",
                             "decision-agreement"}))
      ->capture_default_str();
  sub->add_option("--max-size", args->target.max_size,
                  "With --target-sqnr: never raise precision past a model "
                  "of this many bytes (exit 4 if the target needs more)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--max-latency-ratio", args->target.max_latency_ratio,
                  "With --target-sqnr and --runtime litert: never raise "
                  "precision past this many times the float model's "
                  "estimated LiteRT latency (exit 4 if the target needs "
                  "more)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-float-ops", args->target.max_float_ops,
                  "With --target-sqnr: at most N ops left float")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--trials-dir", args->target.trials_dir,
                  "With --target-sqnr: each trial is evaluated by `qforge "
                  "eval-trial` workers through this folder");
  sub->add_option("--trial-shards", args->target.trial_shards,
                  "With --trials-dir: each trial's check samples in N "
                  "shards, one per worker (eval-trial --shard K/N)")
      ->check(CLI::Range(1, 4096));
}

// --eval-cmd: the user's evaluator accepts the search's plans.
void AddEvalFlags(CLI::App* sub, pipeline::QuantizeJob* args) {
  sub->add_option("--eval-cmd", args->eval.cmd,
                  "Accept plans by your own evaluator: a shell command with "
                  "{model} (each candidate's path) that prints a score alone "
                  "on its last stdout line; the precision search raises ops "
                  "until it accepts (needs --data; docs/commands.md)")
      ->type_name("CMD");
  sub->add_option("--eval-min", args->eval.min,
                  "With --eval-cmd: accept a score >= X")
      ->type_name("X")
      ->default_str("");
  sub->add_option("--eval-max", args->eval.max,
                  "With --eval-cmd: accept a score <= X (an error rate)")
      ->type_name("X")
      ->default_str("");
  sub->add_option("--eval-budget", args->eval.budget,
                  "With --eval-cmd: at most N runs of the command; then the "
                  "cheapest plan accepted so far, else exit 4")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--eval-timeout", args->eval.timeout,
                  "With --eval-cmd: seconds per run, then the command's "
                  "process group is killed (an error)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

}  // namespace

void RegisterQuantize(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<pipeline::QuantizeJob>();
  auto json = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("quantize", "Quantize a float model");
  sub->add_option("model", args->model, "The float .tflite model")->required();
  sub->add_option("--stats", args->stats,
                  "Calibration statistics (qforge calibrate)");
  AddDataFlags(sub, args->data, /*required=*/false);
  sub->add_option("-o,--output", args->output, "The quantized model")
      ->required();
  AddSchemeFlags(sub, args.get());
  AddPrecisionFlags(sub, args.get());
  AddTargetFlags(sub, args.get());
  AddEvalFlags(sub, args.get());
  AddRecoveryFlags(sub, args->recovery);
  AddTaskFlags(sub, args->tasks, args->labels);
  AddThreadsOption(sub, args->threads, "Calibration threads (with --data)");
  sub->add_option("--report", args->report,
                  "Also write a quantization report of the new model on the "
                  "--data samples (format from the extension: .txt, .json, "
                  ".md, .html)");
  sub->add_option("--json", *json,
                  "Also write the outcome as JSON (what the summary says: "
                  "ops kept float and why, sizes, estimated LiteRT latency, "
                  "ops off the fast path; docs/quantize-json.md); - for "
                  "stdout")
      ->type_name("FILE");
  SetExample(sub,
             "qforge quantize model.tflite --data 'calib/*.jpg' --scale "
             "0.003921569 -o model_int8.tflite --report report.html");
  sub->callback([args, json, &ctx]() {
    ctx.status = RunQuantize(*args, *json, ctx.flags);
  });
}

}  // namespace qforge::cmd
