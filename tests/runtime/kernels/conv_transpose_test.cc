// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV: hand-derived scatter results for VALID stride 2 and SAME
// stride 1 (TFLite's padding from the output size), bias and activation, a
// run-time output_shape, errors, and a sweep against a direct scatter
// reference (the loop of TFLite's reference kernel, in double).
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

ir::TransposeConvOptions TransposeConvOpts(
    ir::Padding padding, int stride,
    ir::Activation act = ir::Activation::kNone) {
  ir::TransposeConvOptions o;
  o.padding = padding;
  o.stride_h = o.stride_w = stride;
  o.activation = act;
  return o;
}

// Builds output_shape (constant or input), weights, input, optional bias.
absl::StatusOr<ir::HostTensor> RunTransposeConv(
    const std::vector<int32_t>& out_shape, bool shape_constant,
    const std::vector<int64_t>& ws, const std::vector<float>& w,
    const std::vector<int64_t>& is, const std::vector<float>& x,
    const std::vector<float>* bias, const ir::TransposeConvOptions& o,
    int threads = 1) {
  OpModel m;
  std::vector<ir::HostTensor> feeds;
  int s;
  if (shape_constant) {
    s = m.Constant<int32_t>({4}, out_shape, "output_shape");
  } else {
    s = m.Input(DT::kInt32, {4}, "output_shape");
    feeds.push_back(MakeTensor<int32_t>({4}, out_shape));
  }
  const int wt = m.Constant<float>(Shape32(ws), w, "weights");
  const int xt = m.Input(DT::kFloat32, Shape32(is), "input");
  feeds.push_back(MakeTensor<float>(is, x));
  const int bt = bias == nullptr
                     ? -1
                     : m.Constant<float>({static_cast<int32_t>(bias->size())},
                                         *bias, "bias");
  const int y = m.Output(DT::kFloat32, out_shape, "out");
  m.Op(ir::OpKind::kTransposeConv, {s, wt, xt, bt}, {y}, o);
  auto out = m.Run(feeds, threads);
  if (!out.ok()) return out.status();
  return std::move((*out)[0]);
}

