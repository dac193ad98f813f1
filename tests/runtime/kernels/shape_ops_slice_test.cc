// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SLICE and STRIDED_SLICE. Unless said otherwise the input is the 3x4
// matrix x[r][c] = 4r + c:
//    0  1  2  3
//    4  5  6  7
//    8  9 10 11
// and every expected value is read off it by hand (Python slice notation in
// the comments).
#include <numeric>
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

using testing::Iota;

// x[1:3, 1:] via begin [1,1], size [2,-1] -> [[5,6,7],[9,10,11]].
TEST(Slice, SizeMinusOne) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {3, 4});
  int b = m.Constant<int32_t>({2}, {1, 1});
  int s = m.Constant<int64_t>({2}, {2, -1});
  int y = m.Output(DT::kFloat32, {2, 3});
  m.Op(ir::OpKind::kSlice, {x, b, s}, {y});
  auto out = m.Run({MakeTensor<float>({3, 4}, Iota(12))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{5, 6, 7, 9, 10, 11}));
}

// begin known only at run time: x[2:3, 0:2] -> [8, 9].
TEST(Slice, RuntimeBegin) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {3, 4});
  int b = m.Input(DT::kInt32, {2});
  int s = m.Constant<int32_t>({2}, {1, 2});
  int y = m.Output(DT::kFloat32, {1, 2});
  m.Op(ir::OpKind::kSlice, {x, b, s}, {y});
  auto out = m.Run(
      {MakeTensor<float>({3, 4}, Iota(12)), MakeTensor<int32_t>({2}, {2, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{8, 9}));
}

TEST(Slice, OutOfRangeIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {3, 4});
  int b = m.Constant<int32_t>({2}, {2, 0});
  int s = m.Constant<int32_t>({2}, {2, 1});  // rows 2..3 of 3
  int y = m.Output(DT::kFloat32, {2, 1});
  m.Op(ir::OpKind::kSlice, {x, b, s}, {y});
  EXPECT_FALSE(m.Run({MakeTensor<float>({3, 4}, Iota(12))}).ok());
}

struct SsCase {
  const char* what;
  std::vector<int32_t> begin, end, strides;
  ir::StridedSliceOptions options;
  std::vector<int64_t> shape;
  std::vector<float> want;
};

absl::StatusOr<std::vector<ir::HostTensor>> RunStridedSlice(
    const SsCase& c, std::vector<int32_t> in_shape) {
  OpModel m;
  int n = 1;
  for (int32_t d : in_shape) n *= d;
  int x = m.Input(DT::kFloat32, in_shape);
  const int32_t k = static_cast<int32_t>(c.begin.size());
  int b = m.Constant<int32_t>({k}, c.begin);
  int e = m.Constant<int32_t>({k}, c.end);
  int s = m.Constant<int32_t>({k}, c.strides);
  int y = m.Output(DT::kFloat32, {});
  m.Op(ir::OpKind::kStridedSlice, {x, b, e, s}, {y}, c.options);
  return m.Run({MakeTensor<float>(
      std::vector<int64_t>(in_shape.begin(), in_shape.end()), Iota(n))});
}

ir::StridedSliceOptions Masks(int begin, int end, int ellipsis, int new_axis,
                              int shrink, bool offset = false) {
  return ir::StridedSliceOptions{begin,    end,    ellipsis,
                                 new_axis, shrink, offset};
}

