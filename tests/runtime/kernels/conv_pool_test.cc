// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D: hand-derived windows (padding never
// counts: averages divide by the in-image count, maxima ignore padding),
// strides, activations, batch and channels, errors, and a sweep against a
// direct reference.
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

ir::Pool2DOptions PoolOpts(ir::Padding padding, int filter, int stride,
                           ir::Activation act = ir::Activation::kNone) {
  ir::Pool2DOptions o;
  o.padding = padding;
  o.filter_height = o.filter_width = filter;
  o.stride_h = o.stride_w = stride;
  o.activation = act;
  return o;
}

// 3x3 SAME stride 1 average over v = 3y + x (3x3): corner (0,0) averages
// {0,1,3,4} = 2; edge (0,1) {0,1,2,3,4,5} = 2.5; centre all nine = 4;
// (2,2) {4,5,7,8} = 6.
TEST(AveragePool2D, SameExcludesPadding) {
  auto out = RunOp(ir::OpKind::kAveragePool2D, {In({1, 3, 3, 1}, Iota(9))},
                   {1, 3, 3, 1}, PoolOpts(ir::Padding::kSame, 3, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 3, 3, 1}, {2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f, 6});
}

// 2x2 VALID stride 2 on 4x4 v = 4y + x: window means 2.5, 4.5, 10.5, 12.5;
// maxima 5, 7, 13, 15.
TEST(Pool2D, ValidStride2) {
  auto avg = RunOp(ir::OpKind::kAveragePool2D, {In({1, 4, 4, 1}, Iota(16))},
                   {1, 2, 2, 1}, PoolOpts(ir::Padding::kValid, 2, 2));
  ASSERT_TRUE(avg.ok()) << avg.status();
  ExpectNear(*avg, {1, 2, 2, 1}, {2.5f, 4.5f, 10.5f, 12.5f});
  auto max = RunOp(ir::OpKind::kMaxPool2D, {In({1, 4, 4, 1}, Iota(16))},
                   {1, 2, 2, 1}, PoolOpts(ir::Padding::kValid, 2, 2));
  ASSERT_TRUE(max.ok()) << max.status();
  ExpectNear(*max, {1, 2, 2, 1}, {5, 7, 13, 15});
}

// SAME max over all-negative values: padding is not a zero, so the window
// maxima stay negative. 2x2 stride 1 on v = -(1 + 2y + x) (2x2): total
// padding 1, after; (0,0) max{-1,-2,-3,-4} = -1, (0,1) {-2,-4} = -2,
// (1,0) {-3,-4} = -3, (1,1) -4.
TEST(MaxPool2D, PaddingIsNotZero) {
  auto out = RunOp(ir::OpKind::kMaxPool2D, {In({1, 2, 2, 1}, {-1, -2, -3, -4})},
                   {1, 2, 2, 1}, PoolOpts(ir::Padding::kSame, 2, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 2, 2, 1}, {-1, -2, -3, -4});
}

// Activations after pooling: RELU6 on maxima 5, 7, 13, 15 gives 5, 6, 6, 6;
// RELU_N1_TO_1 on averages 2.5.. gives 1.
TEST(Pool2D, Activations) {
  auto max =
      RunOp(ir::OpKind::kMaxPool2D, {In({1, 4, 4, 1}, Iota(16))}, {1, 2, 2, 1},
            PoolOpts(ir::Padding::kValid, 2, 2, ir::Activation::kRelu6));
  ASSERT_TRUE(max.ok()) << max.status();
  ExpectNear(*max, {1, 2, 2, 1}, {5, 6, 6, 6});
  auto avg = RunOp(
      ir::OpKind::kAveragePool2D, {In({1, 4, 4, 1}, Iota(16))}, {1, 2, 2, 1},
      PoolOpts(ir::Padding::kValid, 2, 2, ir::Activation::kReluN1To1));
  ASSERT_TRUE(avg.ok()) << avg.status();
  ExpectNear(*avg, {1, 2, 2, 1}, {1, 1, 1, 1});
}

