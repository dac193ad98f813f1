// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Cross-layer equalization and bias correction against hand-derived cases,
// and on real models: the float function is unchanged by equalization, and
// recovery is deterministic whatever the thread count.
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/data_source.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "numerics/float16.h"
#include "quantizer/equalize.h"
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

std::vector<float> Values(const ir::Model& m, int tensor) {
  return FloatValues(m, m.subgraphs[0].tensors[tensor]);
}

// x[1,2] -> FC(W1, b1, act) -> h[1,2] -> FC(W2, b2) -> y[1,1].
struct TwoLayers {
  OpModel m;
  int x, w1, b1, w2, b2, y;
  explicit TwoLayers(ir::Activation act) {
    x = m.Input(ir::DataType::kFloat32, {1, 2}, "x");
    w1 = m.Constant<float>({2, 2}, {4, 0, 0, 1}, "w1");
    b1 = m.Constant<float>({2}, {2, 1}, "b1");
    const int h = m.Tensor(ir::DataType::kFloat32, {1, 2}, "h");
    w2 = m.Constant<float>({1, 2}, {1, 4}, "w2");
    b2 = m.Constant<float>({1}, {0.5f}, "b2");
    y = m.Output(ir::DataType::kFloat32, {1, 1}, "y");
    ir::FullyConnectedOptions o1;
    o1.activation = act;
    m.Op(ir::OpKind::kFullyConnected, {x, w1, b1}, {h}, o1);
    m.Op(ir::OpKind::kFullyConnected, {h, w2, b2}, {y},
         ir::FullyConnectedOptions{});
  }
};

// Hand derivation: A's rows have ranges r1 = (4, 1); B's weights reading
// channels 0 and 1 have r2 = (1, 4). s = sqrt(r1 / r2) = (2, 0.5): A's rows
// are divided by s (W1 = [[2, 0], [0, 2]], b1 = (2/2, 1/0.5) = (1, 2)) and
// B's columns multiplied (W2 = [[2, 2]]): every range becomes 2 after one
// sweep, and the second sweep finds s = 1.
TEST(EqualizeTest, TwoLayerScalesAreTheHandDerivedOnes) {
  TwoLayers t(ir::Activation::kRelu);
  const ir::Model before = t.m.model();
  absl::StatusOr<EqualizeResult> r = EqualizeCrossLayer(t.m.model());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->pairs, 1);
  EXPECT_EQ(r->sweeps, 2);
  EXPECT_EQ(Values(t.m.model(), t.w1), (std::vector<float>{2, 0, 0, 2}));
  EXPECT_EQ(Values(t.m.model(), t.b1), (std::vector<float>{1, 2}));
  EXPECT_EQ(Values(t.m.model(), t.w2), (std::vector<float>{2, 2}));
  EXPECT_EQ(Values(t.m.model(), t.b2), (std::vector<float>{0.5f}));
  EXPECT_DOUBLE_EQ(r->imbalance_before, 2.0);  // |log2(4/1)| = |log2(1/4)|
  EXPECT_DOUBLE_EQ(r->imbalance_after, 0.0);
  // The float function is unchanged: relu(W1 x + b1) . W2 + b2.
  OpModel copy;
  copy.model() = before;
  for (const std::vector<float>& x :
       {std::vector<float>{1, -3}, {-0.5f, 0.25f}, {7, 2}}) {
    auto a = copy.Run({MakeTensor<float>({1, 2}, x)});
    auto b = t.m.Run({MakeTensor<float>({1, 2}, x)});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_FLOAT_EQ((*a)[0].Flat<float>()[0], (*b)[0].Flat<float>()[0]);
  }
}

// min(relu(x / s), 6) is not relu6(x) / s: a clamped pair stays as it is.
TEST(EqualizeTest, Relu6PairIsLeftAlone) {
  TwoLayers t(ir::Activation::kRelu6);
  absl::StatusOr<EqualizeResult> r = EqualizeCrossLayer(t.m.model());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->pairs, 0);
  EXPECT_EQ(r->skipped_clamped, 1);
  EXPECT_EQ(Values(t.m.model(), t.w1), (std::vector<float>{4, 0, 0, 1}));
}

