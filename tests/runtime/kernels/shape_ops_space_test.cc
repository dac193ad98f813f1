// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// DEPTH_TO_SPACE, SPACE_TO_DEPTH, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND;
// expected values derived by hand in the comments. Conventions (TFLite):
//   depth index = (dy * block + dx) * C + c;
//   batch index = (dy * block_w + dx) * in_batch + b.
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

absl::StatusOr<std::vector<ir::HostTensor>> BlockOp(
    bool to_depth, std::vector<int32_t> shape, const std::vector<float>& data,
    int32_t block) {
  OpModel m;
  int x = m.Input(DT::kFloat32, shape);
  int y = m.Output(DT::kFloat32, {});
  m.Op(to_depth ? ir::OpKind::kSpaceToDepth : ir::OpKind::kDepthToSpace, {x},
       {y}, ir::BlockSizeOptions{block, to_depth});
  return m.Run({MakeTensor<float>(
      std::vector<int64_t>(shape.begin(), shape.end()), data)});
}

// DEPTH_TO_SPACE, block 2, C = 1, input [1,1,2,4]: pixel w holds
// depth (dy*2 + dx): out[dy][2w + dx] = in[w][2dy + dx]:
//   pixel 0 = 0 1 2 3, pixel 1 = 4 5 6 7  ->  row 0: 0 1 4 5
//                                             row 1: 2 3 6 7
TEST(DepthToSpace, Block2) {
  auto out = BlockOp(false, {1, 1, 2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 2, 4, 1}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{0, 1, 4, 5, 2, 3, 6, 7}));
}

// SPACE_TO_DEPTH is its inverse.
TEST(SpaceToDepth, Block2) {
  auto out = BlockOp(true, {1, 2, 4, 1}, {0, 1, 4, 5, 2, 3, 6, 7}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 1, 2, 4}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// With 2 channels, DEPTH_TO_SPACE of [1,1,1,8] (0..7): out[dy][dx][c] =
// in[(2dy + dx)*2 + c], i.e. the same order.
TEST(DepthToSpace, TwoChannels) {
  auto out = BlockOp(false, {1, 1, 1, 8}, {0, 1, 2, 3, 4, 5, 6, 7}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(DepthToSpace, Errors) {
  EXPECT_FALSE(BlockOp(false, {1, 1, 1, 6}, std::vector<float>(6), 2).ok());
  EXPECT_FALSE(BlockOp(true, {1, 3, 2, 1}, std::vector<float>(6), 2).ok());
  EXPECT_FALSE(BlockOp(true, {1, 2, 2, 1}, std::vector<float>(4), 0).ok());
}

template <typename T>
absl::StatusOr<std::vector<ir::HostTensor>> BatchSpace(
    bool to_batch, std::vector<int32_t> shape, const std::vector<T>& data,
    std::vector<int32_t> block, std::vector<int32_t> pads) {
  OpModel m;
  int x = m.Input(OpModel::TypeOf<T>(), shape);
  const int32_t n = static_cast<int32_t>(block.size());
  int b = m.Constant<int32_t>({n}, block);
  int p = m.Constant<int32_t>({n, 2}, pads);
  int y = m.Output(OpModel::TypeOf<T>(), {});
  m.Op(to_batch ? ir::OpKind::kSpaceToBatchND : ir::OpKind::kBatchToSpaceND,
       {x, b, p}, {y});
  return m.Run(
      {MakeTensor<T>(std::vector<int64_t>(shape.begin(), shape.end()), data)});
}

// [1,2,4,1] rows 1 2 3 4 / 5 6 7 8, block [2,2], no padding -> [4,1,2,1];
// batch (dy,dx): (0,0) -> 1 3, (0,1) -> 2 4, (1,0) -> 5 7, (1,1) -> 6 8.
TEST(SpaceToBatchNd, NoPadding) {
  auto out = BatchSpace<float>(true, {1, 2, 4, 1}, {1, 2, 3, 4, 5, 6, 7, 8},
                               {2, 2}, {0, 0, 0, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{4, 1, 2, 1}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{1, 3, 2, 4, 5, 7, 6, 8}));
}

// [[1,2],[3,4]] with rows padded (1,1): padded rows 00 / 12 / 34 / 00;
// block [2,2] -> [4,2,1,1]: batch (dy,dx) takes padded[2oy + dy][dx]:
// (0,0) -> 0 3, (0,1) -> 0 4, (1,0) -> 1 0, (1,1) -> 2 0.
TEST(SpaceToBatchNd, WithPadding) {
  auto out =
      BatchSpace<float>(true, {1, 2, 2, 1}, {1, 2, 3, 4}, {2, 2}, {1, 1, 0, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{4, 2, 1, 1}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{0, 3, 0, 4, 1, 0, 2, 0}));
}

// 3-D input [2,2,1] (two batches [1,2] and [3,4]), block [2]: output batch
// = shift * 2 + b -> (0,b0)=1, (0,b1)=3, (1,b0)=2, (1,b1)=4.
TEST(SpaceToBatchNd, ThreeDimsBatchMinor) {
  auto out = BatchSpace<int32_t>(true, {2, 2, 1}, {1, 2, 3, 4}, {2}, {0, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{4, 1, 1}));
  EXPECT_EQ(Values<int32_t>((*out)[0]), (std::vector<int32_t>{1, 3, 2, 4}));
}

// BATCH_TO_SPACE_ND inverts both SPACE_TO_BATCH_ND cases above (the second
// with crops equal to the paddings).
TEST(BatchToSpaceNd, InvertsSpaceToBatch) {
  auto a = BatchSpace<float>(false, {4, 1, 2, 1}, {1, 3, 2, 4, 5, 7, 6, 8},
                             {2, 2}, {0, 0, 0, 0});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ((*a)[0].shape(), (std::vector<int64_t>{1, 2, 4, 1}));
  EXPECT_EQ(Values<float>((*a)[0]),
            (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
  auto b = BatchSpace<float>(false, {4, 2, 1, 1}, {0, 3, 0, 4, 1, 0, 2, 0},
                             {2, 2}, {1, 1, 0, 0});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)[0].shape(), (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(Values<float>((*b)[0]), (std::vector<float>{1, 2, 3, 4}));
  auto c = BatchSpace<int32_t>(false, {4, 1, 1}, {1, 3, 2, 4}, {2}, {0, 0});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(Values<int32_t>((*c)[0]), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(BatchSpaceNd, Errors) {
  // Padded size 3 is not a multiple of block 2.
  EXPECT_FALSE(BatchSpace<float>(true, {1, 3, 2, 1}, std::vector<float>(6),
                                 {2, 2}, {0, 0, 0, 0})
                   .ok());
  // Batch 3 is not a multiple of 4.
  EXPECT_FALSE(BatchSpace<float>(false, {3, 1, 1, 1}, std::vector<float>(3),
                                 {2, 2}, {0, 0, 0, 0})
                   .ok());
  // Negative crops; crops larger than the space.
  EXPECT_FALSE(BatchSpace<float>(false, {4, 1, 1, 1}, std::vector<float>(4),
                                 {2, 2}, {-1, 0, 0, 0})
                   .ok());
  EXPECT_FALSE(BatchSpace<float>(false, {4, 1, 1, 1}, std::vector<float>(4),
                                 {2, 2}, {2, 1, 0, 0})
                   .ok());
}

}  // namespace
}  // namespace qforge
