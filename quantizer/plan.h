// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The quantization plan of subgraph 0: for every op, the form it will take
// (float, int8, int16x8) and the parameters of each of its activation
// inputs, weights and outputs. The plan is built from the op table's specs,
// the calibration statistics and the options (scheme, exclusions); every
// planned form is checked against the runtime's legality rules
// (runtime/legality.h), including the QUANTIZE ops the rewrite will place
// in front of it, and a form LiteRT would refuse or compute garbage for is
// repaired (a sentinel range clamped where that is exact) or kept float,
// with the reason. The rewrite (rewrite.h) then applies the plan.
#ifndef QFORGE_QUANTIZER_PLAN_H_
#define QFORGE_QUANTIZER_PLAN_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "ir/model.h"
#include "numerics/quant_params.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/options.h"

namespace qforge::quantizer {

enum class Precision : uint8_t { kFloat, kInt8, kInt16 };

std::string PrecisionName(Precision p);
ir::DataType ActivationType(Precision p);  // kFloat32, kInt8, kInt16

// Parameters of a per-tensor quantized activation.
struct ActParams {
  ir::DataType type = ir::DataType::kInt8;
  numerics::QuantParams p;
  bool operator==(const ActParams& o) const {
    return type == o.type && p.scale == o.p.scale &&
           p.zero_point == o.p.zero_point;
  }
};

struct OpPlan {
  Precision precision = Precision::kFloat;
  std::string reason;              // why the op stays float
  std::vector<std::string> notes;  // repairs applied to its quantized form
  bool mask_clamped = false;       // Planner::ClampMask repaired it
  // Per input: the parameters an activation input must have (constants
  // included); nullopt for weights, biases, indices and absent inputs.
  std::vector<std::optional<ActParams>> inputs;
  int weight_input = -1;  // the kWeight input, if any
  int weight_axis = -1;   // its per-channel axis (-1: per tensor)
  int weight_bits = 8;    // 4: packed int4 weights (int8 form only)
  std::vector<float> weight_scales;
  int bias_input = -1;         // the kBias input (after a zero bias)
  bool add_zero_bias = false;  // the kernel needs one the model lacks
  std::vector<ActParams> outputs;
};

struct QuantPlan {
  std::vector<OpPlan> ops;  // subgraph 0, by op index
  // Model inputs the plan turns integer (integer input types).
  std::map<int32_t, ActParams> integer_inputs;
};

// What the user asked of one op (a recipe rule, --int16-op, --float-op,
// --exclude-op), and which rule asked it.
struct UserRequest {
  Precision precision = Precision::kInt8;
  std::string origin;
  int weight_bits = 8;  // "int4": int8 activations, int4 weights
  // Float ops: "float16" / "float32" store their constant weights so;
  // "float" (nullopt) follows QuantizeOptions::float16_float_weights.
  std::optional<bool> float16_weights;
};

// The requests of `options` for each op of subgraph 0 (nullopt: the
// scheme's default). Errors: a selector that matches no op, a bad regular
// expression, an unknown precision.
absl::StatusOr<std::vector<std::optional<UserRequest>>> ResolveRequests(
    const ir::Subgraph& sg, const QuantizeOptions& options);

// The range methods the rules of `options` give (PrecisionRule::method),
// by output tensor name of the ops they select in subgraph 0; a later rule
// wins. Errors: a selector that matches no op, an unknown method.
absl::StatusOr<std::map<std::string, calibration::RangeSpec>> ResolveRangeRules(
    const ir::Subgraph& sg, const QuantizeOptions& options);

// The weight width each op of subgraph 0 will get if planned in int8 form:
// 4 where int4 weights are asked (QuantizeOptions::weight_bits, "int4"
// rules) and the op has an int4 form (op flag kInt4Weights), else 8.
// Weight recovery rounds to this grid.
std::vector<int> PlannedWeightBits(
    const ir::Subgraph& sg, const QuantizeOptions& options,
    const std::vector<std::optional<UserRequest>>& requests);

// Builds the plan of `model`'s subgraph 0 for the int8 / int16x8 schemes.
absl::StatusOr<QuantPlan> BuildPlan(
    const ir::Model& model, const calibration::StatsFile& stats,
    const QuantizeOptions& options,
    const std::vector<std::optional<UserRequest>>& requests);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_PLAN_H_
