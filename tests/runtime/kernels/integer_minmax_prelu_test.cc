// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer MAXIMUM / MINIMUM (raw comparisons with broadcasting) and PRELU
// (two requantization branches): hand-derived cases, the arithmetic in the
// comments, and a randomized PRELU check within 1 LSB of the real result.
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

OpModel MinMaxModel(ir::OpKind kind, DT type) {
  // [2,2] against [1,2] (broadcast along rows), every tensor at scale 0.5,
  // zero point -1: the kernel compares raw values.
  OpModel m;
  const int a = QInput(m, type, {2, 2}, 0.5f, -1);
  const int b = QInput(m, type, {1, 2}, 0.5f, -1);
  const int y = QOutput(m, type, {2, 2}, 0.5f, -1);
  m.Op(kind, {a, b}, {y}, ir::Options{});
  return m;
}

TEST(IntegerMinMaxTest, MaximumInt8Broadcast) {
  // max({1,-5},{3,-6}) = {3,-5}; max({7,0},{3,-6}) = {7,0}.
  OpModel m = MinMaxModel(ir::OpKind::kMaximum, DT::kInt8);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({2, 2}, {1, -5, 7, 0}),
                                  MakeTensor<int8_t>({1, 2}, {3, -6})}),
            (std::vector<int8_t>{3, -5, 7, 0}));
}

TEST(IntegerMinMaxTest, MinimumInt16Broadcast) {
  // min({1000,-5},{3,-600}) = {3,-600}; min({-7000,0},{3,-600}) =
  // {-7000,-600}.
  OpModel m = MinMaxModel(ir::OpKind::kMinimum, DT::kInt16);
  EXPECT_EQ(
      RunValues<int16_t>(m, {MakeTensor<int16_t>({2, 2}, {1000, -5, -7000, 0}),
                             MakeTensor<int16_t>({1, 2}, {3, -600})}),
      (std::vector<int16_t>{3, -600, -7000, -600}));
}

// PRELU int8: input [1,2,2] at scale 0.5 zp 3, alpha [2] at 0.25 zp 0,
// output at 0.5 zp -2.
OpModel PreluModel(std::vector<int8_t> alpha) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 2}, 0.5f, 3);
  const int a = QConst<int8_t>(m, {2}, alpha, {0.25f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 2, 2}, 0.5f, -2);
  m.Op(ir::OpKind::kPrelu, {x, a}, {y}, ir::Options{});
  return m;
}

TEST(IntegerPreluTest, Int8HandDerived) {
  // Multipliers: identity s_in / s_out = 1, alpha s_in * s_a / s_out = 0.25.
  // Alpha raw {1, 2} = {0.25, 0.5}, broadcast along the last axis.
  //  raw -5: x = -8 (-4.0), alpha 1 -> -8 * 0.25 = -2 -> -2 - 2 = -4
  //  raw -5: x = -8,        alpha 2 -> -16 * 0.25 = -4 -> -6
  //  raw  7: x = 4 (2.0)           -> 4 * 1 = 4 -> 2
  //  raw  1: x = -2 (-1.0), alpha 2 -> -4 * 0.25 = -1 -> -3
  OpModel m = PreluModel({1, 2});
  EXPECT_EQ(
      RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2, 2}, {-5, -5, 7, 1})}),
      (std::vector<int8_t>{-4, -6, 2, -3}));
}

TEST(IntegerPreluTest, Int8RandomWithinOneLsb) {
  OpModel m = PreluModel({-40, 100});  // alpha -10.0 and 25.0
  const std::vector<int8_t> x = RandomValues<int8_t>(2 * 2, 7, -128, 127);
  std::vector<int8_t> in = x;
  std::vector<int32_t> want;
  for (size_t i = 0; i < in.size(); ++i) {
    const double real = 0.5 * (in[i] - 3);
    const double alpha = i % 2 == 0 ? -10.0 : 25.0;
    want.push_back(
        QuantizeRef(real >= 0 ? real : real * alpha, 0.5, -2, -128, 127));
  }
  const std::vector<int8_t> got =
      RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2, 2}, in)});
  EXPECT_LE(MaxAbsDiff(got, want), 1);
}

TEST(IntegerPreluTest, Int8RoundsTwiceAsLiteRT) {
  // LiteRT's int8 PRELU rounds twice (gemmlowp) even where its other int8
  // kernels round once (the default --rounding single): identity
  // multiplier s_in / s_out = 0.375 / 1 = 0.75 * 2^-1, input 9 (zp 0):
  // exact 3.375; twice: round(9 * 0.75 = 6.75) = 7, then 7 / 2 = 3.5 ->
  // 4 (ties away from zero); once would give round(3.375) = 3.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2}, 0.375f, 0);
  const int a = QConst<int8_t>(m, {2}, {1, 1}, {0.25f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 2}, 1.0f, 0);
  m.Op(ir::OpKind::kPrelu, {x, a}, {y}, ir::Options{});
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2}, {9, 7})}),
            (std::vector<int8_t>{4, 3}));
}

TEST(IntegerPreluTest, Int16IsUnsupported) {
  // TFLite has no int16 PRELU; qforge's quantizer keeps such ops float.
  OpModel m;
  const int x = QInput(m, DT::kInt16, {2}, 0.5f, 0);
  const int a = QConst<int16_t>(m, {2}, {1, 2}, {0.25f}, {0});
  const int y = QOutput(m, DT::kInt16, {2}, 0.5f, 0);
  m.Op(ir::OpKind::kPrelu, {x, a}, {y}, ir::Options{});
  EXPECT_FALSE(m.Run({MakeTensor<int16_t>({2}, {1, -1})}, 1).ok());
}

}  // namespace
}  // namespace qforge::testing::integer_test
