// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The quantize pipeline: a QuantizeJob in, the quantized model (and its
// recipe and report, when asked) written, a QuantizeOutcome out. In order:
// the recipe and flags resolve into quantizer options; the model and the
// --data samples open, and every output is checked before any work (not
// an input, writable); the samples split into fitting and check sets;
// weight recovery; statistics (read, or calibrated on the fitting
// samples); range methods (--method auto searches them); the quantizer,
// or the precision search (--target-sqnr) that calls it; the outputs,
// each written in full before it takes its name.
#ifndef QFORGE_PIPELINE_QUANTIZE_H_
#define QFORGE_PIPELINE_QUANTIZE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pipeline/hooks.h"
#include "pipeline/precision_search.h"
#include "pipeline/quantize_job.h"
#include "pipeline/range_search.h"
#include "pipeline/rounding_choice.h"
#include "quantizer/options.h"

namespace qforge::pipeline {

// --target-sqnr or --eval-cmd: the metric reached on the check samples and
// the ops raised ("op 12 CONV_2D int8 -> int16").
struct TargetOutcome {
  double check_db = 0;
  size_t check_samples = 0;
  std::vector<std::string> steps;
  std::vector<PlanRow> plan;  // the ops raised (precision_search.h)
  // --eval-cmd: the command's runs, the score of the model written, and
  // whether --eval-budget ran out before the search ended.
  std::vector<EvalRun> eval_runs;
  std::optional<double> eval_score;
  bool eval_budget_spent = false;
};

// An op of the model written and what the runtime makes of it.
struct RuntimeOpNote {
  int op_index = -1;  // in the model written; -1: the model as a whole
  std::string op;     // display name ("SOFTMAX")
  std::string reason;
};

// --runtime litert: the estimated LiteRT latency of the float model and of
// the model written (runtime/latency.h), the ops of the latter that run in
// TFLite's builtin kernels with the delegate's reason, and the ops kept
// float because XNNPACK runs them so (pipeline/fast_path_plan.h).
struct LatencyOutcome {
  double float_ms = 0, quantized_ms = 0;
  int ops = 0, xnnpack_ops = 0, partitions = 0;
  std::vector<RuntimeOpNote> off_fast_path;
  std::vector<std::string> kept_float_for_speed;  // "op 12 PRELU"
};

// --report: where it went and its headline figure.
struct ReportOutcome {
  std::string path;
  int64_t samples = 0;
  std::string worst_output;  // the output with the lowest SQNR ("" if none)
  double worst_sqnr_db = 0;  // its SQNR (+inf: exact, or no outputs)
};

struct QuantizeOutcome {
  std::string scheme;   // as resolved (the recipe's, else int8)
  std::string method;   // the range method (mse, minmax, auto, ...)
  std::string runtime;  // litert | tflm | armnn
  int ops_quantized = 0;
  // Ops that stayed float, each with its reason completed from the float
  // model (custom ops, regions qforge cannot run), in op order.
  std::vector<quantizer::KeptFloat> kept_float;
  std::vector<quantizer::Repair> repairs;
  // The form each op took (int8 / int16x8 schemes), by the folded op
  // index (quantizer/folded_model.h).
  std::vector<quantizer::QuantizeResult::OpChoice> op_choices;
  // Standalone activations folded into the op before them, same numbering.
  std::vector<quantizer::QuantizeResult::Folded> folded;
  // The samples the statistics saw (calibrated on --data's fitting
  // samples, or read from --stats); 0 when the scheme needs none.
  uint64_t calibration_samples = 0;
  bool calibrated_here = false;  // from --data, not --stats
  size_t input_bytes = 0;        // the float model's file
  size_t output_bytes = 0;       // the model written
  // --method auto's choices.
  std::optional<RangeSearchOutcome> ranges;
  // --optimize accuracy on the weight-only and dynamic forms.
  std::optional<RoundingChoice> rounding;
  std::optional<TargetOutcome> target;
  std::optional<LatencyOutcome> latency;  // litert
  // tflm, armnn: what the runtime cannot run of the model written
  // (runtime::FindUnsupportedOps); none, as the quantizer plans for it.
  std::vector<RuntimeOpNote> unsupported;
  // tflm: the ops of the model written that compute in float (the
  // QUANTIZE / DEQUANTIZE borders aside); none, as the profile is integer
  // only.
  std::vector<RuntimeOpNote> not_integer;
  std::optional<ReportOutcome> report;  // --report
};

// Runs `job`. Errors carry the exit code's status (base/exit_codes.h):
// usage (1), invalid input (2), unsupported (3), a target not met (4,
// nothing written).
// `caller_outputs`: files the caller writes besides the job's (quantize
// --json), checked before any work as the job's are: none may be an input
// (model, statistics, recipe, data files) or another output.
absl::StatusOr<QuantizeOutcome> RunQuantizeJob(
    const QuantizeJob& job, const Hooks& hooks,
    const std::vector<std::string>& caller_outputs = {});

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_QUANTIZE_H_
