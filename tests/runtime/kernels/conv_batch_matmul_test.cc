// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL: hand-derived products with adj_x / adj_y, batch
// broadcasting (including different ranks), two run-time operands, a
// constant rhs, and a sweep against a double-precision reference.
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

ir::BatchMatMulOptions BatchMatMulOpts(bool adj_x = false, bool adj_y = false) {
  ir::BatchMatMulOptions o;
  o.adj_x = adj_x;
  o.adj_y = adj_y;
  return o;
}

// [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]].
TEST(BatchMatMul, TwoByTwo) {
  auto out = RunOp(ir::OpKind::kBatchMatMul,
                   {In({2, 2}, {1, 2, 3, 4}), In({2, 2}, {5, 6, 7, 8})}, {2, 2},
                   BatchMatMulOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {2, 2}, {19, 22, 43, 50});
}

// adj_x: lhs stored [K=2, M=2] as [[1,3],[2,4]] is the same [[1,2],[3,4]];
// adj_y: rhs stored [N, K] as [[5,7],[6,8]] is the same [[5,6],[7,8]].
TEST(BatchMatMul, Adjoints) {
  for (int mode = 0; mode < 4; ++mode) {
    const bool ax = mode & 1, ay = mode & 2;
    const std::vector<float> lhs =
        ax ? std::vector<float>{1, 3, 2, 4} : std::vector<float>{1, 2, 3, 4};
    const std::vector<float> rhs =
        ay ? std::vector<float>{5, 7, 6, 8} : std::vector<float>{5, 6, 7, 8};
    auto out =
        RunOp(ir::OpKind::kBatchMatMul, {In({2, 2}, lhs), Const({2, 2}, rhs)},
              {2, 2}, BatchMatMulOpts(ax, ay));
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(*out, {2, 2}, {19, 22, 43, 50});
  }
}

// Non-square with adj_y: lhs [1,3] = [1,2,3]; rhs stored [N=2, K=3] =
// [[1,0,1],[0,1,0]] -> [1+3, 2] = [4, 2].
TEST(BatchMatMul, NonSquareAdjY) {
  auto out = RunOp(ir::OpKind::kBatchMatMul,
                   {In({1, 3}, {1, 2, 3}), In({2, 3}, {1, 0, 1, 0, 1, 0})},
                   {1, 2}, BatchMatMulOpts(false, true));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1, 2}, {4, 2});
}

// lhs [2,1,1,2] (batches a0=[1,2], a1=[3,4]) and rhs [3,2,1] (batches
// column vectors (1,0), (0,1), (1,1)) broadcast to batch [2,3]; outputs
// a_i . r_j: a0 -> 1, 2, 3; a1 -> 3, 4, 7.
TEST(BatchMatMul, BroadcastsBatchDims) {
  auto out =
      RunOp(ir::OpKind::kBatchMatMul,
            {In({2, 1, 1, 2}, {1, 2, 3, 4}), In({3, 2, 1}, {1, 0, 0, 1, 1, 1})},
            {2, 3, 1, 1}, BatchMatMulOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {2, 3, 1, 1}, {1, 2, 3, 3, 4, 7});
}

double At(const std::vector<float>& v, int64_t i) {
  return v[static_cast<size_t>(i)];
}

TEST(BatchMatMul, SweepAgainstReference) {
  struct Case {
    std::vector<int64_t> lb, rb;  // batch dims
    int64_t m, k, n;
    bool ax, ay, rhs_const;
  } cases[] = {
      {{}, {}, 13, 17, 19, false, false, false},
      {{3}, {3}, 4, 16, 8, false, false, true},
      {{2, 1}, {1, 3}, 5, 6, 33, true, false, false},
      {{4}, {}, 30, 12, 40, false, true, true},
      {{1}, {2, 2}, 7, 9, 15, true, true, false},
      {{2}, {2}, 64, 64, 64, false, false, false},
  };
  uint32_t seed = 300;
  for (const Case& c : cases) {
    std::vector<int64_t> ls = c.lb, rs = c.rb;
    ls.push_back(c.ax ? c.k : c.m);
    ls.push_back(c.ax ? c.m : c.k);
    rs.push_back(c.ay ? c.n : c.k);
    rs.push_back(c.ay ? c.k : c.n);
    const auto l = Random(static_cast<size_t>(Count(ls)), seed++);
    const auto r = Random(static_cast<size_t>(Count(rs)), seed++);
    // Broadcast batch shape, right-aligned.
    const size_t rank = std::max(c.lb.size(), c.rb.size());
    std::vector<int64_t> lb(rank, 1), rb(rank, 1), ob(rank, 1);
    std::copy(c.lb.begin(), c.lb.end(), lb.end() - c.lb.size());
    std::copy(c.rb.begin(), c.rb.end(), rb.end() - c.rb.size());
    for (size_t d = 0; d < rank; ++d) ob[d] = std::max(lb[d], rb[d]);
    const int64_t batches = Count(ob);
    std::vector<float> want;
    for (int64_t b = 0; b < batches; ++b) {
      // Decompose b, then map to lhs / rhs batch offsets.
      int64_t rem = b, li = 0, ri = 0, lstride = 1, rstride = 1;
      for (size_t d = rank; d-- > 0;) {
        const int64_t idx = rem % ob[d];
        rem /= ob[d];
        li += (lb[d] == 1 ? 0 : idx) * lstride;
        ri += (rb[d] == 1 ? 0 : idx) * rstride;
        lstride *= lb[d];
        rstride *= rb[d];
      }
      for (int64_t i = 0; i < c.m; ++i) {
        for (int64_t j = 0; j < c.n; ++j) {
          double acc = 0;
          for (int64_t p = 0; p < c.k; ++p) {
            const double a = c.ax ? At(l, li * c.m * c.k + p * c.m + i)
                                  : At(l, li * c.m * c.k + i * c.k + p);
            const double w = c.ay ? At(r, ri * c.k * c.n + j * c.k + p)
                                  : At(r, ri * c.k * c.n + p * c.n + j);
            acc += a * w;
          }
          want.push_back(static_cast<float>(acc));
        }
      }
    }
    std::vector<int64_t> os = ob;
    os.push_back(c.m);
    os.push_back(c.n);
    SCOPED_TRACE(::testing::Message()
                 << "lhs " << ::testing::PrintToString(ls) << " rhs "
                 << ::testing::PrintToString(rs));
    auto out = RunOp(ir::OpKind::kBatchMatMul,
                     {In(ls, l), c.rhs_const ? Const(rs, r) : In(rs, r)}, os,
                     BatchMatMulOpts(c.ax, c.ay));
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(*out, os, want);
  }
}

TEST(BatchMatMul, InnerDimensionMismatch) {
  auto out = RunOp(
      ir::OpKind::kBatchMatMul,
      {In({2, 3}, std::vector<float>(6)), In({4, 2}, std::vector<float>(8))},
      {2, 2}, BatchMatMulOpts());
  ASSERT_FALSE(out.ok());
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("lhs 'arg0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rhs 'arg1'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("inner dimension"), std::string::npos) << msg;
}

TEST(BatchMatMul, BatchDimsMustBroadcast) {
  auto out = RunOp(ir::OpKind::kBatchMatMul,
                   {In({2, 2, 2}, std::vector<float>(8)),
                    In({3, 2, 2}, std::vector<float>(12))},
                   {3, 2, 2}, BatchMatMulOpts());
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("broadcast"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge::testing::conv
