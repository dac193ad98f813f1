// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// numerics/fixed_point: every function is checked exhaustively over the
// int8 range (and int8 differences, [-255, 255]) against an independent
// reference written here with exact 128-bit integer arithmetic, for edge
// multipliers (0, 1, 2^30, 2^30 + 1, 2^31 - 1) and shifts [-31, +7], plus
// hand-derived cases whose arithmetic is spelled out in the comments.
#include "numerics/fixed_point.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace qforge::numerics {
namespace {

using int128 = __int128;

constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();

// floor(n / d) for d > 0.
int128 FloorDiv(int128 n, int128 d) {
  int128 q = n / d;
  if ((n % d) != 0 && n < 0) --q;
  return q;
}

// round(n / 2^31) with ties towards +infinity = floor((n + 2^30) / 2^31).
int64_t RoundHalfUpBy2Pow31(int128 n) {
  return static_cast<int64_t>(FloorDiv(n + (int128{1} << 30), int128{1} << 31));
}

// Reference SRDHM: round(a * b / 2^31), ties up, saturated to int32.
int32_t RefSrdhm(int32_t a, int32_t b) {
  const int64_t r = RoundHalfUpBy2Pow31(int128{a} * b);
  return r > kMax32 ? kMax32 : static_cast<int32_t>(r);
}

// Reference rounding division: round(x / 2^e), ties away from zero.
int32_t RefRdbpot(int32_t x, int e) {
  if (e == 0) return x;
  const int128 mag = x < 0 ? -int128{x} : int128{x};
  const int128 q = (mag + (int128{1} << (e - 1))) >> e;
  return static_cast<int32_t>(x < 0 ? -q : q);
}

// Reference double-rounding MBQM: x * 2^left exactly (callers keep it in
// int32), then RefSrdhm, then RefRdbpot.
int32_t RefMbqm32(int32_t x, int32_t m, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const int128 shifted = int128{x} * (int128{1} << left);
  EXPECT_LE(shifted, kMax32);
  EXPECT_GE(shifted, kMin32);
  return RefRdbpot(RefSrdhm(static_cast<int32_t>(shifted), m), right);
}

// The single exact rounding x * m * 2^(shift - 31), ties up (what
// TFLITE_SINGLE_ROUNDING computes); the double-rounding form may differ
// from it by at most 1.
int64_t ExactSingleRound(int64_t x, int32_t m, int shift) {
  const int total = 31 - shift;  // in [24, 62]
  return static_cast<int64_t>(
      FloorDiv(int128{x} * m + (int128{1} << (total - 1)), int128{1} << total));
}

std::vector<int32_t> EdgeMultipliers() {
  std::vector<int32_t> m = {
      0,          1,          2,          1 << 29, 1 << 30, (1 << 30) + 1,
      1518500250, 1610612736, kMax32 - 1, kMax32};
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int32_t> dist(1 << 30, kMax32);
  for (int i = 0; i < 200; ++i) m.push_back(dist(rng));
  return m;
}

// ------------------------------------------------------------------ SRDHM

TEST(FixedPointTest, SrdhmHandDerived) {
  // 2^30 is 0.5 in Q0.31: x * 0.5.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
  // 1 * 2^30 / 2^31 = 0.5 -> rounds up to 1; -0.5 rounds up to 0.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(1, 1 << 30), 1);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-1, 1 << 30), 0);
  // 1.5 -> 2 and -1.5 -> -1 (ties towards +infinity).
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(3, 1 << 30), 2);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(-3, 1 << 30), -1);
  // -1.0 * -1.0 = +1.0 is not representable in Q0.31: saturates.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(kMin32, kMin32), kMax32);
  // -1.0 * (1 - 2^-31) = -(2^31 - 1) exactly.
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(kMin32, kMax32), -kMax32);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(kMax32, kMax32), kMax32 - 1);
  EXPECT_EQ(SaturatingRoundingDoublingHighMul(0, kMin32), 0);
}

