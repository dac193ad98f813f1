// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// FULLY_CONNECTED: hand-derived products, input flattening and
// keep_num_dims, optional bias, computed weights, activations, errors, and
// a sweep of (batch, in, out) sizes across the GEMM's panel and row tails
// against a double-precision dot product.
#include <algorithm>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

ir::FullyConnectedOptions FcOpts(ir::Activation act = ir::Activation::kNone,
                                 bool keep_num_dims = false) {
  ir::FullyConnectedOptions o;
  o.activation = act;
  o.keep_num_dims = keep_num_dims;
  return o;
}

// x = [[1,2,3],[4,5,6]], W = [[1,0,-1],[0.5,0.5,0.5]], b = [1,-1]:
// row 0: 1-3+1 = -1, 0.5*6-1 = 2; row 1: 4-6+1 = -1, 0.5*15-1 = 6.5.
TEST(FullyConnected, HandProduct) {
  auto out =
      RunOp(ir::OpKind::kFullyConnected,
            {In({2, 3}, {1, 2, 3, 4, 5, 6}),
             Const({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}), Const({2}, {1, -1})},
            {2, 2}, FcOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {2, 2}, {-1, 2, -1, 6.5f});
}

// Without bias, with RELU: [-2, 3] -> [0, 3] and [-5, 7.5] -> [0, 7.5].
TEST(FullyConnected, NoBiasRelu) {
  auto out = RunOp(ir::OpKind::kFullyConnected,
                   {In({2, 3}, {1, 2, 3, 4, 5, 6}),
                    Const({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}), Absent()},
                   {2, 2}, FcOpts(ir::Activation::kRelu));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {2, 2}, {0, 3, 0, 7.5f});
}

// A [2,2,3] input is read as 4 rows of 3; the output is [4, 2], or
// [2, 2, 2] with keep_num_dims. W = [[1,1,1],[1,0,0]]: row r of iota(12)
// gives (3*(3r)+3, 3r) = (9r+3, 3r).
TEST(FullyConnected, FlattensInputAndKeepNumDims) {
  const std::vector<float> want = {3, 0, 12, 3, 21, 6, 30, 9};
  for (bool keep : {false, true}) {
    const std::vector<int64_t> shape =
        keep ? std::vector<int64_t>{2, 2, 2} : std::vector<int64_t>{4, 2};
    auto out =
        RunOp(ir::OpKind::kFullyConnected,
              {In({2, 2, 3}, Iota(12)), Const({2, 3}, {1, 1, 1, 1, 0, 0})},
              shape, FcOpts(ir::Activation::kNone, keep));
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(*out, shape, want);
  }
}

// Flattening ignores the input's dimensions: [1, 6] with I = 3 is 2 rows.
TEST(FullyConnected, FlattensAcrossDimensions) {
  auto out = RunOp(ir::OpKind::kFullyConnected,
                   {In({1, 6}, {1, 2, 3, 4, 5, 6}), Const({1, 3}, {1, 1, 1})},
                   {2, 1}, FcOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {2, 1}, {6, 15});
}

// Weights and bias computed at run time (subgraph inputs here).
TEST(FullyConnected, NonConstantWeights) {
  auto out = RunOp(ir::OpKind::kFullyConnected,
                   {In({2, 3}, {1, 2, 3, 4, 5, 6}),
                    In({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}), In({2}, {1, -1})},
                   {2, 2}, FcOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {2, 2}, {-1, 2, -1, 6.5f});
}

