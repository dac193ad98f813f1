// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The report's error measures on values small enough to derive by hand.
#include "report/metrics.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace qforge::report {
namespace {

// scale 0.5, zero point 0, integers in [-4, 3]: representable [-2, 1.5].
QuantGrid SmallGrid() {
  QuantGrid g;
  g.scale = 0.5;
  g.zero_point = 0;
  g.qmin = -4;
  g.qmax = 3;
  return g;
}

TEST(MetricsTest, HandDerivedQuantizedTensor) {
  // f:  0.5  -1.0  2.0  10.0
  // q:  1    -2    3    3      (dequantized 0.5, -1.0, 1.5, 1.5)
  // e:  0     0   -0.5 -8.5
  const std::vector<float> f = {0.5f, -1.0f, 2.0f, 10.0f};
  const std::vector<int8_t> q = {1, -2, 3, 3};
  const QuantGrid g = SmallGrid();
  ErrorSums s;
  s.AddQuantized(f.data(), q.data(), 4, 0, g);
  const Metrics m = Finish(s, &g);
  EXPECT_EQ(m.count, 4u);
  // sum f^2 = 0.25 + 1 + 4 + 100 = 105.25; sum e^2 = 0.25 + 72.25 = 72.5.
  EXPECT_NEAR(m.sqnr_db, 10 * std::log10(105.25 / 72.5), 1e-12);
  EXPECT_NEAR(m.sqnr_db, 1.6188, 1e-4);
  EXPECT_DOUBLE_EQ(m.mse, 72.5 / 4);
  EXPECT_DOUBLE_EQ(m.max_abs_error, 8.5);
  // sum f q = 0.25 + 1 + 3 + 15 = 19.25; sum q^2 = 0.25 + 1 + 2.25 + 2.25.
  EXPECT_NEAR(m.cosine, 19.25 / std::sqrt(105.25 * 5.75), 1e-12);
  EXPECT_NEAR(m.rmse_over_scale, std::sqrt(72.5 / 4) / 0.5, 1e-12);
  // 2.0 and 10.0 lie above 1.5 + 0.25 with q at qmax: clipped. 0.5 is not.
  EXPECT_DOUBLE_EQ(m.clipped_fraction, 0.5);
  // Integers -2..3 seen: 6 of the 8 values of [-4, 3].
  EXPECT_DOUBLE_EQ(m.range_used, 0.75);
  EXPECT_DOUBLE_EQ(m.float_min, -1.0);
  EXPECT_DOUBLE_EQ(m.float_max, 10.0);
}

TEST(MetricsTest, MaskedSentinelsAreCountedAndLeftOut) {
  // Grid [-2, 1.5], width 3.5: a sentinel lies at or below
  // max(-2 - 3.5e6, -1e30) = -3500002, or at or above 3500001.5, whatever
  // the integer (a masked sum sits inside the grid, not at its clamp).
  const float lowest = std::numeric_limits<float>::lowest();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> f = {0.5f, lowest, -1e9f, -3500002.0f, -1e6f,
                                1e9f, lowest, -1.0f, -inf};
  const std::vector<int8_t> q = {1, -4, -4, -4, -4, 3, 0, -2, -4};
  // masked: 0.5 no; lowest, -1e9, -3500002 (the bound) yes; -1e6 no (a
  // clipped value within a million widths); 1e9 yes; lowest at q = 0 yes;
  // -1 no; -inf no (non-finite).
  const QuantGrid g = SmallGrid();
  ErrorSums s;
  s.AddQuantized(f.data(), q.data(), 9, 0, g);
  EXPECT_EQ(s.masked, 5u);
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.nonfinite, 1u);
  EXPECT_EQ(s.seen(), 9u);
  // What is left: 0.5 vs 0.5, -1e6 vs -2, -1 vs -1.
  ErrorSums left;
  const std::vector<float> lf = {0.5f, -1e6f, -1.0f};
  const std::vector<int8_t> lq = {1, -4, -2};
  left.AddQuantized(lf.data(), lq.data(), 3, 0, g);
  EXPECT_EQ(left.masked, 0u);
  EXPECT_EQ(s.sum_ff, left.sum_ff);
  EXPECT_EQ(s.sum_ee, left.sum_ee);
  EXPECT_EQ(s.clipped, left.clipped);
  EXPECT_EQ(s.f_min, left.f_min);
  const Metrics m = Finish(s, &g);
  EXPECT_EQ(m.masked, 5u);
  EXPECT_EQ(m.count, 3u);
  // Merged, the count adds up.
  ErrorSums twice = s;
  twice.Merge(s);
  EXPECT_EQ(twice.masked, 10u);
}

