// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Schemes that change weights only: dynamic-range (int8 weights for the ops
// TFLite runs as hybrid kernels) and float16 (weights behind DEQUANTIZE).
#ifndef QFORGE_QUANTIZER_WEIGHT_ONLY_PASS_H_
#define QFORGE_QUANTIZER_WEIGHT_ONLY_PASS_H_

#include <set>
#include <vector>

#include "absl/status/status.h"
#include "ir/model.h"
#include "quantizer/options.h"

namespace qforge::quantizer {

absl::Status DynamicRangePass(ir::Model& model,
                              const std::vector<bool>& excluded,
                              QuantizeResult& result);

// The input slot of op i's weights when its hybrid kernel can read them
// quantized (a large constant float32 tensor); otherwise -1, with the
// reason in result.kept_float unless the op names no weight tensor.
// Shared by the dynamic-range schemes (int8 here, int4 in weight_forms).
int HybridWeightSlot(const ir::Model& model, size_t i,
                     const std::vector<bool>& excluded, QuantizeResult& result);

// Float constants (two values or more) of the ops not `excluded` become
// float16 behind a DEQUANTIZE; those in `stored_half` (the model stored
// them as float16) whatever their size, which is exact.
absl::Status Float16Pass(ir::Model& model, const std::vector<bool>& excluded,
                         QuantizeResult& result,
                         const std::set<int32_t>& stored_half = {});

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_WEIGHT_ONLY_PASS_H_