TEST(FixedPointTest, SrdhmExhaustiveInt8TimesEdgeMultipliers) {
  const std::vector<int32_t> ms = EdgeMultipliers();
  int64_t checked = 0;
  for (int32_t a = -255; a <= 255; ++a) {
    for (int32_t m : ms) {
      for (int32_t b : {m, -m}) {
        ASSERT_EQ(SaturatingRoundingDoublingHighMul(a, b), RefSrdhm(a, b))
            << a << " * " << b;
        ASSERT_EQ(SaturatingRoundingDoublingHighMul(b, a), RefSrdhm(b, a));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200000);
}

TEST(FixedPointTest, SrdhmEdgeOperands) {
  const std::vector<int32_t> edge = {
      kMin32, kMin32 + 1, -(1 << 30) - 1, -(1 << 30), -1,    0,
      1,      1 << 30,    (1 << 30) + 1,  kMax32 - 1, kMax32};
  for (int32_t a : edge) {
    for (int32_t b : edge) {
      EXPECT_EQ(SaturatingRoundingDoublingHighMul(a, b), RefSrdhm(a, b))
          << a << " * " << b;
    }
  }
}

TEST(FixedPointTest, SrdhmInt16) {
  // Exhaustive over all int16 a against a few b, with the same reference
  // scaled to Q0.15: round(a * b / 2^15), ties up, saturated.
  for (int32_t b : {-32768, -32767, -16384, -1, 0, 1, 16384, 23170, 32767}) {
    for (int32_t a = -32768; a <= 32767; ++a) {
      const int64_t r = static_cast<int64_t>(
          FloorDiv(int128{a} * b + (1 << 14), int128{1} << 15));
      const int16_t want = static_cast<int16_t>(r > 32767 ? 32767 : r);
      ASSERT_EQ(SaturatingRoundingDoublingHighMul(static_cast<int16_t>(a),
                                                  static_cast<int16_t>(b)),
                want)
          << a << " * " << b;
    }
  }
}

// --------------------------------------------------- RoundingDivideByPOT

TEST(FixedPointTest, RdbpotHandDerived) {
  EXPECT_EQ(RoundingDivideByPOT(5, 1), 3);    // 2.5 -> 3
  EXPECT_EQ(RoundingDivideByPOT(-5, 1), -3);  // -2.5 -> -3
  EXPECT_EQ(RoundingDivideByPOT(6, 2), 2);    // 1.5 -> 2
  EXPECT_EQ(RoundingDivideByPOT(-6, 2), -2);  // -1.5 -> -2
  EXPECT_EQ(RoundingDivideByPOT(5, 2), 1);    // 1.25 -> 1
  EXPECT_EQ(RoundingDivideByPOT(-7, 2), -2);  // -1.75 -> -2
  EXPECT_EQ(RoundingDivideByPOT(123, 0), 123);
  EXPECT_EQ(RoundingDivideByPOT(kMin32, 31), -1);  // -1.0
  EXPECT_EQ(RoundingDivideByPOT(kMax32, 31), 1);   // 0.99999..
  EXPECT_EQ(RoundingDivideByPOT(1 << 30, 31), 1);  // 0.5 -> 1
  EXPECT_EQ(RoundingDivideByPOT(-(1 << 30), 31), -1);
  EXPECT_EQ(RoundingDivideByPOT(static_cast<int16_t>(-3), 1), -2);
}

TEST(FixedPointTest, RdbpotExhaustive) {
  for (int e = 0; e <= 31; ++e) {
    for (int32_t x = -70000; x <= 70000; ++x) {
      ASSERT_EQ(RoundingDivideByPOT(x, e), RefRdbpot(x, e)) << x << " " << e;
    }
    for (int32_t x : {kMin32, kMin32 + 1, kMax32, kMax32 - 1, 1 << 30,
                      -(1 << 30), (1 << 30) + 1}) {
      ASSERT_EQ(RoundingDivideByPOT(x, e), RefRdbpot(x, e)) << x << " " << e;
    }
  }
}

// ------------------------------------------ MultiplyByQuantizedMultiplier

TEST(FixedPointTest, MbqmHandDerived) {
  // 0.5 (2^30, shift 0): 3 * 0.5 = 1.5 -> 2.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(3, 1 << 30, 0, Rounding::kDouble), 2);
  // 0.75 = 1610612736 * 2^-31; 10 * 0.75 = 7.5 -> 8.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(10, 1610612736, 0, Rounding::kDouble),
            8);
  // 0.75 * 2^-4: 100 * 0.046875 = 4.6875. SRDHM(100, 0.75) = 75 exactly,
  // then 75 / 16 = 4.6875 -> 5.
  EXPECT_EQ(
      MultiplyByQuantizedMultiplier(100, 1610612736, -4, Rounding::kDouble), 5);
  // Double rounding: 0.5 * 2^-1 applied to 3: SRDHM(3, 0.5) = 1.5 -> 2,
  // then 2 / 2 = 1; the exact 0.75 would round to 1 as well. With x = 5:
  // SRDHM = 2.5 -> 3, 3 / 2 = 1.5 -> 2, while exact 1.25 rounds to 1.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(5, 1 << 30, -1, Rounding::kDouble),
            2);
  EXPECT_EQ(ExactSingleRound(5, 1 << 30, -1), 1);
  // Left shift: 2^30 with shift 3 is 4.0; -7 * 4 = -28.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(-7, 1 << 30, 3, Rounding::kDouble),
            -28);
  // Multiplier 2^31 - 1 ~ 1.0: 127 -> 127, -128 -> -128.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(127, kMax32, 0, Rounding::kDouble),
            127);
  EXPECT_EQ(MultiplyByQuantizedMultiplier(-128, kMax32, 0, Rounding::kDouble),
            -128);
  // Shift -31 with multiplier ~1: everything below 2^30 rounds to 0.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(127, kMax32, -31, Rounding::kDouble),
            0);
  EXPECT_EQ(MultiplyByQuantizedMultiplier(0, 0, 0, Rounding::kDouble), 0);
  // The smaller-than-one form is the same for shift <= 0.
  EXPECT_EQ(MultiplyByQuantizedMultiplierSmallerThanOneExp(100, 1610612736, -4,
                                                           Rounding::kDouble),
            5);
}

