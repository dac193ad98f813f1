// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer RESIZE_BILINEAR (TFLite's 10-bit fixed-point interpolation):
// hand-derived cases for the default, half-pixel and align-corners
// sampling, the rounding of ties away from zero, and int16.
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

OpModel ResizeModel(DT type, std::vector<int32_t> in_shape, int32_t out_h,
                    int32_t out_w, ir::ResizeOptions o) {
  OpModel m;
  const int x = QInput(m, type, in_shape, 0.1f, 0);
  const int size = m.Constant<int32_t>({2}, {out_h, out_w});
  const int y =
      QOutput(m, type, {in_shape[0], out_h, out_w, in_shape[3]}, 0.1f, 0);
  m.Op(ir::OpKind::kResizeBilinear, {x, size}, {y}, o);
  return m;
}

TEST(IntegerResizeTest, Int8DoublesWidth) {
  // [1,1,2,1] {0, 3} -> width 4: scale_10 = (2 * 1024 + 2) / 4 = 512.
  // x = 0: position 0 -> 0. x = 1: position 512 = 0.5 between 0 and 3:
  // 3 * 1024 * 512 / 2^20 = 1.5 -> 2 (a positive half goes up in both
  // builds). x = 2: 3.
  // x = 3: position 1536 clamps to the last column: 3.
  OpModel m = ResizeModel(DT::kInt8, {1, 1, 2, 1}, 1, 4, {});
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 1, 2, 1}, {0, 3})}),
            (std::vector<int8_t>{0, 2, 3, 3}));
  // Negative ties: TFLite's single-rounding build (LiteRT's, the default
  // --rounding single) adds 2^19 and shifts, -1.5 -> -1; its double-rounding
  // build rounds away from zero, -1.5 -> -2.
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 1, 2, 1}, {0, -3})}),
            (std::vector<int8_t>{0, -1, -3, -3}));
  numerics::Modes twice;
  twice.rounding = numerics::RoundingPolicy::kDouble;
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 1, 2, 1}, {0, -3})}, 1,
                              twice),
            (std::vector<int8_t>{0, -2, -3, -3}));
}

TEST(IntegerResizeTest, Int8HalfPixelCenters) {
  // half_pixel_centers: position = x * 512 + 256 - 512. x = 0: -256, low
  // and high index 0: the first value, 10. x = 1: 256 = 0.25 between 10 and
  // 20: 12.5 -> 13. x = 2: 768 = 0.75: 17.5 -> 18. x = 3: 1280, both
  // neighbours the last column: 20.
  ir::ResizeOptions o;
  o.half_pixel_centers = true;
  OpModel m = ResizeModel(DT::kInt8, {1, 1, 2, 1}, 1, 4, o);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 1, 2, 1}, {10, 20})}),
            (std::vector<int8_t>{10, 13, 18, 20}));
}

TEST(IntegerResizeTest, Int16AlignCornersTwoByTwo) {
  // align_corners, 2x2 -> 3x3: scale_10 = (1024 * 1 + 1) / 2 = 512; the
  // centre is the mean of the four corners {0, 1000, 2000, 3001}: 6001 / 4
  // = 1500.25 -> 1500; edge midpoints 500, 2500.5 -> 2501, 1000, 2000.5 ->
  // 2001.
  ir::ResizeOptions o;
  o.align_corners = true;
  OpModel m = ResizeModel(DT::kInt16, {1, 2, 2, 1}, 3, 3, o);
  EXPECT_EQ(
      RunValues<int16_t>(
          m, {MakeTensor<int16_t>({1, 2, 2, 1}, {0, 1000, 2000, 3001})}),
      (std::vector<int16_t>{0, 500, 1000, 1000, 1500, 2001, 2000, 2501, 3001}));
}

}  // namespace
}  // namespace qforge::testing::integer_test
