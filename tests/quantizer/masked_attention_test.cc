// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The masked-attention repair (quantizer/plan_checks.cc, ClampMask): scores
// plus a padding mask of float lowest() into a SOFTMAX. The mask's range is
// clamped to [hi - (W + gap), hi] and the sum's to [x.min + hi - gap,
// x.max + hi], W the scores' range and gap the distance at which a masked
// position's softmax weight is below half an int8 step with a nat to
// spare: (ln 512 + 1) / beta. Masked sums saturate at the bottom of the
// sum's grid, a gap below every unmasked score; the grid is no coarser
// than the scores need plus that gap (it reached down to x.min + lo
// before, twice the scores' range plus the gap).
#include <cmath>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "quantizer/quantize.h"
#include "tests/quantizer/range_stats.h"
#include "tests/support/op_model.h"

namespace qforge::quantizer {
namespace {

using ir::DataType;
using ir::OpKind;
using testing::RangeStats;

// in -> FULLY_CONNECTED -> scores; scores + mask -> SOFTMAX (an op with
// weights computes the scores, as in attention, so that the ADD is no
// float island when the SOFTMAX is float).
struct MaskedScores {
  testing::OpModel m;
  int in, w, x, mask, sum, probs;
  MaskedScores() {
    in = m.Input(DataType::kFloat32, {1, 2}, "in");
    w = m.Constant<float>(
        {8, 2}, {1, 0, 0, 1, 1, 1, -1, 0, 0, -1, 2, 0, 0, 2, -1, -1}, "w");
    x = m.Tensor(DataType::kFloat32, {1, 8}, "scores");
    m.Op(OpKind::kFullyConnected, {in, w, -1}, {x},
         ir::FullyConnectedOptions{});
    mask = m.Input(DataType::kFloat32, {1, 8}, "mask");
    sum = m.Tensor(DataType::kFloat32, {1, 8}, "masked");
    probs = m.Output(DataType::kFloat32, {1, 8}, "probs");
    m.Op(OpKind::kAdd, {x, mask}, {sum}, ir::AddSubOptions{});
    m.Op(OpKind::kSoftmax, {sum}, {probs}, ir::SoftmaxOptions{1.0f});
  }
  calibration::StatsFile Stats() const {
    const float lowest = std::numeric_limits<float>::lowest();
    calibration::StatsFile f;
    f.tensors = {RangeStats(in, -1.0f, 2.0f), RangeStats(x, -3.0f, 4.0f),
                 RangeStats(mask, lowest, 0.0f), RangeStats(sum, lowest, 4.0f),
                 RangeStats(probs, 0.0f, 1.0f)};
    return f;
  }
};

const ir::Tensor& Named(const ir::Model& m, const std::string& name) {
  for (const ir::Tensor& t : m.subgraphs[0].tensors) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return m.subgraphs[0].tensors[0];
}

void ExpectSumGrid(const QuantizeOptions& options) {
  MaskedScores s;
  const calibration::StatsFile stats = s.Stats();
  absl::StatusOr<QuantizeResult> r = Quantize(s.m.model(), &stats, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->repairs.size(), 1u);
  const double gap = std::log(512.0) + 1.0;  // 7.2383
  // The mask: [0 - (7 + gap), 0].
  EXPECT_NE(r->repairs[0].what.find("clamped to [-14.2383, 0]"),
            std::string::npos)
      << r->repairs[0].what;
  // The sum: [-3 + 0 - gap, 4 + 0] on 256 levels.
  const ir::Tensor& sum = Named(r->model, "masked");
  ASSERT_EQ(sum.type, DataType::kInt8);
  ASSERT_TRUE(sum.quantization.has_value());
  const ir::Quantization& q = *sum.quantization;
  ASSERT_EQ(q.scale.size(), 1u);
  EXPECT_NEAR(q.scale[0], (4.0 + 3.0 + gap) / 255.0, 1e-6);
  // Its bottom lies a gap below the lowest unmasked score, within a step.
  const double bottom = q.scale[0] * (-128.0 - q.zero_point[0]);
  EXPECT_NEAR(bottom, -3.0 - gap, q.scale[0]);
}

TEST(MaskedAttentionTest, SumGridReachesOneGapBelowTheScores) {
  ExpectSumGrid({});
}

// LiteRT's fast path keeps SOFTMAX float; what it feeds is int8, so the
// gap is the int8 one there too (it was sized for int16 steps: 12.1 nats).
TEST(MaskedAttentionTest, FloatSoftmaxInAnInt8ModelTakesTheInt8Gap) {
  QuantizeOptions options;
  options.exclude = {"SOFTMAX"};
  ExpectSumGrid(options);
}

}  // namespace
}  // namespace qforge::quantizer