TEST(MetricsTest, AtTheEdgeWithinHalfAStepIsNotClipped) {
  // 1.7 rounds to 3 (1.5) and lies within half a step (0.25) of the top of
  // the range: rounding, not clipping. -2.3 is beyond -2 - 0.25.
  const std::vector<float> f = {1.7f, -2.3f};
  const std::vector<int8_t> q = {3, -4};
  const QuantGrid g = SmallGrid();
  ErrorSums s;
  s.AddQuantized(f.data(), q.data(), 2, 0, g);
  EXPECT_EQ(s.clipped, 1u);
}

TEST(MetricsTest, PureRoundingNoiseGivesRmseOverScaleOfOneOverSqrt12) {
  // Values spread evenly over many steps, rounded to the nearest step: the
  // error is uniform on [-scale/2, scale/2], whose RMS is scale/sqrt(12).
  QuantGrid g;
  g.scale = 0.1;
  g.zero_point = 3;
  std::vector<float> f;
  std::vector<int8_t> q;
  for (int i = 0; i < 100000; ++i) {
    const double x = -10.0 + 20.0 * (i + 0.5) / 100000;  // inside the range
    f.push_back(static_cast<float>(x));
    q.push_back(static_cast<int8_t>(std::lround(x / g.scale) + g.zero_point));
  }
  ErrorSums s;
  s.AddQuantized(f.data(), q.data(), static_cast<int64_t>(f.size()), 0, g);
  const Metrics m = Finish(s, &g);
  EXPECT_NEAR(m.rmse_over_scale, 1 / std::sqrt(12.0), 2e-3);
  EXPECT_EQ(m.clipped_fraction, 0.0);
  // 201 integers (-97..103) of 256.
  EXPECT_NEAR(m.range_used, 201.0 / 256.0, 1e-12);
}

TEST(MetricsTest, FloatComparisonAndNonFiniteValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> f = {3.0f, 4.0f, nan, 1.0f};
  const std::vector<float> g = {3.0f, 4.0f, 1.0f,
                                std::numeric_limits<float>::infinity()};
  ErrorSums s;
  s.AddFloat(f.data(), g.data(), 4, 0);
  const Metrics m = Finish(s, nullptr);
  EXPECT_EQ(m.count, 2u);
  EXPECT_EQ(m.nonfinite, 2u);
  EXPECT_TRUE(std::isinf(m.sqnr_db) && m.sqnr_db > 0);  // no error
  EXPECT_DOUBLE_EQ(m.cosine, 1.0);
  EXPECT_TRUE(std::isnan(m.rmse_over_scale));
  EXPECT_TRUE(std::isnan(m.clipped_fraction));
}

TEST(MetricsTest, SqnrConventions) {
  EXPECT_DOUBLE_EQ(SqnrDb(100.0, 1.0), 20.0);
  EXPECT_DOUBLE_EQ(SqnrDb(1.0, 1.0), 0.0);
  EXPECT_TRUE(std::isinf(SqnrDb(5.0, 0.0)) && SqnrDb(5.0, 0.0) > 0);
  EXPECT_TRUE(std::isinf(SqnrDb(0.0, 2.0)) && SqnrDb(0.0, 2.0) < 0);
  // An all-zero signal compared with all zeros: exact, cosine 1.
  ErrorSums s;
  const std::vector<float> z = {0.0f, 0.0f};
  s.AddFloat(z.data(), z.data(), 2, 0);
  EXPECT_DOUBLE_EQ(Finish(s, nullptr).cosine, 1.0);
}

