// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Weights stored compressed: float16 constants behind DEQUANTIZE and sparse
// constants behind DENSIFY (MediaPipe's models). The quantizer folds such
// ops into plain float32 constants before anything else
// (quantizer/folded_model.h), so its rules, recipes and summaries number
// ops without them; the report numbers its suggestions the same way. This
// is the one definition of which ops fold, shared by both.
#ifndef QFORGE_IR_COMPRESSED_WEIGHTS_H_
#define QFORGE_IR_COMPRESSED_WEIGHTS_H_

#include <cstdint>
#include <set>
#include <vector>

#include "ir/model.h"

namespace qforge::ir {

enum class WeightFold : uint8_t { kKeep, kDensify, kDequantize };

// What folding does with `op` of `sg`: decode a sparse constant (DENSIFY),
// widen a float16 constant (DEQUANTIZE), or keep the op. `made_constant`:
// tensors of `sg` that earlier folds gave values, so that a DENSIFY ->
// DEQUANTIZE chain of sparse float16 weights folds completely.
WeightFold FoldOf(const Model& model, const Subgraph& sg, const Operator& op,
                  const std::set<int32_t>& made_constant);

// For each op of `model`'s subgraph 0, its index once the compressed
// weights are folded (-1: folded away).
std::vector<int> FoldedOpIndices(const Model& model);

}  // namespace qforge::ir

#endif  // QFORGE_IR_COMPRESSED_WEIGHTS_H_
