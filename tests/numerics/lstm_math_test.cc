// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// numerics/lstm_math.h (the element arithmetic of TFLite's integer LSTM):
// hand-derived values, exhaustive int16 sweeps of the gate activations
// against the real functions, and the layer normalization against its
// definition. Bit-exactness with LiteRT is checked on whole LSTMs by
// tests/runtime/kernels/integer_lstm_test.cc and interop_int_vs_litert.
#include "numerics/lstm_math.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/fixed_point.h"

namespace qforge::numerics::lstm {
namespace {

TEST(LstmMathTest, ActivationsHandDerived) {
  // sigmoid(0) = 0.5 = 16384 / 2^15; tanh(0) = 0 for every format.
  EXPECT_EQ(SigmoidQ3(0), 16384);
  for (int bits = 0; bits <= kMaxTanhIntegerBits; ++bits) {
    EXPECT_EQ(Tanh(bits, 0), 0) << bits;
  }
  // Saturation: sigmoid(-8) ~ 3.4e-4 (11 / 2^15), sigmoid(~8) ~ 1.
  EXPECT_LE(SigmoidQ3(-32768), 12);
  EXPECT_GE(SigmoidQ3(32767), 32756);
  // Out-of-range integer bits give 0 (refused by the kernels' prepare).
  EXPECT_EQ(Tanh(7, 1000), 0);
  EXPECT_EQ(Tanh(-1, 1000), 0);
}

// Every int16 input of every format, against double precision: the
// gemmlowp approximations stay within 6 (sigmoid) and 12 (tanh) Q0.15
// steps, as for the int16 LOGISTIC / TANH kernels (fixed_point_math_test).
TEST(LstmMathTest, ActivationsExhaustiveAgainstDouble) {
  int max_sigmoid = 0;
  for (int32_t r = -32768; r <= 32767; ++r) {
    const double want = 32768.0 / (1.0 + std::exp(-r / 4096.0));
    max_sigmoid = std::max(
        max_sigmoid,
        static_cast<int>(std::abs(SigmoidQ3(static_cast<int16_t>(r)) -
                                  std::min(32767.0, std::round(want)))));
  }
  EXPECT_LE(max_sigmoid, 6);
  for (int bits = 0; bits <= kMaxTanhIntegerBits; ++bits) {
    int max_tanh = 0;
    bool odd = true;
    for (int32_t r = -32767; r <= 32767; ++r) {
      const double x = r / static_cast<double>(1 << (15 - bits));
      const double want = std::round(std::tanh(x) * 32768.0);
      const int16_t got = Tanh(bits, static_cast<int16_t>(r));
      max_tanh = std::max(
          max_tanh, static_cast<int>(std::abs(
                        got - std::max(-32768.0, std::min(32767.0, want)))));
      odd = odd && Tanh(bits, static_cast<int16_t>(-r)) == -got;
    }
    EXPECT_LE(max_tanh, 12) << bits << " integer bits";
    EXPECT_TRUE(odd) << bits << " integer bits";
  }
}

TEST(LstmMathTest, MulShiftHandDerived) {
  // 0.5 * 0.5 in Q0.15: 16384 * 16384 / 2^15 = 8192.
  EXPECT_EQ(MulShift(16384, 16384, 15), 8192);
  // Rounding half away from zero: 3 * 1 / 2 = 1.5 -> 2; -1.5 -> -2.
  EXPECT_EQ(MulShift(3, 1, 1), 2);
  EXPECT_EQ(MulShift(-3, 1, 1), -2);
  // The one wrap-around: (-32768)^2 / 2^15 = 32768 -> -32768, as TFLite's
  // int16 cast.
  EXPECT_EQ(MulShift(-32768, -32768, 15), -32768);
  // The cell update's gate product: Q0.15 x Q0.15 into a 2^-12 cell is a
  // shift by 30 - 12 = 18: 32767 * 32767 / 2^18 = 4095.75 -> 4096.
  EXPECT_EQ(MulShift(32767, 32767, 18), 4096);
}

TEST(LstmMathTest, MulRequantizeSubtractsZeroPoint) {
  // Multiplier 2^30 with shift -14 is 2^-15: 16384 * 16384 / 2^15 = 8192,
  // saturated to 127; 256 * 128 / 2^15 = 1, minus zero point -4 -> 5.
  EXPECT_EQ(MulRequantize(16384, 16384, 1 << 30, -14, 0, Rounding::kSingle),
            127);
  EXPECT_EQ(MulRequantize(256, 128, 1 << 30, -14, -4, Rounding::kSingle), 5);
  EXPECT_EQ(MulRequantize(-256, 128, 1 << 30, -14, 4, Rounding::kSingle), -5);
  EXPECT_EQ(MulRequantize(-32768, 32767, 1 << 30, -14, 0, Rounding::kSingle),
            -128);
}

TEST(LstmMathTest, AddSatSaturates) {
  EXPECT_EQ(AddSat(30000, 30000), 32767);
  EXPECT_EQ(AddSat(-30000, -30000), -32768);
  EXPECT_EQ(AddSat(-5, 7), 2);
}

// A constant row has variance 0: the guard replaces it, every normalized
// value is 0 and the output is the bias alone, /1024 rounded half away from
// zero, times the coefficient scale (here 2^-12, whose multiplier with the
// kernel's +12 shift is exactly 1).
TEST(LstmMathTest, LayerNormConstantRowGivesBias) {
  int32_t a = 0;
  int b = 0;
  QuantizeMultiplier(std::pow(2.0, -12), &a, &b);
  ASSERT_EQ(a, 1 << 30);
  ASSERT_EQ(b, -11);
  const int16_t in[4] = {700, 700, 700, 700};
  const int16_t w[4] = {1000, 2000, 3000, 4000};
  const int32_t bias[4] = {1536, -1536, 1535, 0};
  int16_t out[4];
  LayerNormRow(in, w, bias, a, b, /*variance_limit=*/1, 4, out,
               Rounding::kSingle);
  EXPECT_EQ(out[0], 2);   // 1.5 -> 2
  EXPECT_EQ(out[1], -2);  // -1.5 -> -2
  EXPECT_EQ(out[2], 1);   // 1.499 -> 1
  EXPECT_EQ(out[3], 0);
}

// A varied row against the definition: y = (x - mean) / std * w * s_w (in
// output units of the gate's Q3.12 format after the coefficient scale).
TEST(LstmMathTest, LayerNormMatchesDefinition) {
  const int n = 8;
  const int16_t in[n] = {-3000, -1200, -5, 40, 900, 1800, 2500, 4000};
  // Coefficients 1.0 at scale 2^-14 (raw 16384). Inside, the normalized
  // value is 1024 z; times the coefficient and / 1024 gives 16384 z; the
  // coefficient scale with the +12 shift is 2^-14 * 2^12: out = 4096 z,
  // z in Q3.12.
  const int16_t w[n] = {16384, 16384, 16384, 16384, 16384, 16384, 16384, 16384};
  const int32_t bias[n] = {0, 0, 0, 0, 0, 0, 0, 0};
  int32_t a = 0;
  int b = 0;
  QuantizeMultiplier(std::pow(2.0, -14), &a, &b);
  int16_t out[n];
  LayerNormRow(in, w, bias, a, b, 1, n, out, Rounding::kDouble);
  double mean = 0, var = 0;
  for (int16_t v : in) mean += v;
  mean /= n;
  for (int16_t v : in) var += (v - mean) * (v - mean);
  var /= n;
  for (int j = 0; j < n; ++j) {
    const double z = (in[j] - mean) / std::sqrt(var);
    EXPECT_NEAR(out[j], z * 4096.0, 4.0) << j;
  }
}

}  // namespace
}  // namespace qforge::numerics::lstm
