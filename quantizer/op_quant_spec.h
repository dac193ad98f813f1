// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The quantizer's columns of the op table (ir/ops.def): how each op is
// quantized (TFLite quantization spec: the role of every input, how the
// output's parameters are found, which int8 / int16x8 forms exist and their
// op versions), its hybrid (dynamic-range) form, and its option-dependent
// versions. Ops without a spec stay float.
#ifndef QFORGE_QUANTIZER_OP_QUANT_SPEC_H_
#define QFORGE_QUANTIZER_OP_QUANT_SPEC_H_

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "ir/model.h"
#include "ir/op_kind.h"
#include "numerics/quant_params.h"

namespace qforge::quantizer {

enum class Role : uint8_t {
  kActivation,  // quantized like any activation (asymmetric int8)
  kWeight,      // constant, symmetric int8, per channel along weight_axis
  kBias,        // int32, scale = input scale x weight scale, zero point 0
  kNotReal,     // indices, shapes, axes, paddings: left as they are
};

enum class OutputRule : uint8_t {
  kOwnRange,      // from the output's calibration statistics
  kSameAsInput,   // identical to input 0's parameters (data movement, max)
  kSharedInputs,  // own range; every activation input is requantized to it
  kFixed,         // fixed by the op (LOGISTIC, SOFTMAX, TANH, ...)
};

struct OpQuantSpec {
  bool int8 = false;
  bool int16 = false;
  // Roles of inputs 0..3; inputs past the last listed take its role.
  std::array<Role, 4> roles{Role::kActivation, Role::kActivation,
                            Role::kActivation, Role::kActivation};
  int num_roles = 1;
  int weight_axis = -1;  // per-channel axis of the kWeight input
  OutputRule output = OutputRule::kOwnRange;
  numerics::QuantParams fixed_int8, fixed_int16;
  // Op versions of the int8 and int16x8 forms (TFLite's op_version rules;
  // option-dependent bumps come from the VER column).
  int version_int8 = 1, version_int16 = 1;
};

// The spec of `kind`; nullopt when the op has no integer form.
std::optional<OpQuantSpec> GetOpQuantSpec(ir::OpKind kind);

// Why an op without a spec stays float, for summaries and reports.
std::string NoIntegerFormReason(ir::OpKind kind);

inline Role RoleOf(const OpQuantSpec& spec, size_t input) {
  const size_t i = std::min<size_t>(input, spec.num_roles - 1);
  return spec.roles[i];
}

// The hybrid form (float activations, int8 constant weights) of an op.
struct HybridSpec {
  int weight_input = 1;
  int axis = -1;  // per-channel axis of the weights; -1: per tensor
  int version_per_tensor = 1, version_per_channel = 1;
};
std::optional<HybridSpec> GetHybridSpec(ir::OpKind kind);

// Which form an op was written in, for option-dependent versions.
// kInt8W4: int8 activations with packed int4 weights (ops flagged
// kInt4Weights).
enum class OpForm : uint8_t { kFloat, kInt8, kInt8W4, kInt16, kHybrid };

// The VER column: the smallest op version the options, optional inputs and
// tensor types of `op` (of `sg`) need in `form` (TFLite's op_version.cc); 1
// when nothing bumps it.
int OptionVersion(const ir::Subgraph& sg, const ir::Operator& op, OpForm form);

// --fc-per-tensor: whether `kind`'s weights get one scale instead of one per
// output channel.
bool WeightsPerTensor(ir::OpKind kind, bool fc_per_tensor);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_OP_QUANT_SPEC_H_