TEST(FixedPointTest, MbqmExhaustiveInt8RangeAllShifts) {
  const std::vector<int32_t> ms = EdgeMultipliers();
  int64_t checked = 0;
  for (int shift = -31; shift <= 7; ++shift) {
    for (int32_t m : ms) {
      for (int32_t x = -255; x <= 255; ++x) {
        const int32_t got =
            MultiplyByQuantizedMultiplier(x, m, shift, Rounding::kDouble);
        ASSERT_EQ(got, RefMbqm32(x, m, shift))
            << "x=" << x << " m=" << m << " shift=" << shift;
        // Double rounding stays within 1 of the single exact rounding.
        const int64_t exact = ExactSingleRound(x, m, shift);
        ASSERT_LE(std::abs(got - exact), 1)
            << "x=" << x << " m=" << m << " shift=" << shift;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 4000000);
}

TEST(FixedPointTest, MbqmWideAccumulators) {
  // int32 accumulators of conv kernels: |x| up to 2^24, right shifts.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> xd(-(1 << 24), 1 << 24);
  const std::vector<int32_t> ms = EdgeMultipliers();
  for (int i = 0; i < 200000; ++i) {
    const int32_t x = xd(rng);
    const int32_t m = ms[static_cast<size_t>(i) % ms.size()];
    const int shift = -static_cast<int>(static_cast<uint32_t>(i) % 32);
    ASSERT_EQ(MultiplyByQuantizedMultiplier(x, m, shift, Rounding::kDouble),
              RefMbqm32(x, m, shift))
        << x << " " << m << " " << shift;
  }
}

TEST(FixedPointTest, MbqmLeftShiftWrapsLikeTflite) {
  // TFLite computes x * (1 << shift) in int32; an overflow wraps (two's
  // complement). 2^23 << 8 wraps to INT32_MIN, times 0.5 = -2^30.
  EXPECT_EQ(
      MultiplyByQuantizedMultiplier(1 << 23, 1 << 30, 8, Rounding::kDouble),
      -(1 << 30));
}

// Single rounding (LiteRT's build): one rounding of the exact product,
// ties towards +infinity, which ExactSingleRound computes in int128.
TEST(FixedPointTest, MbqmSingleHandDerived) {
  // 5 * 0.5 * 2^-1 = 1.25 -> 1 (double rounding gives 2, above).
  EXPECT_EQ(MultiplyByQuantizedMultiplier(5, 1 << 30, -1, Rounding::kSingle),
            1);
  // Ties go up: 3 * 0.5 = 1.5 -> 2, -3 * 0.5 = -1.5 -> -1.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(3, 1 << 30, 0, Rounding::kSingle), 2);
  EXPECT_EQ(MultiplyByQuantizedMultiplier(-3, 1 << 30, 0, Rounding::kSingle),
            -1);
  // The smaller-than-one form rounds once too.
  EXPECT_EQ(MultiplyByQuantizedMultiplierSmallerThanOneExp(5, 1 << 30, -1,
                                                           Rounding::kSingle),
            1);
  // Left shift: 4.0 * -7 = -28.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(-7, 1 << 30, 3, Rounding::kSingle),
            -28);
}

TEST(FixedPointTest, MbqmSingleExhaustiveAndWide) {
  const std::vector<int32_t> ms = EdgeMultipliers();
  for (int shift = -31; shift <= 7; ++shift) {
    for (int32_t m : ms) {
      for (int32_t x = -255; x <= 255; ++x) {
        ASSERT_EQ(MultiplyByQuantizedMultiplier(x, m, shift, Rounding::kSingle),
                  ExactSingleRound(x, m, shift))
            << "x=" << x << " m=" << m << " shift=" << shift;
      }
    }
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> xd(-(1 << 24), 1 << 24);
  for (int i = 0; i < 200000; ++i) {
    const int32_t x = xd(rng);
    const int32_t m = ms[static_cast<size_t>(i) % ms.size()];
    const int shift = -static_cast<int>(static_cast<uint32_t>(i) % 32);
    ASSERT_EQ(MultiplyByQuantizedMultiplier(x, m, shift, Rounding::kSingle),
              ExactSingleRound(x, m, shift))
        << x << " " << m << " " << shift;
    ASSERT_EQ(MultiplyByQuantizedMultiplierSmallerThanOneExp(x, m, shift,
                                                             Rounding::kSingle),
              ExactSingleRound(x, m, shift));
  }
}

// Reference for the int64 form, from its definition: reduce the
// multiplier to 15 fractional bits (round half up; >= 0x7FFF0000 -> 0x7FFF),
// then floor((x * reduced + 2^(14 - shift)) / 2^(15 - shift)).
int32_t RefMbqm64(int64_t x, int32_t m, int shift) {
  const int64_t reduced =
      m < 0x7FFF0000 ? (int64_t{m} + 32768) / 65536 : 0x7FFF;
  const int total = 15 - shift;
  return static_cast<int32_t>(FloorDiv(
      int128{x} * reduced + (int128{1} << (total - 1)), int128{1} << total));
}

TEST(FixedPointTest, Mbqm64HandDerived) {
  // m = 2^30 reduces to 2^14 (0.5 in Q0.15); 3 * 0.5 = 1.5 -> 2 (ties up).
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{3}, 1 << 30, 0), 2);
  // Ties go up for negatives too: -3 * 0.5 = -1.5 -> -1.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{-3}, 1 << 30, 0), -1);
  // m = 2^31 - 1 reduces to 0x7FFF (not 0x8000): 65536 * 32767 / 32768.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{65536}, kMax32, 0), 65534);
  // m = 0x7FFEFFFF reduces by rounding: (0x7FFEFFFF + 0x8000) >> 16 = 0x7FFF.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{65536}, 0x7FFEFFFF, 0),
            65534);
  // Large int64 accumulators (int16x8 conv): 2^40 * 0.5 * 2^-20 = 2^19.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{1} << 40, 1 << 30, -20),
            1 << 19);
  // Shift +7: 100 * 0.5 * 128 = 6400.
  EXPECT_EQ(MultiplyByQuantizedMultiplier(int64_t{100}, 1 << 30, 7), 6400);
}