TEST(FullyConnected, SweepAgainstReference) {
  struct Case {
    int64_t batch, in, out;
  } cases[] = {{1, 1, 1},     {1, 256, 1001}, {3, 5, 15},   {13, 7, 16},
               {14, 9, 17},   {15, 33, 32},   {25, 64, 33}, {40, 10, 48},
               {2, 640, 128}, {37, 128, 47},  {100, 3, 8}};
  uint32_t seed = 200;
  for (const Case& c : cases) {
    const auto x = Random(static_cast<size_t>(c.batch * c.in), seed++);
    const auto w = Random(static_cast<size_t>(c.out * c.in), seed++);
    const auto b = Random(static_cast<size_t>(c.out), seed++);
    std::vector<float> want(static_cast<size_t>(c.batch * c.out));
    for (int64_t r = 0; r < c.batch; ++r) {
      for (int64_t o = 0; o < c.out; ++o) {
        double acc = b[static_cast<size_t>(o)];
        for (int64_t i = 0; i < c.in; ++i) {
          acc += double{x[static_cast<size_t>(r * c.in + i)]} *
                 w[static_cast<size_t>(o * c.in + i)];
        }
        want[static_cast<size_t>(r * c.out + o)] = static_cast<float>(acc);
      }
    }
    SCOPED_TRACE(::testing::Message()
                 << "batch " << c.batch << " in " << c.in << " out " << c.out);
    auto out = RunOp(
        ir::OpKind::kFullyConnected,
        {In({c.batch, c.in}, x), Const({c.out, c.in}, w), Const({c.out}, b)},
        {c.batch, c.out}, FcOpts());
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectNear(*out, {c.batch, c.out}, want);
  }
}

// Constant weights of 64 MiB or more are read in place, without a packed
// copy (conv/fully_connected.cc). Integer operands keep every partial sum
// exact in float (|sum| <= 4096 * 6 < 2^24), so any summation order gives
// the formula's value: x[r][i] = (i + r) % 7 - 3, W[o][i] = (o + 2i) % 5 - 2,
// b[o] = o % 3 - 1, then RELU.
TEST(FullyConnected, LargeWeightsReadInPlace) {
  const int64_t batch = 3, in = 4096, out = 4096;  // 64 MiB of weights
  std::vector<float> x(batch * in), w(out * in), b(out);
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t i = 0; i < in; ++i) x[r * in + i] = float((i + r) % 7 - 3);
  }
  for (int64_t o = 0; o < out; ++o) {
    for (int64_t i = 0; i < in; ++i) w[o * in + i] = float((o + 2 * i) % 5 - 2);
    b[o] = float(o % 3 - 1);
  }
  std::vector<float> want(batch * out);
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t o = 0; o < out; ++o) {
      int64_t acc = o % 3 - 1;
      for (int64_t i = 0; i < in; ++i) {
        acc += int64_t((i + r) % 7 - 3) * ((o + 2 * i) % 5 - 2);
      }
      want[r * out + o] = float(std::max<int64_t>(acc, 0));
    }
  }
  auto got = RunOp(ir::OpKind::kFullyConnected,
                   {In({batch, in}, x), Const({out, in}, w), Const({out}, b)},
                   {batch, out}, FcOpts(ir::Activation::kRelu));
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->ByteSize(), want.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(got->data(), want.data(), got->ByteSize()), 0);
}

TEST(FullyConnected, InputNotAMultipleOfFeatures) {
  auto out = RunOp(ir::OpKind::kFullyConnected,
                   {In({2, 5}, std::vector<float>(10)),
                    Const({4, 3}, std::vector<float>(12))},
                   {2, 4}, FcOpts());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string msg(out.status().message());
  EXPECT_NE(msg.find("FULLY_CONNECTED"), std::string::npos) << msg;
  EXPECT_NE(msg.find("input 'arg0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("weights 'arg1'"), std::string::npos) << msg;
}

TEST(FullyConnected, KeepNumDimsNeedsMatchingLastDimension) {
  auto out = RunOp(ir::OpKind::kFullyConnected,
                   {In({3, 2}, std::vector<float>(6)),
                    Const({4, 3}, std::vector<float>(12))},
                   {3, 4}, FcOpts(ir::Activation::kNone, true));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("keep_num_dims"),
            std::string::npos)
      << out.status();
}

TEST(FullyConnected, BiasSizeMismatch) {
  auto out = RunOp(
      ir::OpKind::kFullyConnected,
      {In({1, 3}, std::vector<float>(3)), Const({4, 3}, std::vector<float>(12)),
       Const({3}, std::vector<float>(3))},
      {1, 4}, FcOpts());
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("bias 'arg2'"),
            std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace qforge::testing::conv
