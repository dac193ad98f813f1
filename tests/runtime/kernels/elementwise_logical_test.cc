// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGICAL_NOT: hand-derived truth table, shape kept, and the type rules of
// TFLite's kernel (bool in, bool out).
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "tests/runtime/kernels/elementwise_test_util.h"

namespace qforge::testing::elementwise {
namespace {

using ir::DataType;
using ir::OpKind;

TEST(LogicalNotTest, FlipsEveryElementAndKeepsTheShape) {
  // not [[T, F, F], [T, T, F]] = [[F, T, T], [F, F, T]].
  auto out = RunLike(OpKind::kLogicalNot, {{Bool({2, 3}, {1, 0, 0, 1, 1, 0})}},
                     DataType::kBool);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectBools(*out, {2, 3}, {0, 1, 1, 0, 0, 1});
}

TEST(LogicalNotTest, ScalarAndEmpty) {
  auto scalar =
      RunOp(OpKind::kLogicalNot, {{Bool({}, {0})}}, DataType::kBool, {});
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  ExpectBools(*scalar, {}, {1});
  auto empty =
      RunOp(OpKind::kLogicalNot, {{Bool({0}, {})}}, DataType::kBool, {0});
  ASSERT_TRUE(empty.ok()) << empty.status();
  ExpectBools(*empty, {0}, {});
}

TEST(LogicalNotTest, OnlyBools) {
  // TFLite's LOGICAL_NOT takes bool only: a float input is not an op it has.
  auto f = RunLike(OpKind::kLogicalNot, {{F32({2}, {0, 1})}}, DataType::kBool);
  EXPECT_EQ(f.status().code(), absl::StatusCode::kUnimplemented);
  // The output must be bool too.
  auto i =
      RunLike(OpKind::kLogicalNot, {{Bool({2}, {0, 1})}}, DataType::kInt32);
  EXPECT_EQ(i.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace qforge::testing::elementwise
