// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LiteRT's fast path (runtime/fast_path.h): each case is one condition of
// the XNNPACK delegate's node checks (xnnpack_delegate.cc, the function
// named in the case), on a form built by hand to sit just inside or just
// outside it.
#include "runtime/fast_path.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ir/op_kind.h"
#include "tests/runtime/fast_path_cases.h"

namespace qforge::runtime {
namespace {

using legality::OpForm;
using legality::TensorForm;

using fast_path_cases::XnnF32;
using fast_path_cases::XnnI8;
using fast_path_cases::XnnOp;
using fast_path_cases::XnnQ;

bool XnnFast(const OpForm& f) { return fast_path::XnnpackRefusal(f).empty(); }

// Conv weights [O, Kh, Kw, I] and a bias of O values, per channel.
OpForm XnnConv(TensorForm in, TensorForm out, bool bias, bool int_weights) {
  TensorForm w = int_weights
                     ? XnnQ(ir::DataType::kInt8, 0.01f, 0, {4, 3, 3, 4}, true)
                     : XnnF32({4, 3, 3, 4}, true);
  if (int_weights) {
    w.scales = {0.01f, 0.02f, 0.03f, 0.04f};
    w.zero_points = {0, 0, 0, 0};
  }
  std::vector<TensorForm> inputs = {std::move(in), std::move(w)};
  if (bias) inputs.push_back(XnnF32({4}, true));
  return XnnOp(ir::OpKind::kConv2D, "CONV_2D", std::move(inputs),
               {std::move(out)}, ir::Conv2DOptions{});
}

TEST(FastPathTest, AddScalesWithinOneOver1024To256) {
  // VisitBinaryNode / CheckTensorsInputOutputScale: in / out in
  // [1/1024, 256) for each input.
  auto add = [](float s0, float out) {
    return XnnOp(ir::OpKind::kAdd, "ADD", {XnnI8(s0), XnnI8(0.1f)},
                 {XnnI8(out)}, ir::AddSubOptions{});
  };
  EXPECT_TRUE(XnnFast(add(0.1f, 0.1f)));
  EXPECT_TRUE(XnnFast(add(1.0f / 1024, 1.0f)));   // exactly 1/1024: inside
  EXPECT_FALSE(XnnFast(add(0.9f / 1024, 1.0f)));  // below
  EXPECT_FALSE(XnnFast(add(25.6f, 0.1f)));        // 256: the open end
  ir::AddSubOptions tanh;
  tanh.activation = ir::Activation::kTanh;  // ConvertActivationToOutputRange
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kAdd, "ADD",
                             {XnnF32({4}), XnnF32({4})}, {XnnF32({4})}, tanh)));
}

TEST(FastPathTest, MulProductScaleWithin2ToMinus16To256) {
  // CheckTensorsInputProductOutputScale: s0 * s1 / out in [2^-16, 256).
  auto mul = [](float s0, float s1, float out) {
    return XnnOp(ir::OpKind::kMul, "MUL", {XnnI8(s0), XnnI8(s1)}, {XnnI8(out)},
                 ir::ActivationOptions{});
  };
  EXPECT_TRUE(XnnFast(mul(0.5f, 0.5f, 0.25f)));             // 1
  EXPECT_FALSE(XnnFast(mul(0.001f, 0.001f, 1.0f)));         // 1e-6 < 2^-16
  EXPECT_TRUE(XnnFast(mul(1.0f / 256, 1.0f / 256, 1.0f)));  // exactly 2^-16
}

TEST(FastPathTest, Int16NeverRunsOnXnnpack) {
  // GetXNNPackDatatype has no int16 case.
  const OpForm add =
      XnnOp(ir::OpKind::kAdd, "ADD",
            {XnnQ(ir::DataType::kInt16, 0.001f, 0, {4}),
             XnnQ(ir::DataType::kInt16, 0.001f, 0, {4})},
            {XnnQ(ir::DataType::kInt16, 0.002f, 0, {4})}, ir::AddSubOptions{});
  const std::string why = fast_path::XnnpackRefusal(add);
  EXPECT_NE(why.find("int16"), std::string::npos) << why;
}