// A float model's outputs after equalization, against before, on random
// inputs: within 1e-5 of the largest output magnitude.
void ExpectSameFunction(const std::string& path) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<ir::Model> model = formats::ParseTflite(*bytes, path);
  ASSERT_TRUE(model.ok()) << model.status();
  ir::Model equalized = *model;
  absl::StatusOr<EqualizeResult> r = EqualizeCrossLayer(equalized);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->pairs, 0) << path;
  EXPECT_LT(r->imbalance_after, r->imbalance_before) << path;
  auto a = runtime::Interpreter::Create(*model);
  auto b = runtime::Interpreter::Create(equalized);
  ASSERT_TRUE(a.ok() && b.ok());
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int sample = 0; sample < 3; ++sample) {
    std::vector<ir::HostTensor> inputs;
    for (int32_t t : model->subgraphs[0].inputs) {
      std::vector<int64_t> shape;
      for (int32_t d : model->subgraphs[0].tensors[t].shape)
        shape.push_back(d < 0 ? 1 : d);
      ir::HostTensor x(ir::DataType::kFloat32, shape);
      for (float& v : x.Flat<float>()) v = u(rng);
      inputs.push_back(std::move(x));
    }
    ASSERT_TRUE((*a)->Run(inputs).ok());
    ASSERT_TRUE((*b)->Run(inputs).ok());
    for (int o = 0; o < (*a)->num_outputs(); ++o) {
      const ir::HostTensor ya = (*a)->OutputHost(o), yb = (*b)->OutputHost(o);
      double peak = 0, worst = 0;
      for (size_t i = 0; i < ya.Flat<float>().size(); ++i) {
        peak = std::max(peak, std::fabs(double{ya.Flat<float>()[i]}));
        worst = std::max(worst, std::fabs(double{ya.Flat<float>()[i]} -
                                          double{yb.Flat<float>()[i]}));
      }
      EXPECT_LE(worst, 1e-5 * peak) << path << " output " << o;
    }
  }
}

TEST(EqualizeTest, RealModelsComputeTheSameFunction) {
  ExpectSameFunction(qforge::testing::TestDataDir() +
                     "/models/conv_fc_mnist.tflite");
  const std::string corpus = qforge::testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "no ../shared/corpus";
  ExpectSameFunction(corpus + "/models/mlperf-tiny/model_ToyCar.tflite");
  ExpectSameFunction(corpus + "/models/mlperf-tiny/pretrainedResnet.tflite");
}

// Writes `samples` inputs of `shape` (batch dim first) as one .npy.
std::string WriteSamples(const std::string& dir, std::vector<int64_t> shape,
                         const std::vector<float>& values) {
  ir::HostTensor t(ir::DataType::kFloat32, shape);
  std::copy(values.begin(), values.end(), t.Flat<float>().begin());
  absl::StatusOr<std::vector<uint8_t>> npy = formats::WriteNpy(t);
  EXPECT_TRUE(npy.ok());
  const std::string path = dir + "/x.npy";
  EXPECT_TRUE(WriteFileAtomic(path, *npy).ok());
  return path;
}

