// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer activations: hand-derived cases, and exhaustive sweeps over every
// int8 / uint8 (and every int16) input against the real function computed
// in double and quantized (round half away from zero). Table-based int8
// LOGISTIC/TANH and HARD_SWISH are within 1 LSB; TFLite's interpolated
// int16 sigmoid table carries up to a few LSB of 2^-15, bounded here.
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

OpModel UnaryModel(ir::OpKind kind, DT type, int64_t n, float si, int64_t zi,
                   float so, int64_t zo, ir::Options options = {}) {
  OpModel m;
  const int x = QInput(m, type, {static_cast<int32_t>(n)}, si, zi);
  const int y = QOutput(m, type, {static_cast<int32_t>(n)}, so, zo);
  m.Op(kind, {x}, {y}, std::move(options));
  return m;
}

template <typename T>
std::vector<T> AllValues() {
  std::vector<T> v;
  for (int32_t i = std::numeric_limits<T>::min();
       i <= std::numeric_limits<T>::max(); ++i) {
    v.push_back(static_cast<T>(i));
  }
  return v;
}

// Max error of `kind` over every input of T against f in double.
template <typename T, typename F>
int64_t SweepError(ir::OpKind kind, float si, int32_t zi, float so, int32_t zo,
                   F f, ir::Options options = {}) {
  const std::vector<T> xs = AllValues<T>();
  const DT type = OpModel::TypeOf<T>();
  OpModel m = UnaryModel(kind, type, static_cast<int64_t>(xs.size()), si, zi,
                         so, zo, std::move(options));
  std::vector<int32_t> want;
  for (T x : xs) {
    want.push_back(QuantizeRef(f((x - zi) * double{si}), so, zo,
                               std::numeric_limits<T>::min(),
                               std::numeric_limits<T>::max()));
  }
  return MaxAbsDiff(
      RunValues<T>(m, {MakeTensor<T>({static_cast<int64_t>(xs.size())}, xs)},
                   2),
      want);
}

TEST(IntegerActivationTest, ReluFamilyHandDerived) {
  {
    // RELU: input scale 0.5, output 0.25 zp -128: -3 -> clamped at the
    // quantized 0 (= -128); 4 (2.0) -> 8 - 128 = -120.
    OpModel m =
        UnaryModel(ir::OpKind::kRelu, DT::kInt8, 2, 0.5f, 0, 0.25f, -128);
    EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({2}, {-3, 4})}),
              (std::vector<int8_t>{-128, -120}));
  }
  {
    // RELU6 at output scale 0.1: 20 * 0.5 = 10 -> 6 = 60; 7 * 0.5 = 3.5 -> 35.
    OpModel m = UnaryModel(ir::OpKind::kRelu6, DT::kInt8, 2, 0.5f, 0, 0.1f, 0);
    EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({2}, {20, 7})}),
              (std::vector<int8_t>{60, 35}));
  }
  {
    // RELU_N1_TO_1 at scale 0.25: bounds -4 and 4.
    OpModel m =
        UnaryModel(ir::OpKind::kReluN1To1, DT::kInt8, 3, 0.25f, 0, 0.25f, 0);
    EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({3}, {-9, 2, 9})}),
              (std::vector<int8_t>{-4, 2, 4}));
  }
  {
    // int16 RELU (zero points 0): -5 -> 0, 300 at 2^-8 -> 2^-10: 1200.
    OpModel m = UnaryModel(ir::OpKind::kRelu, DT::kInt16, 2, 1.0f / 256, 0,
                           1.0f / 1024, 0);
    EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({2}, {-5, 300})}),
              (std::vector<int16_t>{0, 1200}));
  }
}

TEST(IntegerActivationTest, LeakyReluHandDerived) {
  // alpha 0.2, scales 0.5 -> 0.5: -10 (-5.0) -> -1.0 -> -2; 10 -> 10.
  ir::LeakyReluOptions o;
  o.alpha = 0.2f;
  OpModel m =
      UnaryModel(ir::OpKind::kLeakyRelu, DT::kInt8, 2, 0.5f, 0, 0.5f, 0, o);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({2}, {-10, 10})}),
            (std::vector<int8_t>{-2, 10}));
  // A negative alpha flips the sign: -10 * -0.5 = 5.
  o.alpha = -0.5f;
  OpModel m2 =
      UnaryModel(ir::OpKind::kLeakyRelu, DT::kInt8, 1, 1.0f, 0, 1.0f, 0, o);
  EXPECT_EQ(RunValues<int8_t>(m2, {MakeTensor<int8_t>({1}, {-10})}),
            (std::vector<int8_t>{5}));
}

TEST(IntegerActivationTest, LeakyReluSweeps) {
  ir::LeakyReluOptions o;
  o.alpha = 0.3f;
  auto f = [](double x) { return x > 0 ? x : 0.3 * x; };
  EXPECT_LE(
      SweepError<int8_t>(ir::OpKind::kLeakyRelu, 0.05f, -12, 0.04f, 20, f, o),
      1);
  EXPECT_LE(
      SweepError<uint8_t>(ir::OpKind::kLeakyRelu, 0.05f, 100, 0.04f, 90, f, o),
      1);
  EXPECT_LE(
      SweepError<int16_t>(ir::OpKind::kLeakyRelu, 0.0007f, 0, 0.0006f, 0, f, o),
      1);
}