TEST(FastPathTest, ConvNeedsABiasAndConstantWeights) {
  // VisitConv2DNode: three inputs, the weights static.
  EXPECT_TRUE(XnnFast(XnnConv(XnnI8(0.1f), XnnI8(0.2f), true, true)));
  EXPECT_FALSE(XnnFast(XnnConv(XnnI8(0.1f), XnnI8(0.2f), false, true)));
  OpForm dynamic =
      XnnConv(XnnF32({1, 8, 8, 4}), XnnF32({1, 6, 6, 4}), true, false);
  EXPECT_TRUE(XnnFast(dynamic));
  dynamic.inputs[1]->constant = false;
  EXPECT_FALSE(XnnFast(dynamic));
  // Per-channel weights along another axis than 0.
  OpForm axis = XnnConv(XnnI8(0.1f), XnnI8(0.2f), true, true);
  axis.inputs[1]->axis = 3;
  EXPECT_FALSE(XnnFast(axis));
}

TEST(FastPathTest, HybridConvYesHybridDepthwiseNo) {
  // VisitConv2DNode takes float input with int8 weights (dynamically
  // quantized); VisitDepthwiseConv2DNode does not.
  OpForm conv = XnnConv(XnnF32({1, 8, 8, 4}), XnnF32({1, 6, 6, 4}), true, true);
  EXPECT_TRUE(XnnFast(conv));
  OpForm dw = conv;
  dw.kind = ir::OpKind::kDepthwiseConv2D;
  dw.op_name = "DEPTHWISE_CONV_2D";
  dw.options = ir::DepthwiseConv2DOptions{};
  dw.inputs[1]->axis = 3;
  EXPECT_FALSE(XnnFast(dw));
}

TEST(FastPathTest, AveragePoolFloatOnlyMaxPoolInt8Too) {
  ir::Pool2DOptions pool;
  pool.filter_width = pool.filter_height = 2;
  pool.stride_w = pool.stride_h = 2;
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kAveragePool2D, "AVERAGE_POOL_2D",
                             {XnnI8(0.1f)}, {XnnI8(0.1f)}, pool)));
  EXPECT_TRUE(
      XnnFast(XnnOp(ir::OpKind::kAveragePool2D, "AVERAGE_POOL_2D",
                    {XnnF32({1, 8, 8, 4})}, {XnnF32({1, 4, 4, 4})}, pool)));
  EXPECT_TRUE(XnnFast(XnnOp(ir::OpKind::kMaxPool2D, "MAX_POOL_2D",
                            {XnnI8(0.1f)}, {XnnI8(0.1f)}, pool)));
  // CheckPoolingParams: a stride larger than the window.
  ir::Pool2DOptions wide = pool;
  wide.stride_w = 3;
  EXPECT_FALSE(
      XnnFast(XnnOp(ir::OpKind::kMaxPool2D, "MAX_POOL_2D",
                    {XnnF32({1, 8, 8, 4})}, {XnnF32({1, 3, 4, 4})}, wide)));
}

TEST(FastPathTest, SoftmaxFloatWithBetaOne) {
  ir::SoftmaxOptions one{1.0f}, two{2.0f};
  EXPECT_TRUE(XnnFast(XnnOp(ir::OpKind::kSoftmax, "SOFTMAX", {XnnF32({1, 10})},
                            {XnnF32({1, 10})}, one)));
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kSoftmax, "SOFTMAX", {XnnF32({1, 10})},
                             {XnnF32({1, 10})}, two)));
  EXPECT_FALSE(XnnFast(
      XnnOp(ir::OpKind::kSoftmax, "SOFTMAX", {XnnI8(0.1f, {1, 10})},
            {XnnQ(ir::DataType::kInt8, 1.0f / 256, -128, {1, 10})}, one)));
}

