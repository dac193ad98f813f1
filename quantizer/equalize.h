// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Cross-layer equalization (Nagel et al. 2019, "Data-Free Quantization
// Through Weight Equalization and Bias Correction"). For two weighted
// layers A -> B in a chain (A's output feeds only B, through at most a
// RELU), output channel i of A is divided by s_i and B's weights that read
// channel i are multiplied by it. A positive scale commutes with ReLU (and
// with no activation), so the float function is unchanged; with
// s_i = sqrt(r1_i / r2_i), where r1_i is the largest |weight| of A's
// channel i and r2_i that of B's weights reading it, both ranges become
// sqrt(r1_i * r2_i): no channel is starved of integer levels by a large
// neighbour in the per-tensor activation or in B's per-output-channel
// weight scale. Chains (A -> B -> C) are swept until the scales settle.
//
// Skipped, and counted: pairs whose activation clamps at a fixed value
// (RELU6, RELU_N1_TO_1: min(relu(x / s), 6) != relu6(x) / s, and TFLite
// has no fused per-channel clamp that keeps it exact), and pairs with
// anything but a RELU between them. High-bias absorption is not done: it
// is exact only when the absorbed amount never reaches ReLU's threshold,
// which calibration data can suggest but not prove.
#ifndef QFORGE_QUANTIZER_EQUALIZE_H_
#define QFORGE_QUANTIZER_EQUALIZE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"
#include "quantizer/weighted_layer.h"

namespace qforge::quantizer {

struct EqualizeResult {
  int pairs = 0;  // pairs equalized
  // Pairs with a clamp between the layers that a bound other than 0 keeps
  // from commuting with the scales (a fused RELU6 or RELU_N1_TO_1, or an op
  // with such a CLAMP: RELU6, RELU_N1_TO_1, RELU_0_TO_1).
  int skipped_clamped = 0;
  int sweeps = 0;
  // Mean over equalized pairs and channels of log2(max(r1, r2) / min(r1,
  // r2)) before and after: how unequal the ranges were.
  double imbalance_before = 0, imbalance_after = 0;
};

// Two weighted layers A -> B where A's output channel i may be divided by
// any s_i > 0 and B's weights reading channel i multiplied by it without
// changing the float function: A's output feeds only B, through at most a
// RELU, and A's weights and bias are read by A alone. `skipped_clamped`
// counts pairs a clamp keeps from being one.
struct LayerPair {
  WeightedLayer a, b;
};
std::vector<LayerPair> FindLayerPairs(const ir::Model& model,
                                      int* skipped_clamped);

// Equalizes subgraph 0 of a float model in place. Weights that change get
// fresh buffers (a buffer shared with another tensor keeps its values).
absl::StatusOr<EqualizeResult> EqualizeCrossLayer(ir::Model& model);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_EQUALIZE_H_
