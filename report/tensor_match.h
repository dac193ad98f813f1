// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Which tensor of the float model a tensor of the quantized model stands
// for. The quantizer keeps tensor names; the tensors it adds are named
// after the tensor they come from (quantizer/rewrite.cc):
//   NAME_quantized    QUANTIZE of float NAME (e.g. a model input)
//   NAME_requantized  QUANTIZE of integer NAME to other parameters
//   NAME_int          the integer model output whose DEQUANTIZE took NAME
//   NAME_dequantized  DEQUANTIZE of integer NAME (float; not a layer)
#ifndef QFORGE_REPORT_TENSOR_MATCH_H_
#define QFORGE_REPORT_TENSOR_MATCH_H_

#include <map>
#include <string>

#include "ir/model.h"

namespace qforge::report {

// Float model: non-constant float32 tensors of subgraph 0, by name.
std::map<std::string, int> FloatActivationsByName(const ir::Model& model);

// The float model's name for quantized tensor `name`: `name` itself when
// the float model has it, else `name` without one of the suffixes above;
// "" when none matches.
std::string MatchFloatName(const std::string& name,
                           const std::map<std::string, int>& float_tensors);

// An integer tensor with a per-tensor scale (what the report compares).
bool IsQuantizedActivation(const ir::Model& model, const ir::Tensor& t);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_TENSOR_MATCH_H_
