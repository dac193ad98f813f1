// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// How each op is quantized (TFLite quantization spec), one row per op in
// op_quant_spec.cc: the role of every input, how the output's parameters
// are found, and whether int8 / int16x8 forms exist. Ops without a row stay
// float.
#ifndef QFORGE_QUANTIZER_OP_QUANT_SPEC_H_
#define QFORGE_QUANTIZER_OP_QUANT_SPEC_H_

#include <array>
#include <optional>

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
  // option-dependent bumps are applied in op_version.cc).
  int version_int8 = 1, version_int16 = 1;
};

// The spec of `kind`; nullopt when the op has no integer form.
std::optional<OpQuantSpec> GetOpQuantSpec(ir::OpKind kind);

inline Role RoleOf(const OpQuantSpec& spec, size_t input) {
  const size_t i = std::min<size_t>(input, spec.num_roles - 1);
  return spec.roles[i];
}

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_OP_QUANT_SPEC_H_
