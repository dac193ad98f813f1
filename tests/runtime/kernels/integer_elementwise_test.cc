// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer ADD, SUB, MUL, pools, MEAN, SOFTMAX, QUANTIZE, DEQUANTIZE and
// CONCATENATION: hand-derived cases (the arithmetic is in the comments)
// and randomized checks within 1 LSB of the real-valued result.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

// ---------------------------------------------------------------- binary

// A binary op on quantized inputs; the output has the inputs' type unless
// `out_type` is given.
OpModel BinaryModel(ir::OpKind kind, DT type, std::vector<int32_t> a_shape,
                    float sa, int64_t za, std::vector<int32_t> b_shape,
                    float sb, int64_t zb, std::vector<int32_t> out_shape,
                    float so, int64_t zo, ir::Options options,
                    std::optional<DT> out_type = std::nullopt) {
  OpModel m;
  const int a = QInput(m, type, a_shape, sa, za);
  const int b = QInput(m, type, b_shape, sb, zb);
  const int y = QOutput(m, out_type.value_or(type), out_shape, so, zo);
  m.Op(kind, {a, b}, {y}, std::move(options));
  return m;
}

TEST(IntegerElementwiseTest, AddInt8HandDerived) {
  // 4 * 0.5 + (14 - 10) * 0.25 = 2 + 1 = 3 real; output scale 1, zp -5:
  // -2. Integer path: the common scale is 2 * 0.5 = 1; with 20 bits of
  // headroom 4 << 20 times 0.5 = 2097152 and 4 << 20 times 0.25 = 1048576;
  // the sum 3145728 times 2^-20 = 3; -5.
  OpModel m = BinaryModel(ir::OpKind::kAdd, DT::kInt8, {1}, 0.5f, 0, {1}, 0.25f,
                          10, {1}, 1.0f, -5, ir::AddSubOptions{});
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1}, {4}),
                                  MakeTensor<int8_t>({1}, {14})}),
            (std::vector<int8_t>{-2}));
}

TEST(IntegerElementwiseTest, SubInt8Broadcast) {
  // [2,1] - [1,3] at scales 1 (zp 0): {{1},{10}} - {{1,2,3}} =
  // {0,-1,-2, 9,8,7}; output scale 1 zp 0.
  ir::AddSubOptions o;
  o.is_sub = true;
  OpModel m = BinaryModel(ir::OpKind::kSub, DT::kInt8, {2, 1}, 1.0f, 0, {1, 3},
                          1.0f, 0, {2, 3}, 1.0f, 0, o);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({2, 1}, {1, 10}),
                                  MakeTensor<int8_t>({1, 3}, {1, 2, 3})}),
            (std::vector<int8_t>{0, -1, -2, 9, 8, 7}));
}

TEST(IntegerElementwiseTest, AddInt16PowerOfTwoScales) {
  // Scales 2^-10 and 2^-12 into 2^-10: the second input is divided by 4
  // with rounding (1002 / 4 = 250.5 -> 251) and added: 1000 + 251. The
  // sum 32000 + 8000 saturates at 32767.
  OpModel m =
      BinaryModel(ir::OpKind::kAdd, DT::kInt16, {2}, 1.0f / 1024, 0, {2},
                  1.0f / 4096, 0, {2}, 1.0f / 1024, 0, ir::AddSubOptions{});
  EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({2}, {1000, 32000}),
                                   MakeTensor<int16_t>({2}, {1002, 32000})}),
            (std::vector<int16_t>{1251, 32767}));
}

TEST(IntegerElementwiseTest, MulInt8HandDerived) {
  // (5 - 1) * 0.5 = 2 and (6 + 2) * 0.25 = 2: product 4 at output scale
  // 0.1: 40. Integer: 4 * 8 = 32 times 0.5 * 0.25 / 0.1 = 1.25 -> 40.
  OpModel m = BinaryModel(ir::OpKind::kMul, DT::kInt8, {1}, 0.5f, 1, {1}, 0.25f,
                          -2, {1}, 0.1f, 0, ir::ActivationOptions{});
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1}, {5}),
                                  MakeTensor<int8_t>({1}, {6})}),
            (std::vector<int8_t>{40}));
}