TEST(IntegerActivationTest, LogisticTanhInt8TablesWithinOneLsb) {
  auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  auto tanh = [](double x) { return std::tanh(x); };
  EXPECT_LE(SweepError<int8_t>(ir::OpKind::kLogistic, 0.06f, 3, 1.0f / 256,
                               -128, sigmoid),
            1);
  EXPECT_LE(SweepError<uint8_t>(ir::OpKind::kLogistic, 0.06f, 120, 1.0f / 256,
                                0, sigmoid),
            1);
  EXPECT_LE(
      SweepError<int8_t>(ir::OpKind::kTanh, 0.03f, -5, 1.0f / 128, 0, tanh), 1);
  EXPECT_LE(
      SweepError<uint8_t>(ir::OpKind::kTanh, 0.03f, 128, 1.0f / 128, 128, tanh),
      1);
}

TEST(IntegerActivationTest, LogisticInt16HandDerived) {
  // x = 0: the table's entry 0 is 32768 (0.5 in Q0.16); result
  // ((32768 << 9) + 512) >> 10 = 16384 = 0.5 at scale 2^-15.
  OpModel m = UnaryModel(ir::OpKind::kLogistic, DT::kInt16, 1, 1.0f / 4096, 0,
                         1.0f / 32768, 0);
  EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({1}, {0})}),
            (std::vector<int16_t>{16384}));
}

TEST(IntegerActivationTest, LogisticTanhInt16Sweeps) {
  auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  auto tanh = [](double x) { return std::tanh(x); };
  // General input scale: TFLite's interpolated table, within 1-3 LSB.
  EXPECT_LE(SweepError<int16_t>(ir::OpKind::kLogistic, 0.0003f, 0, 1.0f / 32768,
                                0, sigmoid),
            2);
  EXPECT_LE(
      SweepError<int16_t>(ir::OpKind::kTanh, 0.0003f, 0, 1.0f / 32768, 0, tanh),
      4);
  // Power-of-two input scales (2^-12; TANH also 2^-13): gemmlowp's 16-bit
  // fixed-point logistic / tanh, whose Newton iterations in Q2.13 leave up
  // to 6 / 12 LSB of 2^-15 (bit-exact with LiteRT's builtin kernel).
  EXPECT_LE(SweepError<int16_t>(ir::OpKind::kLogistic, 1.0f / 4096, 0,
                                1.0f / 32768, 0, sigmoid),
            6);
  EXPECT_LE(SweepError<int16_t>(ir::OpKind::kTanh, 1.0f / 4096, 0, 1.0f / 32768,
                                0, tanh),
            12);
  EXPECT_LE(SweepError<int16_t>(ir::OpKind::kTanh, 1.0f / 8192, 0, 1.0f / 32768,
                                0, tanh),
            12);
}

TEST(IntegerActivationTest, Int16PowerOfTwoHandDerived) {
  // gemmlowp's logistic(0) is the constant 0.5 = 2^30 in Q0.31, rounded to
  // Q0.15: 16384; tanh(0) = 0. Saturated inputs (+-8 in Q3.12) give
  // logistic 1 - 2^-15 * k and 0 + k for tiny k, tanh +-(1 - tiny).
  OpModel m = UnaryModel(ir::OpKind::kLogistic, DT::kInt16, 1, 1.0f / 4096, 0,
                         1.0f / 32768, 0);
  EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({1}, {0})}),
            (std::vector<int16_t>{16384}));
  OpModel t = UnaryModel(ir::OpKind::kTanh, DT::kInt16, 3, 1.0f / 4096, 0,
                         1.0f / 32768, 0);
  const auto got =
      RunValues<int16_t>(t, {MakeTensor<int16_t>({3}, {0, 32767, -32768})});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], 0);
  EXPECT_GE(got[1], 32760);
  EXPECT_LE(got[2], -32760);
}

TEST(IntegerActivationTest, HardSwishInt8Sweep) {
  auto hs = [](double x) {
    return x * std::min(6.0, std::max(0.0, x + 3)) / 6;
  };
  EXPECT_LE(
      SweepError<int8_t>(ir::OpKind::kHardSwish, 0.05f, -10, 0.035f, -90, hs),
      1);
  EXPECT_LE(
      SweepError<uint8_t>(ir::OpKind::kHardSwish, 0.04f, 128, 0.03f, 20, hs),
      1);
}

TEST(IntegerActivationTest, LogisticRequiresTfliteOutputScale) {
  OpModel m =
      UnaryModel(ir::OpKind::kLogistic, DT::kInt8, 1, 0.1f, 0, 0.01f, -128);
  EXPECT_FALSE(m.Run({MakeTensor<int8_t>({1}, {0})}).ok());
}

}  // namespace
}  // namespace qforge::testing::integer_test