TEST(FastPathTest, ConcatenationOfTwoToFiveInputs) {
  auto concat = [](int n) {
    std::vector<TensorForm> in(static_cast<size_t>(n), XnnI8(0.1f));
    ir::ConcatenationOptions o;
    o.axis = 3;
    return XnnOp(ir::OpKind::kConcatenation, "CONCATENATION", in,
                 {XnnI8(0.1f, {1, 8, 8, 4 * n})}, o);
  };
  EXPECT_TRUE(XnnFast(concat(5)));
  EXPECT_FALSE(XnnFast(concat(6)));
}

TEST(FastPathTest, ReshapeKeepsItsParameters) {
  // VisitReshapeNode: quantized input and output with equal scale and zero
  // point.
  const TensorForm shape = XnnQ(ir::DataType::kInt32, 0, 0, {2}, true);
  TensorForm s = shape;
  s.scales.clear();
  s.zero_points.clear();
  EXPECT_TRUE(XnnFast(XnnOp(ir::OpKind::kReshape, "RESHAPE", {XnnI8(0.1f), s},
                            {XnnI8(0.1f, {1, 256})}, ir::ReshapeOptions{})));
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kReshape, "RESHAPE", {XnnI8(0.1f), s},
                             {XnnI8(0.2f, {1, 256})}, ir::ReshapeOptions{})));
}

TEST(FastPathTest, StridedSliceWithoutShrinkMaskAndUnitStrides) {
  TensorForm idx = XnnF32({4}, true);
  idx.type = ir::DataType::kInt32;
  TensorForm strides = idx;
  strides.int_data = {1, 1, 1, 1};
  ir::StridedSliceOptions plain, shrink;
  shrink.shrink_axis_mask = 1;
  auto slice = [&](const TensorForm& st, const ir::StridedSliceOptions& o) {
    return XnnOp(ir::OpKind::kStridedSlice, "STRIDED_SLICE",
                 {XnnF32({1, 8, 8, 4}), idx, idx, st}, {XnnF32({1, 4, 8, 4})},
                 o);
  };
  EXPECT_TRUE(XnnFast(slice(strides, plain)));
  EXPECT_FALSE(XnnFast(slice(strides, shrink)));
  TensorForm two = strides;
  two.int_data = {1, 2, 1, 1};
  EXPECT_FALSE(XnnFast(slice(two, plain)));
}

TEST(FastPathTest, QuantizeRequantizesWithin1Over256To128) {
  auto quantize = [](TensorForm in, TensorForm out) {
    return XnnOp(ir::OpKind::kQuantize, "QUANTIZE", {std::move(in)},
                 {std::move(out)});
  };
  EXPECT_TRUE(XnnFast(quantize(XnnF32({1, 8, 8, 4}), XnnI8(0.1f))));
  EXPECT_TRUE(XnnFast(quantize(XnnI8(0.2f), XnnI8(0.1f))));    // 2
  EXPECT_FALSE(XnnFast(quantize(XnnI8(20.0f), XnnI8(0.1f))));  // 200 > 128
  EXPECT_FALSE(
      XnnFast(quantize(XnnI8(0.1f), XnnQ(ir::DataType::kUInt8, 0.1f, 128,
                                         {1, 8, 8, 4}))));  // int8 -> uint8
}