TEST(IntegerElementwiseTest, MulInt16ToInt8) {
  // Q0.15 inputs 0.5 * 0.5 = 0.25 = 8192 in Q0.15, >> 8 (rounding) = 32,
  // plus output zero point 3.
  OpModel m = BinaryModel(ir::OpKind::kMul, DT::kInt16, {1}, 1.0f / 32768, 0,
                          {1}, 1.0f / 32768, 0, {1}, 1.0f / 128, 3,
                          ir::ActivationOptions{}, DT::kInt8);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int16_t>({1}, {16384}),
                                  MakeTensor<int16_t>({1}, {16384})}),
            (std::vector<int8_t>{35}));
}

template <typename T>
void CheckBinaryRandom(ir::OpKind kind, DT type, uint32_t seed) {
  const bool i16 = type == DT::kInt16;
  const int32_t lo = i16 ? -32768 : -128, hi = i16 ? 32767 : 127;
  const float sa = i16 ? 0.00031f : 0.037f, sb = i16 ? 0.00077f : 0.011f;
  const float so = kind == ir::OpKind::kMul ? (i16 ? 0.011f : 0.2f)
                                            : (i16 ? 0.0009f : 0.05f);
  const int32_t za = i16 ? 0 : 7, zb = i16 ? 0 : -20, zo = i16 ? 0 : 3;
  ir::Options opts;
  if (kind == ir::OpKind::kMul) {
    opts = ir::ActivationOptions{};
  } else {
    ir::AddSubOptions o;
    o.is_sub = kind == ir::OpKind::kSub;
    opts = o;
  }
  OpModel m = BinaryModel(kind, type, {4, 5, 6}, sa, za, {5, 1}, sb, zb,
                          {4, 5, 6}, so, zo, opts);
  const auto av = RandomValues<T>(120, seed, lo, hi);
  const auto bv = RandomValues<T>(5, seed + 1, lo, hi);
  std::vector<int32_t> want;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 5; ++j) {
      for (int k = 0; k < 6; ++k) {
        const double a =
            (av[static_cast<size_t>((i * 5 + j) * 6 + k)] - za) * double{sa};
        const double b = (bv[static_cast<size_t>(j)] - zb) * double{sb};
        const double r = kind == ir::OpKind::kAdd   ? a + b
                         : kind == ir::OpKind::kSub ? a - b
                                                    : a * b;
        want.push_back(QuantizeRef(r, so, zo, lo, hi));
      }
    }
  }
  const auto got = RunValues<T>(
      m, {MakeTensor<T>({4, 5, 6}, av), MakeTensor<T>({5, 1}, bv)}, 2);
  EXPECT_LE(MaxAbsDiff(got, want), 1) << ir::GetOpInfo(kind).name;
}

TEST(IntegerElementwiseTest, BinaryRandomWithinOneLsb) {
  for (ir::OpKind k : {ir::OpKind::kAdd, ir::OpKind::kSub, ir::OpKind::kMul}) {
    CheckBinaryRandom<int8_t>(k, DT::kInt8, 30);
    CheckBinaryRandom<int16_t>(k, DT::kInt16, 31);
  }
}

// ----------------------------------------------------------------- pools

TEST(IntegerElementwiseTest, AveragePoolRoundsHalfAwayFromZero) {
  // 2x2 windows: {1, 2, 3, 5} -> 11 / 4 = 2.75 -> 3; negated -> -3;
  // {1, 1, 1, 2} -> 1.25 -> 1; {-2, -2, -2, -2} -> -2.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 8, 1}, 0.5f, 0);
  const int y = QOutput(m, DT::kInt8, {1, 1, 4, 1}, 0.5f, 0);
  ir::Pool2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 2;
  o.filter_height = o.filter_width = 2;
  m.Op(ir::OpKind::kAveragePool2D, {x}, {y}, o);
  EXPECT_EQ(
      RunValues<int8_t>(
          m, {MakeTensor<int8_t>({1, 2, 8, 1}, {1, 2, -1, -2, 1, 1, -2, -2, 3,
                                                5, -3, -5, 1, 2, -2, -2})}),
      (std::vector<int8_t>{3, -3, 1, -2}));
}

