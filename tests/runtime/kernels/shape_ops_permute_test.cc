// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE, REVERSE_V2, TILE, BROADCAST_TO. Small cases are derived by hand
// in the comments; larger ones are checked against a naive index formula
// written here, and with 1 and 4 threads (results must be bit-identical).
#include <cstring>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;
using DT = ir::DataType;

using testing::Iota;

// One op with a data input and a constant int32 parameter tensor.
template <typename T>
absl::StatusOr<std::vector<ir::HostTensor>> RunWithParam(
    ir::OpKind kind, std::vector<int32_t> shape, const std::vector<T>& data,
    std::vector<int32_t> param_shape, const std::vector<int32_t>& param,
    int threads = 1) {
  OpModel m;
  int x = m.Input(OpModel::TypeOf<T>(), shape);
  int p = m.Constant<int32_t>(param_shape, param);
  int y = m.Output(OpModel::TypeOf<T>(), {});
  m.Op(kind, {x, p}, {y});
  return m.Run(
      {MakeTensor<T>(std::vector<int64_t>(shape.begin(), shape.end()), data)},
      threads);
}

// [[0,1,2],[3,4,5]] transposed: out[j][i] = in[i][j].
TEST(Transpose, Matrix) {
  auto out = RunWithParam<float>(ir::OpKind::kTranspose, {2, 3}, Iota<float>(6),
                                 {2}, {1, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

// NHWC [1,2,2,3] -> NCHW with perm [0,3,1,2]; in[h][w][c] = 6h + 3w + c, so
// channel c reads c, 3+c, 6+c, 9+c.
TEST(Transpose, NhwcToNchw) {
  auto out = RunWithParam<int32_t>(ir::OpKind::kTranspose, {1, 2, 2, 3},
                                   Iota<int32_t>(12), {4}, {0, 3, 1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 3, 2, 2}));
  EXPECT_EQ(Values<int32_t>((*out)[0]),
            (std::vector<int32_t>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
}

// Rank 6, int64 data, against the naive formula out[o] = in[i] with
// i[perm[k]] = o[k]; also 1 vs 4 threads.
TEST(Transpose, Rank6AgainstNaiveAndThreads) {
  const std::vector<int32_t> shape = {2, 3, 4, 5, 6, 7};
  const std::vector<int32_t> perm = {5, 2, 0, 4, 1, 3};
  const int n = 2 * 3 * 4 * 5 * 6 * 7;
  const std::vector<int64_t> data = Iota<int64_t>(n, 1000);
  auto one =
      RunWithParam<int64_t>(ir::OpKind::kTranspose, shape, data, {6}, perm, 1);
  auto four =
      RunWithParam<int64_t>(ir::OpKind::kTranspose, shape, data, {6}, perm, 4);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(four.ok()) << four.status();
  EXPECT_EQ((*one)[0], (*four)[0]);
  std::vector<int64_t> out_shape(6), in_strides(6, 1);
  for (int k = 0; k < 6; ++k) out_shape[k] = shape[perm[k]];
  for (int k = 4; k >= 0; --k) in_strides[k] = in_strides[k + 1] * shape[k + 1];
  EXPECT_EQ((*one)[0].shape(), out_shape);
  std::vector<int64_t> want(n);
  std::vector<int64_t> o(6, 0);
  for (int flat = 0; flat < n; ++flat) {
    int64_t rem = flat, src = 0;
    for (int k = 5; k >= 0; --k) {
      o[k] = rem % out_shape[k];
      rem /= out_shape[k];
    }
    for (int k = 0; k < 6; ++k) src += o[k] * in_strides[perm[k]];
    want[flat] = data[src];
  }
  EXPECT_EQ(Values<int64_t>((*one)[0]), want);
}

TEST(Transpose, InvalidPermIsAnError) {
  EXPECT_FALSE(RunWithParam<float>(ir::OpKind::kTranspose, {2, 3},
                                   Iota<float>(6), {2}, {0, 0})
                   .ok());
  EXPECT_FALSE(RunWithParam<float>(ir::OpKind::kTranspose, {2, 3},
                                   Iota<float>(6), {2}, {0, 2})
                   .ok());
  EXPECT_FALSE(RunWithParam<float>(ir::OpKind::kTranspose, {2, 3},
                                   Iota<float>(6), {3}, {0, 1, 2})
                   .ok());
  auto rank7 =
      RunWithParam<float>(ir::OpKind::kTranspose, {1, 1, 1, 1, 1, 1, 2},
                          Iota<float>(2), {7}, {0, 1, 2, 3, 4, 5, 6});
  ASSERT_FALSE(rank7.ok());
  EXPECT_EQ(rank7.status().code(), absl::StatusCode::kUnimplemented);
}

// Every element type moves by bytes: a [2,3] tensor whose element k has
// all its bytes equal to k + 1, transposed, must hold elements 1,4,2,5,3,6.
TEST(Transpose, AnyElementType) {
  for (DT type : {DT::kFloat32, DT::kFloat16, DT::kInt32, DT::kInt64, DT::kInt8,
                  DT::kUInt8, DT::kInt16, DT::kBool}) {
    const size_t elem = static_cast<size_t>(*ir::DataTypeBits(type) / 8);
    ir::HostTensor in(type, {2, 3});
    for (size_t k = 0; k < 6; ++k) {
      std::memset(in.data() + k * elem, static_cast<int>(k + 1), elem);
    }
    OpModel m;
    int x = m.Input(type, {2, 3});
    int p = m.Constant<int32_t>({2}, {1, 0});
    int y = m.Output(type, {3, 2});
    m.Op(ir::OpKind::kTranspose, {x, p}, {y});
    auto out = m.Run({in});
    ASSERT_TRUE(out.ok()) << ir::DataTypeName(type) << ": " << out.status();
    const std::vector<int> want = {1, 4, 2, 5, 3, 6};
    for (size_t k = 0; k < 6; ++k) {
      for (size_t b = 0; b < elem; ++b) {
        EXPECT_EQ((*out)[0].data()[k * elem + b], want[k])
            << ir::DataTypeName(type) << " element " << k;
      }
    }
  }
}

// [[0,1,2],[3,4,5]]: axis 1 -> [[2,1,0],[5,4,3]]; axis 0 -> [[3,4,5],
// [0,1,2]]; axes {-1,0} -> [[5,4,3],[2,1,0]].
TEST(ReverseV2, Axes) {
  struct Case {
    std::vector<int32_t> axes;
    std::vector<float> want;
  };
  for (const Case& c : std::vector<Case>{{{1}, {2, 1, 0, 5, 4, 3}},
                                         {{0}, {3, 4, 5, 0, 1, 2}},
                                         {{-1, 0}, {5, 4, 3, 2, 1, 0}}}) {
    auto out =
        RunWithParam<float>(ir::OpKind::kReverseV2, {2, 3}, Iota<float>(6),
                            {static_cast<int32_t>(c.axes.size())}, c.axes);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(Values<float>((*out)[0]), c.want);
  }
  EXPECT_FALSE(RunWithParam<float>(ir::OpKind::kReverseV2, {2, 3},
                                   Iota<float>(6), {1}, {2})
                   .ok());
}

// [[1,2],[3,4]] tiled [2,3]: each row repeats 3 times, the pair of rows
// twice.
TEST(Tile, Matrix) {
  auto out = RunWithParam<int32_t>(ir::OpKind::kTile, {2, 2}, {1, 2, 3, 4}, {2},
                                   {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(Values<int32_t>((*out)[0]),
            (std::vector<int32_t>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
                                  1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
}

// int8 [3] tiled 0 times -> empty [0]; negative multiples are an error.
TEST(Tile, ZeroAndNegativeMultiples) {
  auto out = RunWithParam<int8_t>(ir::OpKind::kTile, {3}, {1, 2, 3}, {1}, {0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{0}));
  EXPECT_FALSE(
      RunWithParam<int8_t>(ir::OpKind::kTile, {3}, {1, 2, 3}, {1}, {-1}).ok());
}

// [1,2,3] to [2,3] repeats the row; [[1],[2]] (shape [2,1]) to [2,2,3]:
// out[i][j][k] = in[j][0] -> 1,1,1,2,2,2 twice.
TEST(BroadcastTo, Shapes) {
  auto a = RunWithParam<float>(ir::OpKind::kBroadcastTo, {3}, {1, 2, 3}, {2},
                               {2, 3});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ((*a)[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values<float>((*a)[0]), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  auto b = RunWithParam<int64_t>(ir::OpKind::kBroadcastTo, {2, 1}, {1, 2}, {3},
                                 {2, 2, 3});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)[0].shape(), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(Values<int64_t>((*b)[0]),
            (std::vector<int64_t>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
  auto bad =
      RunWithParam<float>(ir::OpKind::kBroadcastTo, {2}, {1, 2}, {1}, {3});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("does not broadcast"),
            std::string::npos);
}

// Multiples computed at run time (a model input): the output is sized in
// prepare from the value the interpreter has by then. [5,6] tiled [1,2].
TEST(Tile, RuntimeMultiples) {
  OpModel m;
  int x = m.Input(DT::kFloat32, {1, 2});
  int mult = m.Input(DT::kInt32, {2});
  int y = m.Output(DT::kFloat32, {1, 2});
  m.Op(ir::OpKind::kTile, {x, mult}, {y});
  auto out = m.Run(
      {MakeTensor<float>({1, 2}, {5, 6}), MakeTensor<int32_t>({2}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{5, 6, 5, 6}));
}

}  // namespace
}  // namespace qforge
