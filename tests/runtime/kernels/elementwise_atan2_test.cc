// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ATAN2(y, x): the angle of the point (x, y), in (-pi, pi]. Expected values
// by hand, one per quadrant and axis:
//   (x, y) = (1, 1) -> pi/4      (-1, 1) -> 3pi/4    (-1, -1) -> -3pi/4
//            (-1, 0) -> pi       (0, 1) -> pi/2      (1, 0) -> 0
//            (0, -2) -> -pi/2    (2, -2) -> -pi/4
// and with y broadcast over x.
#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

constexpr double kPi = 3.14159265358979323846;

absl::StatusOr<std::vector<float>> Atan2(std::vector<int32_t> y_shape,
                                         std::vector<float> y,
                                         std::vector<int32_t> x_shape,
                                         std::vector<float> x,
                                         std::vector<int32_t> out_shape) {
  OpModel m;
  const int a = m.Input(ir::DataType::kFloat32, y_shape);
  const int b = m.Input(ir::DataType::kFloat32, x_shape);
  const int o = m.Output(ir::DataType::kFloat32, out_shape);
  m.Op(ir::OpKind::kAtan2, {a, b}, {o});
  auto out = m.Run({MakeTensor<float>({y_shape.begin(), y_shape.end()}, y),
                    MakeTensor<float>({x_shape.begin(), x_shape.end()}, x)});
  if (!out.ok()) return out.status();
  return Values<float>((*out)[0]);
}

TEST(Atan2Test, Quadrants) {
  auto got = Atan2({8}, {1, 1, -1, 0, 1, 0, -2, -2}, {8},
                   {1, -1, -1, -1, 0, 1, 0, 2}, {8});
  ASSERT_TRUE(got.ok()) << got.status();
  const double want[] = {kPi / 4, 3 * kPi / 4, -3 * kPi / 4, kPi,
                         kPi / 2, 0,           -kPi / 2,     -kPi / 4};
  ASSERT_EQ(got->size(), 8u);
  for (size_t i = 0; i < 8; ++i) EXPECT_NEAR((*got)[i], want[i], 1e-6) << i;
}

TEST(Atan2Test, Broadcasts) {
  // y [2, 1] = {1, -1} against x [3] = {1, 0, -1}:
  //   row 0: pi/4, pi/2, 3pi/4; row 1: -pi/4, -pi/2, -3pi/4.
  auto got = Atan2({2, 1}, {1, -1}, {3}, {1, 0, -1}, {2, 3});
  ASSERT_TRUE(got.ok()) << got.status();
  const double want[] = {kPi / 4,  kPi / 2,  3 * kPi / 4,
                         -kPi / 4, -kPi / 2, -3 * kPi / 4};
  ASSERT_EQ(got->size(), 6u);
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR((*got)[i], want[i], 1e-6) << i;
}

TEST(Atan2Test, RejectsIntegers) {
  OpModel m;
  const int a = m.Input(ir::DataType::kInt32, {1});
  const int b = m.Input(ir::DataType::kInt32, {1});
  const int o = m.Output(ir::DataType::kInt32, {1});
  m.Op(ir::OpKind::kAtan2, {a, b}, {o});
  auto out =
      m.Run({MakeTensor<int32_t>({1}, {1}), MakeTensor<int32_t>({1}, {1})});
  EXPECT_FALSE(out.ok());
}

}  // namespace
}  // namespace qforge