TEST(IntegerElementwiseTest, PoolsCountOnlyInImageTaps) {
  // SAME 3x3 average over a 2x2 image {4, 8, 12, 16}: every window covers
  // the whole image (4 taps): 40 / 4 = 10. Max pool: 16.
  for (const bool is_max : {false, true}) {
    OpModel m;
    const int x = QInput(m, DT::kInt16, {1, 2, 2, 1}, 0.25f, 0);
    const int y = QOutput(m, DT::kInt16, {1, 2, 2, 1}, 0.25f, 0);
    ir::Pool2DOptions o;
    o.padding = ir::Padding::kSame;
    o.stride_h = o.stride_w = 1;
    o.filter_height = o.filter_width = 3;
    m.Op(is_max ? ir::OpKind::kMaxPool2D : ir::OpKind::kAveragePool2D, {x}, {y},
         o);
    const int16_t v = is_max ? 16 : 10;
    EXPECT_EQ(RunValues<int16_t>(
                  m, {MakeTensor<int16_t>({1, 2, 2, 1}, {4, 8, 12, 16})}),
              (std::vector<int16_t>{v, v, v, v}));
  }
}

TEST(IntegerElementwiseTest, PoolRejectsRequantization) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 2, 1}, 0.5f, 0);
  const int y = QOutput(m, DT::kInt8, {1, 1, 1, 1}, 0.25f, 0);
  ir::Pool2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  o.filter_height = o.filter_width = 2;
  m.Op(ir::OpKind::kMaxPool2D, {x}, {y}, o);
  EXPECT_FALSE(m.Run({MakeTensor<int8_t>({1, 2, 2, 1}, {0, 0, 0, 0})}).ok());
}

// ------------------------------------------------------------------ MEAN

TEST(IntegerElementwiseTest, MeanGlobalPoolInt8) {
  // {4, 6, 8, 10} at scale 0.5 zp 2 = {1, 2, 3, 4}, mean 2.5; output scale
  // 0.25 zp -1: 9. TFLite's fast path: sum 28 times 0.5 / (4 * 0.25) = 14,
  // plus -1 - round(2 * 0.5 / 0.25) = -5: 9.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 2, 1}, 0.5f, 2);
  const int axis = m.Constant<int32_t>({2}, {1, 2});
  const int y = QOutput(m, DT::kInt8, {1, 1, 1, 1}, 0.25f, -1);
  ir::ReducerOptions o;
  o.keep_dims = true;
  m.Op(ir::OpKind::kMean, {x, axis}, {y}, o);
  EXPECT_EQ(
      RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2, 2, 1}, {4, 6, 8, 10})}),
      (std::vector<int8_t>{9}));
}

TEST(IntegerElementwiseTest, MeanReferencePath) {
  // Rows {1, 2, 4} and {-1, -2, -4}: 7/3 = 2.33 -> 2 and -2 (scales 1).
  // The multiplier 1.0 = 2^30 * 2^(1-31) absorbs 1/3: (2^31 / 3) at shift
  // 0, and round(7 * 715827882 / 2^31) = 2.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {2, 3}, 1.0f, 0);
  const int axis = m.Constant<int32_t>({1}, {-1});
  const int y = QOutput(m, DT::kInt8, {2}, 1.0f, 0);
  m.Op(ir::OpKind::kMean, {x, axis}, {y}, ir::ReducerOptions{});
  EXPECT_EQ(
      RunValues<int8_t>(m, {MakeTensor<int8_t>({2, 3}, {1, 2, 4, -1, -2, -4})}),
      (std::vector<int8_t>{2, -2}));
}

TEST(IntegerElementwiseTest, MeanRandomWithinOneLsb) {
  for (const bool keep : {false, true}) {
    OpModel m;
    const int x = QInput(m, DT::kInt8, {2, 5, 4, 3}, 0.03f, -9);
    const int axis = m.Constant<int32_t>({2}, {1, 2});
    const int y = QOutput(
        m, DT::kInt8,
        keep ? std::vector<int32_t>{2, 1, 1, 3} : std::vector<int32_t>{2, 3},
        0.011f, 4);
    ir::ReducerOptions o;
    o.keep_dims = keep;
    m.Op(ir::OpKind::kMean, {x, axis}, {y}, o);
    const auto xv = RandomValues<int8_t>(120, 40, -128, 127);
    std::vector<int32_t> want;
    for (int b = 0; b < 2; ++b) {
      for (int c = 0; c < 3; ++c) {
        double s = 0;
        for (int i = 0; i < 20; ++i)
          s += xv[static_cast<size_t>((b * 20 + i) * 3 + c)] + 9;
        want.push_back(QuantizeRef(s / 20 * 0.03, 0.011, 4, -128, 127));
      }
    }
    EXPECT_LE(
        MaxAbsDiff(RunValues<int8_t>(m, {MakeTensor<int8_t>({2, 5, 4, 3}, xv)}),
                   want),
        1);
  }
}

