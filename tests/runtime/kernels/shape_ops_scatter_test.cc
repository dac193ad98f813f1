// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SCATTER_ND, DYNAMIC_UPDATE_SLICE and EMBEDDING_LOOKUP on small hand-made
// cases; every expected value is worked out in the comment above its check
// (the first SCATTER_ND case is the example of TensorFlow's tf.scatter_nd
// documentation).
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

// ------------------------------------------------------------- SCATTER_ND

// out = SCATTER_ND(indices (input), updates (input), shape (constant)).
template <typename T>
absl::StatusOr<std::vector<T>> ScatterNd(std::vector<int32_t> index_shape,
                                         std::vector<int32_t> indices,
                                         std::vector<int32_t> update_shape,
                                         std::vector<T> updates,
                                         std::vector<int32_t> shape) {
  OpModel m;
  const ir::DataType type = OpModel::TypeOf<T>();
  const int idx = m.Input(ir::DataType::kInt32, index_shape);
  const int up = m.Input(type, update_shape);
  const int sh =
      m.Constant<int32_t>({static_cast<int32_t>(shape.size())}, shape);
  const int y = m.Output(type, shape);
  m.Op(ir::OpKind::kScatterNd, {idx, up, sh}, {y});
  auto out = m.Run(
      {MakeTensor<int32_t>({index_shape.begin(), index_shape.end()}, indices),
       MakeTensor<T>({update_shape.begin(), update_shape.end()}, updates)});
  if (!out.ok()) return out.status();
  EXPECT_EQ((*out)[0].shape(),
            std::vector<int64_t>(shape.begin(), shape.end()));
  return Values<T>((*out)[0]);
}

TEST(ScatterNdTest, OneDimIndices) {
  // tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8])
  //   = [0, 11, 0, 10, 9, 0, 0, 12].
  auto got = ScatterNd<float>({4, 1}, {4, 3, 1, 7}, {4}, {9, 10, 11, 12}, {8});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{0, 11, 0, 10, 9, 0, 0, 12}));
}

TEST(ScatterNdTest, SlicesAndDuplicatesAccumulate) {
  // Rows of a [3, 2] output: indices [[2], [0], [2]], updates
  // [[1, 2], [3, 4], [5, 6]] -> row 0 = [3, 4], row 1 = 0, row 2 = [1, 2] +
  // [5, 6] = [6, 8].
  auto got =
      ScatterNd<int32_t>({3, 1}, {2, 0, 2}, {3, 2}, {1, 2, 3, 4, 5, 6}, {3, 2});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<int32_t>{3, 4, 0, 0, 6, 8}));
}

TEST(ScatterNdTest, FullIndexTuples) {
  // indices [[0, 1], [1, 0]] into [2, 2]: out[0][1] = 5, out[1][0] = 6.
  auto got = ScatterNd<float>({2, 2}, {0, 1, 1, 0}, {2}, {5, 6}, {2, 2});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{0, 5, 6, 0}));
}