TEST(FixedPointTest, Mbqm64ExhaustiveInt8RangeAllShifts) {
  const std::vector<int32_t> ms = EdgeMultipliers();
  for (int shift = -31; shift <= 7; ++shift) {
    for (int32_t m : ms) {
      for (int64_t x = -255; x <= 255; ++x) {
        ASSERT_EQ(MultiplyByQuantizedMultiplier(x, m, shift),
                  RefMbqm64(x, m, shift))
            << "x=" << x << " m=" << m << " shift=" << shift;
      }
      for (int64_t x :
           {int64_t{1} << 40, -(int64_t{1} << 40), int64_t{8322945},
            -int64_t{8322945}, (int64_t{1} << 47) - 1, -(int64_t{1} << 47)}) {
        if (shift > -8) continue;  // keep the result within int32
        ASSERT_EQ(MultiplyByQuantizedMultiplier(x, m, shift),
                  RefMbqm64(x, m, shift))
            << "x=" << x << " m=" << m << " shift=" << shift;
      }
    }
  }
}

// ---------------------------------------------------- QuantizeMultiplier

TEST(FixedPointTest, QuantizeMultiplierHandDerived) {
  int32_t m = -1;
  int s = -99;
  QuantizeMultiplier(0.0, &m, &s);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(s, 0);
  QuantizeMultiplier(0.5, &m, &s);  // 0.5 = 2^30 * 2^(0 - 31)
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, 0);
  QuantizeMultiplier(1.0, &m, &s);  // frexp: 0.5 * 2^1
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, 1);
  QuantizeMultiplier(0.75, &m, &s);
  EXPECT_EQ(m, 1610612736);
  EXPECT_EQ(s, 0);
  QuantizeMultiplier(3.0, &m, &s);  // 0.75 * 2^2
  EXPECT_EQ(m, 1610612736);
  EXPECT_EQ(s, 2);
  // 1 - 2^-40: the significand rounds to 2^31, which is halved and the
  // shift incremented: 2^30, shift 1 (= 1.0).
  QuantizeMultiplier(1.0 - std::ldexp(1.0, -40), &m, &s);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, 1);
  // Just below a power of two that does not round up: 1 - 2^-30 gives
  // significand (1 - 2^-30) * 2^31 = 2^31 - 2 exactly.
  QuantizeMultiplier(1.0 - std::ldexp(1.0, -30), &m, &s);
  EXPECT_EQ(m, kMax32 - 1);
  EXPECT_EQ(s, 0);
  // 2^-31 = 0.5 * 2^-30: shift -30 is kept.
  QuantizeMultiplier(std::ldexp(1.0, -31), &m, &s);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, -30);
  // 2^-32 = 0.5 * 2^-31: shift -31 is the last one kept.
  QuantizeMultiplier(std::ldexp(1.0, -32), &m, &s);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, -31);
  // Tiny multipliers (shift < -31) flush to zero.
  QuantizeMultiplier(std::ldexp(1.0, -33), &m, &s);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(s, 0);
  QuantizeMultiplier(1e-20, &m, &s);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(s, 0);
  // Negative reals keep their sign (TFLite does the same).
  QuantizeMultiplier(-0.5, &m, &s);
  EXPECT_EQ(m, -(1 << 30));
  EXPECT_EQ(s, 0);
}

