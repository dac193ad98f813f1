// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE, SQUEEZE, EXPAND_DIMS, SHAPE, BROADCAST_ARGS. Expected values are
// derived by hand in the comments: these ops never change the bytes, so the
// data must come out in the same row-major order and only the shape moves.
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

// [2,3,4] reshaped by a constant shape [4,-1]: -1 = 24 / 4 = 6. The declared
// output shape [1] is only a hint and is ignored.
TEST(Reshape, ConstantShapeTensorWithStretch) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 3, 4});
  int s = m.Constant<int32_t>({2}, {4, -1});
  int y = m.Output(DT::kFloat32, {1});
  m.Op(ir::OpKind::kReshape, {x, s}, {y});
  auto out = m.Run({MakeTensor<float>({2, 3, 4}, Iota(24))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(Values<float>((*out)[0]), Iota(24));
}

// No shape input: ReshapeOptions.new_shape decides.
TEST(Reshape, FromOptions) {
  OpModel m;
  int x = m.Input(DT::kInt32, {2, 3});
  int y = m.Output(DT::kInt32, {3, 2});
  m.Op(ir::OpKind::kReshape, {x}, {y}, ir::ReshapeOptions{{3, -1}});
  auto out = m.Run({MakeTensor<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Values<int32_t>((*out)[0]),
            (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

// Legacy models write new_shape [0] for a scalar.
TEST(Reshape, LegacyScalarShape) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {1, 1});
  int y = m.Output(DT::kFloat32, {});
  m.Op(ir::OpKind::kReshape, {x}, {y}, ir::ReshapeOptions{{0}});
  auto out = m.Run({MakeTensor<float>({1, 1}, {7.5f})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)[0].shape().empty());
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{7.5f}));
}

// The shape comes from SHAPE of another input, so it is only known at run
// time: x [2,6] -> SHAPE = [2,6]; y [12] (values 0..11) reshaped to [2,6].
TEST(Reshape, ComputedShape) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 6});
  int y = m.Input(DT::kInt64, {12});
  int s = m.Tensor(DT::kInt32, {2});
  int z = m.Output(DT::kInt64, {12});
  m.Op(ir::OpKind::kShape, {x}, {s},
       ir::OutputTypeOptions{DT::kInt32, ir::OutputTypeOptions::Table::kShape});
  m.Op(ir::OpKind::kReshape, {y, s}, {z});
  std::vector<int64_t> ys(12);
  std::iota(ys.begin(), ys.end(), int64_t{100});
  auto out = m.Run(
      {MakeTensor<float>({2, 6}, Iota(12)), MakeTensor<int64_t>({12}, ys)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(Values<int64_t>((*out)[0]), ys);
}

// 6 elements cannot become 4.
TEST(Reshape, ElementCountMismatchIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 3});
  int s = m.Constant<int32_t>({1}, {4});
  int y = m.Output(DT::kFloat32, {4});
  m.Op(ir::OpKind::kReshape, {x, s}, {y});
  auto out = m.Run({MakeTensor<float>({2, 3}, Iota(6))});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("cannot reshape"), std::string::npos)
      << out.status();
}

TEST(Reshape, TwoStretchDimsIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2, 3});
  int s = m.Constant<int32_t>({2}, {-1, -1});
  int y = m.Output(DT::kFloat32, {2, 3});
  m.Op(ir::OpKind::kReshape, {x, s}, {y});
  auto out = m.Run({MakeTensor<float>({2, 3}, Iota(6))});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("more than one -1"), std::string::npos);
}

// SQUEEZE with no dims drops every 1: [1,3,1,2] -> [3,2].
TEST(Squeeze, AllUnitDims) {
  OpModel m;
  int x = m.Input(DT::kBool, {1, 3, 1, 2});
  int y = m.Output(DT::kBool, {3, 2});
  m.Op(ir::OpKind::kSqueeze, {x}, {y}, ir::SqueezeOptions{});
  ir::HostTensor in(DT::kBool, {1, 3, 1, 2});
  for (size_t i = 0; i < 6; ++i) in.data()[i] = (i % 2) ? 1 : 0;
  auto out = m.Run({in});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ((*out)[0].bytes(), in.bytes());
}

// squeeze_dims {-2}: dim 2 of rank 4 -> [1,3,2].
TEST(Squeeze, NegativeDim) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {1, 3, 1, 2});
  int y = m.Output(DT::kFloat32, {1, 3, 2});
  m.Op(ir::OpKind::kSqueeze, {x}, {y}, ir::SqueezeOptions{{-2}});
  auto out = m.Run({MakeTensor<float>({1, 3, 1, 2}, Iota(6))});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), Iota(6));
}

