// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --target-sqnr: a cheap precision per op that meets an output
// SQNR target on held-out samples, climbing the runtime profile's ladder
// (runtime::PrecisionLadder). Quantize as asked and measure on the check
// set; if short, rank the int8 ops by the noise each adds itself (the
// report's introduced_db). Where the ladder has int16x8 (tflm), find by
// bisection the fewest of the noisiest that must run in int16x8. Where it
// has float (litert: float16 weights, then float32; armnn: float32), raise
// the culprit layer to float one step at a time, then undo the steps a
// later one made unnecessary, those saving the most estimated LiteRT
// latency (litert) or bytes first. int16x8 is not a litert rung: LiteRT
// runs it in TFLite's reference kernels, slower than float on XNNPACK
// (docs/runtimes.md). Cheapest means fastest on litert, smallest
// elsewhere. On litert the plan found is last compared with the whole
// model in float (float16 weights): a mixed plan's QUANTIZE/DEQUANTIZE at
// its float borders can cost more than its integer ops save. With
// --eval-cmd the user's command decides which plans are accepted
// (pipeline/candidate_eval.h): after the SQNR target, if any, as it is
// cheaper; the report still ranks the ops to raise.
#ifndef QFORGE_PIPELINE_PRECISION_SEARCH_H_
#define QFORGE_PIPELINE_PRECISION_SEARCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "pipeline/candidate_eval.h"
#include "pipeline/eval_command.h"
#include "pipeline/hooks.h"
#include "pipeline/target_metric.h"
#include "quantizer/options.h"
#include "report/task_kind.h"

namespace qforge::pipeline {

struct SearchOptions {
  // false: no target (--eval-cmd alone); `target` is not checked.
  bool has_target = true;
  double target = 0;  // the metric's bound (a maximum when LowerIsBetter)
  TargetMetric metric = TargetMetric::kWorst;
  // kTop1 under --target-sqnr: the agreement in percent.
  bool percent = false;
  // What the trials' notes are headed with: the flag that asked.
  std::string note = "target-sqnr";
  // How the report judges the outputs (report/task_kind.h, --labels).
  std::vector<report::TaskOverride> tasks;
  std::vector<int64_t> labels;
  std::string labels_fingerprint;
  int max_steps = 32;      // float steps at most
  int64_t max_size = 0;    // bytes of the model written; 0: no bound
  int max_float_ops = -1;  // ops left float at most; -1: no bound
  // litert: at most this many times the float model's estimated LiteRT
  // latency (runtime/latency.h); 0: no bound.
  double max_latency_ratio = 0;
  // litert: the search may end with the whole model float (float16
  // weights) when that is estimated faster than the mixed plan; off for
  // --keep-integer and --strict, which want integer ops wherever they can.
  bool whole_float = true;
  int threads = 0;
  // Non-empty: each trial is evaluated by `qforge eval-trial` workers
  // through this folder, in `trial_shards` shards (trials.h).
  std::string trials_dir;
  int trial_shards = 1;
  std::string float_model_hash;  // of the float model file (trials.h)
  EvalSettings eval;             // --eval-cmd; inactive: none
};

// One op of the plan found, for the table the search ends with.
struct PlanRow {
  int op = 0;               // folded op index
  std::string type;         // "CONV_2D"
  std::string precision;    // "int16", "float16", "float32"
  double gain_db = 0;       // the metric lost when this step is undone
  bool gain_known = false;  // the search tried undoing it
  int64_t bytes = 0;        // written size with the step less without it
  double latency_ms = 0;    // the same for the estimated LiteRT latency
};

struct SearchOutcome {
  quantizer::QuantizeResult result;  // the last model tried
  double check_db = 0;               // its target metric on the check set
  bool met = false;
  std::vector<std::string> steps;  // "op 12 CONV_2D int8 -> int16"
  std::vector<PlanRow> plan;       // the ops raised, in op order
  // Not met: what stopped the search (a bound), or the layers that still
  // add the most noise ("op 12 CONV_2D 'conv1' adds 21.3 dB; ...").
  std::string limit;
  // --eval-cmd: its runs in order, the score of the model returned (met),
  // and whether the search stopped because --eval-budget was spent.
  std::vector<EvalRun> eval_runs;
  std::optional<double> eval_score;
  bool eval_budget_spent = false;
};

// Quantizes `work` (the float model `model`, or its weights after
// recovery) and measures against `model`. Ops raised to float take their
// constants from `model`: recovered weights serve only the integer grid.
// `stats` were calibrated without the `check` samples of `data`.
absl::StatusOr<SearchOutcome> SearchPrecision(
    const ir::Model& model, const ir::Model& work,
    const calibration::StatsFile& stats, const formats::SampleSource& data,
    const std::vector<int64_t>& check, quantizer::QuantizeOptions options,
    const SearchOptions& search, const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_PRECISION_SEARCH_H_