TEST(FixedPointTest, QuantizeMultiplierMatchesLongDoubleReference) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> mant(0.5, 1.0);
  std::uniform_int_distribution<int> ex(-31, 20);
  for (int i = 0; i < 200000; ++i) {
    const double real = std::ldexp(mant(rng), ex(rng));
    int32_t m = 0;
    int s = 0;
    QuantizeMultiplier(real, &m, &s);
    // Reference: the exponent from ilogb, the significand scaled to 31
    // bits in long double and rounded half away from zero.
    int e = std::ilogb(real) + 1;
    long double q =
        std::round(std::ldexp(static_cast<long double>(real), 31 - e));
    if (q == std::ldexp(1.0L, 31)) {
      q /= 2;
      ++e;
    }
    ASSERT_EQ(m, static_cast<int32_t>(q)) << real;
    ASSERT_EQ(s, e) << real;
    ASSERT_GE(m, 1 << 30);
    // Within half a unit of the 31-bit significand.
    const long double back = std::ldexp(static_cast<long double>(m), s - 31);
    ASSERT_LE(std::fabs(back - real), std::ldexp(1.0L, s - 32)) << real;
  }
}

TEST(FixedPointTest, CheckedVariants) {
  int32_t m = 0;
  int s = 0;
  EXPECT_TRUE(QuantizeMultiplierSmallerThanOneExp(0.25, &m, &s));
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(s, -1);
  EXPECT_FALSE(QuantizeMultiplierSmallerThanOneExp(1.5, &m, &s));
  EXPECT_FALSE(QuantizeMultiplierSmallerThanOneExp(0.0, &m, &s));
  EXPECT_TRUE(QuantizeMultiplierGreaterThanOne(1.5, &m, &s));
  EXPECT_EQ(m, 1610612736);
  EXPECT_EQ(s, 1);
  EXPECT_FALSE(QuantizeMultiplierGreaterThanOne(0.5, &m, &s));
}

