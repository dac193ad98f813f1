// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_3D (float): a hand-derived case, then random shapes against a
// reference written here in the most literal form (double precision, seven
// nested loops over NDHWC input and DHWIO filter; SAME padding puts
// floor(total / 2) before, as TFLite's ComputePaddingWithOffset does).
// Tolerance |a - b| <= 1e-4 * max(1, |b|); threads 1 and 4 must agree
// bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

struct Case {
  const char* name;
  int n, d, h, w, c;  // input
  int kd, kh, kw, k;  // filter (k output channels)
  int sd, sh, sw;     // strides
  int dd, dh, dw;     // dilations
  ir::Padding padding;
  bool bias;
  ir::Activation act;
};

// Output size and padding before, per axis.
void Axis(int in, int filter, int stride, int dilation, ir::Padding p, int* out,
          int* pad) {
  const int eff = (filter - 1) * dilation + 1;
  *out = p == ir::Padding::kSame ? (in + stride - 1) / stride
                                 : (in - eff + stride) / stride;
  *pad = std::max(0, ((*out - 1) * stride + eff - in) / 2);
  if (p == ir::Padding::kValid) *pad = 0;
}

std::vector<double> Reference(const Case& c, const std::vector<float>& x,
                              const std::vector<float>& f,
                              const std::vector<float>& b, int* od, int* oh,
                              int* ow) {
  int pd, ph, pw;
  Axis(c.d, c.kd, c.sd, c.dd, c.padding, od, &pd);
  Axis(c.h, c.kh, c.sh, c.dh, c.padding, oh, &ph);
  Axis(c.w, c.kw, c.sw, c.dw, c.padding, ow, &pw);
  std::vector<double> y;
  for (int n = 0; n < c.n; ++n)
    for (int z = 0; z < *od; ++z)
      for (int r = 0; r < *oh; ++r)
        for (int q = 0; q < *ow; ++q)
          for (int k = 0; k < c.k; ++k) {
            double s = c.bias ? b[k] : 0.0;
            for (int i = 0; i < c.kd; ++i)
              for (int j = 0; j < c.kh; ++j)
                for (int l = 0; l < c.kw; ++l)
                  for (int ci = 0; ci < c.c; ++ci) {
                    const int zi = z * c.sd - pd + i * c.dd;
                    const int ri = r * c.sh - ph + j * c.dh;
                    const int qi = q * c.sw - pw + l * c.dw;
                    if (zi < 0 || zi >= c.d || ri < 0 || ri >= c.h || qi < 0 ||
                        qi >= c.w)
                      continue;
                    const double xv =
                        x[(((n * c.d + zi) * c.h + ri) * c.w + qi) * c.c + ci];
                    const double fv =
                        f[(((i * c.kh + j) * c.kw + l) * c.c + ci) * c.k + k];
                    s += xv * fv;
                  }
            if (c.act == ir::Activation::kRelu) s = std::max(0.0, s);
            if (c.act == ir::Activation::kRelu6)
              s = std::min(6.0, std::max(0.0, s));
            y.push_back(s);
          }
  return y;
}

absl::StatusOr<ir::HostTensor> RunConv3D(const Case& c,
                                         const std::vector<float>& x,
                                         const std::vector<float>& f,
                                         const std::vector<float>& b,
                                         int threads) {
  OpModel m;
  const int in = m.Input(ir::DataType::kFloat32, {c.n, c.d, c.h, c.w, c.c});
  const int filter = m.Constant<float>({c.kd, c.kh, c.kw, c.c, c.k}, f);
  const int bias = c.bias ? m.Constant<float>({c.k}, b) : -1;
  const int out = m.Output(ir::DataType::kFloat32, {-1, -1, -1, -1, -1});
  ir::Conv3DOptions opts;
  opts.padding = c.padding;
  opts.stride_d = c.sd;
  opts.stride_h = c.sh;
  opts.stride_w = c.sw;
  opts.dilation_d = c.dd;
  opts.dilation_h = c.dh;
  opts.dilation_w = c.dw;
  opts.activation = c.act;
  m.Op(ir::OpKind::kConv3D, {in, filter, bias}, {out}, opts);
  auto y = m.Run({MakeTensor<float>({c.n, c.d, c.h, c.w, c.c}, x)}, threads);
  if (!y.ok()) return y.status();
  return (*y)[0];
}

