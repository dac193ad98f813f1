// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D. Small cases are derived by hand in the comments (padding
// SAME/VALID, strides, dilation, groups, activations, batch); a sweep of
// shapes that exercises every GEMM tail (rows, panels, im2col tiles)
// compares with the direct-loop reference in conv_test_util.h.
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

ir::Conv2DOptions ConvOpts(ir::Padding padding, int stride, int dilation = 1,
                           ir::Activation act = ir::Activation::kNone) {
  ir::Conv2DOptions o;
  o.padding = padding;
  o.stride_h = o.stride_w = stride;
  o.dilation_h = o.dilation_w = dilation;
  o.activation = act;
  return o;
}

// 1x1 stride 1 (the in-place GEMM path). Filter rows [1,0], [0,1], [1,1]
// and bias [0.5,-1,0] map a pixel (a,b) to (a+0.5, b-1, a+b).
TEST(Conv2D, Pointwise) {
  auto out = RunOp(
      ir::OpKind::kConv2D,
      {In({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
       Const({3, 1, 1, 2}, {1, 0, 0, 1, 1, 1}), Const({3}, {0.5f, -1, 0})},
      {1, 2, 2, 3}, ConvOpts(ir::Padding::kValid, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 2, 2, 3},
             {1.5f, 1, 3, 3.5f, 3, 7, 5.5f, 5, 11, 7.5f, 7, 15});
}

// 3x3 ones filter over a 3x3 image of ones, SAME stride 1: total padding
// (3-1)*1 + 3 - 3 = 2, one on each side, so each output counts the pixels
// of its 3x3 neighbourhood inside the image: corners 4, edges 6, centre 9.
TEST(Conv2D, SamePaddingCountsNeighbours) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 3, 3, 1}, std::vector<float>(9, 1.0f)),
                    Const({1, 3, 3, 1}, std::vector<float>(9, 1.0f)), Absent()},
                   {1, 3, 3, 1}, ConvOpts(ir::Padding::kSame, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 3, 3, 1}, {4, 6, 4, 6, 9, 6, 4, 6, 4});
}

// SAME stride 2 on a 4x4 image v(y,x) = 4y + x, 3x3 ones: out = ceil(4/2)
// = 2, total padding (2-1)*2 + 3 - 4 = 1 -> 0 before, 1 after. Windows:
// (0,0) rows 0-2 cols 0-2: 3*4*(0+1+2) + 3*(0+1+2) = 45
// (0,1) rows 0-2 cols 2-3: 2*4*3 + 3*(2+3) = 39
// (1,0) rows 2-3 cols 0-2: 3*4*(2+3) + 2*3 = 66
// (1,1) rows 2-3 cols 2-3: 2*4*5 + 2*5 = 50
TEST(Conv2D, SameStride2PadsAfter) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 4, 4, 1}, Iota(16)),
                    Const({1, 3, 3, 1}, std::vector<float>(9, 1.0f))},
                   {1, 2, 2, 1}, ConvOpts(ir::Padding::kSame, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 2, 2, 1}, {45, 39, 66, 50});
}

// VALID, dilation 2 on a 5x5 image v = 5y + x: effective filter 5, one
// output = sum over y, x in {0,2,4}: 3*5*(0+2+4) + 3*(0+2+4) = 108.
TEST(Conv2D, ValidDilation) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 5, 5, 1}, Iota(25)),
                    Const({1, 3, 3, 1}, std::vector<float>(9, 1.0f))},
                   {1, 1, 1, 1}, ConvOpts(ir::Padding::kValid, 1, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 1, 1, 1}, {108});
}

// SAME, dilation 2 on 3x3 ones: effective filter 5, total padding
// (3-1) + 5 - 3 = 4 -> 2 before. Output (y,x) sees rows {y-2, y, y+2} and
// the same columns: (0,0) rows {0,2} x cols {0,2} = 4; (0,1) rows {0,2} x
// cols {1} = 2; (1,1) only the centre = 1.
TEST(Conv2D, SameDilation) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 3, 3, 1}, std::vector<float>(9, 1.0f)),
                    Const({1, 3, 3, 1}, std::vector<float>(9, 1.0f))},
                   {1, 3, 3, 1}, ConvOpts(ir::Padding::kSame, 1, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 3, 3, 1}, {4, 2, 4, 2, 1, 2, 4, 2, 4});
}

