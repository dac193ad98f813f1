// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Parameter choice: hand-derived cases (TFLite's ChooseQuantizationParams
// rule) and properties over many random and degenerate ranges.
#include "numerics/quant_params.h"

#include <cmath>
#include <limits>
#include <random>

#include "gtest/gtest.h"

namespace qforge::numerics {
namespace {

TEST(QuantParamsTest, HandDerivedAsymmetric) {
  // [0, 1] on int8: scale 1/255; 0.0 is qmin.
  QuantParams p = ChooseAsymmetric(0.0f, 1.0f, -128, 127);
  EXPECT_FLOAT_EQ(p.scale, 1.0f / 255);
  EXPECT_EQ(p.zero_point, -128);
  // [-1, 1]: scale 2/255; zero point from the max end (smaller error):
  // 127 - 1 / (2/255) = -0.5, rounded away from zero -> -1.
  p = ChooseAsymmetric(-1.0f, 1.0f, -128, 127);
  EXPECT_FLOAT_EQ(p.scale, 2.0f / 255);
  EXPECT_EQ(p.zero_point, -1);
  // A range without 0 is widened to contain it: [2, 6] -> [0, 6].
  p = ChooseAsymmetric(2.0f, 6.0f, -128, 127);
  EXPECT_FLOAT_EQ(p.scale, 6.0f / 255);
  EXPECT_EQ(p.zero_point, -128);
  // All negative: [-3, -1] -> [-3, 0], zero at qmax.
  p = ChooseAsymmetric(-3.0f, -1.0f, -128, 127);
  EXPECT_FLOAT_EQ(p.scale, 3.0f / 255);
  EXPECT_EQ(p.zero_point, 127);
}

TEST(QuantParamsTest, DegenerateRangesGiveUsableScales) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (auto [lo, hi] : std::vector<std::pair<float, float>>{
           {0, 0},
           {5, 5},
           {-5, -5},
           {nan, nan},
           {-inf, inf},
           {nan, 1},
           {std::numeric_limits<float>::lowest(),
            std::numeric_limits<float>::max()},
           {1e-45f, 1e-45f}}) {
    const QuantParams p = ChooseAsymmetric(lo, hi, -128, 127);
    EXPECT_TRUE(std::isfinite(p.scale) && p.scale > 0) << lo << " " << hi;
    EXPECT_TRUE(std::isfinite(1.0f / p.scale)) << lo << " " << hi;
    EXPECT_GE(p.zero_point, -128);
    EXPECT_LE(p.zero_point, 127);
  }
  for (float a : {0.0f, -0.0f, nan, inf, 1e-45f}) {
    const QuantParams p = ChooseSymmetric(a, 127);
    EXPECT_TRUE(std::isfinite(p.scale) && p.scale > 0) << a;
    EXPECT_EQ(p.zero_point, 0);
  }
}

TEST(QuantParamsTest, ZeroIsExactAndRangeIsCovered) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  for (int i = 0; i < 100000; ++i) {
    float lo = u(rng), hi = u(rng);
    if (lo > hi) std::swap(lo, hi);
    for (auto [qmin, qmax] :
         std::vector<std::pair<int, int>>{{-128, 127}, {0, 255}}) {
      const QuantParams p = ChooseAsymmetric(lo, hi, qmin, qmax);
      // 0.0 maps to an integer exactly (zero padding stays exact).
      EXPECT_EQ(DequantizeValue(p.zero_point, p), 0.0f);
      // The (widened) range is representable to within one step.
      const float wlo = std::min(lo, 0.0f), whi = std::max(hi, 0.0f);
      EXPECT_LE(DequantizeValue(qmin, p), wlo + p.scale);
      EXPECT_GE(DequantizeValue(qmax, p), whi - p.scale);
    }
  }
}

TEST(QuantParamsTest, QuantizeValueRoundsAwayFromZeroAndClamps) {
  const QuantParams p{0.5f, 0};
  EXPECT_EQ(QuantizeValue(0.25f, p, -128, 127), 1);    // 0.5 -> 1
  EXPECT_EQ(QuantizeValue(-0.25f, p, -128, 127), -1);  // -0.5 -> -1
  EXPECT_EQ(QuantizeValue(1000.0f, p, -128, 127), 127);
  EXPECT_EQ(QuantizeValue(-1000.0f, p, -127, 127), -127);
  // Every int8 value survives a dequantize/quantize round trip.
  const QuantParams q{0.0371f, -7};
  for (int v = -128; v <= 127; ++v) {
    EXPECT_EQ(QuantizeValue(DequantizeValue(v, q), q, -128, 127), v);
  }
}

}  // namespace
}  // namespace qforge::numerics
