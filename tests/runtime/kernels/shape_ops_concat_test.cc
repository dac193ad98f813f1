// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CONCATENATION, PACK, UNPACK, SPLIT, SPLIT_V, with expected values derived
// by hand in the comments.
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

// [[1],[2]] ++ [[3,4],[5,6]] on axis 1 -> [[1,3,4],[2,5,6]].
TEST(Concatenation, Axis1) {
  OpModel m;
  int a = m.Input(DT::kFloat32, {2, 1});
  int b = m.Input(DT::kFloat32, {2, 2});
  int y = m.Output(DT::kFloat32, {2, 3});
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y},
       ir::ConcatenationOptions{1, ir::Activation::kNone});
  auto out = m.Run({MakeTensor<float>({2, 1}, {1, 2}),
                    MakeTensor<float>({2, 2}, {3, 4, 5, 6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{1, 3, 4, 2, 5, 6}));
}

// Shape arithmetic: int64 [2] ++ constant [1] on axis -1 -> [7,8,9].
TEST(Concatenation, NegativeAxisInt64WithConstant) {
  OpModel m;
  int a = m.Input(DT::kInt64, {2});
  int b = m.Constant<int64_t>({1}, {9});
  int y = m.Output(DT::kInt64, {3});
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y},
       ir::ConcatenationOptions{-1, ir::Activation::kNone});
  auto out = m.Run({MakeTensor<int64_t>({2}, {7, 8})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{7, 8, 9}));
}

// Fused RELU6 on the joined values: [-1, 7] ++ [3] -> [0, 6, 3].
TEST(Concatenation, FusedRelu6) {
  OpModel m;
  int a = m.Input(DT::kFloat32, {2});
  int b = m.Input(DT::kFloat32, {1});
  int y = m.Output(DT::kFloat32, {3});
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y},
       ir::ConcatenationOptions{0, ir::Activation::kRelu6});
  auto out =
      m.Run({MakeTensor<float>({2}, {-1, 7}), MakeTensor<float>({1}, {3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 6, 3}));
}

// Scalars join into a vector: 4, 5 -> [4, 5].
TEST(Concatenation, Scalars) {
  OpModel m;
  int a = m.Constant<int32_t>({}, {4});
  int b = m.Input(DT::kInt32, {});
  int y = m.Output(DT::kInt32, {2});
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y}, ir::ConcatenationOptions{});
  auto out = m.Run({MakeTensor<int32_t>({}, {5})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{4, 5}));
}

TEST(Concatenation, MismatchIsAnError) {
  OpModel m;
  int a = m.Input(DT::kFloat32, {2, 1});
  int b = m.Input(DT::kFloat32, {3, 1});
  int y = m.Output(DT::kFloat32, {2, 2});
  m.Op(ir::OpKind::kConcatenation, {a, b}, {y},
       ir::ConcatenationOptions{1, ir::Activation::kNone});
  EXPECT_FALSE(m.Run({MakeTensor<float>({2, 1}, {1, 2}),
                      MakeTensor<float>({3, 1}, {1, 2, 3})})
                   .ok());
}

// PACK of [1,2] and [3,4]: axis 0 -> [[1,2],[3,4]]; axis 1 (= -1) ->
// [[1,3],[2,4]].
TEST(Pack, Axes) {
  struct Case {
    int axis;
    std::vector<int64_t> shape;
    std::vector<int32_t> want;
  };
  for (const Case& c : std::vector<Case>{{0, {2, 2}, {1, 2, 3, 4}},
                                         {1, {2, 2}, {1, 3, 2, 4}},
                                         {-1, {2, 2}, {1, 3, 2, 4}}}) {
    OpModel m;
    int a = m.Input(DT::kInt32, {2});
    int b = m.Input(DT::kInt32, {2});
    int y = m.Output(DT::kInt32, {2, 2});
    m.Op(ir::OpKind::kPack, {a, b}, {y}, ir::PackOptions{2, c.axis});
    auto out = m.Run(
        {MakeTensor<int32_t>({2}, {1, 2}), MakeTensor<int32_t>({2}, {3, 4})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].shape(), c.shape);
    EXPECT_EQ(Values<int32_t>((*out)[0]), c.want) << "axis " << c.axis;
  }
}

