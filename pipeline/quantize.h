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
#include "quantizer/options.h"

namespace qforge::pipeline {

// --target-sqnr: the metric reached on the check samples and the ops it
// raised ("op 12 CONV_2D int8 -> int16").
struct TargetOutcome {
  double check_db = 0;
  size_t check_samples = 0;
  std::vector<std::string> steps;
  std::vector<PlanRow> plan;  // the ops raised (precision_search.h)
};

// --runtime litert: the estimated LiteRT latency of the float model and of
// the model written (runtime/latency.h), the ops of the latter that run in
// TFLite's builtin kernels with the delegate's reason, and the ops kept
// float because XNNPACK runs them so (pipeline/fast_path_plan.h).
struct LatencyOutcome {
  double float_ms = 0, quantized_ms = 0;
  int ops = 0, xnnpack_ops = 0, partitions = 0;
  std::vector<std::string> off_fast_path;         // "op 5 SOFTMAX: why"
  std::vector<std::string> kept_float_for_speed;  // "op 12 PRELU"
};

struct QuantizeOutcome {
  std::string scheme;  // as resolved (the recipe's, else int8)
  std::string method;  // the range method (mse, minmax, auto, ...)
  int ops_quantized = 0;
  // Ops that stayed float, each with its reason completed from the float
  // model (custom ops, regions qforge cannot run), in op order.
  std::vector<quantizer::KeptFloat> kept_float;
  std::vector<quantizer::Repair> repairs;
  // The form each op took (int8 / int16x8 schemes), by the folded op
  // index (quantizer/folded_model.h).
  std::vector<quantizer::QuantizeResult::OpChoice> op_choices;
  size_t input_bytes = 0;   // the float model's file
  size_t output_bytes = 0;  // the model written
  // --method auto's choices.
  std::optional<RangeSearchOutcome> ranges;
  std::optional<TargetOutcome> target;
  std::optional<LatencyOutcome> latency;
};

// Runs `job`. Errors carry the exit code's status (base/exit_codes.h):
// usage (1), invalid input (2), unsupported (3), a target not met (4,
// nothing written).
absl::StatusOr<QuantizeOutcome> RunQuantizeJob(const QuantizeJob& job,
                                               const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_QUANTIZE_H_