TEST(FastPathTest, FloatOnlyOpsAndOpsWithoutAnXnnTrait) {
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kPrelu, "PRELU",
                             {XnnI8(0.1f), XnnI8(0.1f, {4})}, {XnnI8(0.1f)})));
  TensorForm alpha = XnnF32({4});
  EXPECT_FALSE(
      XnnFast(XnnOp(ir::OpKind::kPrelu, "PRELU", {XnnF32({1, 8, 8, 4}), alpha},
                    {XnnF32({1, 8, 8, 4})})));  // the slope must be a constant
  alpha.constant = true;
  EXPECT_TRUE(
      XnnFast(XnnOp(ir::OpKind::kPrelu, "PRELU", {XnnF32({1, 8, 8, 4}), alpha},
                    {XnnF32({1, 8, 8, 4})})));
  EXPECT_FALSE(
      XnnFast(XnnOp(ir::OpKind::kRelu, "RELU", {XnnI8(0.1f)}, {XnnI8(0.1f)})));
  EXPECT_TRUE(
      XnnFast(XnnOp(ir::OpKind::kRelu, "RELU", {XnnF32({4})}, {XnnF32({4})})));
  const std::string why = fast_path::XnnpackRefusal(
      XnnOp(ir::OpKind::kSqueeze, "SQUEEZE", {XnnF32({1, 4})}, {XnnF32({4})}));
  EXPECT_NE(why.find("no SQUEEZE"), std::string::npos) << why;
}

TEST(FastPathTest, DequantizeOfConstantsAndOfActivations) {
  TensorForm half = XnnF32({4, 3, 3, 4}, true);
  half.type = ir::DataType::kFloat16;
  EXPECT_TRUE(XnnFast(XnnOp(ir::OpKind::kDequantize, "DEQUANTIZE", {half},
                            {XnnF32({4, 3, 3, 4})})));
  EXPECT_TRUE(XnnFast(XnnOp(ir::OpKind::kDequantize, "DEQUANTIZE",
                            {XnnI8(0.1f)}, {XnnF32({1, 8, 8, 4})})));
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kDequantize, "DEQUANTIZE",
                             {XnnQ(ir::DataType::kInt16, 0.001f, 0, {4})},
                             {XnnF32({4})})));
}

TEST(FastPathTest, LeakyReluScaleWindows) {
  // VisitUnaryNode: in / out in [1/256, 128], times alpha at least 1/256.
  ir::LeakyReluOptions a{0.1f};
  EXPECT_TRUE(XnnFast(XnnOp(ir::OpKind::kLeakyRelu, "LEAKY_RELU", {XnnI8(0.1f)},
                            {XnnI8(0.1f)}, a)));
  ir::LeakyReluOptions tiny{0.001f};  // 1 * 0.001 < 1/256
  EXPECT_FALSE(XnnFast(XnnOp(ir::OpKind::kLeakyRelu, "LEAKY_RELU",
                             {XnnI8(0.1f)}, {XnnI8(0.1f)}, tiny)));
}

TEST(FastPathTest, EveryRowWithARule) {
  // One pair per quantizable row with an XNN rule (fast_path_cases.h): the
  // form inside the delegate's condition is taken, the one outside is left
  // to the builtin kernels for that condition.
  for (const fast_path_cases::RowCase& c : fast_path_cases::XnnRowCases()) {
    SCOPED_TRACE(c.taken.op_name + ": " + c.condition);
    ASSERT_NE(fast_path::XnnRuleOf(c.kind), nullptr);
    EXPECT_EQ(fast_path::XnnpackRefusal(c.taken), "");
    const std::string why = fast_path::XnnpackRefusal(c.left);
    EXPECT_NE(why.find(c.why), std::string::npos) << why;
  }
}

TEST(FastPathTest, NeverDelegatedRowsSayWhy) {
  // A row with XNN_NEVER has no rule, and the delegate's answer names the op
  // (VisitNode's default case).
  int never = 0;
  for (int k = 0; k < ir::kNumOpKinds; ++k) {
    const auto kind = static_cast<ir::OpKind>(k);
    if (std::string(fast_path::XnnNeverReason(kind)).empty()) continue;
    ++never;
    EXPECT_EQ(fast_path::XnnRuleOf(kind), nullptr) << k;
    const std::string name(ir::GetOpInfo(kind).name);
    const std::string why = fast_path::XnnpackRefusal(
        XnnOp(kind, name.c_str(), {XnnF32({1, 4})}, {XnnF32({1, 4})}));
    EXPECT_NE(why.find("XNNPACK has no " + name), std::string::npos) << why;
  }
  EXPECT_GT(never, 0);
}

}  // namespace
}  // namespace qforge::runtime
