// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Quantizing for LiteRT's fast path. An integer op that LiteRT runs in
// TFLite's builtin kernels while its float form runs on XNNPACK (int8
// PRELU, SOFTMAX, AVERAGE_POOL_2D, HARD_SWISH, standalone RELU, ...:
// runtime/fast_path.h) costs twice: its portable kernel, and the split of
// the delegated partition around it. Kept float, between a DEQUANTIZE and a
// QUANTIZE that XNNPACK also runs, the whole model stays in one partition.
// So for --runtime litert the plan keeps such ops float when the latency
// model (runtime/latency.h) says the model is faster so; float is never
// less accurate. Likewise the convolutions whose weights the float model
// stores sparse (behind DENSIFY): XNNPACK runs them in float with its
// sparse kernels, and has no sparse int8 kernel, so they stay float (with
// their sparse weights: quantizer/sparse_weights.h) when the estimate says
// the model is faster so. Ops the user gave a precision keep it, and the
// int16x8 scheme, which runs in the builtin kernels by choice, is left as
// asked; QuantizeJob::keep_integer turns this off.
#ifndef QFORGE_PIPELINE_FAST_PATH_PLAN_H_
#define QFORGE_PIPELINE_FAST_PATH_PLAN_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "ir/model.h"
#include "quantizer/options.h"

namespace qforge::pipeline {

// The reason of the ops the plan keeps float (quantizer::KeptFloat).
inline constexpr char kFastPathFloatReason[] =
    "--runtime litert: XNNPACK runs it in float";
// ... and of the sparse convolutions it keeps float.
inline constexpr char kSparseFloatReason[] =
    "--runtime litert: XNNPACK runs this sparse conv in float with sparse "
    "kernels; int8 has no sparse kernel";
// ... and of the integer ops between those it keeps float with them.
inline constexpr char kSparseBetweenReason[] =
    "--runtime litert: between sparse convs kept float (their QUANTIZE / "
    "DEQUANTIZE would cost more than int8 saves)";

// Whether a kept-float reason is one of the three above.
bool KeptFloatForSpeed(const std::string& reason);

struct FastPathPlan {
  // Rules keeping the ops float ("12" -> "float"), to add to the options'.
  std::vector<quantizer::PrecisionRule> rules;
  std::vector<std::string> ops;         // "op 12 PRELU", in op order
  std::vector<std::string> sparse_ops;  // "op 4 CONV_2D": sparse weights
  size_t between_ops = 0;  // integer ops between them kept float too
  double ms_before = 0, ms_after = 0;  // estimated LiteRT latency
};

// The rules for `work` quantized with `options` (litert, int8);
// none when keeping ops float would not make the model faster, or for
// another runtime or scheme.
absl::StatusOr<FastPathPlan> PlanForFastPath(
    const ir::Model& work, const calibration::StatsFile* stats,
    const quantizer::QuantizeOptions& options);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_FAST_PATH_PLAN_H_