// --------------------------------------------------------------- SOFTMAX

TEST(IntegerElementwiseTest, SoftmaxInt8HandDerived) {
  // {10, 20, 30} at scale 0.1 = {1, 2, 3}: softmax {0.0900, 0.2447,
  // 0.6652} times 256 = {23.05, 62.65, 170.30} -> {23, 63, 170}, minus 128.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 3}, 0.1f, 0);
  const int y = QOutput(m, DT::kInt8, {1, 3}, 1.0f / 256, -128);
  ir::SoftmaxOptions o;
  o.beta = 1.0f;
  m.Op(ir::OpKind::kSoftmax, {x}, {y}, o);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 3}, {10, 20, 30})}),
            (std::vector<int8_t>{-105, -65, 42}));
}

TEST(IntegerElementwiseTest, SoftmaxRandomWithinOneLsbAndInt16Close) {
  for (const bool i16 : {false, true}) {
    const float si = i16 ? 0.0005f : 0.07f;
    OpModel m;
    const int x = QInput(m, i16 ? DT::kInt16 : DT::kInt8, {3, 17}, si, 0);
    const int y = QOutput(m, i16 ? DT::kInt16 : DT::kInt8, {3, 17},
                          i16 ? 1.0f / 32768 : 1.0f / 256, i16 ? 0 : -128);
    ir::SoftmaxOptions o;
    o.beta = 0.8f;
    m.Op(ir::OpKind::kSoftmax, {x}, {y}, o);
    const int32_t lo = i16 ? -32768 : -128, hi = i16 ? 32767 : 127;
    // int16 inputs within +-8 real so that exp() stays inside the table.
    const auto xv =
        RandomValues<int16_t>(51, 50, i16 ? -16000 : lo, i16 ? 16000 : hi);
    std::vector<int32_t> want;
    for (int r = 0; r < 3; ++r) {
      double mx = -1e9, sum = 0;
      for (int c = 0; c < 17; ++c)
        mx = std::max<double>(mx,
                              xv[static_cast<size_t>(r * 17 + c)] * double{si});
      for (int c = 0; c < 17; ++c)
        sum += std::exp(
            0.8 * (xv[static_cast<size_t>(r * 17 + c)] * double{si} - mx));
      for (int c = 0; c < 17; ++c) {
        const double p =
            std::exp(0.8 *
                     (xv[static_cast<size_t>(r * 17 + c)] * double{si} - mx)) /
            sum;
        want.push_back(i16 ? QuantizeRef(p, 1.0 / 32768, 0, 0, 32767)
                           : QuantizeRef(p, 1.0 / 256, -128, -128, 127));
      }
    }
    if (i16) {
      // TFLite's int16 softmax interpolates 513-entry tables: a couple
      // of LSB of 2^-15.
      EXPECT_LE(
          MaxAbsDiff(RunValues<int16_t>(m, {MakeTensor<int16_t>({3, 17}, xv)}),
                     want),
          3);
    } else {
      std::vector<int8_t> x8(xv.begin(), xv.end());
      EXPECT_LE(
          MaxAbsDiff(RunValues<int8_t>(m, {MakeTensor<int8_t>({3, 17}, x8)}),
                     want),
          1);
    }
  }
}

// ------------------------------------------------- QUANTIZE / DEQUANTIZE

TEST(IntegerElementwiseTest, QuantizeFloatToInt8) {
  // scale 0.5, zp 3: 1.25 / 0.5 = 2.5 -> 3 (half away from zero) + 3 = 6;
  // -0.25 -> -0.5 -> -1 + 3 = 2; 100 -> 127; -100 -> -128.
  OpModel m;
  const int x = m.Input(DT::kFloat32, {4});
  const int y = QOutput(m, DT::kInt8, {4}, 0.5f, 3);
  m.Op(ir::OpKind::kQuantize, {x}, {y});
  EXPECT_EQ(RunValues<int8_t>(
                m, {MakeTensor<float>({4}, {1.25f, -0.25f, 100.f, -100.f})}),
            (std::vector<int8_t>{6, 2, 127, -128}));
}

