// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A quantize job: everything a user asks of `qforge quantize`, as a value.
// The CLI binds its flags to one and runs it (pipeline/quantize.h); a
// script, a later C or Python API or a scheduler's worker can build,
// save and run the same job. Strings hold what the user typed (a scheme,
// a range method, selectors): they are checked when the job runs, with
// the messages the CLI prints.
#ifndef QFORGE_PIPELINE_QUANTIZE_JOB_H_
#define QFORGE_PIPELINE_QUANTIZE_JOB_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "numerics/modes.h"
#include "pipeline/data_spec.h"
#include "pipeline/eval_command.h"
#include "pipeline/recovery.h"

namespace qforge::pipeline {

// --target-sqnr / --target and their bounds: the cheapest per-op precision
// whose metric reaches `sqnr` (dB; percent for top1) or `value` (the
// metric's own units: dB, fractions in 0..1, landmark errors as a maximum)
// on held-out samples (pipeline/precision_search.h). At most one is set.
struct TargetSettings {
  double sqnr = std::numeric_limits<double>::quiet_NaN();   // NaN: none
  double value = std::numeric_limits<double>::quiet_NaN();  // NaN: none
  int steps = 32;  // float steps at most
  // worst | mean | top1 | top5 | accuracy | mask-agreement | miou |
  // landmark-px | landmark-p95 | detection-recall | decision-agreement
  std::string metric = "worst";
  int64_t max_size = 0;          // bytes; 0: no bound
  int max_float_ops = -1;        // -1: no bound
  double max_latency_ratio = 0;  // litert: x the float model's; 0: none
  // Trials evaluated by eval-trial workers through this folder, in
  // `trial_shards` shards (pipeline/trials.h); "": in this process.
  std::string trials_dir;
  int trial_shards = 1;

  bool active() const { return !std::isnan(sqnr) || !std::isnan(value); }
  // The bound, whichever flag gave it.
  double bound() const { return std::isnan(value) ? sqnr : value; }
};

struct QuantizeJob {
  std::string model;   // the float .tflite
  std::string stats;   // statistics file, or "" to calibrate on `data`
  DataSpec data;       // samples (calibration, recovery, searches, report)
  std::string output;  // the quantized .tflite
  std::string method;  // "": mse on exact histograms, else minmax
  std::string scheme;  // "": the recipe's, else int8
  std::string runtime = "litert";  // litert | tflm | armnn
  std::string input_type = "float32";
  std::string output_type = "float32";
  // Per-op precision, as --float-op, --int8-op, --int4-op, --int16-op
  // select them (applied after the recipe's rules).
  std::vector<std::string> float_ops, int8_ops, int4_ops, int16_ops;
  int weight_bits = 8;
  int block_size = 0;  // --block-size: weight-only / dynamic; 0 per channel
  std::string float_weights = "float32";  // float32 | float16
  float int16_headroom = 2.0f;
  std::string recipe;       // --recipe FILE
  std::string save_recipe;  // --save-recipe FILE
  TargetSettings target;
  // --eval-cmd: the user's command accepts the search's plans
  // (pipeline/candidate_eval.h), alone or with `target`.
  EvalSettings eval;
  bool strict = false;
  // Every op with an integer form gets it, even where LiteRT runs its float
  // form faster on XNNPACK (pipeline/fast_path_plan.h): for delegates and
  // accelerators that want whole-integer models.
  bool keep_integer = false;
  bool fc_per_tensor = false;
  int threads = 0;     // 0: all cores
  std::string report;  // --report FILE
  // --task OUTPUT=KIND and --labels FILE: how the report and the search's
  // task metrics judge each output (report/task_kind.h).
  std::vector<std::string> tasks;
  std::string labels;
  RecoverySettings recovery;
  numerics::Modes numerics;  // the interpreters' integer arithmetic
};

// The job as JSON (docs/commands.md#jobs); every field, defaults included,
// so a saved job replays the same run whatever later defaults become.
std::string QuantizeJobToJson(const QuantizeJob& job);
// Unknown keys and wrong types are errors naming `origin` and the key.
absl::StatusOr<QuantizeJob> QuantizeJobFromJson(const std::string& text,
                                                const std::string& origin);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_QUANTIZE_JOB_H_
