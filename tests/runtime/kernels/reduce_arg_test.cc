// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ARG_MAX, ARG_MIN and TOPK_V2 on hand-derived cases (each says how), plus
// TOPK_V2 on random rows against std::stable_sort by decreasing value
// (stable: equal values keep increasing index order, TFLite's tie rule).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
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

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

template <typename T, typename AxisT = int32_t>
absl::StatusOr<ir::HostTensor> RunArg(ir::OpKind kind,
                                      std::vector<int32_t> in_shape,
                                      const std::vector<T>& in, AxisT axis,
                                      ir::DataType out_type,
                                      std::vector<int32_t> out_shape,
                                      ir::DataType options_type) {
  OpModel m;
  const int x = m.Input(OpModel::TypeOf<T>(), in_shape);
  const int a = m.Constant<AxisT>({1}, {axis});
  const int y = m.Output(out_type, out_shape);
  ir::OutputTypeOptions opts;
  opts.output_type = options_type;
  opts.table = kind == ir::OpKind::kArgMax
                   ? ir::OutputTypeOptions::Table::kArgMax
                   : ir::OutputTypeOptions::Table::kArgMin;
  m.Op(kind, {x, a}, {y}, opts);
  auto out = m.Run({MakeTensor<T>({in_shape.begin(), in_shape.end()}, in)});
  if (!out.ok()) return out.status();
  return (*out)[0];
}

TEST(ArgMinMaxTest, LastAxisFirstIndexOnTies) {
  // Row 0 {1,5,5,2}: max 5 first at 1, min 1 at 0.
  // Row 1 {-3,-1,-7,-1}: max -1 first at 1, min -7 at 2.
  const std::vector<float> in = {1, 5, 5, 2, -3, -1, -7, -1};
  auto max = RunArg<float>(ir::OpKind::kArgMax, {2, 4}, in, 1,
                           ir::DataType::kInt32, {2}, ir::DataType::kInt32);
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<int32_t>(*max), (std::vector<int32_t>{1, 1}));
  auto min = RunArg<float>(ir::OpKind::kArgMin, {2, 4}, in, -1,
                           ir::DataType::kInt32, {2}, ir::DataType::kInt32);
  ASSERT_TRUE(min.ok()) << min.status();
  EXPECT_EQ(Values<int32_t>(*min), (std::vector<int32_t>{0, 2}));
}

TEST(ArgMinMaxTest, OuterAxisInt64OutputAndAxis) {
  // Columns of {{1,5,0,2},{3,5,-7,9}}: max rows {1,0(tie),0,1},
  // min rows {0,0(tie),1,0}.
  const std::vector<float> in = {1, 5, 0, 2, 3, 5, -7, 9};
  auto max =
      RunArg<float, int64_t>(ir::OpKind::kArgMax, {2, 4}, in, -2,
                             ir::DataType::kInt64, {4}, ir::DataType::kInt64);
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<int64_t>(*max), (std::vector<int64_t>{1, 0, 0, 1}));
  auto min =
      RunArg<float, int64_t>(ir::OpKind::kArgMin, {2, 4}, in, 0,
                             ir::DataType::kInt64, {4}, ir::DataType::kInt64);
  ASSERT_TRUE(min.ok()) << min.status();
  EXPECT_EQ(Values<int64_t>(*min), (std::vector<int64_t>{0, 0, 1, 0}));
}

TEST(ArgMinMaxTest, MiddleAxisInt32Data) {
  // x[b][j][k], axis j: b0k0 {0,4,2} -> 1; b0k1 {9,4,10} -> 2;
  // b1k0 {7,7,-1} -> 0 (tie); b1k1 {1,0,1} -> 0 (tie).
  const std::vector<int32_t> in = {0, 9, 4, 4, 2, 10, 7, 1, 7, 0, -1, 1};
  auto max =
      RunArg<int32_t>(ir::OpKind::kArgMax, {2, 3, 2}, in, 1,
                      ir::DataType::kInt32, {2, 2}, ir::DataType::kInt32);
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<int32_t>(*max), (std::vector<int32_t>{1, 2, 0, 0}));
}

TEST(ArgMinMaxTest, NanFollowsTfliteReferenceScan) {
  // The scan starts from index 0 and moves on only for v > best: a NaN at
  // index 0 stays, a later NaN never wins.
  auto first = RunArg<float>(ir::OpKind::kArgMax, {3}, {kNaN, 1, 2}, 0,
                             ir::DataType::kInt32, {}, ir::DataType::kInt32);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(Values<int32_t>(*first), (std::vector<int32_t>{0}));
  auto later = RunArg<float>(ir::OpKind::kArgMax, {3}, {1, kNaN, 2}, 0,
                             ir::DataType::kInt32, {}, ir::DataType::kInt32);
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_EQ(Values<int32_t>(*later), (std::vector<int32_t>{2}));
}