TEST(StridedSlice, HandCasesOn3x4) {
  const std::vector<SsCase> cases = {
      // x[0:3:2, 1:4:2] -> rows 0,2; columns 1,3.
      {"steps of 2", {0, 1}, {3, 4}, {2, 2}, {}, {2, 2}, {1, 3, 9, 11}},
      // x[-1:-4:-1, -1:-5:-1]: begin -1 -> 2 / 3, end -4 -> -1 and -5 -> -1
      // (clamped to -1): the whole matrix reversed.
      {"negative strides",
       {-1, -1},
       {-4, -5},
       {-1, -1},
       {},
       {3, 4},
       {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      // x[:, ::-1] with begin/end masks on both axes: each row reversed.
      {"masks with reverse",
       {9, 9},
       {0, 0},
       {1, -1},
       Masks(3, 3, 0, 0, 0),
       {3, 4},
       {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}},
      // x[1, :]: shrink axis 0 -> the row [4..7], rank 1.
      {"shrink",
       {1, 0},
       {2, 4},
       {1, 1},
       Masks(0, 0, 0, 0, 1),
       {4},
       {4, 5, 6, 7}},
      // x[-1, :]: shrink with a negative index; end (0) is ignored and
      // begin + 1 used instead -> row 2.
      {"shrink negative",
       {-1, 0},
       {0, 4},
       {1, 1},
       Masks(0, 0, 0, 0, 1),
       {4},
       {8, 9, 10, 11}},
      // x[1, 2]: both axes shrunk -> the scalar 6.
      {"shrink both", {1, 2}, {2, 3}, {1, 1}, Masks(0, 0, 0, 0, 3), {}, {6}},
      // x[newaxis, 1:3]: a new leading axis, then rows 1..2 (the column
      // axis is not named: kept whole) -> [1,2,4].
      {"new axis",
       {0, 1},
       {0, 3},
       {1, 1},
       Masks(0, 0, 0, 1, 0),
       {1, 2, 4},
       {4, 5, 6, 7, 8, 9, 10, 11}},
      // offset: end is relative to begin: x[1:1+2, 1:1+2].
      {"offset",
       {1, 1},
       {2, 2},
       {1, 1},
       Masks(0, 0, 0, 0, 0, true),
       {2, 2},
       {5, 6, 9, 10}},
      // x[-10:10, 2:100]: out-of-range bounds are clamped.
      {"clamping",
       {-10, 2},
       {10, 100},
       {1, 1},
       {},
       {3, 2},
       {2, 3, 6, 7, 10, 11}},
      // x[2:1, :]: an empty range -> [0,4].
      {"empty", {2, 0}, {1, 4}, {1, 1}, {}, {0, 4}, {}},
      // x[1:] with fewer spec entries than dims: the rest is kept whole.
      {"short spec", {1}, {3}, {1}, {}, {2, 4}, {4, 5, 6, 7, 8, 9, 10, 11}},
  };
  for (const SsCase& c : cases) {
    auto out = RunStridedSlice(c, {3, 4});
    ASSERT_TRUE(out.ok()) << c.what << ": " << out.status();
    EXPECT_EQ((*out)[0].shape(), c.shape) << c.what;
    EXPECT_EQ(Values<float>((*out)[0]), c.want) << c.what;
  }
}

// On the 2x3x4 tensor y[i][j][k] = 12i + 4j + k.
TEST(StridedSlice, EllipsisOnRank3) {
  const std::vector<SsCase> cases = {
      // y[..., 1]: the ellipsis covers axes 0 and 1, axis 2 is shrunk:
      // y[i][j][1] = 12i + 4j + 1.
      {"ellipsis then index",
       {0, 1},
       {0, 2},
       {1, 1},
       Masks(0, 0, 1, 0, 2),
       {2, 3},
       {1, 5, 9, 13, 17, 21}},
      // y[1, ...]: axis 0 shrunk, the rest whole -> 12..23 as [3,4].
      {"index then ellipsis",
       {1, 0},
       {2, 0},
       {1, 1},
       Masks(0, 0, 2, 0, 1),
       {3, 4},
       {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
      // y[..., newaxis, ::2]: the ellipsis covers axes 0 and 1, a new axis
      // of 1, then every other element of axis 2 -> [2,3,1,2].
      {"ellipsis new axis stride",
       {0, 0, 0},
       {0, 0, 0},
       {1, 1, 2},
       Masks(4, 4, 1, 2, 0),
       {2, 3, 1, 2},
       {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}},
  };
  for (const SsCase& c : cases) {
    auto out = RunStridedSlice(c, {2, 3, 4});
    ASSERT_TRUE(out.ok()) << c.what << ": " << out.status();
    EXPECT_EQ((*out)[0].shape(), c.shape) << c.what;
    EXPECT_EQ(Values<float>((*out)[0]), c.want) << c.what;
  }
}

// A 1-D int32 tensor 0..9 (shape arithmetic runs on int32): x[1:10:3] ->
// 1,4,7; x[::-3] (begin mask) starts at 9 -> 9,6,3,0.
TEST(StridedSlice, Int32Strides) {
  for (int dir : {1, -1}) {
    OpModel m;
    int x = m.Input(DT::kInt32, {10});
    int b = m.Constant<int32_t>({1}, {1});
    int e = m.Constant<int32_t>({1}, {10});
    int s = m.Constant<int32_t>({1}, {3 * dir});
    int y = m.Output(DT::kInt32, {});
    m.Op(ir::OpKind::kStridedSlice, {x, b, e, s}, {y},
         dir > 0 ? Masks(0, 0, 0, 0, 0) : Masks(1, 1, 0, 0, 0));
    std::vector<int32_t> data(10);
    std::iota(data.begin(), data.end(), 0);
    auto out = m.Run({MakeTensor<int32_t>({10}, data)});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<int32_t>((*out)[0]),
              dir > 0 ? (std::vector<int32_t>{1, 4, 7})
                      : (std::vector<int32_t>{9, 6, 3, 0}));
  }
}

TEST(StridedSlice, Errors) {
  // Stride 0.
  EXPECT_FALSE(
      RunStridedSlice({"", {0, 0}, {1, 1}, {0, 1}, {}, {}, {}}, {3, 4}).ok());
  // Shrinking at index 5 of a 3-row axis.
  EXPECT_FALSE(
      RunStridedSlice(
          {"", {5, 0}, {6, 4}, {1, 1}, Masks(0, 0, 0, 0, 1), {}, {}}, {3, 4})
          .ok());
  // Two ellipses.
  EXPECT_FALSE(
      RunStridedSlice(
          {"", {0, 0}, {0, 0}, {1, 1}, Masks(0, 0, 3, 0, 0), {}, {}}, {3, 4})
          .ok());
}

// begin/end/strides computed at run time (model inputs): x[0:2, 3:0:-2]
// -> rows 0,1; columns 3,1.
TEST(StridedSlice, RuntimeIndices) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {3, 4});
  int b = m.Input(DT::kInt32, {2});
  int e = m.Input(DT::kInt32, {2});
  int s = m.Input(DT::kInt32, {2});
  int y = m.Output(DT::kFloat32, {});
  m.Op(ir::OpKind::kStridedSlice, {x, b, e, s}, {y});
  auto out = m.Run(
      {MakeTensor<float>({3, 4}, Iota(12)), MakeTensor<int32_t>({2}, {0, 3}),
       MakeTensor<int32_t>({2}, {2, 0}), MakeTensor<int32_t>({2}, {1, -2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{3, 1, 7, 5}));
}

}  // namespace
}  // namespace qforge