// VALID stride 2, 2x2 ones filter, 2x2 input [1,2,3,4] -> 4x4. Padding
// from the output: conv_out = (4-2+2)/2 = 2, total (2-1)*2+2-4 = 0. Each
// input pixel fills its own 2x2 block: out(y,x) = in(y/2, x/2).
TEST(TransposeConv, ValidStride2Blocks) {
  auto out = RunTransposeConv({1, 4, 4, 1}, true, {1, 2, 2, 1}, {1, 1, 1, 1},
                              {1, 2, 2, 1}, {1, 2, 3, 4}, nullptr,
                              TransposeConvOpts(ir::Padding::kValid, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 4, 4, 1},
             {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

// SAME stride 1, 3x3 filter w(ky,kx) = 3ky + kx, input [1,2,3,4] (2x2),
// output 2x2: conv_out 2, total (2-1)+3-2 = 2 -> pad 1. Input (iy,ix)
// reaches output (iy-1+ky, ix-1+kx), so
// out(oy,ox) = sum in(iy,ix) * w(oy+1-iy, ox+1-ix):
// (0,0): 1*w(1,1) + 2*w(1,0) + 3*w(0,1) + 4*w(0,0) = 4 + 6 + 3 + 0 = 13
// (0,1): 1*w(1,2) + 2*w(1,1) + 3*w(0,2) + 4*w(0,1) = 5 + 8 + 6 + 4 = 23
// (1,0): 1*w(2,1) + 2*w(2,0) + 3*w(1,1) + 4*w(1,0) = 7 + 12 + 12 + 12 = 43
// (1,1): 1*w(2,2) + 2*w(2,1) + 3*w(1,2) + 4*w(1,1) = 8 + 14 + 15 + 16 = 53
// With bias 1: 14, 24, 44, 54; RELU6 then clamps all four to 6.
TEST(TransposeConv, SameStride1) {
  const std::vector<float> w = Iota(9);
  const std::vector<float> bias = {1};
  auto out = RunTransposeConv({1, 2, 2, 1}, true, {1, 3, 3, 1}, w, {1, 2, 2, 1},
                              {1, 2, 3, 4}, &bias,
                              TransposeConvOpts(ir::Padding::kSame, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 2, 2, 1}, {14, 24, 44, 54});
  auto clamped = RunTransposeConv(
      {1, 2, 2, 1}, true, {1, 3, 3, 1}, w, {1, 2, 2, 1}, {1, 2, 3, 4}, &bias,
      TransposeConvOpts(ir::Padding::kSame, 1, ir::Activation::kRelu6));
  ASSERT_TRUE(clamped.ok()) << clamped.status();
  ExpectNear(*clamped, {1, 2, 2, 1}, {6, 6, 6, 6});
}

// The scatter of TFLite's reference kernel, accumulated in double.
std::vector<float> RefTransposeConv(const std::vector<int32_t>& os,
                                    const std::vector<int64_t>& ws,
                                    const std::vector<float>& w,
                                    const std::vector<int64_t>& is,
                                    const std::vector<float>& x,
                                    const std::vector<float>* bias,
                                    ir::Padding padding, int stride) {
  const int64_t n = is[0], h = is[1], wd = is[2], c = is[3];
  const int64_t o = ws[0], kh = ws[1], kw = ws[2];
  const int64_t oh = os[1], ow = os[2];
  const int64_t pad_h = Window(padding, oh, kh, stride, 1).pad;
  const int64_t pad_w = Window(padding, ow, kw, stride, 1).pad;
  std::vector<double> acc(static_cast<size_t>(n * oh * ow * o), 0.0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t iy = 0; iy < h; ++iy)
      for (int64_t ix = 0; ix < wd; ++ix)
        for (int64_t ic = 0; ic < c; ++ic)
          for (int64_t ky = 0; ky < kh; ++ky)
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t oy = iy * stride - pad_h + ky;
              const int64_t ox = ix * stride - pad_w + kx;
              if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
              for (int64_t oc = 0; oc < o; ++oc) {
                acc[static_cast<size_t>(((b * oh + oy) * ow + ox) * o + oc)] +=
                    double{x[static_cast<size_t>(((b * h + iy) * wd + ix) * c +
                                                 ic)]} *
                    w[static_cast<size_t>(((oc * kh + ky) * kw + kx) * c + ic)];
              }
            }
  std::vector<float> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const double b =
        bias == nullptr ? 0.0 : (*bias)[i % static_cast<size_t>(o)];
    out[i] = static_cast<float>(acc[i] + b);
  }
  return out;
}

TEST(TransposeConv, SweepAgainstReference) {
  struct Case {
    std::vector<int32_t> os;
    std::vector<int64_t> ws, is;
    ir::Padding padding;
    int stride;
  } cases[] = {
      {{1, 8, 8, 5}, {5, 3, 3, 4}, {1, 4, 4, 4}, ir::Padding::kSame, 2},
      {{2, 9, 9, 3}, {3, 3, 3, 6}, {2, 4, 4, 6}, ir::Padding::kValid, 2},
      {{1, 7, 6, 17}, {17, 2, 2, 3}, {1, 7, 6, 3}, ir::Padding::kSame, 1},
      {{1, 12, 12, 8}, {8, 4, 4, 16}, {1, 4, 4, 16}, ir::Padding::kSame, 3},
      {{1, 5, 5, 2}, {2, 5, 5, 1}, {1, 1, 1, 1}, ir::Padding::kValid, 1},
  };
  uint32_t seed = 400;
  for (const Case& c : cases) {
    const auto w = Random(static_cast<size_t>(Count(c.ws)), seed++);
    const auto x = Random(static_cast<size_t>(Count(c.is)), seed++);
    const auto b = Random(static_cast<size_t>(c.ws[0]), seed++);
    const auto want =
        RefTransposeConv(c.os, c.ws, w, c.is, x, &b, c.padding, c.stride);
    SCOPED_TRACE(::testing::Message()
                 << "output " << ::testing::PrintToString(c.os) << " weights "
                 << ::testing::PrintToString(c.ws));
    auto out = RunTransposeConv(c.os, true, c.ws, w, c.is, x, &b,
                                TransposeConvOpts(c.padding, c.stride));
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(*out, std::vector<int64_t>(c.os.begin(), c.os.end()), want);
  }
}

// output_shape fed at run time: the output shape comes from its values,
// not from the shape the model declares.
TEST(TransposeConv, RunTimeOutputShape) {
  auto out = RunTransposeConv({1, 4, 4, 1}, false, {1, 2, 2, 1}, {1, 1, 1, 1},
                              {1, 2, 2, 1}, {1, 2, 3, 4}, nullptr,
                              TransposeConvOpts(ir::Padding::kValid, 2));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 4, 4, 1},
             {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST(TransposeConv, ChannelMismatchNamesTensors) {
  auto out =
      RunTransposeConv({1, 4, 4, 1}, true, {1, 2, 2, 3}, std::vector<float>(12),
                       {1, 2, 2, 2}, std::vector<float>(8), nullptr,
                       TransposeConvOpts(ir::Padding::kValid, 2));
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("weights 'weights'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("input 'input'"), std::string::npos) << msg;
}

TEST(TransposeConv, OutputDepthMustMatchWeights) {
  auto out =
      RunTransposeConv({1, 4, 4, 2}, true, {1, 2, 2, 1}, std::vector<float>(4),
                       {1, 2, 2, 1}, std::vector<float>(4), nullptr,
                       TransposeConvOpts(ir::Padding::kValid, 2));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("output_shape"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge::testing::conv
