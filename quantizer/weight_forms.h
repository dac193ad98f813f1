// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer weights next to float activations: --scheme weight-only (int8 or
// int4 weights, per channel or per block of the input axis, computed in
// float) and --scheme dynamic --weight-bits 4 (int4 weights for the hybrid
// FULLY_CONNECTED kernel, which quantizes its input at run time). Each form
// is written only where LiteRT runs it (runtime/legality_weights.h).
#ifndef QFORGE_QUANTIZER_WEIGHT_FORMS_H_
#define QFORGE_QUANTIZER_WEIGHT_FORMS_H_

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "ir/model.h"
#include "quantizer/options.h"
#include "quantizer/weight_grid.h"

namespace qforge::quantizer {

absl::Status WeightOnlyPass(ir::Model& model, const std::vector<bool>& excluded,
                            const QuantizeOptions& options,
                            QuantizeResult& result);

absl::Status DynamicInt4Pass(ir::Model& model,
                             const std::vector<bool>& excluded,
                             const QuantizeOptions& options,
                             QuantizeResult& result);

// By op index of `model` (as the passes above see it: compressed weights
// folded): the grid on which the pass of options.scheme (weight-only or
// dynamic) writes the op's weights operand (ops.def WEIGHTS), so that
// weight rounding before it (quantizer/recover.h) picks the integers the
// writer stores; nullopt where the op's weights stay float, were written
// for an earlier op that shares them, or sit in another operand (a lookup
// table, BATCH_MATMUL's right side). Dynamic int8 FULLY_CONNECTED weights
// have one scale for the tensor (the grid says per channel; callers set
// fc_per_tensor).
std::vector<std::optional<WeightGrid>> PlannedWeightGrids(
    const ir::Model& model, const std::vector<bool>& excluded,
    const QuantizeOptions& options);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_WEIGHT_FORMS_H_
