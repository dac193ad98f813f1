// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// numerics/xnnpack_arithmetic: XNNPACK's fp32 requantization and 8-bit
// ADD, on hand-derived cases whose arithmetic is spelled out in the
// comments (the whole-model check against LiteRT is
// tests/interop/int_vs_litert.mjs --arithmetic xnnpack).
#include "numerics/xnnpack_arithmetic.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"
#include "numerics/fixed_point.h"
#include "numerics/modes.h"

namespace qforge::numerics {
namespace {

TEST(XnnpackArithmeticTest, DefaultIsTflite) {
  // The modes an interpreter gets unless told otherwise (the CLI's
  // defaults): TFLite's builtin arithmetic, single rounding.
  const Modes modes;
  EXPECT_EQ(modes.arithmetic, Arithmetic::kTflite);
  EXPECT_EQ(modes.rounding, RoundingPolicy::kSingle);
}

TEST(XnnpackArithmeticTest, RoundHalfToEven) {
  EXPECT_EQ(RoundHalfToEven(0.5f), 0);
  EXPECT_EQ(RoundHalfToEven(1.5f), 2);
  EXPECT_EQ(RoundHalfToEven(2.5f), 2);
  EXPECT_EQ(RoundHalfToEven(2.500001f), 3);
  EXPECT_EQ(RoundHalfToEven(-0.5f), 0);
  EXPECT_EQ(RoundHalfToEven(-1.5f), -2);
  EXPECT_EQ(RoundHalfToEven(-2.5f), -2);
  EXPECT_EQ(RoundHalfToEven(-2.4f), -2);
  EXPECT_EQ(RoundHalfToEven(-2.6f), -3);
  EXPECT_EQ(RoundHalfToEven(7.0f), 7);
}

// Scale 0.5, zero point 10, range [-128, 127]: acc * 0.5 rounded half to
// even. TFLite's single rounding (multiplier 2^30, shift 0:
// (acc * 2^30 + 2^30) >> 31) rounds the ties towards +infinity instead.
TEST(XnnpackArithmeticTest, RequantizeTiesToEven) {
  const float scale = 0.5f;
  // 3 * 0.5 = 1.5 -> 2; 5 * 0.5 = 2.5 -> 2; -3 -> -1.5 -> -2;
  // -5 -> -2.5 -> -2; 7 -> 3.5 -> 4.
  EXPECT_EQ(XnnpackRequantize(3, scale, 10, -128, 127), 12);
  EXPECT_EQ(XnnpackRequantize(5, scale, 10, -128, 127), 12);
  EXPECT_EQ(XnnpackRequantize(-3, scale, 10, -128, 127), 8);
  EXPECT_EQ(XnnpackRequantize(-5, scale, 10, -128, 127), 8);
  EXPECT_EQ(XnnpackRequantize(7, scale, 10, -128, 127), 14);
  // TFLite: 2.5 -> 3, -1.5 -> -1.
  EXPECT_EQ(MultiplyByQuantizedMultiplierSingle(5, 1 << 30, 0), 3);
  EXPECT_EQ(MultiplyByQuantizedMultiplierSingle(-3, 1 << 30, 0), -1);
}

// The clamp is to [act_min - zp, act_max - zp] before rounding, then zp is
// added: the result is the clamped one.
TEST(XnnpackArithmeticTest, RequantizeClamps) {
  // 1000 * 0.5 = 500 > 127 - 10 -> 117 + 10 = 127.
  EXPECT_EQ(XnnpackRequantize(1000, 0.5f, 10, -128, 127), 127);
  // -1000 * 0.5 = -500 < -128 - 10 -> -138 + 10 = -128.
  EXPECT_EQ(XnnpackRequantize(-1000, 0.5f, 10, -128, 127), -128);
  // uint8 with a RELU6-like range [zp, zp + 6 / s]: zp 0, range [0, 6].
  EXPECT_EQ(XnnpackRequantize(-3, 0.5f, 0, 0, 6), 0);
  EXPECT_EQ(XnnpackRequantize(13, 0.5f, 0, 0, 6), 6);  // 6.5 -> clamp 6.
  EXPECT_EQ(XnnpackRequantize(11, 0.5f, 0, 0, 6), 6);  // 5.5 -> 6 (even).
  EXPECT_EQ(XnnpackRequantize(9, 0.5f, 0, 0, 6), 4);   // 4.5 -> 4 (even).
}

// The accumulator is converted to float first: 2^24 + 3 is halfway
// between the floats 2^24 + 2 and 2^24 + 4, and rounds to the even
// significand, 2^24 + 4; times 2^-3 that is 2^21 + 0.5, which rounds to
// 2^21 (even); zero point -2^21 gives 0 inside a wide range.
TEST(XnnpackArithmeticTest, RequantizeConvertsAccumulatorToFloat) {
  const int32_t acc = (1 << 24) + 3;
  EXPECT_EQ(static_cast<float>(acc), 16777220.0f);
  EXPECT_EQ(XnnpackRequantize(acc, 0.125f, -(1 << 21), -(1 << 22), 1 << 22), 0);
  // 2^24 + 5 -> float 2^24 + 4 (halfway to 2^24 + 6, odd significand
  // 2^23 + 3, so down to 2^23 + 2 = even): same result.
  EXPECT_EQ(
      XnnpackRequantize((1 << 24) + 5, 0.125f, -(1 << 21), -(1 << 22), 1 << 22),
      0);
}

// input_scale * weight_scale / output_scale in float; XNNPACK refuses
// scales of 256 and above.
TEST(XnnpackArithmeticTest, RequantizationScale) {
  float s = 0.0f;
  EXPECT_TRUE(XnnpackRequantizationScale(0.5f, 0.25f, 2.0f, &s));
  EXPECT_EQ(s, 0.0625f);
  EXPECT_TRUE(XnnpackRequantizationScale(16.0f, 15.9375f, 1.0f, &s));
  EXPECT_EQ(s, 255.0f);
  EXPECT_FALSE(XnnpackRequantizationScale(16.0f, 16.0f, 1.0f, &s));
  EXPECT_FALSE(XnnpackRequantizationScale(0.5f, 0.0f, 1.0f, &s));
  // Float evaluation, left to right: (0.1f * 0.2f) / 0.3f, each step
  // rounded to float, as XNNPACK's C code does.
  EXPECT_TRUE(XnnpackRequantizationScale(0.1f, 0.2f, 0.3f, &s));
  const float product = 0.1f * 0.2f;
  EXPECT_EQ(s, product / 0.3f);
}

// a_scale 0.5, b_scale 0.25, output scale 1: ratios 0.5 and 0.25; the
// larger, 0.5 = 2^-1, has exponent -1, so shift = 20 - (-1) = 21;
// multipliers 0.5 * 2^21 = 2^20 and 0.25 * 2^21 = 2^19. Zero points
// a 1, b -2: bias = 2^20 - 2^20 * 1 - 2^19 * (-2) = 2^20.
TEST(XnnpackArithmeticTest, AddParams) {
  XnnpackAddParams p;
  ASSERT_TRUE(XnnpackAddParamsFor(0.5f, 1, 0.25f, -2, 1.0f, &p));
  EXPECT_EQ(p.shift, 21);
  EXPECT_EQ(p.a_multiplier, 1 << 20);
  EXPECT_EQ(p.b_multiplier, 1 << 19);
  EXPECT_EQ(p.bias, 1 << 20);
  // Real results 0.5 * (a - 1) + 0.25 * (b + 2) + zp 5, ties towards
  // +infinity (the rounding is 2^20 in the bias, then >> 21):
  //  a 3, b 0: 1 + 0.5 = 1.5 -> 2 -> 7;
  //  a 2, b -2: 0.5 -> 1 -> 6;
  //  a 0, b -2: -0.5 -> 0 -> 5;
  //  a 0, b -4: -0.5 - 0.5 = -1 -> 4;
  //  a -1, b -3: -1 - 0.25 = -1.25 -> -1 -> 4.
  EXPECT_EQ(XnnpackAdd(p, 3, 0, 5, -128, 127), 7);
  EXPECT_EQ(XnnpackAdd(p, 2, -2, 5, -128, 127), 6);
  EXPECT_EQ(XnnpackAdd(p, 0, -2, 5, -128, 127), 5);
  EXPECT_EQ(XnnpackAdd(p, 0, -4, 5, -128, 127), 4);
  EXPECT_EQ(XnnpackAdd(p, -1, -3, 5, -128, 127), 4);
  // Clamped: 0.5 * 126 + 0.25 * 129 + 5 = 100.25 -> 100; with a range
  // [-128, 90] -> 90.
  EXPECT_EQ(XnnpackAdd(p, 127, 127, 5, -128, 127), 100);
  EXPECT_EQ(XnnpackAdd(p, 127, 127, 5, -128, 90), 90);
}

// The multipliers round the float ratio times 2^shift half to even:
// 1 / 3 in float is 0x3EAAAAAB = 0.333333343267..., exponent -2 (in
// [1/4, 1/2)), shift 22; 0.333333343267 * 2^22 = 1398101.375 -> 1398101.
// The other ratio, 0.25 / 3 = 0.0833333358168... (float), times 2^22 =
// 349525.34375 -> 349525.
TEST(XnnpackArithmeticTest, AddMultiplierRounding) {
  XnnpackAddParams p;
  ASSERT_TRUE(XnnpackAddParamsFor(1.0f, 0, 0.25f, 0, 3.0f, &p));
  EXPECT_EQ(p.shift, 22);
  EXPECT_EQ(p.a_multiplier, 1398101);
  EXPECT_EQ(p.b_multiplier, 349525);
  EXPECT_EQ(p.bias, 1 << 21);
}

// TFLite's XNNPACK delegate takes an 8-bit ADD only when both ratios
// input_scale / output_scale are in [2^-10, 2^8).
TEST(XnnpackArithmeticTest, AddRatioRange) {
  XnnpackAddParams p;
  EXPECT_TRUE(XnnpackAddParamsFor(1.0f, 0, 1.0f, 0, 1024.0f, &p));  // 2^-10
  EXPECT_EQ(p.shift, 30);
  EXPECT_FALSE(XnnpackAddParamsFor(1.0f, 0, 1.0f, 0, 2048.0f, &p));
  EXPECT_FALSE(XnnpackAddParamsFor(256.0f, 0, 1.0f, 0, 1.0f, &p));  // 2^8
  EXPECT_TRUE(XnnpackAddParamsFor(255.0f, 0, 1.0f, 0, 1.0f, &p));
  EXPECT_EQ(p.shift, 13);  // 255 = 1.99 * 2^7: 20 - 7.
  EXPECT_EQ(p.a_multiplier, 255 << 13);
}

}  // namespace
}  // namespace qforge::numerics
