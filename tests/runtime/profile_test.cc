// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Runtime profiles (runtime/profile.h): each profile's ladder, and rules of
// TFLite Micro and Arm NN 20.08 on forms built by hand, each just inside or
// outside a rule the two runtimes were probed on (docs/runtimes.md).
#include "runtime/profile.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace qforge::runtime {
namespace {

using legality::OpForm;
using legality::TensorForm;

TensorForm ProfT(ir::DataType type, std::vector<int32_t> shape,
                 std::vector<float> scales = {}, bool constant = false) {
  TensorForm t;
  t.type = type;
  t.shape = std::move(shape);
  t.scales = std::move(scales);
  t.zero_points.assign(t.scales.size(), 0);
  t.constant = constant;
  t.name = "t";
  return t;
}

OpForm ProfOp(ir::OpKind kind, std::vector<TensorForm> inputs,
              std::vector<TensorForm> outputs, ir::Options options = {}) {
  OpForm f;
  f.kind = kind;
  f.op_name = std::string(ir::GetOpInfo(kind).name);
  f.options = std::move(options);
  for (TensorForm& t : inputs) f.inputs.push_back(std::move(t));
  f.outputs = std::move(outputs);
  return f;
}

bool ProfRuns(Runtime r, const OpForm& f) {
  return ProfileViolations(r, f).empty();
}

const ir::DataType kProfI8 = ir::DataType::kInt8;
const ir::DataType kProfI16 = ir::DataType::kInt16;
const ir::DataType kProfF32 = ir::DataType::kFloat32;

// FULLY_CONNECTED [1, 8] x [6, 8] with a bias; `scales` the weights'.
OpForm ProfFc(ir::DataType act, ir::DataType weights, std::vector<float> scales,
              ir::DataType bias = ir::DataType::kInt32) {
  std::vector<float> bias_scales(scales.size(), 0.01f);
  return ProfOp(
      ir::OpKind::kFullyConnected,
      {ProfT(act, {1, 8}, {0.1f}), ProfT(weights, {6, 8}, scales, true),
       ProfT(bias, {6}, bias_scales, true)},
      {ProfT(act, {1, 6}, {0.2f})}, ir::FullyConnectedOptions{});
}

TEST(ProfileTest, Ladders) {
  using V = std::vector<std::string>;
  EXPECT_EQ(PrecisionLadder(Runtime::kLitert),
            (V{"int8", "float16", "float32"}));
  EXPECT_EQ(PrecisionLadder(Runtime::kTflm), (V{"int8", "int16"}));
  EXPECT_EQ(PrecisionLadder(Runtime::kArmnn), (V{"int8", "float32"}));
  EXPECT_FALSE(RunsFloatOps(Runtime::kTflm));
  EXPECT_TRUE(RunsFloatOps(Runtime::kArmnn));
  EXPECT_TRUE(TakesFloat16Weights(Runtime::kLitert));
  EXPECT_FALSE(TakesFloat16Weights(Runtime::kTflm));
  EXPECT_FALSE(TakesFloat16Weights(Runtime::kArmnn));
  EXPECT_EQ(ParseRuntime("tflm").value(), Runtime::kTflm);
  EXPECT_FALSE(ParseRuntime("tflite").ok());
}

TEST(ProfileTest, LitertAddsNothingToLiteRtsRules) {
  EXPECT_TRUE(ProfRuns(Runtime::kLitert,
                       ProfOp(ir::OpKind::kGelu, {ProfT(kProfF32, {4})},
                              {ProfT(kProfF32, {4})})));
}

TEST(ProfileTest, TflmKernelTypes) {
  // PRELU has int8 but no int16 kernel (prelu_common.cc:101); GELU has no
  // kernel at all; EXP is float only (exp.cc:41).
  auto prelu = [](ir::DataType t) {
    return ProfOp(ir::OpKind::kPrelu,
                  {ProfT(t, {1, 4}, {0.1f}), ProfT(t, {4}, {0.1f}, true)},
                  {ProfT(t, {1, 4}, {0.1f})});
  };
  EXPECT_TRUE(ProfRuns(Runtime::kTflm, prelu(kProfI8)));
  EXPECT_FALSE(ProfRuns(Runtime::kTflm, prelu(kProfI16)));
  EXPECT_FALSE(
      ProfRuns(Runtime::kTflm, ProfOp(ir::OpKind::kGelu, {ProfT(kProfF32, {4})},
                                      {ProfT(kProfF32, {4})})));
  EXPECT_FALSE(ProfRuns(Runtime::kTflm,
                        ProfOp(ir::OpKind::kExp, {ProfT(kProfI8, {4}, {0.1f})},
                               {ProfT(kProfI8, {4}, {0.1f})})));
}

// A message names the runtime whose rule the form breaks: the profile's
// own rules name TFLite Micro or Arm NN, LiteRT's rules LiteRT.
TEST(ProfileTest, MessagesNameTheRuntimeThatRefuses) {
  const OpForm prelu16 = ProfOp(
      ir::OpKind::kPrelu,
      {ProfT(kProfI16, {1, 4}, {0.1f}), ProfT(kProfI16, {4}, {0.1f}, true)},
      {ProfT(kProfI16, {1, 4}, {0.1f})});
  const std::vector<legality::Violation> tflm =
      CheckForm(Runtime::kTflm, prelu16);
  ASSERT_FALSE(tflm.empty());
  EXPECT_EQ(legality::Describe(tflm.back())
                .rfind("TFLite Micro refuses this form: PRELU: ", 0),
            0u)
      << legality::Describe(tflm.back());
  const std::vector<legality::Violation> armnn = CheckForm(
      Runtime::kArmnn,
      ProfFc(kProfI8, kProfI8, {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f}));
  ASSERT_FALSE(armnn.empty());
  EXPECT_EQ(legality::Describe(armnn.back())
                .rfind("Arm NN 20.08 refuses this form: FULLY_CONNECTED: "
                       "per-channel",
                       0),
            0u)
      << legality::Describe(armnn.back());
  // A zero point outside int8: LiteRT's rule, whatever the profile.
  OpForm bad = ProfFc(kProfI8, kProfI8, {0.01f});
  bad.outputs[0].zero_points = {300};
  const std::vector<legality::Violation> litert =
      CheckForm(Runtime::kTflm, bad);
  ASSERT_FALSE(litert.empty());
  EXPECT_EQ(legality::Describe(litert.front()).rfind("LiteRT refuses", 0), 0u)
      << legality::Describe(litert.front());
}

TEST(ProfileTest, TflmWeightsAndBiases) {
  // int4 FULLY_CONNECTED per tensor only (fully_connected_common.cc:99).
  EXPECT_TRUE(
      ProfRuns(Runtime::kTflm, ProfFc(kProfI8, ir::DataType::kInt4, {0.01f})));
  EXPECT_FALSE(ProfRuns(Runtime::kTflm,
                        ProfFc(kProfI8, ir::DataType::kInt4,
                               {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f})));
  // No hybrid kernels.
  OpForm hybrid = ProfFc(kProfF32, kProfI8, {0.01f}, kProfF32);
  hybrid.inputs[0]->scales.clear();
  hybrid.outputs[0].scales.clear();
  EXPECT_FALSE(ProfRuns(Runtime::kTflm, hybrid));
  // int16 DEPTHWISE_CONV_2D reads an int64 bias.
  auto dw = [](ir::DataType bias) {
    return ProfOp(ir::OpKind::kDepthwiseConv2D,
                  {ProfT(kProfI16, {1, 8, 8, 4}, {0.001f}),
                   ProfT(kProfI8, {1, 3, 3, 4}, {0.1f, 0.1f, 0.1f, 0.1f}, true),
                   ProfT(bias, {4}, {1e-4f, 1e-4f, 1e-4f, 1e-4f}, true)},
                  {ProfT(kProfI16, {1, 6, 6, 4}, {0.002f})},
                  ir::DepthwiseConv2DOptions{});
  };
  EXPECT_TRUE(ProfRuns(Runtime::kTflm, dw(ir::DataType::kInt64)));
  EXPECT_FALSE(ProfRuns(Runtime::kTflm, dw(ir::DataType::kInt32)));
  // No float16 anywhere (dequantize_common.cc:43).
  EXPECT_FALSE(ProfRuns(Runtime::kTflm,
                        ProfOp(ir::OpKind::kDequantize,
                               {ProfT(ir::DataType::kFloat16, {4}, {}, true)},
                               {ProfT(kProfF32, {4})})));
}

TEST(ProfileTest, ArmnnRules) {
  // Per-channel FULLY_CONNECTED weights abort Arm NN 20.08
  // (LayerSupportRules.hpp:33); per tensor they run.
  EXPECT_TRUE(ProfRuns(Runtime::kArmnn, ProfFc(kProfI8, kProfI8, {0.01f})));
  EXPECT_FALSE(ProfRuns(
      Runtime::kArmnn,
      ProfFc(kProfI8, kProfI8, {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f})));
  // No 16x8 weighted ops; non-weighted int16 ops run.
  EXPECT_FALSE(ProfRuns(Runtime::kArmnn, ProfFc(kProfI16, kProfI8, {0.01f})));
  EXPECT_TRUE(ProfRuns(
      Runtime::kArmnn,
      ProfOp(ir::OpKind::kAdd,
             {ProfT(kProfI16, {4}, {0.001f}), ProfT(kProfI16, {4}, {0.001f})},
             {ProfT(kProfI16, {4}, {0.002f})}, ir::AddSubOptions{})));
  // The parser has no EXPAND_DIMS.
  EXPECT_FALSE(ProfRuns(Runtime::kArmnn,
                        ProfOp(ir::OpKind::kExpandDims, {ProfT(kProfF32, {4})},
                               {ProfT(kProfF32, {1, 4})})));
  // MAXIMUM wants its inputs and output in one quantization.
  EXPECT_TRUE(ProfRuns(Runtime::kArmnn, ProfOp(ir::OpKind::kMaximum,
                                               {ProfT(kProfI8, {4}, {0.1f}),
                                                ProfT(kProfI8, {4}, {0.1f})},
                                               {ProfT(kProfI8, {4}, {0.1f})})));
  EXPECT_FALSE(ProfRuns(
      Runtime::kArmnn,
      ProfOp(ir::OpKind::kMaximum,
             {ProfT(kProfI8, {4}, {0.1f}), ProfT(kProfI8, {4}, {0.2f})},
             {ProfT(kProfI8, {4}, {0.2f})})));
  // A fused RELU_N1_TO_1 is not among the parser's activations.
  ir::AddSubOptions n1;
  n1.activation = ir::Activation::kReluN1To1;
  EXPECT_FALSE(ProfRuns(
      Runtime::kArmnn,
      ProfOp(ir::OpKind::kAdd, {ProfT(kProfF32, {4}), ProfT(kProfF32, {4})},
             {ProfT(kProfF32, {4})}, n1)));
}

TEST(ProfileTest, WhichWeightedOpsNeedABias) {
  EXPECT_TRUE(NeedsBias(Runtime::kLitert, ir::OpKind::kConv2D));
  EXPECT_FALSE(NeedsBias(Runtime::kLitert, ir::OpKind::kFullyConnected));
  EXPECT_TRUE(NeedsBias(Runtime::kArmnn, ir::OpKind::kFullyConnected));
  EXPECT_FALSE(NeedsBias(Runtime::kArmnn, ir::OpKind::kTransposeConv));
  EXPECT_FALSE(NeedsBias(Runtime::kArmnn, ir::OpKind::kAdd));
}

}  // namespace
}  // namespace qforge::runtime