// A known systematic rounding bias: with scale 1/127 (largest weight 1.0),
// the weights (k + 0.4)/127, k = 1..10, all round down by 0.4/127; on the
// input c * ones the layer's output is c * 10 * 0.4/127 = c * 4/127 too
// low, exactly, and bias correction adds the mean of that over the samples
// to the bias 0.25. Returns the corrected bias; the weights must be on the
// grid, k / 127.
float CorrectRoundingBias(const std::vector<float>& c, bool one_pass) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 11}, "x");
  std::vector<float> w = {1.0f};
  for (int k = 1; k <= 10; ++k) w.push_back((k + 0.4f) / 127.0f);
  const int wt = m.Constant<float>({1, 11}, w, "w");
  const int b = m.Constant<float>({1}, {0.25f}, "b");
  const int y = m.Output(ir::DataType::kFloat32, {1, 1}, "y");
  m.Op(ir::OpKind::kFullyConnected, {x, wt, b}, {y},
       ir::FullyConnectedOptions{});
  std::vector<float> values;
  std::vector<int64_t> samples;
  for (float v : c) {
    samples.push_back(static_cast<int64_t>(samples.size()));
    values.insert(values.end(), 11, v);
  }
  const std::string npy =
      WriteSamples(qforge::testing::MakeTempDir(),
                   {static_cast<int64_t>(c.size()), 11}, values);
  formats::SampleSource data =
      ::qforge::testing::OpenFirstInputSamples(m.model(), npy);
  RecoverOptions o;
  o.bias_correction = true;
  o.one_pass = one_pass;
  absl::StatusOr<RecoverResult> r = RecoverWeights(m.model(), data, samples, o);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok() || r->layers.size() != 1) return NAN;
  const double mean_c =
      std::accumulate(c.begin(), c.end(), 0.0) / static_cast<double>(c.size());
  EXPECT_NEAR(r->layers[0].mean_abs_bias_shift, mean_c * 4.0 / 127.0, 1e-6);
  const std::vector<float> snapped = Values(m.model(), wt);
  for (int k = 1; k <= 10; ++k) EXPECT_NEAR(snapped[k], k / 127.0f, 1e-7);
  return Values(m.model(), b)[0];
}

TEST(BiasCorrectionTest, KnownRoundingBiasIsFoldedIntoTheBias) {
  EXPECT_NEAR(CorrectRoundingBias({1, 1, 1, 1}, false), 0.25f + 4.0f / 127.0f,
              1e-6);
}

// One pass: with no layer upstream, the float model's input means are the
// rounded model's, so the correction is the sequential one; on c = 1, 2,
// 3, 2 (mean 2) it is 8/127.
TEST(BiasCorrectionTest, OnePassFoldsTheKnownRoundingBias) {
  EXPECT_NEAR(CorrectRoundingBias({1, 2, 3, 2}, true), 0.25f + 8.0f / 127.0f,
              1e-6);
}

TEST(BiasCorrectionTest, OnePassRefusesAdaRound) {
  TwoLayers t(ir::Activation::kNone);
  RecoverOptions o;
  o.bias_correction = o.one_pass = o.adaround = true;
  const std::string npy =
      WriteSamples(qforge::testing::MakeTempDir(), {2, 2}, {1, 2, 3, 4});
  formats::SampleSource data =
      ::qforge::testing::OpenFirstInputSamples(t.m.model(), npy);
  EXPECT_EQ(RecoverWeights(t.m.model(), data, {0, 1}, o).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// x -> FC(DEQUANTIZE(w16), DEQUANTIZE(b16)) -> y, as MediaPipe stores
// weights: each FC gets its own float32 copy of the float16 values (exact:
// every half is a float), op indices stay, and FindWeightedLayers sees the
// layer; an op in `skip` keeps reading the DEQUANTIZE outputs.
TEST(WidenHalfWeightsTest, Float16WeightsBehindDequantizeGetFloatCopies) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 2}, "x");
  const std::vector<float> w = {0.5f, -1.25f, 3.0f, 0.1f};  // 0.1: inexact
  std::vector<uint16_t> w16;
  for (float v : w) w16.push_back(numerics::FloatToHalf(v));
  const int w_half = m.Constant<uint16_t>({2, 2}, w16, "w16");
  m.tensor(w_half).type = ir::DataType::kFloat16;
  const int b_half = m.Constant<uint16_t>(
      {2}, {numerics::FloatToHalf(1.0f), numerics::FloatToHalf(-2.0f)}, "b16");
  m.tensor(b_half).type = ir::DataType::kFloat16;
  const int wf = m.Tensor(ir::DataType::kFloat32, {2, 2}, "w");
  const int bf = m.Tensor(ir::DataType::kFloat32, {2}, "b");
  const int y1 = m.Output(ir::DataType::kFloat32, {1, 2}, "y1");
  const int y2 = m.Output(ir::DataType::kFloat32, {1, 2}, "y2");
  m.Op(ir::OpKind::kDequantize, {w_half}, {wf});
  m.Op(ir::OpKind::kDequantize, {b_half}, {bf});
  m.Op(ir::OpKind::kFullyConnected, {x, wf, bf}, {y1},
       ir::FullyConnectedOptions{});
  m.Op(ir::OpKind::kFullyConnected, {x, wf, bf}, {y2},
       ir::FullyConnectedOptions{});
  ir::Model model = m.model();
  EXPECT_TRUE(FindWeightedLayers(model).empty());
  // Skip op 3 (the second FC): only op 2's weight and bias are copied.
  EXPECT_EQ(WidenHalfWeights(model, {false, false, false, true}), 2);
  const ir::Subgraph& sg = model.subgraphs[0];
  ASSERT_EQ(sg.operators.size(), 4u);
  EXPECT_EQ(sg.operators[3].inputs, (std::vector<int32_t>{x, wf, bf}));
  const std::vector<WeightedLayer> layers = FindWeightedLayers(model);
  ASSERT_EQ(layers.size(), 1u);
  EXPECT_EQ(layers[0].op_index, 2);
  const std::vector<float> copy = Values(model, layers[0].weights);
  ASSERT_EQ(copy.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(copy[i], numerics::HalfToFloat(w16[i])) << i;
  }
  EXPECT_EQ(Values(model, layers[0].bias), (std::vector<float>{1.0f, -2.0f}));
  // The model computes what it did.
  std::vector<ir::HostTensor> in = {
      MakeTensor<float>({1, 2}, std::vector<float>{2.0f, -1.0f})};
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> a =
      runtime::Interpreter::Create(m.model());
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> b =
      runtime::Interpreter::Create(model);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE((*a)->Run(in).ok());
  ASSERT_TRUE((*b)->Run(in).ok());
  for (int o = 0; o < 2; ++o) {
    EXPECT_EQ((*a)->OutputHost(o), (*b)->OutputHost(o)) << o;
  }
}

