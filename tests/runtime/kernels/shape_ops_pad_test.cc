// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// PAD, PADV2 and MIRROR_PAD; expected values derived by hand in the
// comments.
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

// [[1,2],[3,4]] padded (before, after) = (1,0) rows, (0,2) columns:
//   0 0 0 0
//   1 2 0 0
//   3 4 0 0
TEST(Pad, Zeros) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 2});
  int p = m.Constant<int32_t>({2, 2}, {1, 0, 0, 2});
  int y = m.Output(DT::kFloat32, {3, 4});
  m.Op(ir::OpKind::kPad, {x, p}, {y});
  auto out = m.Run({MakeTensor<float>({2, 2}, {1, 2, 3, 4})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
}

// PADV2 with the constant 9.5 and int64 paddings: [7] padded (2,1) ->
// [9.5, 9.5, 7, 9.5].
TEST(Pad, V2ConstantValue) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {1});
  int p = m.Constant<int64_t>({1, 2}, {2, 1});
  int c = m.Constant<float>({}, {9.5f});
  int y = m.Output(DT::kFloat32, {4});
  m.Op(ir::OpKind::kPadV2, {x, p, c}, {y});
  auto out = m.Run({MakeTensor<float>({1}, {7})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{9.5, 9.5, 7, 9.5}));
}

// A quantized int8 output pads with its zero point (-5), as TFLite does:
// [1,2] padded (1,1) -> [-5,1,2,-5].
TEST(Pad, Int8PadsWithZeroPoint) {
  OpModel m;
  int x = m.Input(DT::kInt8, {2});
  int p = m.Constant<int32_t>({1, 2}, {1, 1});
  int y = m.Output(DT::kInt8, {4});
  ir::Quantization q;
  q.scale = {0.5f};
  q.zero_point = {-5};
  m.tensor(x).quantization = q;
  m.tensor(y).quantization = q;
  m.Op(ir::OpKind::kPad, {x, p}, {y});
  auto out = m.Run({MakeTensor<int8_t>({2}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int8_t>((*out)[0]), (std::vector<int8_t>{-5, 1, 2, -5}));
}

// Paddings computed at run time: [[1,2]] padded rows (0,1), cols (1,0) ->
// [[0,1,2],[0,0,0]].
TEST(Pad, RuntimePaddings) {
  OpModel m;
  int x = m.Input(DT::kInt32, {1, 2});
  int p = m.Input(DT::kInt32, {2, 2});
  int y = m.Output(DT::kInt32, {});
  m.Op(ir::OpKind::kPad, {x, p}, {y});
  auto out = m.Run({MakeTensor<int32_t>({1, 2}, {1, 2}),
                    MakeTensor<int32_t>({2, 2}, {0, 1, 1, 0})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<int32_t>((*out)[0]),
            (std::vector<int32_t>{0, 1, 2, 0, 0, 0}));
}

TEST(Pad, Errors) {
  {  // negative padding
    OpModel m;
    int x = m.Input(DT::kFloat32, {2});
    int p = m.Constant<int32_t>({1, 2}, {-1, 0});
    int y = m.Output(DT::kFloat32, {1});
    m.Op(ir::OpKind::kPad, {x, p}, {y});
    EXPECT_FALSE(m.Run({MakeTensor<float>({2}, {1, 2})}).ok());
  }
  {  // paddings of the wrong shape
    OpModel m;
    int x = m.Input(DT::kFloat32, {2});
    int p = m.Constant<int32_t>({2, 2}, {0, 0, 0, 0});
    int y = m.Output(DT::kFloat32, {2});
    m.Op(ir::OpKind::kPad, {x, p}, {y});
    EXPECT_FALSE(m.Run({MakeTensor<float>({2}, {1, 2})}).ok());
  }
}

// [1,2,3] padded (2,2): REFLECT mirrors without the edge -> 3,2,|1,2,3|,2,1;
// SYMMETRIC repeats the edge -> 2,1,|1,2,3|,3,2.
TEST(MirrorPad, ReflectAndSymmetric1D) {
  struct Case {
    int8_t mode;
    std::vector<float> want;
  };
  for (const Case& c : std::vector<Case>{{0, {3, 2, 1, 2, 3, 2, 1}},
                                         {1, {2, 1, 1, 2, 3, 3, 2}}}) {
    OpModel m;
    int x = m.Input(DT::kFloat32, {3});
    int p = m.Constant<int32_t>({1, 2}, {2, 2});
    int y = m.Output(DT::kFloat32, {7});
    m.Op(ir::OpKind::kMirrorPad, {x, p}, {y}, ir::MirrorPadOptions{c.mode});
    auto out = m.Run({MakeTensor<float>({3}, {1, 2, 3})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<float>((*out)[0]), c.want) << "mode " << int{c.mode};
  }
}

// [[1,2,3],[4,5,6]] REFLECT with rows (1,1) and columns (2,2): row order
// r1, r0, r1, r0; each row [a,b,c] becomes [c,b,a,b,c,b,a].
TEST(MirrorPad, Reflect2D) {
  OpModel m;
  int x = m.Input(DT::kInt64, {2, 3});
  int p = m.Constant<int64_t>({2, 2}, {1, 1, 2, 2});
  int y = m.Output(DT::kInt64, {4, 7});
  m.Op(ir::OpKind::kMirrorPad, {x, p}, {y}, ir::MirrorPadOptions{0});
  auto out = m.Run({MakeTensor<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{4, 7}));
  EXPECT_EQ(Values<int64_t>((*out)[0]),
            (std::vector<int64_t>{6, 5, 4, 5, 6, 5, 4,  //
                                  3, 2, 1, 2, 3, 2, 1,  //
                                  6, 5, 4, 5, 6, 5, 4,  //
                                  3, 2, 1, 2, 3, 2, 1}));
}

// REFLECT can pad at most dim - 1 (= 2 for [1,2,3]); SYMMETRIC at most dim.
TEST(MirrorPad, TooMuchPaddingIsAnError) {
  for (int8_t mode : {0, 1}) {
    OpModel m;
    int x = m.Input(DT::kFloat32, {3});
    int p = m.Constant<int32_t>({1, 2}, {mode == 0 ? 3 : 4, 0});
    int y = m.Output(DT::kFloat32, {6});
    m.Op(ir::OpKind::kMirrorPad, {x, p}, {y}, ir::MirrorPadOptions{mode});
    EXPECT_FALSE(m.Run({MakeTensor<float>({3}, {1, 2, 3})}).ok());
  }
}

}  // namespace
}  // namespace qforge
