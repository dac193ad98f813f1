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
// less accurate. A masked-attention ADD the quantizer repaired goes float
// with the SOFTMAXes it feeds when all of them do (docs/legality.md).
// Likewise the 1x1 convolutions whose weights the float model stores sparse
// (behind DENSIFY): XNNPACK runs them in float with its sparse kernels, and
// has no sparse int8 kernel; as those kernels run only in a float graph, the
// whole model stays float (the sparse weights as the float model stored
// them: quantizer/sparse_weights.h) when the estimate says it is faster so.
// Ops the user gave a precision keep it, and the int16x8 scheme, which runs
// in the builtin kernels by choice, is left as asked;
// QuantizeJob::keep_integer turns this off.
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
// ... and of the other ops it keeps float with them.
inline constexpr char kSparseBetweenReason[] =
    "--runtime litert: kept float with the sparse convs (XNNPACK's sparse "
    "kernels run only in a float graph)";

// Whether a kept-float reason is one of the three above.
bool KeptFloatForSpeed(const std::string& reason);

struct FastPathPlan {
  // Rules keeping the ops float ("12" -> "float"), to add to the options'.
  std::vector<quantizer::PrecisionRule> rules;
  std::vector<std::string> ops;         // "op 12 PRELU", in op order
  std::vector<std::string> sparse_ops;  // "op 4 CONV_2D": sparse weights
  size_t between_ops = 0;               // the other ops kept float with them
  double ms_before = 0, ms_after = 0;   // estimated LiteRT latency
};

// The rules for `work` quantized with `options` (litert, int8);
// none when keeping ops float would not make the model faster, or for
// another runtime or scheme.
absl::StatusOr<FastPathPlan> PlanForFastPath(
    const ir::Model& work, const calibration::StatsFile* stats,
    const quantizer::QuantizeOptions& options);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_FAST_PATH_PLAN_H_