// A NaN input is skipped by the maximum (std::max keeps the running value
// when compared with NaN, as in TFLite's reference kernel).
TEST(MaxPool2D, NaNIsSkipped) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = RunOp(ir::OpKind::kMaxPool2D, {In({1, 2, 2, 1}, {1, nan, 3, 2})},
                   {1, 1, 1, 1}, PoolOpts(ir::Padding::kValid, 2, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 1, 1, 1}, {3});
}

// Reference pooling: windows clipped to the image.
std::vector<float> RefPool(bool average, const std::vector<float>& x,
                           const std::vector<int64_t>& is, int fh, int fw,
                           int sh, int sw, ir::Padding padding,
                           std::vector<int64_t>* os) {
  const int64_t n = is[0], h = is[1], w = is[2], c = is[3];
  const Axis ay = Window(padding, h, fh, sh, 1);
  const Axis ax = Window(padding, w, fw, sw, 1);
  *os = {n, ay.out, ax.out, c};
  std::vector<float> out;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oy = 0; oy < ay.out; ++oy)
      for (int64_t ox = 0; ox < ax.out; ++ox)
        for (int64_t ch = 0; ch < c; ++ch) {
          double sum = 0, mx = -1e300;
          int count = 0;
          for (int64_t ky = 0; ky < fh; ++ky)
            for (int64_t kx = 0; kx < fw; ++kx) {
              const int64_t iy = oy * sh - ay.pad + ky;
              const int64_t ix = ox * sw - ax.pad + kx;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              const double v =
                  x[static_cast<size_t>(((b * h + iy) * w + ix) * c + ch)];
              sum += v;
              mx = std::max(mx, v);
              ++count;
            }
          out.push_back(static_cast<float>(average ? sum / count : mx));
        }
  return out;
}

TEST(Pool2D, SweepAgainstReference) {
  struct Case {
    std::vector<int64_t> is;
    int fh, fw, sh, sw;
    ir::Padding padding;
  } cases[] = {
      {{1, 7, 7, 256}, 7, 7, 1, 1, ir::Padding::kValid},  // global pool
      {{2, 9, 8, 19}, 3, 3, 2, 2, ir::Padding::kSame},
      {{1, 10, 11, 3}, 2, 3, 1, 2, ir::Padding::kValid},
      {{1, 5, 5, 40}, 4, 2, 3, 1, ir::Padding::kSame},
      {{3, 6, 6, 1}, 1, 1, 2, 2, ir::Padding::kSame},
  };
  uint32_t seed = 500;
  for (const Case& c : cases) {
    const auto x = Random(static_cast<size_t>(Count(c.is)), seed++, -5, 5);
    for (bool average : {true, false}) {
      std::vector<int64_t> os;
      const auto want =
          RefPool(average, x, c.is, c.fh, c.fw, c.sh, c.sw, c.padding, &os);
      ir::Pool2DOptions o;
      o.padding = c.padding;
      o.filter_height = c.fh;
      o.filter_width = c.fw;
      o.stride_h = c.sh;
      o.stride_w = c.sw;
      SCOPED_TRACE(::testing::Message() << (average ? "avg " : "max ")
                                        << ::testing::PrintToString(c.is));
      auto out =
          RunOp(average ? ir::OpKind::kAveragePool2D : ir::OpKind::kMaxPool2D,
                {In(c.is, x)}, os, o);
      ASSERT_TRUE(out.ok()) << out.status();
      ExpectNear(*out, os, want);
    }
  }
}

TEST(Pool2D, ZeroFilterIsAnError) {
  auto out =
      RunOp(ir::OpKind::kMaxPool2D, {In({1, 2, 2, 1}, std::vector<float>(4))},
            {1, 2, 2, 1}, PoolOpts(ir::Padding::kSame, 0, 1));
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("MAX_POOL_2D"), std::string::npos) << msg;
  EXPECT_NE(msg.find("filter_height"), std::string::npos) << msg;
}

TEST(Pool2D, RankMustBeFour) {
  auto out =
      RunOp(ir::OpKind::kAveragePool2D, {In({2, 2, 1}, std::vector<float>(4))},
            {2, 2, 1}, PoolOpts(ir::Padding::kSame, 2, 1));
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("'arg0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rank 4"), std::string::npos) << msg;
}

}  // namespace
}  // namespace qforge::testing::conv