TEST(IntegerElementwiseTest, QuantizeFloatToInt8XnnpackRoundsHalfToEven) {
  // --arithmetic xnnpack: LiteRT's XNNPACK converts with x * (1 / scale)
  // rounded half to even. Scale 0.5 (reciprocal 2, exact), zp 3: 1.25 ->
  // 2.5 -> 2 + 3 = 5 (TFLite: 6); -0.25 -> -0.5 -> -0 + 3 = 3 (TFLite: 2);
  // 0.75 -> 1.5 -> 2 + 3 = 5 (as TFLite); 100 -> 127; -100 -> -128.
  OpModel m;
  const int x = m.Input(DT::kFloat32, {5});
  const int y = QOutput(m, DT::kInt8, {5}, 0.5f, 3);
  m.Op(ir::OpKind::kQuantize, {x}, {y});
  numerics::Modes modes;
  modes.arithmetic = numerics::Arithmetic::kXnnpack;
  EXPECT_EQ(
      RunValues<int8_t>(
          m, {MakeTensor<float>({5}, {1.25f, -0.25f, 0.75f, 100.f, -100.f})}, 1,
          modes),
      (std::vector<int8_t>{5, 3, 5, 127, -128}));
}

TEST(IntegerElementwiseTest, RequantizeInt8XnnpackUsesAnEightBitMultiplier) {
  // --arithmetic xnnpack: XNNPACK's int8 -> int8 convert rounds the scale
  // ratio to 8 fractional bits and computes (x * m + 128) >> 8. Ratio
  // 205/1024 (exact in float): m = round(51.25) = 51; x = -128:
  // (-6528 + 128) >> 8 = -25, where TFLite rounds -25.625 to -26; x = 100:
  // 5228 >> 8 = 20 (TFLite: 20.02 -> 20).
  OpModel m;
  const int x = QInput(m, DT::kInt8, {2}, 205.0f / 1024, 0);
  const int y = QOutput(m, DT::kInt8, {2}, 1.0f, 0);
  m.Op(ir::OpKind::kQuantize, {x}, {y});
  numerics::Modes modes;
  modes.arithmetic = numerics::Arithmetic::kXnnpack;
  EXPECT_EQ(
      RunValues<int8_t>(m, {MakeTensor<int8_t>({2}, {-128, 100})}, 1, modes),
      (std::vector<int8_t>{-25, 20}));
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({2}, {-128, 100})}),
            (std::vector<int8_t>{-26, 20}));
}

TEST(IntegerElementwiseTest, RequantizeInt8ToUint8AndInt16ToInt8) {
  {
    // Same scale, zero point -128 -> 0: x + 128.
    OpModel m;
    const int x = QInput(m, DT::kInt8, {3}, 0.3f, -128);
    const int y = QOutput(m, DT::kUInt8, {3}, 0.3f, 0);
    m.Op(ir::OpKind::kQuantize, {x}, {y});
    EXPECT_EQ(RunValues<uint8_t>(m, {MakeTensor<int8_t>({3}, {-128, 0, 127})}),
              (std::vector<uint8_t>{0, 128, 255}));
  }
  {
    // int16 scale 2^-10 -> int8 scale 0.05 zp -4, random within 1 LSB.
    OpModel m;
    const int x = QInput(m, DT::kInt16, {200}, 1.0f / 1024, 0);
    const int y = QOutput(m, DT::kInt8, {200}, 0.05f, -4);
    m.Op(ir::OpKind::kQuantize, {x}, {y});
    const auto xv = RandomValues<int16_t>(200, 60, -8000, 8000);
    std::vector<int32_t> want;
    for (int16_t v : xv)
      want.push_back(QuantizeRef(v / 1024.0, 0.05, -4, -128, 127));
    EXPECT_LE(MaxAbsDiff(RunValues<int8_t>(m, {MakeTensor<int16_t>({200}, xv)}),
                         want),
              1);
  }
}

TEST(IntegerElementwiseTest, DequantizeInt8) {
  // (5 - 3) * 0.5 = 1; (-128 - 3) * 0.5 = -65.5.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {2}, 0.5f, 3);
  const int y = m.Output(DT::kFloat32, {2});
  m.Op(ir::OpKind::kDequantize, {x}, {y});
  EXPECT_EQ(RunValues<float>(m, {MakeTensor<int8_t>({2}, {5, -128})}),
            (std::vector<float>{1.0f, -65.5f}));
}

// --------------------------------------------------------- CONCATENATION

