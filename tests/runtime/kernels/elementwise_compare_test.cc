// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Comparisons (bool output, broadcasting) and SELECT / SELECT_V2. Expected
// values are worked out by hand in the comments.
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "tests/runtime/kernels/elementwise_test_util.h"

namespace qforge::testing::elementwise {
namespace {

using ir::DataType;
using ir::OpKind;

TEST(CompareTest, FloatWithNaN) {
  // a = [1, 2, 3, NaN], b = [2, 2, 2, 1]: element by element
  //   <  : 1<2 yes, 2<2 no, 3<2 no, NaN no
  //   <= : yes, yes, no, no
  //   >  : no, no, yes, no
  //   >= : no, yes, yes, no
  //   == : no, yes, no, no
  //   != : yes, no, yes, yes (NaN differs from everything)
  const std::vector<Arg> args = {{F32({4}, {1, 2, 3, kNaN})},
                                 {F32({4}, {2, 2, 2, 1})}};
  const struct {
    OpKind kind;
    std::vector<uint8_t> want;
  } cases[] = {
      {OpKind::kLess, {1, 0, 0, 0}},    {OpKind::kLessEqual, {1, 1, 0, 0}},
      {OpKind::kGreater, {0, 0, 1, 0}}, {OpKind::kGreaterEqual, {0, 1, 1, 0}},
      {OpKind::kEqual, {0, 1, 0, 0}},   {OpKind::kNotEqual, {1, 0, 1, 1}},
  };
  for (const auto& c : cases) {
    auto out = RunLike(c.kind, args, DataType::kBool);
    ASSERT_TRUE(out.ok()) << out.status();
    SCOPED_TRACE(ir::GetOpInfo(c.kind).name);
    ExpectBools(*out, {4}, c.want);
  }
}

TEST(CompareTest, Int32BroadcastAndInt64Scalar) {
  // [[1,5,3],[4,2,6]] > [3,3,3] row-wise -> [[0,1,0],[1,0,1]].
  auto g = RunOp(OpKind::kGreater,
                 {{I32({2, 3}, {1, 5, 3, 4, 2, 6})}, {I32({3}, {3, 3, 3})}},
                 DataType::kBool, {2, 3});
  ASSERT_TRUE(g.ok()) << g.status();
  ExpectBools(*g, {2, 3}, {0, 1, 0, 1, 0, 1});
  // int64 scalar on the left: 7 <= [6, 7, 8] -> [0, 1, 1].
  auto l = RunOp(OpKind::kLessEqual, {{I64({}, {7})}, {I64({3}, {6, 7, 8})}},
                 DataType::kBool, {3});
  ASSERT_TRUE(l.ok()) << l.status();
  ExpectBools(*l, {3}, {0, 1, 1});
}

TEST(CompareTest, BoolEquality) {
  // [T,T,F,F] vs [T,F,T,F]: equal where both agree.
  const std::vector<Arg> args = {{Bool({4}, {1, 1, 0, 0})},
                                 {Bool({4}, {1, 0, 1, 0})}};
  auto eq = RunLike(OpKind::kEqual, args, DataType::kBool);
  ASSERT_TRUE(eq.ok()) << eq.status();
  ExpectBools(*eq, {4}, {1, 0, 0, 1});
  auto ne = RunLike(OpKind::kNotEqual, args, DataType::kBool);
  ASSERT_TRUE(ne.ok()) << ne.status();
  ExpectBools(*ne, {4}, {0, 1, 1, 0});
  // Ordering bools is not a TFLite op.
  auto lt = RunLike(OpKind::kLess, args, DataType::kBool);
  EXPECT_EQ(lt.status().code(), absl::StatusCode::kUnimplemented);
}

TEST(CompareTest, OutputMustBeBool) {
  auto out = RunLike(OpKind::kLess, {{F32({1}, {1})}, {F32({1}, {2})}},
                     DataType::kFloat32);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SelectTest, SameShapeConditionPicksElements) {
  // cond [T,F,F,T]: x where true, y where false -> [1, 20, 30, 4].
  auto out = RunLike(OpKind::kSelect,
                     {{Bool({2, 2}, {1, 0, 0, 1})},
                      {F32({2, 2}, {1, 2, 3, 4})},
                      {F32({2, 2}, {10, 20, 30, 40})}},
                     DataType::kFloat32);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {2, 2}, {1, 20, 30, 4});
}

TEST(SelectTest, RankOneConditionPicksRows) {
  // cond [F,T,F] selects whole rows of [3,2]: row 0 from y, row 1 from x,
  // row 2 from y -> [[-1,-2],[3,4],[-5,-6]] (int32 values).
  auto out = RunOp(OpKind::kSelect,
                   {{Bool({3}, {0, 1, 0})},
                    {I32({3, 2}, {1, 2, 3, 4, 5, 6})},
                    {I32({3, 2}, {-1, -2, -3, -4, -5, -6})}},
                   DataType::kInt32, {3, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectValues<int32_t>(*out, DataType::kInt32, {3, 2}, {-1, -2, 3, 4, -5, -6});
}

TEST(SelectTest, ScalarConditionPicksTensor) {
  auto t = RunOp(OpKind::kSelect,
                 {{Bool({}, {1})}, {F32({2}, {1, 2})}, {F32({2}, {3, 4})}},
                 DataType::kFloat32, {2});
  ASSERT_TRUE(t.ok()) << t.status();
  ExpectFloats(*t, {2}, {1, 2});
  auto f = RunOp(OpKind::kSelect,
                 {{Bool({}, {0})}, {F32({2}, {1, 2})}, {F32({2}, {3, 4})}},
                 DataType::kFloat32, {2});
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {2}, {3, 4});
}

TEST(SelectTest, Errors) {
  // SELECT does not broadcast x against y.
  auto xy = RunOp(OpKind::kSelect,
                  {{Bool({2}, {1, 0})}, {F32({2}, {1, 2})}, {F32({1}, {3})}},
                  DataType::kFloat32, {2});
  EXPECT_EQ(xy.status().code(), absl::StatusCode::kInvalidArgument);
  // A rank-1 condition must match x's first dim (2 != 3).
  auto rows = RunOp(
      OpKind::kSelect,
      {{Bool({2}, {1, 0})}, {F32({3, 1}, {1, 2, 3})}, {F32({3, 1}, {4, 5, 6})}},
      DataType::kFloat32, {3, 1});
  EXPECT_EQ(rows.status().code(), absl::StatusCode::kInvalidArgument);
  // The condition must be bool.
  auto cond =
      RunOp(OpKind::kSelect,
            {{F32({2}, {1, 0})}, {F32({2}, {1, 2})}, {F32({2}, {3, 4})}},
            DataType::kFloat32, {2});
  EXPECT_EQ(cond.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SelectV2Test, BroadcastsAllThree) {
  // cond [2,1] = [[T],[F]], x [1,3] = [1,2,3], y scalar 9 -> [2,3]:
  // row 0 takes x, row 1 takes y everywhere.
  auto out = RunOp(
      OpKind::kSelectV2,
      {{Bool({2, 1}, {1, 0})}, {F32({1, 3}, {1, 2, 3})}, {F32({}, {9}), true}},
      DataType::kFloat32, {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {2, 3}, {1, 2, 3, 9, 9, 9});
  // cond [3] = [T,F,T] against x, y [2,3]: column-wise choice.
  auto cols = RunOp(OpKind::kSelectV2,
                    {{Bool({3}, {1, 0, 1})},
                     {I64({2, 3}, {1, 2, 3, 4, 5, 6})},
                     {I64({2, 3}, {-1, -2, -3, -4, -5, -6})}},
                    DataType::kInt64, {2, 3});
  ASSERT_TRUE(cols.ok()) << cols.status();
  ExpectValues<int64_t>(*cols, DataType::kInt64, {2, 3}, {1, -2, 3, 4, -5, 6});
  // Same shapes everywhere: plain elementwise; bool payloads work too.
  auto b =
      RunLike(OpKind::kSelectV2,
              {{Bool({2}, {0, 1})}, {Bool({2}, {1, 1})}, {Bool({2}, {0, 0})}},
              DataType::kBool);
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectBools(*b, {2}, {0, 1});
}

}  // namespace
}  // namespace qforge::testing::elementwise