// Same samples, 1 or 2 threads: the same bytes, sequential or one pass.
TEST(BiasCorrectionTest, DeterministicAcrossThreadCounts) {
  const std::string path =
      qforge::testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok());
  absl::StatusOr<ir::Model> model = formats::ParseTflite(*bytes, path);
  ASSERT_TRUE(model.ok());
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> values(20 * 28 * 28);
  for (float& v : values) v = u(rng);
  const std::string npy =
      WriteSamples(qforge::testing::MakeTempDir(), {20, 28, 28, 1}, values);
  formats::SampleSource data =
      ::qforge::testing::OpenFirstInputSamples(*model, npy);
  std::vector<int64_t> samples(20);
  for (int i = 0; i < 20; ++i) samples[i] = i;
  for (bool one_pass : {false, true}) {
    std::vector<ir::Model> out;
    for (int threads : {1, 2}) {
      ir::Model m = *model;
      RecoverOptions o;
      o.bias_correction = true;
      o.one_pass = one_pass;
      o.threads = threads;
      ASSERT_TRUE(RecoverWeights(m, data, samples, o).ok());
      out.push_back(std::move(m));
    }
    const ir::Subgraph& a = out[0].subgraphs[0];
    const ir::Subgraph& b = out[1].subgraphs[0];
    ASSERT_EQ(a.tensors.size(), b.tensors.size());
    int changed = 0;
    for (size_t t = 0; t < a.tensors.size(); ++t) {
      if (!IsConstant(out[0], a.tensors[t])) continue;
      EXPECT_EQ(out[0].buffers[a.tensors[t].buffer].data,
                out[1].buffers[b.tensors[t].buffer].data)
          << a.tensors[t].name;
      // Tensors past the original ones are biases recovery added.
      const std::vector<ir::Tensor>& orig = model->subgraphs[0].tensors;
      changed += t >= orig.size() || out[0].buffers[a.tensors[t].buffer].data !=
                                         model->buffers[orig[t].buffer].data;
    }
    EXPECT_GE(changed, 3) << one_pass;  // weights and biases moved
  }
}

}  // namespace
}  // namespace qforge::quantizer