TEST(FixedPointTest, CheckedLog2) {
  int l = 0;
  EXPECT_TRUE(CheckedLog2(0.25f, &l));
  EXPECT_EQ(l, -2);
  EXPECT_TRUE(CheckedLog2(1.0f / 32768, &l));
  EXPECT_EQ(l, -15);
  EXPECT_TRUE(CheckedLog2(4096.0f, &l));
  EXPECT_EQ(l, 12);
  EXPECT_FALSE(CheckedLog2(0.3f, &l));
  EXPECT_FALSE(CheckedLog2(0.000881225f, &l));
}

TEST(FixedPointTest, ChannelMultipliers) {
  // input 0.5, weights {0.25, 0.125}, output 0.0625: effective 2.0 and 1.0.
  const float w[] = {0.25f, 0.125f};
  ChannelMultipliers cm = QuantizeChannelMultipliers(0.5f, w, 2, 0.0625f, 2);
  EXPECT_EQ(cm.multiplier[0], 1 << 30);
  EXPECT_EQ(cm.shift[0], 2);
  EXPECT_EQ(cm.multiplier[1], 1 << 30);
  EXPECT_EQ(cm.shift[1], 1);
  // One scale is broadcast to every channel.
  cm = QuantizeChannelMultipliers(0.5f, w, 1, 0.0625f, 3);
  ASSERT_EQ(cm.multiplier.size(), 3u);
  EXPECT_EQ(cm.shift[2], 2);
}

TEST(FixedPointTest, SaturationAndRequantize) {
  EXPECT_EQ(SaturatingCast<int8_t>(200), 127);
  EXPECT_EQ(SaturatingCast<int8_t>(-200), -128);
  EXPECT_EQ(SaturatingCast<int16_t>(int64_t{1} << 40), 32767);
  EXPECT_EQ(SaturatingCast<uint8_t>(-1), 0);
  EXPECT_EQ(SaturatingCast<int32_t>(-(int64_t{1} << 40)), kMin32);
  // acc 1000 * 0.75 * 2^-3 = 93.75 -> SRDHM 750, 750/8 = 93.75 -> 94
  // (single rounding: 93.75 -> 94 too); + zero point -10 = 84; clamped to
  // [-128, 80] -> 80.
  for (const Rounding r : {Rounding::kDouble, Rounding::kSingle}) {
    EXPECT_EQ(Requantize(int32_t{1000}, 1610612736, -3, -10, -128, 127, r), 84);
    EXPECT_EQ(Requantize(int32_t{1000}, 1610612736, -3, -10, -128, 80, r), 80);
  }
}

}  // namespace
}  // namespace qforge::numerics
