// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer weights next to float activations: --scheme weight-only (int8 or
// int4 weights, per channel or per block of the input axis, computed in
// float) and --scheme dynamic --weight-bits 4 (int4 weights for the hybrid
// FULLY_CONNECTED kernel, which quantizes its input at run time). Each form
// is written only where LiteRT runs it (runtime/legality_weights.h).
#ifndef QFORGE_QUANTIZER_WEIGHT_FORMS_H_
#define QFORGE_QUANTIZER_WEIGHT_FORMS_H_

#include <vector>

#include "absl/status/status.h"
#include "ir/model.h"
#include "quantizer/options.h"

namespace qforge::quantizer {

absl::Status WeightOnlyPass(ir::Model& model, const std::vector<bool>& excluded,
                            const QuantizeOptions& options,
                            QuantizeResult& result);

absl::Status DynamicInt4Pass(ir::Model& model,
                             const std::vector<bool>& excluded,
                             const QuantizeOptions& options,
                             QuantizeResult& result);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_WEIGHT_FORMS_H_
