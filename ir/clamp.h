// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Clamp ranges. A standalone activation op (the CLAMP trait of ir/ops.def:
// RELU, RELU6, ...) and a fused activation (the `activation` option of
// CONV_2D, ADD, ...) both compute min(max(x, lo), hi), as TFLite's
// CalculateActivationRange and its activation kernels define them.
#ifndef QFORGE_IR_CLAMP_H_
#define QFORGE_IR_CLAMP_H_

#include <limits>
#include <optional>

#include "ir/options.h"

namespace qforge::ir {

struct ClampRange {
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();

  // Whether clamp(s * x) == s * clamp(x) for every s > 0, i.e. each bound
  // is 0 or unbounded (RELU, no activation): a positive per-channel scale
  // can then move across the clamp (cross-layer equalization).
  bool CommutesWithPositiveScale() const {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    return (lo == 0.0f || lo == -kInf) && (hi == 0.0f || hi == kInf);
  }
};

// The clamp a fused activation applies: NONE unbounded, RELU [0, inf),
// RELU_N1_TO_1 [-1, 1], RELU6 [0, 6]; nullopt for TANH and SIGN_BIT, which
// are not clamps.
std::optional<ClampRange> FusedActivationClamp(Activation activation);

// The fused activation an op's options carry (CONV_2D, ADD, POOL, ...);
// kNone for options without one.
Activation FusedActivationOf(const Options& options);

// The fused activation whose clamp is `clamp` (RELU, RELU6, RELU_N1_TO_1);
// nullopt when none is (RELU_0_TO_1, or an unbounded clamp).
std::optional<Activation> FusedActivationWithClamp(const ClampRange& clamp);

// Sets the fused activation of `options`; false (nothing set) when the
// options type has no such field.
bool SetFusedActivation(Options& options, Activation activation);

}  // namespace qforge::ir

#endif  // QFORGE_IR_CLAMP_H_