TEST(ArgMinMaxTest, RejectsBadInputs) {
  const std::vector<float> in = {1, 2, 3, 4};
  auto axis = RunArg<float>(ir::OpKind::kArgMax, {2, 2}, in, 2,
                            ir::DataType::kInt32, {2}, ir::DataType::kInt32);
  EXPECT_EQ(axis.status().code(), absl::StatusCode::kInvalidArgument);
  auto out_type =
      RunArg<float>(ir::OpKind::kArgMax, {2, 2}, in, 1, ir::DataType::kFloat32,
                    {2}, ir::DataType::kFloat32);
  EXPECT_EQ(out_type.status().code(), absl::StatusCode::kInvalidArgument);
  auto mismatch =
      RunArg<float>(ir::OpKind::kArgMin, {2, 2}, in, 1, ir::DataType::kInt32,
                    {2}, ir::DataType::kInt64);
  EXPECT_EQ(mismatch.status().code(), absl::StatusCode::kInvalidArgument)
      << mismatch.status();
}

struct TopK {
  std::vector<float> values;
  std::vector<int32_t> indices;
  std::vector<int64_t> shape;
};

template <typename T = float>
absl::StatusOr<TopK> RunTopK(std::vector<int32_t> in_shape,
                             const std::vector<T>& in, int32_t k,
                             int threads = 1) {
  OpModel m;
  const int x = m.Input(OpModel::TypeOf<T>(), in_shape);
  const int kt = m.Constant<int32_t>({}, {k});
  std::vector<int32_t> out_shape = in_shape;
  out_shape.back() = k;
  const int v = m.Output(OpModel::TypeOf<T>(), out_shape);
  const int i = m.Output(ir::DataType::kInt32, out_shape);
  m.Op(ir::OpKind::kTopKV2, {x, kt}, {v, i});
  auto out =
      m.Run({MakeTensor<T>({in_shape.begin(), in_shape.end()}, in)}, threads);
  if (!out.ok()) return out.status();
  TopK r;
  for (T value : Values<T>((*out)[0]))
    r.values.push_back(static_cast<float>(value));
  r.indices = Values<int32_t>((*out)[1]);
  r.shape = (*out)[0].shape();
  return r;
}

TEST(TopKV2Test, SortedValuesAndIndices) {
  // {3,1,4,1,5}: top 3 = 5@4, 4@2, 3@0.  {9,2,6,5,3}: 9@0, 6@2, 5@3.
  auto r = RunTopK({2, 5}, {3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, 3);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(r->values, (std::vector<float>{5, 4, 3, 9, 6, 5}));
  EXPECT_EQ(r->indices, (std::vector<int32_t>{4, 2, 0, 0, 2, 3}));
}

TEST(TopKV2Test, TiesByLowerIndex) {
  // Three 3s at 1, 2, 4 come first in index order, then 2@3.
  auto r = RunTopK({5}, {1, 3, 3, 2, 3}, 4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->values, (std::vector<float>{3, 3, 3, 2}));
  EXPECT_EQ(r->indices, (std::vector<int32_t>{1, 2, 4, 3}));
}

TEST(TopKV2Test, IntegerDataAndEdgeKs) {
  auto r = RunTopK<int32_t>({1, 4}, {-5, 7, 0, 7}, 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->values, (std::vector<float>{7, 7}));
  EXPECT_EQ(r->indices, (std::vector<int32_t>{1, 3}));
  auto zero = RunTopK({2, 3}, {1, 2, 3, 4, 5, 6}, 0);
  ASSERT_TRUE(zero.ok()) << zero.status();
  EXPECT_EQ(zero->shape, (std::vector<int64_t>{2, 0}));
  auto all = RunTopK({3}, {2, 0, 1}, 3);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->indices, (std::vector<int32_t>{0, 2, 1}));
}

TEST(TopKV2Test, NanRanksLowest) {
  // TFLite leaves NaN order undefined; qforge puts NaN below every number.
  auto r = RunTopK({3}, {kNaN, 1, 2}, 3);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->indices, (std::vector<int32_t>{2, 1, 0}));
}

TEST(TopKV2Test, RejectsBadK) {
  EXPECT_EQ(RunTopK({3}, {1, 2, 3}, 4).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunTopK({3}, {1, 2, 3}, -1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(TopKV2Test, RandomRowsMatchStableSortForAnyThreadCount) {
  const int rows = 300, cols = 1000, k = 10;
  std::mt19937 rng(3);
  // Few distinct values, so ties are common.
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<float> in(static_cast<size_t>(rows * cols));
  for (float& v : in) v = static_cast<float>(dist(rng)) * 0.25f;
  std::vector<int32_t> want_idx;
  std::vector<float> want_val;
  for (int r = 0; r < rows; ++r) {
    std::vector<int32_t> idx(cols);
    std::iota(idx.begin(), idx.end(), 0);
    const float* row = in.data() + r * cols;
    std::stable_sort(idx.begin(), idx.end(),
                     [row](int32_t a, int32_t b) { return row[a] > row[b]; });
    for (int j = 0; j < k; ++j) {
      want_idx.push_back(idx[j]);
      want_val.push_back(row[idx[j]]);
    }
  }
  for (int threads : {1, 4}) {
    auto r = RunTopK({rows, cols}, in, k, threads);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->indices, want_idx) << threads << " threads";
    EXPECT_EQ(r->values, want_val) << threads << " threads";
  }
  std::printf("[ topk ] %d rows x k=%d compared with stable_sort\n", rows, k);
}

}  // namespace
}  // namespace qforge
