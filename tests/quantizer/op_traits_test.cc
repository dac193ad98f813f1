// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The numbers of the op table's traits and flags (ir/ops.def), against
// TFLite's own definitions: clamp bounds of the standalone and fused
// activations (activations.cc, kernel_util.cc CalculateActivationRange) and
// the weight layouts of the schema (schema.fbs, the kernels' filter shapes).
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "ir/clamp.h"
#include "ir/op_kind.h"
#include "quantizer/op_quant_spec.h"
#include "runtime/fast_path.h"
#include "tests/runtime/fast_path_cases.h"

namespace qforge::ir {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// The ops with `flag`, by TFLite name.
std::set<std::string> OpsFlagged(uint32_t flag) {
  std::set<std::string> names;
  for (int k = 0; k < kNumOpKinds; ++k) {
    const OpInfo& info = GetOpInfo(static_cast<OpKind>(k));
    if (info.Has(flag)) names.insert(std::string(info.name));
  }
  return names;
}

// RELU max(0, x); RELU6 min(max(0, x), 6); RELU_N1_TO_1 min(max(-1, x), 1);
// RELU_0_TO_1 min(max(0, x), 1) (activations.cc ReluEval, Relu6Eval,
// Relu1Eval, Relu0to1Eval). No other op is a clamp.
TEST(OpTraitsTest, StandaloneActivationClamps) {
  struct Want {
    OpKind kind;
    float lo, hi;
  };
  const Want wants[] = {{OpKind::kRelu, 0.0f, kInfinity},
                        {OpKind::kRelu6, 0.0f, 6.0f},
                        {OpKind::kReluN1To1, -1.0f, 1.0f},
                        {OpKind::kRelu0To1, 0.0f, 1.0f}};
  std::set<OpKind> clamps;
  for (const Want& w : wants) {
    const OpInfo& info = GetOpInfo(w.kind);
    SCOPED_TRACE(std::string(info.name));
    ASSERT_TRUE(info.clamps);
    EXPECT_EQ(info.clamp.lo, w.lo);
    EXPECT_EQ(info.clamp.hi, w.hi);
    clamps.insert(w.kind);
  }
  for (int k = 0; k < kNumOpKinds; ++k) {
    const auto kind = static_cast<OpKind>(k);
    if (clamps.count(kind) == 0) {
      EXPECT_FALSE(GetOpInfo(kind).clamps) << GetOpInfo(kind).name;
    }
  }
}

// kernel_util.cc CalculateActivationRange: NONE lowest..max, RELU 0..max,
// RELU_N1_TO_1 -1..1, RELU6 0..6; TANH and SIGN_BIT are no clamps.
TEST(OpTraitsTest, FusedActivationClamps) {
  auto range = [](Activation a) {
    const std::optional<ClampRange> c = FusedActivationClamp(a);
    return c.has_value() ? std::make_pair(c->lo, c->hi)
                         : std::make_pair(0.5f, 0.5f);
  };
  EXPECT_EQ(range(Activation::kNone), std::make_pair(-kInfinity, kInfinity));
  EXPECT_EQ(range(Activation::kRelu), std::make_pair(0.0f, kInfinity));
  EXPECT_EQ(range(Activation::kReluN1To1), std::make_pair(-1.0f, 1.0f));
  EXPECT_EQ(range(Activation::kRelu6), std::make_pair(0.0f, 6.0f));
  EXPECT_FALSE(FusedActivationClamp(Activation::kTanh).has_value());
  EXPECT_FALSE(FusedActivationClamp(Activation::kSignBit).has_value());
  // The standalone op of the same name clamps the same way.
  const std::pair<OpKind, Activation> same[] = {
      {OpKind::kRelu, Activation::kRelu},
      {OpKind::kRelu6, Activation::kRelu6},
      {OpKind::kReluN1To1, Activation::kReluN1To1}};
  for (const auto& [kind, activation] : same) {
    const ClampRange op = GetOpInfo(kind).clamp;
    EXPECT_EQ(std::make_pair(op.lo, op.hi), range(activation));
  }
}

// A positive scale moves through max(0, x) (and no clamp at all), not
// through a bound other than 0: clamp(2x, 0, 6) != 2 clamp(x, 0, 6) at x = 4.
TEST(OpTraitsTest, WhichClampsCommuteWithPositiveScales) {
  EXPECT_TRUE(GetOpInfo(OpKind::kRelu).clamp.CommutesWithPositiveScale());
  EXPECT_FALSE(GetOpInfo(OpKind::kRelu6).clamp.CommutesWithPositiveScale());
  EXPECT_FALSE(GetOpInfo(OpKind::kReluN1To1).clamp.CommutesWithPositiveScale());
  EXPECT_FALSE(GetOpInfo(OpKind::kRelu0To1).clamp.CommutesWithPositiveScale());
  EXPECT_TRUE(ClampRange{}.CommutesWithPositiveScale());
  EXPECT_TRUE((ClampRange{-kInfinity, 0.0f}.CommutesWithPositiveScale()));
}

// The schema's filter layouts: CONV_2D [out, h, w, in]; DEPTHWISE_CONV_2D
// [1, h, w, in * multiplier]; FULLY_CONNECTED [out, in]; TRANSPOSE_CONV
// [out, h, w, in] (input 0 is the output shape); CONV_3D
// [d, h, w, in, out]. The weights are input 1 of each.
TEST(OpTraitsTest, WeightOperandsAndOutputChannelAxes) {
  struct Want {
    OpKind kind;
    WeightLayout layout;
    int axis;
  };
  const Want wants[] = {
      {OpKind::kConv2D, WeightLayout::kConv, 0},
      {OpKind::kDepthwiseConv2D, WeightLayout::kDepthwise, 3},
      {OpKind::kFullyConnected, WeightLayout::kFullyConnected, 0},
      {OpKind::kTransposeConv, WeightLayout::kTransposeConv, 0},
      {OpKind::kConv3D, WeightLayout::kConv3D, 4}};
  std::set<OpKind> weighted;
  for (const Want& w : wants) {
    const OpInfo& info = GetOpInfo(w.kind);
    SCOPED_TRACE(std::string(info.name));
    EXPECT_EQ(info.weight_input, 1);
    EXPECT_EQ(info.weight_layout, w.layout);
    EXPECT_EQ(OutputChannelAxis(info.weight_layout), w.axis);
    // The quantizer's per-channel axis is the same one.
    if (const auto spec = quantizer::GetOpQuantSpec(w.kind)) {
      EXPECT_EQ(spec->weight_axis, w.axis);
    }
    weighted.insert(w.kind);
  }
  EXPECT_EQ(OutputChannelAxis(WeightLayout::kNone), -1);
  for (int k = 0; k < kNumOpKinds; ++k) {
    const auto kind = static_cast<OpKind>(k);
    if (weighted.count(kind) == 0) {
      EXPECT_EQ(GetOpInfo(kind).weight_layout, WeightLayout::kNone)
          << GetOpInfo(kind).name;
      EXPECT_EQ(GetOpInfo(kind).weight_input, -1) << GetOpInfo(kind).name;
    }
  }
}

TEST(OpTraitsTest, FlaggedOps) {
  using Names = std::set<std::string>;
  EXPECT_EQ(OpsFlagged(op_flags::kConverter),
            (Names{"QUANTIZE", "DEQUANTIZE"}));
  EXPECT_EQ(OpsFlagged(op_flags::kShapeOnly),
            (Names{"RESHAPE", "SQUEEZE", "EXPAND_DIMS"}));
  EXPECT_EQ(OpsFlagged(op_flags::kClassScores),
            (Names{"SOFTMAX", "LOG_SOFTMAX"}));
  EXPECT_EQ(OpsFlagged(op_flags::kSumOfInputs), (Names{"ADD", "SUB"}));
}

// An op that only reshapes shares its input's quantization (Q's Same
// output rule), and an op flagged kSumOfInputs rescales both inputs to its
// own range.
TEST(OpTraitsTest, FlagsAgreeWithTheQuantizationSpec) {
  for (int k = 0; k < kNumOpKinds; ++k) {
    const auto kind = static_cast<OpKind>(k);
    const OpInfo& info = GetOpInfo(kind);
    const auto spec = quantizer::GetOpQuantSpec(kind);
    if (info.Has(op_flags::kShapeOnly)) {
      ASSERT_TRUE(spec.has_value()) << info.name;
      EXPECT_EQ(spec->output, quantizer::OutputRule::kSameAsInput) << info.name;
    }
    if (info.Has(op_flags::kSumOfInputs)) {
      ASSERT_TRUE(spec.has_value()) << info.name;
      EXPECT_EQ(spec->output, quantizer::OutputRule::kOwnRange) << info.name;
    }
    if (info.Has(op_flags::kConverter)) {
      EXPECT_FALSE(spec.has_value()) << info.name;  // placed, not planned
    }
  }
}

// Every quantizable row with an XNN rule has a hand-derived pair of forms in
// tests/runtime/fast_path_cases.h (FastPathTest.EveryRowWithARule runs
// them); OpTableTest checks that each such row states XNN or XNN_NEVER.
TEST(OpTraitsTest, EveryQuantizableRowWithAnXnnRuleHasACase) {
  std::set<OpKind> with_case;
  for (const auto& c : runtime::fast_path_cases::XnnRowCases()) {
    with_case.insert(c.kind);
  }
  int rules = 0;
  for (int k = 0; k < kNumOpKinds; ++k) {
    const auto kind = static_cast<OpKind>(k);
    if (!quantizer::GetOpQuantSpec(kind).has_value()) continue;
    const bool rule = runtime::fast_path::XnnRuleOf(kind) != nullptr;
    const bool never =
        !std::string(runtime::fast_path::XnnNeverReason(kind)).empty();
    EXPECT_NE(rule, never) << GetOpInfo(kind).name;
    if (rule) {
      ++rules;
      EXPECT_EQ(with_case.count(kind), 1u)
          << GetOpInfo(kind).name << " has no pair in fast_path_cases.h";
    }
  }
  EXPECT_EQ(static_cast<size_t>(rules), with_case.size());
}

}  // namespace
}  // namespace qforge::ir