TEST(Conv3DTest, HandDerived) {
  // Input 1x2x2x2x1 = 1..8, filter 2x2x2x1x1 of ones, VALID: one output,
  // 1 + 2 + ... + 8 = 36. With bias 0.5 and RELU6: min(36.5, 6) = 6.
  std::vector<float> x(8);
  for (int i = 0; i < 8; ++i) x[static_cast<size_t>(i)] = i + 1.f;
  const std::vector<float> ones(8, 1.f);
  Case c = {"hand",
            1,
            2,
            2,
            2,
            1,
            2,
            2,
            2,
            1,
            1,
            1,
            1,
            1,
            1,
            1,
            ir::Padding::kValid,
            false,
            ir::Activation::kNone};
  auto y = RunConv3D(c, x, ones, {}, 1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (std::vector<int64_t>{1, 1, 1, 1, 1}));
  EXPECT_EQ(Values<float>(*y), std::vector<float>{36.f});
  c.bias = true;
  c.act = ir::Activation::kRelu6;
  y = RunConv3D(c, x, ones, {0.5f}, 1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Values<float>(*y), std::vector<float>{6.f});
  // SAME with stride 1: 2x2x2 outputs; the last corner (1, 1, 1) sees only
  // input 8 (the padding goes after), the first sees all eight (36).
  c = {"same",
       1,
       2,
       2,
       2,
       1,
       2,
       2,
       2,
       1,
       1,
       1,
       1,
       1,
       1,
       1,
       ir::Padding::kSame,
       false,
       ir::Activation::kNone};
  y = RunConv3D(c, x, ones, {}, 1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (std::vector<int64_t>{1, 2, 2, 2, 1}));
  const std::vector<float> got = Values<float>(*y);
  EXPECT_EQ(got.front(), 36.f);
  EXPECT_EQ(got.back(), 8.f);
}

TEST(Conv3DTest, MatchesReference) {
  const Case cases[] = {
      {"valid", 1, 4, 5, 6, 3, 2, 3, 2, 4, 1, 1, 1, 1, 1, 1,
       ir::Padding::kValid, true, ir::Activation::kNone},
      {"same strided", 2, 5, 6, 7, 2, 3, 3, 3, 5, 2, 2, 3, 1, 1, 1,
       ir::Padding::kSame, true, ir::Activation::kRelu},
      {"dilated", 1, 6, 7, 5, 3, 2, 2, 3, 2, 1, 2, 1, 2, 1, 2,
       ir::Padding::kSame, false, ir::Activation::kNone},
      {"relu6 valid stride", 1, 7, 6, 6, 4, 3, 2, 2, 6, 2, 1, 2, 1, 2, 1,
       ir::Padding::kValid, true, ir::Activation::kRelu6},
      {"bigger (parallel)", 2, 8, 16, 16, 8, 3, 3, 3, 16, 1, 1, 1, 1, 1, 1,
       ir::Padding::kSame, true, ir::Activation::kNone},
  };
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (float& e : v) e = dist(rng);
    return v;
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto x = random(static_cast<size_t>(c.n * c.d * c.h * c.w * c.c));
    const auto f = random(static_cast<size_t>(c.kd * c.kh * c.kw * c.c * c.k));
    const auto b = random(static_cast<size_t>(c.k));
    int od, oh, ow;
    const std::vector<double> want = Reference(c, x, f, b, &od, &oh, &ow);
    std::vector<float> first;
    for (int threads : {1, 4}) {
      auto y = RunConv3D(c, x, f, b, threads);
      ASSERT_TRUE(y.ok()) << y.status();
      EXPECT_EQ(y->shape(), (std::vector<int64_t>{c.n, od, oh, ow, c.k}));
      const std::vector<float> got = Values<float>(*y);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_NEAR(got[i], want[i], 1e-4 * std::max(1.0, std::fabs(want[i])))
            << i;
      }
      if (first.empty()) {
        first = got;
      } else {
        EXPECT_EQ(first, got) << "thread count changed the result";
      }
    }
  }
}

TEST(Conv3DTest, RejectsChannelMismatch) {
  Case c = {"bad",
            1,
            2,
            2,
            2,
            2,
            1,
            1,
            1,
            1,
            1,
            1,
            1,
            1,
            1,
            1,
            ir::Padding::kValid,
            false,
            ir::Activation::kNone};
  OpModel m;
  const int in = m.Input(ir::DataType::kFloat32, {1, 2, 2, 2, 2});
  const int filter = m.Constant<float>({1, 1, 1, 3, 1}, {1, 1, 1});
  const int out = m.Output(ir::DataType::kFloat32, {1, 2, 2, 2, 1});
  ir::Conv3DOptions opts;
  opts.padding = c.padding;
  opts.stride_d = opts.stride_h = opts.stride_w = 1;
  m.Op(ir::OpKind::kConv3D, {in, filter}, {out}, opts);
  auto y = m.Run({MakeTensor<float>({1, 2, 2, 2, 2}, std::vector<float>(16))});
  EXPECT_EQ(y.status().code(), absl::StatusCode::kInvalidArgument)
      << y.status();
}

}  // namespace
}  // namespace qforge