// Two groups: input channels {0,1} feed output 0 with weights [1,2],
// channels {2,3} feed output 1 with weights [3,4]. Pixel [1,2,3,4] gives
// 1*1 + 2*2 = 5 and 3*3 + 4*4 = 25.
TEST(Conv2D, Grouped) {
  auto out =
      RunOp(ir::OpKind::kConv2D,
            {In({1, 1, 1, 4}, {1, 2, 3, 4}), Const({2, 1, 1, 2}, {1, 2, 3, 4})},
            {1, 1, 1, 2}, ConvOpts(ir::Padding::kValid, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 1, 1, 2}, {5, 25});
}

// Batch 2 through a 2x2 VALID conv (im2col path). Filter: output 0 sums
// the four taps of channel 0, output 1 takes tap (1,1) of channel 1.
// Batch 0: channel 0 = 0..8 (3x3), channel 1 = 10*(0..8); batch 1 = -batch 0.
// Output 0 at (y,x) = v(y,x)+v(y,x+1)+v(y+1,x)+v(y+1,x+1) with v = 3y+x:
// 8, 12, 20, 24; output 1 = 10*v(y+1,x+1): 40, 50, 70, 80.
TEST(Conv2D, BatchIm2col) {
  std::vector<float> in(36);
  for (int b = 0; b < 2; ++b) {
    for (int p = 0; p < 9; ++p) {
      const float s = b == 0 ? 1.0f : -1.0f;
      in[static_cast<size_t>((b * 9 + p) * 2)] = s * p;
      in[static_cast<size_t>((b * 9 + p) * 2 + 1)] = s * 10 * p;
    }
  }
  // [O=2, KH=2, KW=2, C=2]
  std::vector<float> w = {1, 0, 1, 0, 1, 0, 1, 0,   // output 0
                          0, 0, 0, 0, 0, 0, 0, 1};  // output 1
  auto out =
      RunOp(ir::OpKind::kConv2D, {In({2, 3, 3, 2}, in), Const({2, 2, 2, 2}, w)},
            {2, 2, 2, 2}, ConvOpts(ir::Padding::kValid, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(
      *out, {2, 2, 2, 2},
      {8, 40, 12, 50, 20, 70, 24, 80, -8, -40, -12, -50, -20, -70, -24, -80});
}

// Fused activations on a 1x1 identity conv of [-3, -0.5, 0.5, 8].
TEST(Conv2D, Activations) {
  const std::vector<float> x = {-3, -0.5f, 0.5f, 8};
  struct Case {
    ir::Activation act;
    std::vector<float> want;
  } cases[] = {
      {ir::Activation::kNone, {-3, -0.5f, 0.5f, 8}},
      {ir::Activation::kRelu, {0, 0, 0.5f, 8}},
      {ir::Activation::kRelu6, {0, 0, 0.5f, 6}},
      {ir::Activation::kReluN1To1, {-1, -0.5f, 0.5f, 1}},
  };
  for (const Case& c : cases) {
    auto out = RunOp(ir::OpKind::kConv2D,
                     {In({1, 2, 2, 1}, x), Const({1, 1, 1, 1}, {1})},
                     {1, 2, 2, 1}, ConvOpts(ir::Padding::kSame, 1, 1, c.act));
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(*out, {1, 2, 2, 1}, c.want);
  }
}

TEST(Conv2D, TanhAndSignBitAreUnsupported) {
  for (ir::Activation act : {ir::Activation::kTanh, ir::Activation::kSignBit}) {
    auto out = RunOp(ir::OpKind::kConv2D,
                     {In({1, 1, 1, 1}, {1}), Const({1, 1, 1, 1}, {1})},
                     {1, 1, 1, 1}, ConvOpts(ir::Padding::kSame, 1, 1, act));
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented)
        << out.status();
  }
}

// The filter as a run-time input (a computed weight) and a run-time bias.
TEST(Conv2D, NonConstantFilterAndBias) {
  const std::vector<int64_t> is = {1, 5, 4, 3}, ws = {4, 3, 3, 3};
  const auto x = Random(60, 1), w = Random(108, 2), b = Random(4, 3);
  ConvGeom g;
  std::vector<int64_t> os;
  const auto want = RefConv(x, is, w, ws, &b, g, &os);
  auto out = RunOp(ir::OpKind::kConv2D, {In(is, x), In(ws, w), In({4}, b)}, os,
                   ConvOpts(ir::Padding::kSame, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, os, want);
}

// Shapes that cover the micro-kernel tails (output channels 1..40 across
// 16-wide half panels and 32-wide panels; pixel counts not a multiple of
// the 12/14-row blocks), strides, dilations, grouped convs, both paddings.
TEST(Conv2D, SweepAgainstReference) {
  struct Case {
    std::vector<int64_t> is, ws;
    ConvGeom g;
  } cases[] = {
      {{1, 7, 9, 3}, {5, 3, 3, 3}, {1, 1, 1, 1, ir::Padding::kSame}},
      {{2, 8, 8, 8}, {17, 1, 1, 8}, {1, 1, 1, 1, ir::Padding::kValid}},
      {{1, 11, 13, 16}, {33, 1, 1, 16}, {2, 2, 1, 1, ir::Padding::kSame}},
      {{1, 9, 9, 4}, {40, 3, 3, 4}, {2, 1, 1, 1, ir::Padding::kValid}},
      {{1, 10, 7, 5}, {7, 5, 3, 5}, {1, 2, 2, 1, ir::Padding::kSame}},
      {{3, 6, 6, 6},
       {6, 3, 3, 2},
       {1, 1, 1, 1, ir::Padding::kSame, ir::Activation::kRelu6}},
      {{1, 15, 15, 2}, {16, 3, 3, 2}, {1, 1, 3, 3, ir::Padding::kValid}},
      {{1, 30, 30, 3},
       {8, 3, 3, 3},
       {2, 2, 1, 1, ir::Padding::kSame, ir::Activation::kRelu}},
      {{1, 4, 4, 64}, {70, 2, 2, 64}, {1, 1, 1, 1, ir::Padding::kSame}},
  };
  uint32_t seed = 10;
  for (const Case& c : cases) {
    const auto x = Random(static_cast<size_t>(Count(c.is)), seed++);
    const auto w = Random(static_cast<size_t>(Count(c.ws)), seed++);
    const auto b = Random(static_cast<size_t>(c.ws[0]), seed++);
    std::vector<int64_t> os;
    const auto want = RefConv(x, c.is, w, c.ws, &b, c.g, &os);
    ir::Conv2DOptions o;
    o.padding = c.g.padding;
    o.stride_h = static_cast<int32_t>(c.g.stride_h);
    o.stride_w = static_cast<int32_t>(c.g.stride_w);
    o.dilation_h = static_cast<int32_t>(c.g.dil_h);
    o.dilation_w = static_cast<int32_t>(c.g.dil_w);
    o.activation = c.g.act;
    auto out = RunOp(ir::OpKind::kConv2D,
                     {In(c.is, x), Const(c.ws, w), Const({c.ws[0]}, b)}, os, o);
    ASSERT_TRUE(out.ok()) << out.status();
    SCOPED_TRACE(::testing::Message()
                 << "input " << ::testing::PrintToString(c.is) << " filter "
                 << ::testing::PrintToString(c.ws));
    ExpectNear(*out, os, want);
  }
}

// Prepare errors name the tensor and the rule.
TEST(Conv2D, ChannelMismatchNamesTensors) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 4, 4, 3}, std::vector<float>(48)),
                    Const({2, 3, 3, 2}, std::vector<float>(36))},
                   {1, 4, 4, 2}, ConvOpts(ir::Padding::kSame, 1));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("CONV_2D"), std::string::npos) << msg;
  EXPECT_NE(msg.find("filter 'arg1'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("input 'arg0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("multiple"), std::string::npos) << msg;
}

TEST(Conv2D, BiasSizeMismatch) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 2, 2, 1}, std::vector<float>(4)),
                    Const({2, 1, 1, 1}, {1, 1}), Const({3}, {0, 0, 0})},
                   {1, 2, 2, 2}, ConvOpts(ir::Padding::kSame, 1));
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("bias 'arg2'"), std::string::npos) << msg;
}

TEST(Conv2D, ZeroStrideIsAnError) {
  auto out =
      RunOp(ir::OpKind::kConv2D,
            {In({1, 2, 2, 1}, std::vector<float>(4)), Const({1, 1, 1, 1}, {1})},
            {1, 2, 2, 1}, ConvOpts(ir::Padding::kSame, 0));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("stride_h"),
            std::string::npos)
      << out.status();
}

TEST(Conv2D, ValidFilterLargerThanInputIsAnError) {
  auto out = RunOp(ir::OpKind::kConv2D,
                   {In({1, 2, 2, 1}, std::vector<float>(4)),
                    Const({1, 5, 5, 1}, std::vector<float>(25))},
                   {1, 1, 1, 1}, ConvOpts(ir::Padding::kValid, 1));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("VALID"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge::testing::conv
