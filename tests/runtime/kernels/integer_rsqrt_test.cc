// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer RSQRT: int8 through TFLite's fixed-point inverse square root
// (hand-derived values), int16 through TFLite's interpolated table
// (within 1 LSB of the real result over the whole positive range), and the
// run-time error on negative inputs.
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

OpModel RsqrtModel(DT type, std::vector<int32_t> shape, float si, int64_t zi,
                   float so, int64_t zo) {
  OpModel m;
  const int x = QInput(m, type, shape, si, zi);
  const int y = QOutput(m, type, shape, so, zo);
  m.Op(ir::OpKind::kRsqrt, {x}, {y}, ir::Options{});
  return m;
}

TEST(IntegerRsqrtTest, Int8HandDerived) {
  // Input scale 0.25, zp -128; output scale 1/64, zp -128. Multiplier
  // 1 / (sqrt(0.25) / 64) = 128 = 2^30 x 2^-31 x 2^8. For v = raw + 128:
  //  v = 4  (1.0):  1/sqrt(4) * 2^20 = 524288; * 128 * 2^-20 = 64 -> -64
  //  v = 16 (4.0):  2^20 / 4 * 128 / 2^20 = 32 -> -96
  //  v = 64 (16.0): 16 -> -112
  //  v = 1  (0.25): TFLite treats v <= 1 as 1: 128 -> 0
  //  v = 0:         the type's maximum, 127
  OpModel m = RsqrtModel(DT::kInt8, {5}, 0.25f, -128, 1.0f / 64, -128);
  EXPECT_EQ(RunValues<int8_t>(
                m, {MakeTensor<int8_t>({5}, {-124, -112, -64, -127, -128})}),
            (std::vector<int8_t>{-64, -96, -112, 0, 127}));
}

TEST(IntegerRsqrtTest, Int8WithinOneLsbOfRealResult) {
  OpModel m = RsqrtModel(DT::kInt8, {254}, 0.05f, -128, 1.0f / 32, -128);
  std::vector<int8_t> in;
  std::vector<int32_t> want;
  for (int q = -126; q <= 127; ++q) {  // v = 2 .. 255
    in.push_back(static_cast<int8_t>(q));
    want.push_back(QuantizeRef(1.0 / std::sqrt(0.05 * (q + 128)), 1.0 / 32,
                               -128, -128, 127));
  }
  EXPECT_LE(
      MaxAbsDiff(RunValues<int8_t>(m, {MakeTensor<int8_t>({254}, in)}), want),
      1);
}

TEST(IntegerRsqrtTest, Int16TableWithinOneLsb) {
  // Input scale 2^-10 (reals in (0, 32)), output scale 2^-8: the table
  // interpolates 1/sqrt linearly between 512 samples 0.125 apart; from 1.0
  // up the interpolation error (h^2 / 8 * max |f''| = 0.0015, about 0.4
  // LSB, halved by TFLite's midpoint bias) plus rounding stays within 1 LSB
  // of the real result.
  const float si = 1.0f / 1024, so = 1.0f / 256;
  OpModel m = RsqrtModel(DT::kInt16, {32}, si, 0, so, 0);
  std::vector<int16_t> in;
  std::vector<int32_t> want;
  for (int k = 0; k < 32; ++k) {
    const int16_t q = static_cast<int16_t>(1024 + k * 1000);  // 1.0 .. 31.3
    in.push_back(q);
    want.push_back(
        QuantizeRef(1.0 / std::sqrt(q * double{si}), so, 0, -32768, 32767));
  }
  EXPECT_LE(
      MaxAbsDiff(RunValues<int16_t>(m, {MakeTensor<int16_t>({32}, in)}), want),
      1);
}

TEST(IntegerRsqrtTest, NegativeInputIsAnError) {
  OpModel m = RsqrtModel(DT::kInt8, {2}, 0.25f, 0, 1.0f / 64, -128);
  absl::StatusOr<std::vector<ir::HostTensor>> out =
      m.Run({MakeTensor<int8_t>({2}, {4, -1})}, 1);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("positive"), std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge::testing::integer_test
