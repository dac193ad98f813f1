// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Thread-count determinism (runtime/thread_pool.h): every conv-family op,
// on shapes large enough that the work is split into many tasks, gives
// bit-identical outputs with 1, 2 and 3 threads.
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/conv_test_util.h"

namespace qforge::testing::conv {
namespace {

void ExpectSameForThreadCounts(ir::OpKind kind, const std::vector<Arg>& args,
                               const std::vector<int64_t>& out_shape,
                               const ir::Options& options) {
  auto one = RunOp(kind, args, out_shape, options, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  for (int threads : {2, 3}) {
    auto many = RunOp(kind, args, out_shape, options, threads);
    ASSERT_TRUE(many.ok()) << many.status();
    ASSERT_EQ(one->shape(), many->shape());
    ASSERT_EQ(one->ByteSize(), many->ByteSize());
    EXPECT_EQ(std::memcmp(one->data(), many->data(), one->ByteSize()), 0)
        << "threads 1 vs " << threads;
  }
}

TEST(ConvDeterminism, Conv3x3Im2col) {
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_h = o.stride_w = 1;
  o.activation = ir::Activation::kRelu6;
  ExpectSameForThreadCounts(ir::OpKind::kConv2D,
                            {In({1, 56, 56, 32}, Random(56 * 56 * 32, 1)),
                             Const({64, 3, 3, 32}, Random(64 * 9 * 32, 2)),
                             Const({64}, Random(64, 3))},
                            {1, 56, 56, 64}, o);
}

TEST(ConvDeterminism, Conv1x1AndSmallMap) {
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_h = o.stride_w = 1;
  ExpectSameForThreadCounts(ir::OpKind::kConv2D,
                            {In({1, 28, 28, 64}, Random(28 * 28 * 64, 4)),
                             Const({128, 1, 1, 64}, Random(128 * 64, 5)),
                             Const({128}, Random(128, 6))},
                            {1, 28, 28, 128}, o);
  // 7x7 map, 256 -> 256: few rows, so the columns are split too.
  ExpectSameForThreadCounts(ir::OpKind::kConv2D,
                            {In({1, 7, 7, 256}, Random(49 * 256, 7)),
                             Const({256, 1, 1, 256}, Random(256 * 256, 8)),
                             Const({256}, Random(256, 9))},
                            {1, 7, 7, 256}, o);
}

TEST(ConvDeterminism, Depthwise) {
  ir::DepthwiseConv2DOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  ExpectSameForThreadCounts(
      ir::OpKind::kDepthwiseConv2D,
      {In({2, 56, 56, 64}, Random(2 * 56 * 56 * 64, 10)),
       Const({1, 3, 3, 64}, Random(9 * 64, 11)), Const({64}, Random(64, 12))},
      {2, 56, 56, 64}, o);
}

TEST(ConvDeterminism, FullyConnectedAndBatchMatMul) {
  ExpectSameForThreadCounts(
      ir::OpKind::kFullyConnected,
      {In({64, 512}, Random(64 * 512, 13)),
       Const({256, 512}, Random(256 * 512, 14)), Const({256}, Random(256, 15))},
      {64, 256}, ir::FullyConnectedOptions{});
  ExpectSameForThreadCounts(ir::OpKind::kBatchMatMul,
                            {In({4, 64, 96}, Random(4 * 64 * 96, 16)),
                             In({4, 96, 80}, Random(4 * 96 * 80, 17))},
                            {4, 64, 80}, ir::BatchMatMulOptions{});
}

TEST(ConvDeterminism, PoolsAndTransposeConv) {
  ir::Pool2DOptions p;
  p.padding = ir::Padding::kSame;
  p.filter_height = p.filter_width = 3;
  p.stride_h = p.stride_w = 2;
  for (ir::OpKind kind : {ir::OpKind::kMaxPool2D, ir::OpKind::kAveragePool2D}) {
    ExpectSameForThreadCounts(kind,
                              {In({1, 56, 56, 64}, Random(56 * 56 * 64, 18))},
                              {1, 28, 28, 64}, p);
  }
  OpModel m;
  const int s = m.Constant<int32_t>({4}, {1, 32, 32, 16});
  const int w = m.Constant<float>({16, 3, 3, 32}, Random(16 * 9 * 32, 19));
  const int x = m.Input(DT::kFloat32, {1, 16, 16, 32});
  const int y = m.Output(DT::kFloat32, {1, 32, 32, 16});
  ir::TransposeConvOptions t;
  t.padding = ir::Padding::kSame;
  t.stride_h = t.stride_w = 2;
  m.Op(ir::OpKind::kTransposeConv, {s, w, x, -1}, {y}, t);
  const auto feed =
      MakeTensor<float>({1, 16, 16, 32}, Random(16 * 16 * 32, 20));
  auto one = m.Run({feed}, 1);
  auto two = m.Run({feed}, 2);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ((*one)[0], (*two)[0]);
}

}  // namespace
}  // namespace qforge::testing::conv
