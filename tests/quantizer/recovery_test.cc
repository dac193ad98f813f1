// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Cross-layer equalization and bias correction against hand-derived cases,
// and on real models: the float function is unchanged by equalization, and
// recovery is deterministic whatever the thread count.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/data_source.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "quantizer/equalize.h"
#include "quantizer/graph_edit.h"
#include "quantizer/recover.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"
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

formats::SampleSource Open(const ir::Model& m, const std::string& spec) {
  const ir::Tensor& in = m.subgraphs[0].tensors[m.subgraphs[0].inputs[0]];
  formats::InputDesc d;
  d.name = in.name;
  d.type = in.type;
  d.shape = in.shape;
  absl::StatusOr<formats::SampleSource> s =
      formats::SampleSource::Open({spec}, {d}, {});
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

// A known systematic rounding bias: with scale 1/127 (largest weight 1.0),
// the weights (k + 0.4)/127, k = 1..10, all round down by 0.4/127; on an
// all-ones input the layer's output is 10 * 0.4/127 = 4/127 too low,
// exactly, and bias correction adds that to the bias.
TEST(BiasCorrectionTest, KnownRoundingBiasIsFoldedIntoTheBias) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 11}, "x");
  std::vector<float> w = {1.0f};
  for (int k = 1; k <= 10; ++k) w.push_back((k + 0.4f) / 127.0f);
  const int wt = m.Constant<float>({1, 11}, w, "w");
  const int b = m.Constant<float>({1}, {0.25f}, "b");
  const int y = m.Output(ir::DataType::kFloat32, {1, 1}, "y");
  m.Op(ir::OpKind::kFullyConnected, {x, wt, b}, {y},
       ir::FullyConnectedOptions{});
  const std::string dir = qforge::testing::MakeTempDir();
  const std::string npy =
      WriteSamples(dir, {4, 11}, std::vector<float>(44, 1.0f));
  formats::SampleSource data = Open(m.model(), npy);
  RecoverOptions o;
  o.bias_correction = true;
  absl::StatusOr<RecoverResult> r =
      RecoverWeights(m.model(), data, {0, 1, 2, 3}, o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->layers.size(), 1u);
  EXPECT_NEAR(Values(m.model(), b)[0], 0.25f + 4.0f / 127.0f, 1e-6);
  EXPECT_NEAR(r->layers[0].mean_abs_bias_shift, 4.0 / 127.0, 1e-6);
  // The weights are on the grid: k / 127.
  const std::vector<float> snapped = Values(m.model(), wt);
  for (int k = 1; k <= 10; ++k) EXPECT_NEAR(snapped[k], k / 127.0f, 1e-7);
}

// Same samples, 1 or 2 threads: the same bytes.
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
  formats::SampleSource data = Open(*model, npy);
  std::vector<int64_t> samples(20);
  for (int i = 0; i < 20; ++i) samples[i] = i;
  std::vector<ir::Model> out;
  for (int threads : {1, 2}) {
    ir::Model m = *model;
    RecoverOptions o;
    o.bias_correction = true;
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
  EXPECT_GE(changed, 3);  // weights and biases moved
}

}  // namespace
}  // namespace qforge::quantizer