// UNPACK [[0,1,2],[3,4,5]] on axis 1 -> [0,3], [1,4], [2,5].
TEST(Unpack, Axis1) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 3});
  int y0 = m.Output(DT::kFloat32, {2});
  int y1 = m.Output(DT::kFloat32, {2});
  int y2 = m.Output(DT::kFloat32, {2});
  m.Op(ir::OpKind::kUnpack, {x}, {y0, y1, y2}, ir::UnpackOptions{3, 1});
  auto out = m.Run({MakeTensor<float>({2, 3}, Iota<float>(6))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 3}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{1, 4}));
  EXPECT_EQ(Values<float>((*out)[2]), (std::vector<float>{2, 5}));
  EXPECT_EQ((*out)[2].shape(), (std::vector<int64_t>{2}));
}

TEST(Unpack, WrongNumIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 3});
  int y0 = m.Output(DT::kFloat32, {3});
  m.Op(ir::OpKind::kUnpack, {x}, {y0}, ir::UnpackOptions{1, 0});
  EXPECT_FALSE(m.Run({MakeTensor<float>({2, 3}, Iota<float>(6))}).ok());
}

// SPLIT (axis input first) of [[0..3],[4..7]] into 2 along axis 1 (or -1):
// [[0,1],[4,5]] and [[2,3],[6,7]].
TEST(Split, EqualParts) {
  for (int32_t axis : {1, -1}) {
    OpModel m;
    int a = m.Constant<int32_t>({}, {axis});
    int x = m.Input(DT::kInt16, {2, 4});
    int y0 = m.Output(DT::kInt16, {2, 2});
    int y1 = m.Output(DT::kInt16, {2, 2});
    m.Op(ir::OpKind::kSplit, {a, x}, {y0, y1}, ir::SplitOptions{2, false});
    auto out = m.Run({MakeTensor<int16_t>({2, 4}, Iota<int16_t>(8))});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<int16_t>((*out)[0]), (std::vector<int16_t>{0, 1, 4, 5}));
    EXPECT_EQ(Values<int16_t>((*out)[1]), (std::vector<int16_t>{2, 3, 6, 7}));
  }
}

// The axis is a model input (known only at run time): axis 0 of [4,1] into
// 2 -> [0,1] and [2,3].
TEST(Split, RuntimeAxis) {
  OpModel m;
  int a = m.Input(DT::kInt32, {});
  int x = m.Input(DT::kFloat32, {4, 1});
  int y0 = m.Output(DT::kFloat32, {});
  int y1 = m.Output(DT::kFloat32, {});
  m.Op(ir::OpKind::kSplit, {a, x}, {y0, y1}, ir::SplitOptions{2, false});
  auto out = m.Run({MakeTensor<int32_t>({}, {0}),
                    MakeTensor<float>({4, 1}, Iota<float>(4))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{2, 3}));
}

TEST(Split, UnevenIsAnError) {
  OpModel m;
  int a = m.Constant<int32_t>({}, {1});
  int x = m.Input(DT::kFloat32, {2, 3});
  int y0 = m.Output(DT::kFloat32, {2, 1});
  int y1 = m.Output(DT::kFloat32, {2, 1});
  m.Op(ir::OpKind::kSplit, {a, x}, {y0, y1}, ir::SplitOptions{2, false});
  EXPECT_FALSE(m.Run({MakeTensor<float>({2, 3}, Iota<float>(6))}).ok());
}

// SPLIT_V of [2,5] (rows 0..4, 5..9) with sizes [1,-1,2] on axis 1: the -1
// becomes 5 - 3 = 2 -> [0,5], [1,2,6,7], [3,4,8,9].
TEST(SplitV, SizesWithStretch) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 5});
  int s = m.Constant<int64_t>({3}, {1, -1, 2});
  int a = m.Constant<int32_t>({1}, {1});
  int y0 = m.Output(DT::kFloat32, {});
  int y1 = m.Output(DT::kFloat32, {});
  int y2 = m.Output(DT::kFloat32, {});
  m.Op(ir::OpKind::kSplitV, {x, s, a}, {y0, y1, y2}, ir::SplitOptions{3, true});
  auto out = m.Run({MakeTensor<float>({2, 5}, Iota<float>(10))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ((*out)[1].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 5}));
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{1, 2, 6, 7}));
  EXPECT_EQ(Values<float>((*out)[2]), (std::vector<float>{3, 4, 8, 9}));
}

TEST(SplitV, BadSumIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {5});
  int s = m.Constant<int32_t>({2}, {1, 2});
  int a = m.Constant<int32_t>({}, {0});
  int y0 = m.Output(DT::kFloat32, {1});
  int y1 = m.Output(DT::kFloat32, {2});
  m.Op(ir::OpKind::kSplitV, {x, s, a}, {y0, y1}, ir::SplitOptions{2, true});
  auto out = m.Run({MakeTensor<float>({5}, Iota<float>(5))});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("sum to 3"), std::string::npos);
}

}  // namespace
}  // namespace qforge
