// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer BATCH_MATMUL: hand-derived int8 products with zero points, adj_y,
// batch broadcasting, int16 with the int64 accumulator, and int16 x int8
// (a16w8) with a per-tensor rhs scale and with per-channel rhs scales
// (which LiteRT's kernel reads as scale 0).
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

// lhs scale 0.5 zp 1, rhs scale 0.25 zp -2, output 0.125 zp 0: the
// multiplier is 0.5 * 0.25 / 0.125 = 1, so out = sum (l - 1)(r + 2).
OpModel Int8Model(std::vector<int32_t> lhs_shape,
                  std::vector<int32_t> rhs_shape,
                  std::vector<int32_t> out_shape, ir::BatchMatMulOptions o) {
  OpModel m;
  const int l = QInput(m, DT::kInt8, lhs_shape, 0.5f, 1);
  const int r = QInput(m, DT::kInt8, rhs_shape, 0.25f, -2);
  const int y = QOutput(m, DT::kInt8, out_shape, 0.125f, 0);
  m.Op(ir::OpKind::kBatchMatMul, {l, r}, {y}, o);
  return m;
}

TEST(IntegerBatchMatMulTest, Int8HandDerived) {
  // l - 1 = [[1,2,3],[0,0,-1]], r + 2 = [[1,0],[2,0],[3,1]]:
  // row 0: [1 + 4 + 9, 3] = [14, 3]; row 1: [-3, -1].
  OpModel m = Int8Model({1, 2, 3}, {1, 3, 2}, {1, 2, 2}, {});
  EXPECT_EQ(RunValues<int8_t>(
                m, {MakeTensor<int8_t>({1, 2, 3}, {2, 3, 4, 1, 1, 0}),
                    MakeTensor<int8_t>({1, 3, 2}, {-1, -2, 0, -2, 1, -1})}),
            (std::vector<int8_t>{14, 3, -3, -1}));
}

TEST(IntegerBatchMatMulTest, Int8AdjYAndBatchBroadcast) {
  // The same rhs given transposed (adj_y: [N, K] = [[-1,0,1],[-2,-2,-1]]),
  // shared by two lhs batches; the second batch is the first negated
  // around the zero point (l - 1 -> -(l - 1)), so its products negate.
  ir::BatchMatMulOptions o;
  o.adj_y = true;
  OpModel m = Int8Model({2, 2, 3}, {1, 2, 3}, {2, 2, 2}, o);
  EXPECT_EQ(RunValues<int8_t>(
                m, {MakeTensor<int8_t>({2, 2, 3}, {2, 3, 4, 1, 1, 0,  //
                                                   0, -1, -2, 1, 1, 2}),
                    MakeTensor<int8_t>({1, 2, 3}, {-1, 0, 1, -2, -2, -1})}),
            (std::vector<int8_t>{14, 3, -3, -1, -14, -3, 3, 1}));
}

TEST(IntegerBatchMatMulTest, Int16Int64Accumulator) {
  // int16, zero points 0, scales 2^-8 x 2^-8 / 2^-4 = 2^-12: 30000 * 30000
  // * 2 = 1.8e9 would overflow nothing in int64; 1.8e9 / 4096 = 439453.125
  // saturates to 32767. 100 * 200 + 300 * 400 = 140000 / 4096 = 34.18 -> 34.
  OpModel m;
  const int l = QInput(m, DT::kInt16, {1, 2}, 1.0f / 256, 0);
  const int r = QInput(m, DT::kInt16, {2, 1}, 1.0f / 256, 0);
  const int y = QOutput(m, DT::kInt16, {1, 1}, 1.0f / 16, 0);
  m.Op(ir::OpKind::kBatchMatMul, {l, r}, {y}, ir::BatchMatMulOptions{});
  EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({1, 2}, {100, 300}),
                                   MakeTensor<int16_t>({2, 1}, {200, 400})}),
            (std::vector<int16_t>{34}));
  EXPECT_EQ(
      RunValues<int16_t>(m, {MakeTensor<int16_t>({1, 2}, {30000, 30000}),
                             MakeTensor<int16_t>({2, 1}, {30000, 30000})}),
      (std::vector<int16_t>{32767}));
}

// int16 lhs (scale 2^-8) x int8 rhs (2^-4) -> int16 (2^-14): multiplier
// 2^-12 / 2^-14 = 4. 1000 * 3 + (-2000) * (-5) = 13000 -> 52000 saturates
// to 32767; 7 * 3 + 1 * (-5) = 16 -> 64; -7 * 3 = -21 -> -84.
TEST(IntegerBatchMatMulTest, Int16xInt8PerTensor) {
  OpModel m;
  const int l = QInput(m, DT::kInt16, {3, 2}, 1.0f / 256, 0);
  const int r = QConst<int8_t>(m, {2, 1}, {3, -5}, {1.0f / 16}, {0});
  const int y = QOutput(m, DT::kInt16, {3, 1}, 1.0f / 16384, 0);
  m.Op(ir::OpKind::kBatchMatMul, {l, r}, {y}, ir::BatchMatMulOptions{});
  EXPECT_EQ(RunValues<int16_t>(
                m, {MakeTensor<int16_t>({3, 2}, {1000, -2000, 7, 1, -7, 0})}),
            (std::vector<int16_t>{32767, 64, -84}));
}

// Per-channel rhs scales: TFLite fills a tensor's per-tensor ("legacy")
// scale only when it has one scale, so LiteRT's kernel computes with rhs
// scale 0, multiplier 0, and writes the output zero point everywhere
// (measured on the corpus's static_w8_a16 einsum twins); qforge does too.
TEST(IntegerBatchMatMulTest, Int16xInt8PerChannelRhsGivesZeroPoint) {
  OpModel m;
  const int l = QInput(m, DT::kInt16, {1, 2}, 1.0f / 256, 0);
  const int r = QConst<int8_t>(m, {2, 2}, {3, -5, 1, 2}, {0.25f, 0.5f}, {0, 0},
                               /*axis=*/1);
  const int y = QOutput(m, DT::kInt16, {1, 2}, 1.0f / 1024, 0);
  m.Op(ir::OpKind::kBatchMatMul, {l, r}, {y}, ir::BatchMatMulOptions{});
  EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({1, 2}, {1000, -2000})}),
            (std::vector<int16_t>{0, 0}));
}

TEST(IntegerBatchMatMulTest, Int8xInt16IsRefused) {
  OpModel m;
  const int l = QInput(m, DT::kInt8, {1, 2}, 0.5f, 0);
  const int r = QInput(m, DT::kInt16, {2, 1}, 0.5f, 0);
  const int y = QOutput(m, DT::kInt8, {1, 1}, 0.5f, 0);
  m.Op(ir::OpKind::kBatchMatMul, {l, r}, {y}, ir::BatchMatMulOptions{});
  auto out = m.Run({MakeTensor<int8_t>({1, 2}, {1, 2}),
                    MakeTensor<int16_t>({2, 1}, {1, 2})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace qforge::testing::integer_test
