// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LiteRT's single-op test models of the reduce family (corpus/models/
// litert), run on deterministic pseudo-random inputs and compared with
// references written here from the ops' definitions (double precision for
// float math, std::stable_sort for TOPK_V2). Float tolerance:
// |a - b| <= 1e-5 * max(1, |b|).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::Values;

int g_checked = 0;

struct Loaded {
  std::unique_ptr<ir::Model> model;
  std::unique_ptr<runtime::Interpreter> interp;
};

// Loads corpus/models/litert/<name>.tflite; empty when the corpus is absent.
Loaded Load(const std::string& name) {
  Loaded l;
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) return l;
  auto model =
      formats::ReadTfliteFile(corpus + "/models/litert/" + name + ".tflite");
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return l;
  l.model = std::make_unique<ir::Model>(std::move(*model));
  auto interp = runtime::Interpreter::Create(*l.model);
  EXPECT_TRUE(interp.ok()) << interp.status();
  if (interp.ok()) l.interp = std::move(*interp);
  return l;
}

std::vector<float> RandomValues(size_t n, float lo, float hi, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

void ExpectReduceClose(const std::vector<float>& got,
                       const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-5 * std::max(1.0, std::fabs(want[i])))
        << "element " << i;
    ++g_checked;
  }
}

#define LOAD_OR_SKIP(var, name)                                  \
  Loaded var = Load(name);                                       \
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "no corpus"; \
  ASSERT_NE(var.interp, nullptr)

TEST(ReduceLitertTest, L2Norm) {
  LOAD_OR_SKIP(l, "simple_l2_norm");
  const std::vector<float> x = RandomValues(768, -3.f, 3.f, 1);
  ASSERT_TRUE(l.interp->Run({MakeTensor<float>({1, 768}, x)}).ok());
  double sq = 0;
  for (float v : x) sq += static_cast<double>(v) * v;
  const double norm = std::max(std::sqrt(sq), 1e-6);
  std::vector<double> want;
  for (float v : x) want.push_back(v / norm);
  ExpectReduceClose(Values<float>(l.interp->OutputHost(0)), want);
}

TEST(ReduceLitertTest, LogSoftmax) {
  LOAD_OR_SKIP(l, "simple_log_softmax_op");
  const std::vector<float> x = RandomValues(8 * 128, -20.f, 20.f, 2);
  ASSERT_TRUE(l.interp->Run({MakeTensor<float>({8, 128}, x)}).ok());
  std::vector<double> want;
  for (int r = 0; r < 8; ++r) {
    const float* row = x.data() + r * 128;
    double max = row[0], sum = 0;
    for (int c = 0; c < 128; ++c) max = std::max<double>(max, row[c]);
    for (int c = 0; c < 128; ++c) sum += std::exp(row[c] - max);
    for (int c = 0; c < 128; ++c) want.push_back(row[c] - max - std::log(sum));
  }
  ExpectReduceClose(Values<float>(l.interp->OutputHost(0)), want);
}

TEST(ReduceLitertTest, ReduceMinLastAxis) {
  LOAD_OR_SKIP(l, "simple_reducemin_op");
  const size_t rows = 32 * 64;
  const std::vector<float> x = RandomValues(rows * 128, -1.f, 1.f, 3);
  ASSERT_TRUE(l.interp->Run({MakeTensor<float>({1, 32, 64, 128}, x)}).ok());
  const ir::HostTensor out = l.interp->OutputHost(0);
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{1, 32, 64}));
  std::vector<double> want;
  for (size_t r = 0; r < rows; ++r) {
    want.push_back(
        *std::min_element(x.begin() + r * 128, x.begin() + (r + 1) * 128));
  }
  ExpectReduceClose(Values<float>(out), want);
}

TEST(ReduceLitertTest, RootMeanSquare) {
  // sqrt(mean(x * x, axis 1)) for each of two inputs.
  LOAD_OR_SKIP(l, "sqrt_mean_mul_multiple");
  const std::vector<float> a = {3, 4, -1, 7}, b = {0.5f, -0.5f, 2, 0};
  ASSERT_TRUE(
      l.interp
          ->Run({MakeTensor<float>({2, 2}, a), MakeTensor<float>({2, 2}, b)})
          .ok());
  ExpectReduceClose(Values<float>(l.interp->OutputHost(0)),
                    {std::sqrt(12.5), std::sqrt(25.0)});
  ExpectReduceClose(Values<float>(l.interp->OutputHost(1)),
                    {0.5, std::sqrt(2.0)});
}

TEST(ReduceLitertTest, ArgMaxOfOneElement) {
  LOAD_OR_SKIP(l, "argmax");
  ASSERT_TRUE(l.interp->Run({MakeTensor<float>({1, 1}, {-4.f})}).ok());
  const ir::HostTensor out = l.interp->OutputHost(0);
  EXPECT_EQ(out.type(), ir::DataType::kInt64);
  EXPECT_EQ(Values<int64_t>(out), (std::vector<int64_t>{0}));
  ++g_checked;
}

void CheckTopK(runtime::Interpreter& interp, const std::vector<float>& x, int k,
               int values_output, int indices_output) {
  std::vector<int32_t> idx(x.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&x](int32_t a, int32_t b) { return x[a] > x[b]; });
  idx.resize(static_cast<size_t>(k));
  std::vector<double> want_values;
  for (int32_t i : idx) want_values.push_back(x[static_cast<size_t>(i)]);
  const ir::HostTensor values = interp.OutputHost(values_output);
  EXPECT_EQ(values.shape(), (std::vector<int64_t>{1, k}));
  EXPECT_EQ(Values<int32_t>(interp.OutputHost(indices_output)), idx);
  ExpectReduceClose(Values<float>(values), want_values);
}

TEST(ReduceLitertTest, TopKConstantK) {
  LOAD_OR_SKIP(l, "simple_topk_op");
  const std::vector<float> x = RandomValues(128, -1.f, 1.f, 4);
  ASSERT_TRUE(l.interp->Run({MakeTensor<float>({1, 128}, x)}).ok());
  CheckTopK(*l.interp, x, 10, 0, 1);
}

TEST(ReduceLitertTest, TopKRuntimeK) {
  // k is a model input; output shapes [1, k] follow it from run to run.
  LOAD_OR_SKIP(l, "simple_topk_op_runtime_k");
  const std::vector<float> x = RandomValues(128, -1.f, 1.f, 5);
  for (int k : {7, 3, 12}) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(l.interp
                    ->Run({MakeTensor<int32_t>({}, {k}),
                           MakeTensor<float>({1, 128}, x)})
                    .ok());
    CheckTopK(*l.interp, x, k, 1, 0);
  }
}

TEST(ReduceLitertTest, PrintCount) {
  std::printf("[ litert ] %d reduce-family output values checked\n", g_checked);
}

}  // namespace
}  // namespace qforge
