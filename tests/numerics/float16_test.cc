// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// float16 <-> float32 conversion (numerics/float16.h),
// checked exhaustively over all 65536 half values against an arithmetic
// reference written independently of the bit manipulation under test.
#include "numerics/float16.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gtest/gtest.h"

namespace qforge::numerics {
namespace {

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The value of half `h` by its definition: (-1)^s * 2^(e-15) * 1.m for
// normals, (-1)^s * 2^-14 * 0.m for subnormals. Computed with ldexp, which
// is exact here (every half value is a float).
float ReferenceHalfValue(uint16_t h) {
  const int sign = h >> 15;
  const int e = (h >> 10) & 31;
  const int m = h & 1023;
  float v;
  if (e == 0) {
    v = std::ldexp(static_cast<float>(m), -24);
  } else {
    v = std::ldexp(static_cast<float>(1024 + m), e - 25);
  }
  return sign != 0 ? -v : v;
}

bool IsHalfNaN(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

// Round-to-nearest-even float -> half, computed in double arithmetic with
// nearbyint (the default rounding mode is round-half-even) instead of bits.
uint16_t ReferenceToHalf(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f)) return sign | 0x7E00;
  const double a = std::fabs(static_cast<double>(f));
  if (std::isinf(f)) return sign | 0x7C00;
  if (a < std::ldexp(1.0, -14)) {
    // Subnormal range: the half is r * 2^-24; r == 1024 is the smallest
    // normal, whose bit pattern is exactly 1024.
    const double r = std::nearbyint(a * std::ldexp(1.0, 24));
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(r));
  }
  int e2;
  std::frexp(a, &e2);  // a = m * 2^e2, m in [0.5, 1)
  int e = e2 - 1;      // a in [2^e, 2^(e+1))
  double r = std::nearbyint(std::ldexp(a, 10 - e));  // in [1024, 2048]
  if (r == 2048.0) {
    r = 1024.0;
    ++e;
  }
  if (e + 15 >= 31) return sign | 0x7C00;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) |
                               (static_cast<int>(r) - 1024));
}

TEST(HalfTest, HalfToFloatExhaustive) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = static_cast<uint16_t>(i);
    const float got = HalfToFloat(h);
    if (IsHalfNaN(h)) {
      // Sign and payload kept, quiet bit set.
      const uint32_t want = (static_cast<uint32_t>(h & 0x8000) << 16) |
                            0x7FC00000u |
                            (static_cast<uint32_t>(h & 0x3FF) << 13);
      ASSERT_EQ(Bits(got), want) << "h=" << h;
      continue;
    }
    if ((h & 0x7FFF) == 0x7C00) {
      ASSERT_TRUE(std::isinf(got)) << "h=" << h;
      ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0);
      continue;
    }
    // Bit equality also checks the sign of zero.
    ASSERT_EQ(Bits(got), Bits(ReferenceHalfValue(h))) << "h=" << h;
  }
}

TEST(HalfTest, RoundTripExhaustive) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = static_cast<uint16_t>(i);
    const uint16_t back = FloatToHalf(HalfToFloat(h));
    if (IsHalfNaN(h)) {
      ASSERT_EQ(back, (h & 0x8000) | 0x7E00) << "h=" << h;
    } else {
      ASSERT_EQ(back, h) << "h=" << h;
    }
  }
}

// Between every two neighbouring halves a < b: the midpoint is a tie and
// goes to the even pattern, anything below it to a, above it to b.
TEST(HalfTest, TiesToEvenBetweenEveryNeighbourPair) {
  for (uint16_t h = 0; h < 0x7BFF; ++h) {  // up to 65504 = 0x7BFF
    const float a = HalfToFloat(h);
    const float b = HalfToFloat(static_cast<uint16_t>(h + 1));
    const float mid = (a + b) / 2;  // needs 12 significant bits: exact
    const uint16_t even = (h & 1) == 0 ? h : static_cast<uint16_t>(h + 1);
    for (int s = 0; s < 2; ++s) {
      const float sign = s == 0 ? 1.0f : -1.0f;
      const uint16_t sbit = s == 0 ? 0 : 0x8000;
      ASSERT_EQ(FloatToHalf(sign * mid), sbit | even) << "h=" << h;
      ASSERT_EQ(FloatToHalf(sign * std::nextafter(mid, 0.0f)), sbit | h)
          << "h=" << h;
      ASSERT_EQ(FloatToHalf(sign * std::nextafter(mid, 1e9f)),
                sbit | static_cast<uint16_t>(h + 1))
          << "h=" << h;
    }
  }
}

TEST(HalfTest, OverflowUnderflowAndSpecials) {
  // 65504 is the largest half; 65520 is the tie with 2^16 and rounds to
  // infinity (65504 has an odd mantissa); just below stays 65504.
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(std::nextafter(65520.0f, 0.0f)), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(FloatToHalf(-65520.0f), 0xFC00);
  EXPECT_EQ(FloatToHalf(1e10f), 0x7C00);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(FloatToHalf(-std::numeric_limits<float>::infinity()), 0xFC00);
  // 2^-24 is the smallest subnormal; 2^-25 ties to 0 (even).
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(FloatToHalf(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(FloatToHalf(-std::ldexp(1.0f, -26)), 0x8000);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(FloatToHalf(0.333333343f), 0x3555);  // 1/3 -> 0.33325195
  // The largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(FloatToHalf(std::nextafter(std::ldexp(1.0f, -14), 0.0f)), 0x0400);
  EXPECT_EQ(FloatToHalf(std::numeric_limits<float>::quiet_NaN()), 0x7E00);
  EXPECT_EQ(FloatToHalf(-std::numeric_limits<float>::quiet_NaN()), 0xFE00);
}

// A sweep over the float bit patterns (every 257th, so every exponent and a
// spread of mantissas) against the double-arithmetic reference, and against
// the compiler's own _Float16 conversion where it has one.
TEST(HalfTest, FloatToHalfSweepMatchesReferences) {
  int64_t checked = 0;
  for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 257) {
    const uint32_t bits = static_cast<uint32_t>(u);
    float f;
    std::memcpy(&f, &bits, 4);
    const uint16_t got = FloatToHalf(f);
    ASSERT_EQ(got, ReferenceToHalf(f)) << "bits=" << std::hex << bits;
#ifdef __FLT16_MAX__
    if (!std::isnan(f)) {
      const _Float16 h = static_cast<_Float16>(f);
      uint16_t hb;
      std::memcpy(&hb, &h, 2);
      ASSERT_EQ(got, hb) << "bits=" << std::hex << bits;
    }
#endif
    ++checked;
  }
  EXPECT_GT(checked, 16000000);
}

}  // namespace
}  // namespace qforge::numerics