TEST(Squeeze, NonUnitDimIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {1, 3});
  int y = m.Output(DT::kFloat32, {1});
  m.Op(ir::OpKind::kSqueeze, {x}, {y}, ir::SqueezeOptions{{1}});
  auto out = m.Run({MakeTensor<float>({1, 3}, Iota(3))});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("not 1"), std::string::npos);
}

// EXPAND_DIMS on [2,3]: axis 0 -> [1,2,3], axis 2 and -1 -> [2,3,1],
// axis -3 -> [1,2,3]; axis 3 is out of range.
TEST(ExpandDims, Axes) {
  struct Case {
    int64_t axis;
    std::vector<int64_t> shape;
  };
  for (const Case& c : std::vector<Case>{{0, {1, 2, 3}},
                                         {1, {2, 1, 3}},
                                         {2, {2, 3, 1}},
                                         {-1, {2, 3, 1}},
                                         {-3, {1, 2, 3}}}) {
    OpModel m;
    int x = m.Input(DT::kInt8, {2, 3});
    int a = m.Constant<int64_t>({1}, {c.axis});
    int y = m.Output(DT::kInt8, {});
    m.Op(ir::OpKind::kExpandDims, {x, a}, {y});
    auto out = m.Run({MakeTensor<int8_t>({2, 3}, {1, -2, 3, -4, 5, -6})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].shape(), c.shape) << "axis " << c.axis;
    EXPECT_EQ(Values<int8_t>((*out)[0]),
              (std::vector<int8_t>{1, -2, 3, -4, 5, -6}));
  }
  OpModel m;
  int x = m.Input(DT::kInt8, {2, 3});
  int a = m.Constant<int32_t>({}, {3});
  int y = m.Output(DT::kInt8, {});
  m.Op(ir::OpKind::kExpandDims, {x, a}, {y});
  EXPECT_FALSE(m.Run({MakeTensor<int8_t>({2, 3}, {1, 2, 3, 4, 5, 6})}).ok());
}

// SHAPE of a [2,5,1] tensor is [2,5,1], as int32 or int64.
TEST(Shape, Int32AndInt64) {
  for (DT type : {DT::kInt32, DT::kInt64}) {
    OpModel m;
    int x = m.Input(DT::kFloat32, {2, 5, 1});
    int y = m.Output(type, {3});
    m.Op(ir::OpKind::kShape, {x}, {y},
         ir::OutputTypeOptions{type, ir::OutputTypeOptions::Table::kShape});
    auto out = m.Run({MakeTensor<float>({2, 5, 1}, Iota(10))});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{3}));
    if (type == DT::kInt32) {
      EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{2, 5, 1}));
    } else {
      EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{2, 5, 1}));
    }
  }
}

TEST(Shape, OptionsDisagreeingWithOutputIsAnError) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {2});
  int y = m.Output(DT::kInt32, {1});
  m.Op(ir::OpKind::kShape, {x}, {y},
       ir::OutputTypeOptions{DT::kInt64, ir::OutputTypeOptions::Table::kShape});
  EXPECT_FALSE(m.Run({MakeTensor<float>({2}, {1, 2})}).ok());
}

// BROADCAST_ARGS([2,1,3], [4,1]): right-aligned pairs (2,-), (1,4), (3,1)
// give [2,4,3].
TEST(BroadcastArgs, Int32AndInt64) {
  {
    OpModel m;
    int a = m.Input(DT::kInt32, {3});
    int b = m.Input(DT::kInt32, {2});
    int y = m.Output(DT::kInt32, {3});
    m.Op(ir::OpKind::kBroadcastArgs, {a, b}, {y});
    auto out = m.Run({MakeTensor<int32_t>({3}, {2, 1, 3}),
                      MakeTensor<int32_t>({2}, {4, 1})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{2, 4, 3}));
  }
  {
    OpModel m;
    int a = m.Constant<int64_t>({1}, {5});
    int b = m.Input(DT::kInt64, {2});
    int y = m.Output(DT::kInt64, {2});
    m.Op(ir::OpKind::kBroadcastArgs, {a, b}, {y});
    auto out = m.Run({MakeTensor<int64_t>({2}, {7, 1})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{7, 5}));
  }
  {
    OpModel m;
    int a = m.Input(DT::kInt32, {1});
    int b = m.Input(DT::kInt32, {1});
    int y = m.Output(DT::kInt32, {1});
    m.Op(ir::OpKind::kBroadcastArgs, {a, b}, {y});
    auto out =
        m.Run({MakeTensor<int32_t>({1}, {3}), MakeTensor<int32_t>({1}, {4})});
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.status().message().find("do not broadcast"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace qforge
