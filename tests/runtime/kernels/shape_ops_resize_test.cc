// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR with each coordinate mode.
// The sampling positions are worked out by hand in the comments from
// TFLite's definitions:
//   scale = in / out, or (in - 1) / (out - 1) with align_corners;
//   nearest:  floor(x * scale), round-half-away(x * scale) with
//             align_corners, floor((x + 0.5) * scale) with half_pixel;
//   bilinear: pos = x * scale, or (x + 0.5) * scale - 0.5 with half_pixel,
//             lo = max(floor(pos), 0), hi = min(ceil(pos), in - 1),
//             weights (1 - (pos - lo), pos - lo).
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;
using DT = ir::DataType;

template <typename T>
absl::StatusOr<std::vector<ir::HostTensor>> Resize(
    bool nearest, std::vector<int32_t> shape, const std::vector<T>& data,
    int32_t out_h, int32_t out_w, bool align, bool half, int threads = 1) {
  OpModel m;
  int x = m.Input(OpModel::TypeOf<T>(), shape);
  int s = m.Constant<int32_t>({2}, {out_h, out_w});
  int y = m.Output(OpModel::TypeOf<T>(), {});
  m.Op(nearest ? ir::OpKind::kResizeNearestNeighbor
               : ir::OpKind::kResizeBilinear,
       {x, s}, {y}, ir::ResizeOptions{align, half, nearest});
  return m.Run(
      {MakeTensor<T>(std::vector<int64_t>(shape.begin(), shape.end()), data)},
      threads);
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5) << "element " << i;
  }
}

// [[1,2],[3,4]] to 4x4, default: scale 0.5, floor(x/2) = 0,0,1,1.
TEST(ResizeNearest, Default2x) {
  auto out =
      Resize<float>(true, {1, 2, 2, 1}, {1, 2, 3, 4}, 4, 4, false, false);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 4, 4, 1}));
  EXPECT_EQ(
      Values<float>((*out)[0]),
      (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
}

// [[1,2],[3,4]] to 3x3 with align_corners: scale 1/2, round(0)=0,
// round(0.5)=1 (half away from zero), round(1)=1.
TEST(ResizeNearest, AlignCorners) {
  auto out = Resize<float>(true, {1, 2, 2, 1}, {1, 2, 3, 4}, 3, 3, true, false);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
}

// Width 3 -> 2 (int32 data, two channels): scale 1.5. Default: floor(0),
// floor(1.5) = columns 0,1. half_pixel: floor(0.75), floor(2.25) = 0,2.
TEST(ResizeNearest, HalfPixelCentersInt32) {
  const std::vector<int32_t> in = {10, 11, 20, 21, 30, 31};
  auto plain = Resize<int32_t>(true, {1, 1, 3, 2}, in, 1, 2, false, false);
  auto half = Resize<int32_t>(true, {1, 1, 3, 2}, in, 1, 2, false, true);
  ASSERT_TRUE(plain.ok()) << plain.status();
  ASSERT_TRUE(half.ok()) << half.status();
  EXPECT_EQ(Values<int32_t>((*plain)[0]),
            (std::vector<int32_t>{10, 11, 20, 21}));
  EXPECT_EQ(Values<int32_t>((*half)[0]),
            (std::vector<int32_t>{10, 11, 30, 31}));
}

// f = [[1,2],[3,4]] = 1 + x + 2y to 3x3, default: scale 2/3, positions
// 0, 2/3, 4/3; at 4/3 lo = hi = 1 so the sample is clamped to 1:
//   row y=0:   1,       1+2/3,   2
//   row y=2/3: 1+4/3,   1+2,     1+1+4/3
//   row y=1:   3,       3+2/3,   4
TEST(ResizeBilinear, Default) {
  auto out =
      Resize<float>(false, {1, 2, 2, 1}, {1, 2, 3, 4}, 3, 3, false, false);
  ASSERT_TRUE(out.ok()) << out.status();
  const float t = 2.0f / 3.0f;
  ExpectNear(Values<float>((*out)[0]),
             {1, 1 + t, 2, 1 + 2 * t, 3, 2 + 2 * t, 3, 3 + t, 4});
}

// align_corners 2 -> 3: scale 1/2, positions 0, 0.5, 1.
TEST(ResizeBilinear, AlignCorners) {
  auto out =
      Resize<float>(false, {1, 2, 2, 1}, {1, 2, 3, 4}, 3, 3, true, false);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(Values<float>((*out)[0]), {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
}

// half_pixel 2 -> 4 on [1,2] (width only): scale 1/2, positions -0.25,
// 0.25, 0.75, 1.25. At -0.25: lo = hi = 0 -> 1; at 1.25: lo = hi = 1 -> 2;
// between: 1.25 and 1.75.
TEST(ResizeBilinear, HalfPixelCenters) {
  auto out = Resize<float>(false, {1, 1, 2, 1}, {1, 2}, 1, 4, false, true);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(Values<float>((*out)[0]), {1, 1.25, 1.75, 2});
}

TEST(ResizeBilinear, AlignCornersWithHalfPixelIsAnError) {
  EXPECT_FALSE(
      Resize<float>(false, {1, 2, 2, 1}, {1, 2, 3, 4}, 3, 3, true, true).ok());
  EXPECT_FALSE(
      Resize<float>(false, {1, 2, 2, 1}, {1, 2, 3, 4}, 0, 3, false, false)
          .ok());
}

// A larger upsample is bit-identical with 1 and 4 threads.
TEST(ResizeBilinear, ThreadCountDoesNotMatter) {
  std::vector<float> in(2 * 17 * 13 * 5);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = std::sin(0.37f * static_cast<float>(i));
  }
  for (bool nearest : {false, true}) {
    auto one =
        Resize<float>(nearest, {2, 17, 13, 5}, in, 61, 47, false, true, 1);
    auto four =
        Resize<float>(nearest, {2, 17, 13, 5}, in, 61, 47, false, true, 4);
    ASSERT_TRUE(one.ok()) << one.status();
    ASSERT_TRUE(four.ok()) << four.status();
    EXPECT_EQ((*one)[0], (*four)[0]);
  }
}

// The size comes from a computed (non-constant) tensor.
TEST(ResizeNearest, RuntimeSize) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {1, 1, 1, 1});
  int s = m.Input(DT::kInt32, {2});
  int y = m.Output(DT::kFloat32, {});
  m.Op(ir::OpKind::kResizeNearestNeighbor, {x, s}, {y},
       ir::ResizeOptions{false, false, true});
  auto out = m.Run(
      {MakeTensor<float>({1, 1, 1, 1}, {7}), MakeTensor<int32_t>({2}, {2, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 2, 3, 1}));
  EXPECT_EQ(Values<float>((*out)[0]), std::vector<float>(6, 7.0f));
}

}  // namespace
}  // namespace qforge
