// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// DEPTHWISE_CONV_2D. Hand-derived cases (padding, stride, dilation, depth
// multiplier, activation) plus a sweep over channel counts that hit every
// vector width of the direct kernel (16, 8, 4 and scalar tails), filter
// sizes with and without a compiled variant, and both paddings.
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

ir::DepthwiseConv2DOptions DepthwiseOpts(
    ir::Padding padding, int stride, int dilation = 1, int multiplier = 1,
    ir::Activation act = ir::Activation::kNone) {
  ir::DepthwiseConv2DOptions o;
  o.padding = padding;
  o.stride_h = o.stride_w = stride;
  o.dilation_h = o.dilation_w = dilation;
  o.depth_multiplier = multiplier;
  o.activation = act;
  return o;
}

// 3x3 SAME on a 3x3 image; channel 0 is all ones with filter 1, channel 1
// all twos with filter 0.5. Each output counts the in-image neighbours
// (corners 4, edges 6, centre 9) in both channels; bias adds [0, 10].
TEST(DepthwiseConv2D, SamePaddingPerChannel) {
  std::vector<float> x, w;
  for (int p = 0; p < 9; ++p) x.insert(x.end(), {1.0f, 2.0f});
  for (int t = 0; t < 9; ++t) w.insert(w.end(), {1.0f, 0.5f});
  auto out =
      RunOp(ir::OpKind::kDepthwiseConv2D,
            {In({1, 3, 3, 2}, x), Const({1, 3, 3, 2}, w), Const({2}, {0, 10})},
            {1, 3, 3, 2}, DepthwiseOpts(ir::Padding::kSame, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 3, 3, 2},
             {4, 14, 6, 16, 4, 14, 6, 16, 9, 19, 6, 16, 4, 14, 6, 16, 4, 14});
}

// Depth multiplier 2 on one channel [1,2,3,4] (2x2), VALID 2x2 filter:
// output 0 weights all 1 -> 10 (+0.5); output 1 weights [1,0,0,-1] ->
// 1 - 4 = -3 (+0.5).
TEST(DepthwiseConv2D, DepthMultiplier) {
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({1, 2, 2, 1}, {1, 2, 3, 4}),
                    Const({1, 2, 2, 2}, {1, 1, 1, 0, 1, 0, 1, -1}),
                    Const({2}, {0.5f, 0.5f})},
                   {1, 1, 1, 2}, DepthwiseOpts(ir::Padding::kValid, 1, 1, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 1, 1, 2}, {10.5f, -2.5f});
}

// The multiplier comes from the shapes (filter channels / input channels),
// as in TFLite's float kernel: an option of 0 does not matter.
TEST(DepthwiseConv2D, MultiplierFromShapes) {
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({1, 2, 2, 1}, {1, 2, 3, 4}),
                    Const({1, 2, 2, 2}, {1, 1, 1, 0, 1, 0, 1, -1})},
                   {1, 1, 1, 2}, DepthwiseOpts(ir::Padding::kValid, 1, 1, 0));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 1, 1, 2}, {10, -3});
}

// Stride 2 and dilation 2, VALID, 5x5 image v = 5y + x with a ones filter:
// effective filter 5 -> one output, sum over y, x in {0,2,4} = 108.
TEST(DepthwiseConv2D, ValidDilation) {
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({1, 5, 5, 1}, Iota(25)),
                    Const({1, 3, 3, 1}, std::vector<float>(9, 1.0f))},
                   {1, 1, 1, 1}, DepthwiseOpts(ir::Padding::kValid, 2, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 1, 1, 1}, {108});
}

// SAME stride 2 on 4x4 v = 4y + x, 3x3 ones (as the CONV_2D case): padding
// 0 before, 1 after; windows sum to 45, 39, 66, 50. RELU6 clamps to 6 after
// a bias of -40: [5, 0, 6, 6].
TEST(DepthwiseConv2D, SameStride2Relu6) {
  auto out = RunOp(
      ir::OpKind::kDepthwiseConv2D,
      {In({1, 4, 4, 1}, Iota(16)),
       Const({1, 3, 3, 1}, std::vector<float>(9, 1.0f)), Const({1}, {-40})},
      {1, 2, 2, 1},
      DepthwiseOpts(ir::Padding::kSame, 2, 1, 1, ir::Activation::kRelu6));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 2, 2, 1}, {5, 0, 6, 6});
}

// Batch 2: the second image is the first negated, so its outputs are too
// (no bias, no activation).
TEST(DepthwiseConv2D, Batch) {
  const auto x0 = Random(4 * 4 * 3, 5);
  std::vector<float> x = x0;
  for (float v : x0) x.push_back(-v);
  const auto w = Random(9 * 3, 6);
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({2, 4, 4, 3}, x), Const({1, 3, 3, 3}, w)}, {2, 4, 4, 3},
                   DepthwiseOpts(ir::Padding::kSame, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  auto g = out->Flat<float>();
  ASSERT_EQ(g.size(), 96u);
  for (size_t i = 0; i < 48; ++i) EXPECT_FLOAT_EQ(g[i + 48], -g[i]) << i;
}