TEST(ScatterNdTest, ShapeFromAnInput) {
  // The output shape comes from a runtime input: [2, 3], index [1] gets
  // the row [7, 8, 9].
  OpModel m;
  const int idx = m.Constant<int32_t>({1, 1}, {1});
  const int up = m.Constant<float>({1, 3}, {7, 8, 9});
  const int sh = m.Input(ir::DataType::kInt32, {2});
  const int y = m.Output(ir::DataType::kFloat32, {-1, -1});
  m.Op(ir::OpKind::kScatterNd, {idx, up, sh}, {y});
  auto out = m.Run({MakeTensor<int32_t>({2}, {2, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 0, 0, 7, 8, 9}));
}

TEST(ScatterNdTest, RejectsBadIndicesAndShapes) {
  // Index 8 is outside [0, 8).
  auto out = ScatterNd<float>({2, 1}, {1, 8}, {2}, {1, 2}, {8});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
  // A negative index.
  out = ScatterNd<float>({1, 1}, {-1}, {1}, {1}, {8});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
  // updates [3] do not match indices [2, 1] (they need [2]).
  out = ScatterNd<float>({2, 1}, {0, 1}, {3}, {1, 2, 3}, {8});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
}

// --------------------------------------------------- DYNAMIC_UPDATE_SLICE

template <typename Index>
absl::StatusOr<std::vector<float>> UpdateSlice(std::vector<Index> start) {
  // operand [3, 4] = 0..11, update [2, 2] = [[-1, -2], [-3, -4]].
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {3, 4});
  const int u = m.Constant<float>({2, 2}, {-1, -2, -3, -4});
  const int s = m.Input(OpModel::TypeOf<Index>(), {2});
  const int y = m.Output(ir::DataType::kFloat32, {3, 4});
  m.Op(ir::OpKind::kDynamicUpdateSlice, {x, u, s}, {y});
  std::vector<float> operand(12);
  for (int i = 0; i < 12; ++i) operand[static_cast<size_t>(i)] = i;
  auto out = m.Run(
      {MakeTensor<float>({3, 4}, operand), MakeTensor<Index>({2}, start)});
  if (!out.ok()) return out.status();
  return Values<float>((*out)[0]);
}

TEST(DynamicUpdateSliceTest, WritesAtStart) {
  // Start [1, 1]: rows 1-2, columns 1-2.
  auto got = UpdateSlice<int32_t>({1, 1});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{0, 1, 2, 3,    //
                                      4, -1, -2, 7,  //
                                      8, -3, -4, 11}));
}

TEST(DynamicUpdateSliceTest, ClampsStart) {
  // Start [2, 3] is clamped to [3 - 2, 4 - 2] = [1, 2]; [-5, -1] to [0, 0].
  auto got = UpdateSlice<int64_t>({2, 3});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{0, 1, 2, 3,    //
                                      4, 5, -1, -2,  //
                                      8, 9, -3, -4}));
  got = UpdateSlice<int32_t>({-5, -1});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{-1, -2, 2, 3,  //
                                      -3, -4, 6, 7,  //
                                      8, 9, 10, 11}));
}

TEST(DynamicUpdateSliceTest, RejectsLargerUpdate) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {2});
  const int u = m.Constant<float>({3}, {1, 2, 3});
  const int s = m.Constant<int32_t>({1}, {0});
  const int y = m.Output(ir::DataType::kFloat32, {2});
  m.Op(ir::OpKind::kDynamicUpdateSlice, {x, u, s}, {y});
  auto out = m.Run({MakeTensor<float>({2}, {0, 0})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
}

// ------------------------------------------------------- EMBEDDING_LOOKUP

absl::StatusOr<ir::HostTensor> Lookup(std::vector<int32_t> ids) {
  // table [3, 2] = [[1, 2], [3, 4], [5, 6]].
  OpModel m;
  const int i =
      m.Input(ir::DataType::kInt32, {static_cast<int32_t>(ids.size())});
  const int t = m.Constant<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  const int y =
      m.Output(ir::DataType::kFloat32, {static_cast<int32_t>(ids.size()), 2});
  m.Op(ir::OpKind::kEmbeddingLookup, {i, t}, {y});
  auto out =
      m.Run({MakeTensor<int32_t>({static_cast<int64_t>(ids.size())}, ids)});
  if (!out.ok()) return out.status();
  return (*out)[0];
}

TEST(EmbeddingLookupTest, GathersRows) {
  // ids [2, 0, 2] -> rows [5, 6], [1, 2], [5, 6].
  auto got = Lookup({2, 0, 2});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Values<float>(*got), (std::vector<float>{5, 6, 1, 2, 5, 6}));
}

TEST(EmbeddingLookupTest, RejectsOutOfRangeIds) {
  for (int32_t id : {3, -1}) {
    auto got = Lookup({0, id});
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument)
        << got.status();
  }
}

}  // namespace
}  // namespace qforge
