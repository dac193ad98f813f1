// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// numerics/fixed_point_math (gemmlowp's fixed-point exp / logistic / tanh):
// exhaustive over every int16 input against the real functions in double,
// sampled for int32, plus hand-derived values of the building blocks.
// (Bit-exactness with TFLite is checked by the int16 LOGISTIC / TANH kernel
// comparisons against LiteRT; these tests bound the approximation error
// and pin the primitives.)
#include "numerics/fixed_point_math.h"

#include <cmath>
#include <cstdint>
#include <random>

#include "gtest/gtest.h"

namespace qforge::numerics::fixed {
namespace {

TEST(FixedPointMathTest, PrimitivesHandDerived) {
  using F0 = Fixed<int16_t, 0>;
  using F2 = Fixed<int16_t, 2>;
  using F3 = Fixed<int16_t, 3>;
  // Q0.31 constants round to Q0.15: 2^30 -> 2^14; exp(-1/8) =
  // 1895147668 / 2^16 = 28917.5 -> 28918 (half away from zero).
  EXPECT_EQ(Constant<F0>(1 << 30).raw, 16384);
  EXPECT_EQ(Constant<F0>(1895147668).raw, 28918);
  // One(): the largest Q0.15 value; 1.0 in Q2.13 is 8192.
  EXPECT_EQ(F0::One().raw, 32767);
  EXPECT_EQ(F2::One().raw, 8192);
  // 0.5 * 0.5 = 0.25 in Q0.15.
  EXPECT_EQ((F0::FromRaw(16384) * F0::FromRaw(16384)).raw, 8192);
  // Rescale Q3.12 -> Q0.15 is a saturating x8: 1000 -> 8000, 5000 -> max.
  EXPECT_EQ(Rescale<0>(F3::FromRaw(1000)).raw, 8000);
  EXPECT_EQ(Rescale<0>(F3::FromRaw(5000)).raw, 32767);
  EXPECT_EQ(Rescale<0>(F3::FromRaw(-5000)).raw, -32768);
  // Rescale Q0.15 -> Q3.12 divides by 8 with rounding: 12 -> 1.5 -> 2.
  EXPECT_EQ(Rescale<3>(F0::FromRaw(12)).raw, 2);
  // RoundingHalfSum: (3 + 4) / 2 = 3.5 -> 4; (-3 - 4) / 2 -> -4.
  EXPECT_EQ(RoundingHalfSum(F0::FromRaw(3), F0::FromRaw(4)).raw, 4);
  EXPECT_EQ(RoundingHalfSum(F0::FromRaw(-3), F0::FromRaw(-4)).raw, -4);
  // Wrapping addition, as gemmlowp's int16 Add.
  EXPECT_EQ((F0::FromRaw(32767) + F0::FromRaw(1)).raw, -32768);
  // exp(0) = One; logistic(0) = 0.5; tanh(0) = 0.
  EXPECT_EQ(ExpOnNegativeValues(F3::FromRaw(0)).raw, 32767);
  EXPECT_EQ(Logistic(F3::FromRaw(0)).raw, 16384);
  EXPECT_EQ(Tanh(F3::FromRaw(0)).raw, 0);
  EXPECT_EQ(Logistic(Fixed<int32_t, 4>::FromRaw(0)).raw, 1 << 30);
}

TEST(FixedPointMathTest, Int16ExhaustiveAgainstDouble) {
  using F3 = Fixed<int16_t, 3>;
  int max_exp = 0, max_log = 0, max_tanh = 0;
  for (int32_t r = -32768; r <= 32767; ++r) {
    const double x = r / 4096.0;
    const F3 f = F3::FromRaw(static_cast<int16_t>(r));
    if (r <= 0) {
      const double e = std::min(32767.0, std::round(std::exp(x) * 32768));
      max_exp = std::max<int>(
          max_exp, std::abs(ExpOnNegativeValues(f).raw - static_cast<int>(e)));
    }
    const double l = std::min(32767.0, std::round(32768 / (1 + std::exp(-x))));
    max_log =
        std::max<int>(max_log, std::abs(Logistic(f).raw - static_cast<int>(l)));
    const double t =
        std::max(-32768.0, std::min(32767.0, std::round(std::tanh(x) * 32768)));
    max_tanh =
        std::max<int>(max_tanh, std::abs(Tanh(f).raw - static_cast<int>(t)));
  }
  EXPECT_LE(max_exp, 4);
  EXPECT_LE(max_log, 6);
  EXPECT_LE(max_tanh, 12);
}

TEST(FixedPointMathTest, Int32SampledAgainstDouble) {
  using F4 = Fixed<int32_t, 4>;  // Q4.27, as TFLite's int8 fixed-point paths
  std::mt19937 rng(3);
  std::uniform_int_distribution<int32_t> d(std::numeric_limits<int32_t>::min(),
                                           std::numeric_limits<int32_t>::max());
  double max_log = 0, max_tanh = 0, max_exp = 0;
  for (int i = 0; i < 200000; ++i) {
    const int32_t r = d(rng);
    const double x = r / 134217728.0;  // 2^27
    const F4 f = F4::FromRaw(r);
    max_log = std::max(max_log, std::abs(Logistic(f).raw / 2147483648.0 -
                                         1 / (1 + std::exp(-x))));
    max_tanh =
        std::max(max_tanh, std::abs(Tanh(f).raw / 2147483648.0 - std::tanh(x)));
    if (r <= 0) {
      max_exp = std::max(
          max_exp,
          std::abs(ExpOnNegativeValues(f).raw / 2147483648.0 - std::exp(x)));
    }
  }
  EXPECT_LT(max_log, 1e-6);
  EXPECT_LT(max_tanh, 1e-6);
  EXPECT_LT(max_exp, 1e-6);
}

}  // namespace
}  // namespace qforge::numerics::fixed
