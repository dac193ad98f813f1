// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// GATHER and GATHER_ND; expected values derived by hand in the comments.
// Out-of-range indices must be errors that name the value.
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

template <typename T, typename I>
absl::StatusOr<std::vector<ir::HostTensor>> Gather(
    std::vector<int32_t> shape, const std::vector<T>& params,
    std::vector<int32_t> idx_shape, const std::vector<I>& idx,
    ir::GatherOptions options) {
  OpModel m;
  int p = m.Input(OpModel::TypeOf<T>(), shape);
  int i = m.Input(OpModel::TypeOf<I>(), idx_shape);
  int y = m.Output(OpModel::TypeOf<T>(), {});
  m.Op(ir::OpKind::kGather, {p, i}, {y}, options);
  return m.Run(
      {MakeTensor<T>(std::vector<int64_t>(shape.begin(), shape.end()), params),
       MakeTensor<I>(std::vector<int64_t>(idx_shape.begin(), idx_shape.end()),
                     idx)});
}

// Rows 2 and 0 of [[1,2],[3,4],[5,6]] -> [[5,6],[1,2]].
TEST(Gather, Axis0) {
  auto out =
      Gather<float, int32_t>({3, 2}, {1, 2, 3, 4, 5, 6}, {2}, {2, 0}, {0, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{5, 6, 1, 2}));
}

// Axis 1 with 2-D indices [[0,2],[1,1]] on [[1,2,3],[4,5,6]]:
// out[i][p][q] = params[i][idx[p][q]] -> [[[1,3],[2,2]],[[4,6],[5,5]]].
TEST(Gather, Axis1With2DIndices) {
  auto out = Gather<float, int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}, {2, 2},
                                    {0, 2, 1, 1}, {1, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(Values<float>((*out)[0]),
            (std::vector<float>{1, 3, 2, 2, 4, 6, 5, 5}));
  // axis -1 is the same axis.
  auto neg = Gather<float, int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}, {2, 2},
                                    {0, 2, 1, 1}, {-1, 0});
  ASSERT_TRUE(neg.ok()) << neg.status();
  EXPECT_EQ((*neg)[0], (*out)[0]);
}

// Shape arithmetic: int32 params [10,20,30,40], int64 indices [3,1] ->
// [40,20]; a scalar index drops the axis: row 1 of [3,2] -> [3,4].
TEST(Gather, Int64IndicesAndScalarIndex) {
  auto a = Gather<int32_t, int64_t>({4}, {10, 20, 30, 40}, {2}, {3, 1}, {0, 0});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(Values<int32_t>((*a)[0]), (std::vector<int32_t>{40, 20}));
  auto b = Gather<float, int32_t>({3, 2}, {1, 2, 3, 4, 5, 6}, {}, {1}, {0, 0});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)[0].shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(Values<float>((*b)[0]), (std::vector<float>{3, 4}));
}

// batch_dims 1: each row of [[1,2,3],[4,5,6]] uses its own index row:
// indices [[2,0],[1,1]] -> [[3,1],[5,5]].
TEST(Gather, BatchDims) {
  auto out = Gather<int64_t, int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}, {2, 2},
                                      {2, 0, 1, 1}, {1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{3, 1, 5, 5}));
}

TEST(Gather, OutOfRangeIndexIsAnErrorNamingIt) {
  for (int32_t bad : {3, -1}) {
    auto out = Gather<float, int32_t>({3, 2}, {1, 2, 3, 4, 5, 6}, {2}, {0, bad},
                                      {0, 0});
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.status().message().find("index " + std::to_string(bad)),
              std::string::npos)
        << out.status();
  }
  // An invalid axis.
  auto bad_axis =
      Gather<float, int32_t>({3, 2}, {1, 2, 3, 4, 5, 6}, {1}, {0}, {2, 0});
  EXPECT_FALSE(bad_axis.ok());
}

// GATHER_ND on [[1,2],[3,4]]: full coordinates [[1,0],[0,1]] -> [3,2];
// row coordinates [[1],[0]] -> [[3,4],[1,2]].
TEST(GatherNd, FullAndPartialCoordinates) {
  for (bool full : {true, false}) {
    OpModel m;
    int p = m.Input(DT::kFloat32, {2, 2});
    int i = m.Constant<int32_t>(
        full ? std::vector<int32_t>{2, 2} : std::vector<int32_t>{2, 1},
        full ? std::vector<int32_t>{1, 0, 0, 1} : std::vector<int32_t>{1, 0});
    int y = m.Output(DT::kFloat32, {});
    m.Op(ir::OpKind::kGatherNd, {p, i}, {y});
    auto out = m.Run({MakeTensor<float>({2, 2}, {1, 2, 3, 4})});
    ASSERT_TRUE(out.ok()) << out.status();
    if (full) {
      EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2}));
      EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{3, 2}));
    } else {
      EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 2}));
      EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{3, 4, 1, 2}));
    }
  }
}

TEST(GatherNd, OutOfRangeIsAnError) {
  OpModel m;
  int p = m.Input(DT::kFloat32, {2, 2});
  int i = m.Constant<int64_t>({1, 2}, {0, 2});
  int y = m.Output(DT::kFloat32, {1});
  m.Op(ir::OpKind::kGatherNd, {p, i}, {y});
  auto out = m.Run({MakeTensor<float>({2, 2}, {1, 2, 3, 4})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("index 2"), std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge
