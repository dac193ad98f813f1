// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Weight rounding in the recovery pass: GPTQ and the clipping search on a
// real model with its real data (int4), and activation-aware scaling
// (search and folds) on hand-made cases.
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/data_source.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "quantizer/awq.h"
#include "quantizer/graph_edit.h"
#include "quantizer/recover.h"
#include "quantizer/weighted_layer.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"
#include "tests/support/samples.h"
#include "tests/support/test_paths.h"

namespace qforge::quantizer {
namespace {

using ::qforge::testing::MakeTensor;
using ::qforge::testing::OpModel;

// `values` as `samples` samples of shape [t, d] in an .npy file, opened as
// the first input's data of `model`.
formats::SampleSource WriteSamples(const ir::Model& model,
                                   const std::vector<float>& values,
                                   int samples, int t, int d) {
  ir::HostTensor all(ir::DataType::kFloat32, {samples, t, d});
  std::copy(values.begin(), values.end(), all.Flat<float>().begin());
  absl::StatusOr<std::vector<uint8_t>> npy = formats::WriteNpy(all);
  EXPECT_TRUE(npy.ok());
  const std::string path = qforge::testing::MakeTempDir() + "/x.npy";
  EXPECT_TRUE(
      WriteFileAtomic(path, npy.ok() ? *npy : std::vector<uint8_t>{}).ok());
  return ::qforge::testing::OpenFirstInputSamples(model, path);
}

// `before` and `after` compute the same float function on `inputs` (each
// [t, d]): every output within 1e-5 of its peak.
void ExpectSameFunction(const ir::Model& before, OpModel& after,
                        const std::vector<std::vector<float>>& inputs, int t,
                        int d) {
  OpModel copy;
  copy.model() = before;
  for (const std::vector<float>& in : inputs) {
    auto a = copy.Run({MakeTensor<float>({t, d}, in)});
    auto b = after.Run({MakeTensor<float>({t, d}, in)});
    ASSERT_TRUE(a.ok() && b.ok());
    for (size_t o = 0; o < a->size(); ++o) {
      const auto fa = (*a)[o].Flat<float>(), fb = (*b)[o].Flat<float>();
      double peak = 0;
      for (float v : fa) peak = std::max(peak, std::fabs(double{v}));
      for (size_t i = 0; i < fa.size(); ++i) {
        EXPECT_NEAR(fa[i], fb[i], 1e-5 * peak);
      }
    }
  }
}

// ToyCar (10 trained FULLY_CONNECTED layers) on its first 20 real log-mel
// vectors, int4 weights: GPTQ lowers every layer's output error on those
// inputs against nearest rounding on the same grid, and the sum by more
// than half. The weights it writes are on the grid the quantizer derives
// from them (max|w| / 7 per channel): integers times that scale.
TEST(WeightRoundingTest, GptqLowersToyCarLayerErrorOnInt4) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  for (bool clip : {false, true}) {
    ir::Model model = toycar->model;
    formats::SampleSource data =
        ::qforge::testing::OpenFirstInputSamples(model, toycar->data);
    std::vector<int64_t> samples;
    for (int64_t i = 0; i < 20; ++i) samples.push_back(i);
    RecoverOptions o;
    o.rounding.gptq = true;
    o.rounding.clip_mse = clip;
    o.weight_bits.assign(model.subgraphs[0].operators.size(), 4);
    o.threads = 2;
    absl::StatusOr<RecoverResult> r = RecoverWeights(model, data, samples, o);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->layers.size(), 10u);
    double nearest = 0, gptq = 0;
    for (const RecoveredLayer& l : r->layers) {
      EXPECT_LT(l.loss_gptq, l.loss_nearest) << l.output;
      nearest += l.loss_nearest;
      gptq += l.loss_gptq;
      if (clip) {
        EXPECT_LE(l.mean_clip, 1.0) << l.output;
      }
    }
    EXPECT_LT(gptq, 0.5 * nearest) << "clip " << clip;
    for (const WeightedLayer& l : FindWeightedLayers(model)) {
      const std::vector<float> w = LayerWeights(model, l.weights);
      const std::vector<float> s = RowScales(l, w, 7, false);
      for (int64_t row = 0; row < l.rows; ++row) {
        for (int64_t j = 0; j < l.k; ++j) {
          const double q = w[l.WeightIndex(row, j)] / double{s[row]};
          ASSERT_NEAR(q, std::round(q), 1e-3) << l.op_index;
          ASSERT_LE(std::fabs(q), 7.0 + 1e-3);
        }
      }
    }
  }
}

// --optimize accuracy's setting: AdaRound asked, but layers on a grid of 4
// bits or fewer take GPTQ instead, and int8 layers keep AdaRound.
TEST(WeightRoundingTest, LowBitLayersTakeGptqInPlaceOfAdaRound) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  ir::Model model = toycar->model;
  formats::SampleSource data =
      ::qforge::testing::OpenFirstInputSamples(model, toycar->data);
  std::vector<int64_t> samples = {0, 2, 4, 6, 8, 10, 12, 14};
  RecoverOptions o;
  o.adaround = true;
  o.adaround_options.iterations = 20;
  o.gptq_low_bits = true;
  o.weight_bits.assign(model.subgraphs[0].operators.size(), 4);
  o.weight_bits[9] = 8;  // the last layer stays int8
  absl::StatusOr<RecoverResult> r = RecoverWeights(model, data, samples, o);
  ASSERT_TRUE(r.ok()) << r.status();
  for (const RecoveredLayer& l : r->layers) {
    const bool int8 = l.op_index == 9;
    EXPECT_EQ(l.loss_gptq > 0, !int8) << l.op_index;
    EXPECT_EQ(l.loss_adaround > 0, int8) << l.op_index;
  }
}

// Input channel 0 is 30 times larger than the others: the search scales
// it (alpha > 0) and the rounded layer's output error drops, with int4
// weights and 8-bit inputs rounded as the search models them.
TEST(AwqTest, OutlierChannelIsScaled) {
  std::mt19937 rng(3);
  std::normal_distribution<float> nd;
  const int n = 512, k = 16, rows = 24;
  Eigen::MatrixXf x(n, k);
  for (int i = 0; i < x.size(); ++i) x.data()[i] = nd(rng);
  x.col(0) *= 30.0f;
  AwqReader r;
  r.weights.resize(rows, k);
  for (int i = 0; i < r.weights.size(); ++i) r.weights.data()[i] = nd(rng);
  r.qmax = 7;
  std::vector<int64_t> channel_of(k);
  for (int j = 0; j < k; ++j) channel_of[j] = j;
  const AwqSearch s = SearchAwqScales(x, {r}, channel_of, k);
  EXPECT_GT(s.alpha, 0.0f);
  EXPECT_LT(s.error_scaled, 0.8 * s.error_unscaled);
  // The large channel's weights are scaled up (its input down), the
  // others' down, around 1.
  EXPECT_GT(s.scales[0], 1.0f);
  EXPECT_LT(s.scales[1], 1.0f);
  // Inputs of equal size: nothing to gain, so nothing is scaled.
  Eigen::MatrixXf uniform = Eigen::MatrixXf::Ones(n, k);
  const AwqSearch flat = SearchAwqScales(uniform, {r}, channel_of, k);
  EXPECT_EQ(flat.alpha, 0.0f);
}

// x -> MUL gamma -> ADD beta -> {FC q, FC k}, and FC up (RELU) -> FC down:
// the affine end and the layer pair take the inverse scales, so the float
// function is unchanged while the readers' weights change.
TEST(AwqTest, FoldsIntoLayerNormAffineAndLayerPairs) {
  std::mt19937 rng(5);
  std::normal_distribution<float> nd;
  auto normal = [&](size_t count, float scale) {
    std::vector<float> v(count);
    for (float& e : v) e = nd(rng) * scale;
    return v;
  };
  OpModel m;
  const int d = 8, t = 4, hidden = 16;
  const int x = m.Input(ir::DataType::kFloat32, {t, d}, "x");
  std::vector<float> gamma = normal(d, 0.1f);
  for (float& g : gamma) g += 1.0f;
  gamma[2] = 25.0f;  // the outlier channel
  const int g = m.Constant<float>({d}, gamma, "gamma");
  const int beta = m.Constant<float>({d}, normal(d, 0.1f), "beta");
  const int scaled = m.Tensor(ir::DataType::kFloat32, {t, d}, "scaled");
  const int ln = m.Tensor(ir::DataType::kFloat32, {t, d}, "ln");
  m.Op(ir::OpKind::kMul, {x, g}, {scaled}, ir::ActivationOptions{});
  m.Op(ir::OpKind::kAdd, {scaled, beta}, {ln}, ir::AddSubOptions{});
  const int wq = m.Constant<float>({d, d}, normal(d * d, 0.3f), "wq");
  const int wk = m.Constant<float>({hidden, d}, normal(hidden * d, 0.3f), "wk");
  const int q = m.Output(ir::DataType::kFloat32, {t, d}, "q");
  const int up = m.Tensor(ir::DataType::kFloat32, {t, hidden}, "up");
  m.Op(ir::OpKind::kFullyConnected, {ln, wq, -1}, {q},
       ir::FullyConnectedOptions{});
  ir::FullyConnectedOptions relu;
  relu.activation = ir::Activation::kRelu;
  m.Op(ir::OpKind::kFullyConnected, {ln, wk, -1}, {up}, relu);
  std::vector<float> wd = normal(d * hidden, 0.3f);
  const int wdown = m.Constant<float>({d, hidden}, wd, "wdown");
  const int y = m.Output(ir::DataType::kFloat32, {t, d}, "y");
  m.Op(ir::OpKind::kFullyConnected, {up, wdown, -1}, {y},
       ir::FullyConnectedOptions{});
  const ir::Model before = m.model();

  const int samples = 16;
  formats::SampleSource data =
      WriteSamples(m.model(), normal(samples * t * d, 1.0f), samples, t, d);
  std::vector<int64_t> ids;
  for (int i = 0; i < samples; ++i) ids.push_back(i);
  AwqOptions o;
  o.weight_bits.assign(m.model().subgraphs[0].operators.size(), 4);
  absl::StatusOr<AwqResult> r = ScaleActivationAware(m.model(), data, ids, o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pairs, 2);  // the affine end (2 readers) and up -> down
  ASSERT_EQ(r->layers.size(), 2u);
  EXPECT_TRUE(r->layers[0].affine);
  EXPECT_EQ(r->layers[0].readers, 2);
  EXPECT_GT(r->layers[0].alpha, 0.0f);
  EXPECT_LT(r->layers[0].error_scaled, r->layers[0].error_unscaled);
  EXPECT_NE(FloatValues(m.model(), m.model().subgraphs[0].tensors[g]), gamma);

  ExpectSameFunction(
      before, m,
      {normal(t * d, 1.0f), normal(t * d, 1.0f), normal(t * d, 1.0f)}, t, d);
}

// x (a graph input whose channel 2 is 25 times larger) -> FC -> y: no op
// makes x, so with float inputs (weight-only / dynamic forms) the inverse
// scales go into a new MUL before the FC, which reads its output; the
// float function is unchanged and the layer's int4 output error drops.
// Only with insert_muls (--awq-mul); with int8 inputs never (the MUL would
// be one more requantization).
TEST(AwqTest, InsertsAMulWhereNoOpCanTakeTheScales) {
  std::mt19937 rng(11);
  std::normal_distribution<float> nd;
  auto normal = [&](size_t count, float scale) {
    std::vector<float> v(count);
    for (float& e : v) e = nd(rng) * scale;
    return v;
  };
  const int d = 16, t = 4, out = 8, samples = 16;
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {t, d}, "x");
  const int w = m.Constant<float>({out, d}, normal(out * d, 0.3f), "w");
  const int y = m.Output(ir::DataType::kFloat32, {t, out}, "y");
  m.Op(ir::OpKind::kFullyConnected, {x, w, -1}, {y},
       ir::FullyConnectedOptions{});
  const ir::Model before = m.model();

  // Channel 2 of every token 25 times larger.
  auto outlier = [&](size_t count) {
    std::vector<float> v = normal(count, 1.0f);
    for (size_t i = 2; i < v.size(); i += d) v[i] *= 25.0f;
    return v;
  };
  formats::SampleSource data =
      WriteSamples(m.model(), outlier(samples * t * d), samples, t, d);
  std::vector<int64_t> ids;
  for (int i = 0; i < samples; ++i) ids.push_back(i);
  AwqOptions o;
  o.weight_bits = {4};

  OpModel int8_inputs;
  int8_inputs.model() = before;
  absl::StatusOr<AwqResult> r8 =
      ScaleActivationAware(int8_inputs.model(), data, ids, o);
  ASSERT_TRUE(r8.ok()) << r8.status();
  EXPECT_EQ(r8->pairs, 0);
  EXPECT_TRUE(r8->inserted_ops.empty());
  EXPECT_EQ(int8_inputs.model().subgraphs[0].operators.size(), 1u);

  // Float inputs, but no --awq-mul: no MUL either.
  o.float_inputs = true;
  absl::StatusOr<AwqResult> rf =
      ScaleActivationAware(int8_inputs.model(), data, ids, o);
  ASSERT_TRUE(rf.ok()) << rf.status();
  EXPECT_EQ(rf->pairs, 0);
  EXPECT_EQ(int8_inputs.model().subgraphs[0].operators.size(), 1u);

  o.insert_muls = true;
  absl::StatusOr<AwqResult> r = ScaleActivationAware(m.model(), data, ids, o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pairs, 1);
  ASSERT_EQ(r->layers.size(), 1u);
  EXPECT_TRUE(r->layers[0].inserted);
  EXPECT_GT(r->layers[0].alpha, 0.0f);
  EXPECT_LT(r->layers[0].error_scaled, 0.5 * r->layers[0].error_unscaled);
  EXPECT_EQ(r->inserted_ops, std::vector<int>{0});
  const ir::Subgraph& sg = m.model().subgraphs[0];
  ASSERT_EQ(sg.operators.size(), 2u);
  EXPECT_EQ(sg.operators[0].kind, ir::OpKind::kMul);
  EXPECT_EQ(sg.operators[0].inputs[0], x);
  EXPECT_EQ(sg.operators[1].inputs[0], sg.operators[0].outputs[0]);
  // Channel 2's inverse scale is the smallest: its weights got the most.
  const std::vector<float> inverse =
      FloatValues(m.model(), sg.tensors[sg.operators[0].inputs[1]]);
  ASSERT_EQ(inverse.size(), static_cast<size_t>(d));
  EXPECT_EQ(std::min_element(inverse.begin(), inverse.end()) - inverse.begin(),
            2);

  ExpectSameFunction(before, m,
                     {outlier(t * d), outlier(t * d), outlier(t * d)}, t, d);
}

}  // namespace
}  // namespace qforge::quantizer
