// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Applies a quantization plan (plan.h) to subgraph 0: quantizes weights,
// biases and constants, retypes the outputs of integer ops, and places
// QUANTIZE ops where a tensor must change form (float -> integer, or
// int8 <-> int16 / new parameters between integer ops) and DEQUANTIZE ops
// where integer values enter a float op or leave the model as float.
#ifndef QFORGE_QUANTIZER_REWRITE_H_
#define QFORGE_QUANTIZER_REWRITE_H_

#include "absl/status/status.h"
#include "ir/model.h"
#include "quantizer/options.h"
#include "quantizer/plan.h"

namespace qforge::quantizer {

// Rewrites `model` by `plan` (built for this model); fills `result`'s
// counts, kept-float ops and repairs.
absl::Status ApplyPlan(ir::Model& model, const QuantPlan& plan,
                       const QuantizeOptions& options, QuantizeResult& result);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_REWRITE_H_