TEST(DepthwiseConv2D, SweepAgainstReference) {
  struct Case {
    std::vector<int64_t> is, ws;
    ConvGeom g;
  } cases[] = {
      // Channel counts 1, 3, 8, 16, 19, 35, 48: widths 16/8/4/1.
      {{1, 6, 7, 1}, {1, 3, 3, 1}, {1, 1, 1, 1, ir::Padding::kSame}},
      {{1, 6, 7, 3}, {1, 3, 3, 3}, {2, 2, 1, 1, ir::Padding::kSame}},
      {{2, 9, 9, 8}, {1, 3, 3, 8}, {1, 1, 1, 1, ir::Padding::kValid}},
      {{1, 12, 12, 16}, {1, 3, 3, 16}, {2, 2, 1, 1, ir::Padding::kSame}},
      {{1, 7, 5, 19},
       {1, 3, 3, 19},
       {1, 1, 1, 1, ir::Padding::kSame, ir::Activation::kRelu}},
      {{1, 8, 8, 35}, {1, 5, 5, 35}, {1, 1, 1, 1, ir::Padding::kSame}},
      {{1, 9, 11, 48}, {1, 5, 5, 48}, {2, 1, 1, 1, ir::Padding::kSame}},
      // Dilation, non-square and 7x7 filters (generic path).
      {{1, 10, 10, 20}, {1, 3, 3, 20}, {1, 1, 2, 2, ir::Padding::kSame}},
      {{1, 10, 9, 17}, {1, 3, 5, 17}, {1, 2, 1, 1, ir::Padding::kValid}},
      {{1, 14, 14, 24}, {1, 7, 7, 24}, {1, 1, 1, 1, ir::Padding::kSame}},
      // Filter wider than the image under SAME padding.
      {{1, 2, 2, 16}, {1, 3, 3, 16}, {1, 1, 1, 1, ir::Padding::kSame}},
      {{1, 1, 3, 5}, {1, 5, 5, 5}, {1, 1, 1, 1, ir::Padding::kSame}},
      // Depth multipliers.
      {{1, 5, 6, 3}, {1, 3, 3, 12}, {1, 1, 1, 1, ir::Padding::kSame}},
      {{2, 5, 5, 2}, {1, 3, 3, 6}, {2, 2, 1, 1, ir::Padding::kValid}},
  };
  uint32_t seed = 100;
  for (const Case& c : cases) {
    const auto x = Random(static_cast<size_t>(Count(c.is)), seed++);
    const auto w = Random(static_cast<size_t>(Count(c.ws)), seed++);
    const auto b = Random(static_cast<size_t>(c.ws[3]), seed++);
    std::vector<int64_t> os;
    const auto want = RefDepthwise(x, c.is, w, c.ws, &b, c.g, &os);
    ir::DepthwiseConv2DOptions o;
    o.padding = c.g.padding;
    o.stride_h = static_cast<int32_t>(c.g.stride_h);
    o.stride_w = static_cast<int32_t>(c.g.stride_w);
    o.dilation_h = static_cast<int32_t>(c.g.dil_h);
    o.dilation_w = static_cast<int32_t>(c.g.dil_w);
    o.depth_multiplier = static_cast<int32_t>(c.ws[3] / c.is[3]);
    o.activation = c.g.act;
    SCOPED_TRACE(::testing::Message()
                 << "input " << ::testing::PrintToString(c.is) << " filter "
                 << ::testing::PrintToString(c.ws));
    // Constant and run-time filter take the same path; check both.
    for (bool constant : {true, false}) {
      Arg wa = constant ? Const(c.ws, w) : In(c.ws, w);
      auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                       {In(c.is, x), wa, Const({c.ws[3]}, b)}, os, o);
      ASSERT_TRUE(out.ok()) << out.status();
      ExpectNear(*out, os, want);
    }
  }
}

TEST(DepthwiseConv2D, FilterMustHaveLeadingOne) {
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({1, 3, 3, 2}, std::vector<float>(18)),
                    Const({2, 3, 3, 2}, std::vector<float>(36))},
                   {1, 3, 3, 2}, DepthwiseOpts(ir::Padding::kSame, 1));
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("filter 'arg1'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[1, KH, KW, channels]"), std::string::npos) << msg;
}

TEST(DepthwiseConv2D, ChannelsMustDivide) {
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({1, 3, 3, 2}, std::vector<float>(18)),
                    Const({1, 3, 3, 3}, std::vector<float>(27))},
                   {1, 3, 3, 3}, DepthwiseOpts(ir::Padding::kSame, 1));
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("input 'arg0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("multiple"), std::string::npos) << msg;
}

TEST(DepthwiseConv2D, ZeroDilationIsAnError) {
  auto out = RunOp(ir::OpKind::kDepthwiseConv2D,
                   {In({1, 3, 3, 1}, std::vector<float>(9)),
                    Const({1, 3, 3, 1}, std::vector<float>(9))},
                   {1, 3, 3, 1}, DepthwiseOpts(ir::Padding::kSame, 1, 0));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("dilation"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge::testing::conv
