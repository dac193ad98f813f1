// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// GPTQ and the clipping search against hand-derived cases, per channel and
// blockwise, on weight arrays directly.
#include "quantizer/gptq.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "quantizer/weight_grid.h"
#include "runtime/thread_pool.h"

namespace qforge::quantizer {
namespace {

// With damping 0, GPTQ only uses U, the upper Cholesky factor of H^-1.
// U = [[1, -1, 0], [0, 1, -1], [0, 0, 1]] gives H^-1 = U^T U =
// [[1, -1, 0], [-1, 2, -1], [0, -1, 2]] (determinant 1), so
// H = [[3, 2, 1], [2, 2, 1], [1, 1, 1]].
Eigen::MatrixXd HandHessian() {
  Eigen::MatrixXd h(3, 3);
  h << 3, 2, 1, 2, 2, 1, 1, 1, 1;
  return h;
}

GptqLayer HandLayer() {
  GptqLayer l;
  l.weights.resize(2, 3);
  l.weights << 0.4f, 0.3f, 0.2f,  //
      -3.5f, 1.2f, 0.1f;
  l.hessians = {HandHessian()};
  l.scales.resize(2, 1);
  l.scales << 1.0f, 0.5f;
  l.grid.qmax = 7;
  return l;
}

// Row 0 (scale 1): q0 = round(0.4) = 0, error 0.4 / U00 = 0.4 moves w1 by
// -0.4 * U01 = +0.4 to 0.7: q1 = 1, error -0.3 moves w2 by -(-0.3)(-1) to
// -0.1: q2 = 0. Nearest gives [0, 0, 0]; the losses e^T H e are 1.46
// (e = [.4, .3, .2]) and 0.26 (e = [.4, -.7, .2]).
// Row 1 (scale 0.5, w / s = [-7, 2.4, 0.2]): q0 = -7 exactly (pinned, the
// row's largest), q1 = 2 with error 0.2, which moves w2 to 0.3 (0.6 steps):
// q2 = 1. Nearest [-7, 2, 0]; losses 0.13 (e = [0, .2, .1]) and 0.08
// (e = [0, .2, -.4]).
TEST(GptqTest, HandDerivedErrorFeedback) {
  for (int64_t block : {1, 2, 128}) {
    for (bool act_order : {false, true}) {  // diag(H) is already decreasing
      GptqOptions o;
      o.damp = 0;
      o.block_size = block;
      o.act_order = act_order;
      GptqStats stats;
      absl::StatusOr<std::vector<int32_t>> q = Gptq(HandLayer(), o, &stats);
      ASSERT_TRUE(q.ok()) << q.status();
      EXPECT_EQ(*q, (std::vector<int32_t>{0, 1, 0, -7, 2, 1}))
          << "block " << block;
      EXPECT_NEAR(stats.loss_nearest, 1.46 + 0.13, 1e-5);
      EXPECT_NEAR(stats.loss_gptq, 0.26 + 0.08, 1e-5);
      EXPECT_EQ(stats.changed, 2);
      EXPECT_EQ(stats.rows_kept_nearest, 0);
    }
  }
}

// The same problem given one H per row (as depthwise rows are) gives the
// same integers.
TEST(GptqTest, PerRowHessiansMatchShared) {
  GptqLayer l = HandLayer();
  l.hessians = {HandHessian(), HandHessian()};
  GptqOptions o;
  o.damp = 0;
  absl::StatusOr<std::vector<int32_t>> q = Gptq(l, o);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(*q, (std::vector<int32_t>{0, 1, 0, -7, 2, 1}));
}

// U = [[1, 2], [0, 1]]: H^-1 = [[1, 2], [2, 5]], H = [[5, -2], [-2, 1]].
// w = [0.4, 7] on scale 1: q0 = 0 moves w1 by -0.4 * 2 to 6.2, which would
// round to 6; but 7 is the row's largest weight on the grid's edge, so it
// stays 7 and max|w~| / 7 gives the scale back.
TEST(GptqTest, LargestWeightKeepsTheScale) {
  GptqLayer l;
  l.weights.resize(1, 2);
  l.weights << 0.4f, 7.0f;
  Eigen::MatrixXd h(2, 2);
  h << 5, -2, -2, 1;
  l.hessians = {h};
  l.scales = Eigen::MatrixXf::Constant(1, 1, 1.0f);
  l.grid.qmax = 7;
  GptqOptions o;
  o.damp = 0;
  o.act_order = false;
  absl::StatusOr<std::vector<int32_t>> q = Gptq(l, o);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(*q, (std::vector<int32_t>{0, 7}));
}

// Blockwise grid, groups of 2 with scales 1 and 0.5. U = I but U12 = -1:
// H = diag(1, [[2, 1], [1, 1]], 1). w = [0.3, 0.4, 0.2, 0.9]: q1 = 0 with
// error 0.4 moves w2 (next group) by +0.4 to 0.6, 1.2 steps of 0.5: q2 = 1;
// w3 = 0.9 is 1.8 steps: q3 = 2 (not on the grid's edge, not pinned).
// Nearest [0, 0, 0, 2]; losses 0.62 and 0.27.
TEST(GptqTest, BlockwiseGridFeedsErrorAcrossGroups) {
  GptqLayer l;
  l.weights.resize(1, 4);
  l.weights << 0.3f, 0.4f, 0.2f, 0.9f;
  Eigen::MatrixXd h = Eigen::MatrixXd::Identity(4, 4);
  h.block(1, 1, 2, 2) << 2, 1, 1, 1;
  l.hessians = {h};
  l.grid.qmax = 7;
  l.grid.group_size = 2;
  l.scales.resize(1, 2);
  l.scales << 1.0f, 0.5f;
  for (int64_t block : {1, 3, 128}) {
    GptqOptions o;
    o.damp = 0;
    o.act_order = false;
    o.block_size = block;
    GptqStats stats;
    absl::StatusOr<std::vector<int32_t>> q = Gptq(l, o, &stats);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(*q, (std::vector<int32_t>{0, 0, 1, 2})) << "block " << block;
    EXPECT_NEAR(stats.loss_nearest, 0.62, 1e-5);
    EXPECT_NEAR(stats.loss_gptq, 0.27, 1e-5);
  }
}

// Random correlated inputs: GPTQ's loss is never above nearest rounding's,
// well below it on int4, and the integers do not depend on the thread
// count, per channel and blockwise.
TEST(GptqTest, LowersLossAndIsThreadIndependent) {
  std::mt19937 rng(7);
  std::normal_distribution<float> nd;
  const int rows = 150, k = 96, n = 400;
  Eigen::MatrixXd x(n, k), mix(k, k);
  Eigen::MatrixXf w(rows, k);
  for (int i = 0; i < x.size(); ++i) x.data()[i] = nd(rng);
  for (int i = 0; i < mix.size(); ++i) mix.data()[i] = nd(rng) * 0.3;
  mix.diagonal().array() += 1.0;
  x = x * mix;  // correlated inputs
  for (int i = 0; i < w.size(); ++i) w.data()[i] = nd(rng);
  for (int64_t group : {0, 32}) {
    GptqLayer l;
    l.weights = w;
    l.hessians = {x.transpose() * x / n};
    l.grid.qmax = 7;
    l.grid.group_size = group;
    l.scales = GroupScales(w, l.grid);
    std::vector<int32_t> first;
    for (int threads : {1, 3}) {
      runtime::ThreadPool pool(threads);
      GptqOptions o;
      o.pool = &pool;
      GptqStats stats;
      absl::StatusOr<std::vector<int32_t>> q = Gptq(l, o, &stats);
      ASSERT_TRUE(q.ok()) << q.status();
      EXPECT_LT(stats.loss_gptq, 0.7 * stats.loss_nearest) << group;
      if (first.empty()) first = *q;
      EXPECT_EQ(*q, first);
      for (int r = 0; r < rows; ++r) {  // every group keeps its scale
        for (int64_t g = 0; g < l.grid.Groups(k); ++g) {
          int m = 0;
          for (int j = 0; j < k; ++j) {
            if (l.grid.GroupOf(j) == g)
              m = std::max(m, std::abs((*q)[r * k + j]));
          }
          EXPECT_EQ(m, 7);
        }
      }
    }
  }
}

TEST(GptqTest, RejectsBadShapes) {
  GptqLayer l = HandLayer();
  l.scales.resize(2, 2);
  l.scales.setOnes();
  EXPECT_FALSE(Gptq(l, GptqOptions{}).ok());
  l = HandLayer();
  l.hessians[0].resize(2, 2);
  EXPECT_FALSE(Gptq(l, GptqOptions{}).ok());
  l = HandLayer();
  l.scales(0, 0) = 0;
  EXPECT_FALSE(Gptq(l, GptqOptions{}).ok());
}

// w = [1, 0.5] on a grid of {-1, 0, 1} steps (qmax 1). Ratio r gives
// scale r: both weights round to 1 step for r in [0.5, 1], so the error is
// (1 - r)^2 + (0.5 - r)^2, least at r = 0.75 (0.125; 0.8 and 0.7 give
// 0.13). Weighing only the first input picks 1.0 (exact); only the second,
// 0.5 (exact).
TEST(WeightClipTest, HandDerivedRatios) {
  Eigen::MatrixXf w(1, 2);
  w << 1.0f, 0.5f;
  WeightGrid grid;
  grid.qmax = 1;
  Eigen::MatrixXf chosen;
  Eigen::MatrixXf s =
      ClipScales(w, grid, Eigen::MatrixXf(), DefaultClipRatios(), &chosen);
  EXPECT_FLOAT_EQ(chosen(0, 0), 0.75f);
  EXPECT_FLOAT_EQ(s(0, 0), 0.75f);
  EXPECT_NEAR(GridError(w, grid, s, Eigen::MatrixXf()), 0.125, 1e-6);
  Eigen::MatrixXf first(1, 2), second(1, 2);
  first << 1, 0;
  second << 0, 1;
  ClipScales(w, grid, first, DefaultClipRatios(), &chosen);
  EXPECT_FLOAT_EQ(chosen(0, 0), 1.0f);
  ClipScales(w, grid, second, DefaultClipRatios(), &chosen);
  EXPECT_FLOAT_EQ(chosen(0, 0), 0.5f);
}

// Blockwise: each group gets its own ratio. Groups of 2 over
// [1, 0.5, 1, 0.9]: the first group as above (0.75); the second's error
// (1 - r)^2 + (0.9 - r)^2 is least at r = 0.95 (0.005; 0.9 and 1.0 give
// 0.01). Per channel, one ratio for the row: 2 (1 - r)^2 + (0.5 - r)^2 +
// (0.9 - r)^2 is least at r = 0.85 (0.17; 0.8 and 0.9 give 0.18).
TEST(WeightClipTest, BlockwiseRatiosPerGroup) {
  Eigen::MatrixXf w(1, 4);
  w << 1.0f, 0.5f, 1.0f, 0.9f;
  WeightGrid grid;
  grid.qmax = 1;
  grid.group_size = 2;
  Eigen::MatrixXf chosen;
  ClipScales(w, grid, Eigen::MatrixXf(), DefaultClipRatios(), &chosen);
  ASSERT_EQ(chosen.cols(), 2);
  EXPECT_FLOAT_EQ(chosen(0, 0), 0.75f);
  EXPECT_FLOAT_EQ(chosen(0, 1), 0.95f);
  grid.group_size = 0;
  ClipScales(w, grid, Eigen::MatrixXf(), DefaultClipRatios(), &chosen);
  ASSERT_EQ(chosen.cols(), 1);
  EXPECT_FLOAT_EQ(chosen(0, 0), 0.85f);
}

TEST(WeightClipTest, GroupScalesAreMaxAbsOverQmax) {
  Eigen::MatrixXf w(2, 3);
  w << 1, -14, 7,  //
      0, 0, 0;
  WeightGrid grid;
  grid.qmax = 7;
  grid.group_size = 2;
  Eigen::MatrixXf s = GroupScales(w, grid);
  EXPECT_FLOAT_EQ(s(0, 0), 2.0f);
  EXPECT_FLOAT_EQ(s(0, 1), 1.0f);
  EXPECT_FLOAT_EQ(s(1, 0), 1.0f);  // an all-zero group: scale 1
}

}  // namespace
}  // namespace qforge::quantizer