TEST(MetricsTest, MergedSumsEqualOneAccumulation) {
  // Two samples accumulated separately and merged give the same measures
  // as one pass over both (up to floating-point summation order).
  const QuantGrid g = SmallGrid();
  const std::vector<float> f1 = {0.4f, -0.9f, 1.2f}, f2 = {-1.9f, 0.1f};
  const std::vector<int8_t> q1 = {1, -2, 2}, q2 = {-4, 0};
  ErrorSums a, b, all;
  a.AddQuantized(f1.data(), q1.data(), 3, 0, g);
  b.AddQuantized(f2.data(), q2.data(), 2, 0, g);
  a.Merge(b);
  const std::vector<float> f = {0.4f, -0.9f, 1.2f, -1.9f, 0.1f};
  const std::vector<int8_t> q = {1, -2, 2, -4, 0};
  all.AddQuantized(f.data(), q.data(), 5, 0, g);
  const Metrics x = Finish(a, &g), y = Finish(all, &g);
  EXPECT_NEAR(x.sqnr_db, y.sqnr_db, 1e-12);
  EXPECT_NEAR(x.mse, y.mse, 1e-15);
  EXPECT_EQ(x.range_used, y.range_used);  // -4..2: 7 of 8
  EXPECT_DOUBLE_EQ(x.range_used, 7.0 / 8.0);
  EXPECT_EQ(x.max_abs_error, y.max_abs_error);
}

TEST(MetricsTest, ChannelSqnrIsTheMedianOverChannelsWithSignal) {
  // Two positions x 3 channels (innermost), grid step 0.5:
  //   channel 0: f 1.5, 1.0  q 3, 2 -> dequantized 1.5, 1.0: no error, +inf
  //   channel 1: f 0.2, 0.1  q 0, 0 -> e -0.2, -0.1: SQNR 10 log10(.05/.05)
  //              = 0 dB
  //   channel 2: f 0,   0    q 0, 0 -> no signal: not counted
  // Median of {0 dB, +inf} (lower median) = 0 dB; worst channel 1.
  // Tensor SQNR = 10 log10((2.25 + 1 + .05) / .05) = 18.19 dB, so the rank
  // key is the channel median.
  const std::vector<float> f = {1.5f, 0.2f, 0.0f, 1.0f, 0.1f, 0.0f};
  const std::vector<int8_t> q = {3, 0, 0, 2, 0, 0};
  QuantGrid g = SmallGrid();
  ErrorSums a, b;
  a.AddQuantized(f.data(), q.data(), 3, 3, g);  // first position
  b.AddQuantized(f.data() + 3, q.data() + 3, 3, 3, g);
  a.Merge(b);
  const Metrics m = Finish(a, &g);
  EXPECT_NEAR(m.sqnr_db, 10 * std::log10(3.3 / 0.05), 1e-5);
  EXPECT_NEAR(m.channel_sqnr_db, 0.0, 1e-5);
  EXPECT_NEAR(m.worst_channel_sqnr_db, 0.0, 1e-5);
  EXPECT_EQ(m.worst_channel, 1);
  EXPECT_NEAR(m.rank_db, 0.0, 1e-5);
  // One channel only: no channel metric, the rank is the tensor SQNR.
  ErrorSums one;
  one.AddQuantized(f.data(), q.data(), 6, 1, g);
  const Metrics n = Finish(one, &g);
  EXPECT_TRUE(std::isnan(n.channel_sqnr_db));
  EXPECT_EQ(n.worst_channel, -1);
  EXPECT_EQ(n.rank_db, n.sqnr_db);
}

}  // namespace
}  // namespace qforge::report