TEST(IntegerElementwiseTest, ConcatenationRequantizesDifferingInputs) {
  // uint8, the type TFLite's ConcatenationWithScaling serves.
  // Input 0 shares the output's quantization (1, 10) and is copied: {11, 12}.
  // Input 1 at scale 0.5 zp 10: {14, 6} = {2, -2} -> output: {12, 8}.
  OpModel m;
  const int a = QInput(m, DT::kUInt8, {1, 2}, 1.0f, 10);
  const int b = QInput(m, DT::kUInt8, {1, 2}, 0.5f, 10);
  const int y = QOutput(m, DT::kUInt8, {1, 4}, 1.0f, 10);
  ir::ConcatenationOptions o;
  o.axis = -1;
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y}, o);
  EXPECT_EQ(RunValues<uint8_t>(m, {MakeTensor<uint8_t>({1, 2}, {11, 12}),
                                   MakeTensor<uint8_t>({1, 2}, {14, 6})}),
            (std::vector<uint8_t>{11, 12, 12, 8}));
}

TEST(IntegerElementwiseTest, Int8ConcatenationWithDifferingInputsIsRefused) {
  // TFLite's concatenation.cc Prepare requires int8/int16 inputs quantized
  // exactly like the output; qforge refuses the form LiteRT would.
  OpModel m;
  const int a = QInput(m, DT::kInt8, {1, 2}, 1.0f, 0);
  const int b = QInput(m, DT::kInt8, {1, 2}, 0.5f, 10);
  const int y = QOutput(m, DT::kInt8, {1, 4}, 1.0f, 0);
  ir::ConcatenationOptions o;
  o.axis = -1;
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y}, o);
  const auto out = m.Run(
      {MakeTensor<int8_t>({1, 2}, {1, 2}), MakeTensor<int8_t>({1, 2}, {14, 6})},
      1);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(std::string(out.status().message()),
              ::testing::HasSubstr("LiteRT refuses this form: CONCATENATION"));
}

TEST(IntegerElementwiseTest, ConcatenationInt16Axis0) {
  OpModel m;
  const int a = QInput(m, DT::kInt16, {1, 2}, 0.01f, 0);
  const int b = QInput(m, DT::kInt16, {2, 2}, 0.01f, 0);
  const int y = QOutput(m, DT::kInt16, {3, 2}, 0.01f, 0);
  ir::ConcatenationOptions o;
  o.axis = 0;
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y}, o);
  EXPECT_EQ(RunValues<int16_t>(
                m, {MakeTensor<int16_t>({1, 2}, {1, -2}),
                    MakeTensor<int16_t>({2, 2}, {300, 400, -500, 600})}),
            (std::vector<int16_t>{1, -2, 300, 400, -500, 600}));
}

// ------------------------------------------------ data movement (shape_ops)

TEST(IntegerElementwiseTest, PadFillsInt8WithTheZeroPoint) {
  // Quantized PAD is served by the shape_ops kernel (bytes) and must pad
  // with the output zero point (real 0.0), here -5.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2}, 0.5f, -5);
  const int pads = m.Constant<int32_t>({2, 2}, {0, 0, 1, 2});
  const int y = QOutput(m, DT::kInt8, {1, 5}, 0.5f, -5);
  m.Op(ir::OpKind::kPad, {x, pads}, {y});
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2}, {7, 9})}),
            (std::vector<int8_t>{-5, 7, 9, -5, -5}));
}

TEST(IntegerElementwiseTest, ReshapeAndStridedSliceMoveInt8Bytes) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {2, 3}, 0.5f, 1);
  const int shape = m.Constant<int32_t>({1}, {6});
  const int flat = m.Tensor(DT::kInt8, {6});
  SetQuant(m, flat, {0.5f}, {1});
  m.Op(ir::OpKind::kReshape, {x, shape}, {flat});
  const int begin = m.Constant<int32_t>({1}, {1});
  const int end = m.Constant<int32_t>({1}, {6});
  const int strides = m.Constant<int32_t>({1}, {2});
  const int y = QOutput(m, DT::kInt8, {3}, 0.5f, 1);
  m.Op(ir::OpKind::kStridedSlice, {flat, begin, end, strides}, {y},
       ir::StridedSliceOptions{});
  EXPECT_EQ(RunValues<int8_t>(
                m, {MakeTensor<int8_t>({2, 3}, {-1, -2, -3, -4, -5, -6})}),
            (std::vector<int8_t>{-2, -4, -6}));
}

}  // namespace
}  // namespace qforge::testing::integer_test
