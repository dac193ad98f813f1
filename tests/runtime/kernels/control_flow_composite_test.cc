// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// STABLEHLO_COMPOSITE: the op runs its decomposition subgraph (index in
// builtin_options_2). Expected values are derived by hand from the graphs
// (read with the interop harness's model dump):
//  - ai-edge-quantizer/simple_composite.tflite: decomposition = ADD of the
//    two [32, 32] inputs, so out = a + b exactly;
//  - litert/l2_norm_composite.tflite: decomposition
//    x * RSQRT(SUM(x * x, axis 1) + eps), eps the [1, 1] constant it adds;
//  - a hand-built model whose composite calls a MUL subgraph, and malformed
//    options (none, the op's own subgraph).
// The attention (SDPA) and group-norm composites of the corpus are checked
// against LiteRT by tests/interop/float_vs_litert.sh.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "formats/tflite_options.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

std::vector<float> RandomValues(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2.f, 2.f);
  std::vector<float> v(n);
  for (float& e : v) e = dist(rng);
  return v;
}

TEST(CompositeTest, SimpleCompositeAdds) {
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "shared corpus not found";
  auto model = formats::ReadTfliteFile(
      testing::CorpusDir() +
      "/models/ai-edge-quantizer/simple_composite.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->subgraphs[0].operators[0].kind,
            ir::OpKind::kStablehloComposite);
  auto interp = runtime::Interpreter::Create(*model);
  ASSERT_TRUE(interp.ok()) << interp.status();
  const std::vector<float> a = RandomValues(32 * 32, 1);
  const std::vector<float> b = RandomValues(32 * 32, 2);
  ASSERT_TRUE((*interp)
                  ->Run({MakeTensor<float>({32, 32}, a),
                         MakeTensor<float>({32, 32}, b)})
                  .ok());
  const std::vector<float> got = Values<float>((*interp)->OutputHost(0));
  ASSERT_EQ(got.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(got[i], a[i] + b[i]) << i;
}

TEST(CompositeTest, L2NormComposite) {
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "shared corpus not found";
  auto model = formats::ReadTfliteFile(
      testing::CorpusDir() + "/models/litert/l2_norm_composite.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  // eps: the float [1, 1] constant of the decomposition (subgraph 1).
  float eps = -1.f;
  for (const ir::Tensor& t : model->subgraphs[1].tensors) {
    const ir::Bytes& data = model->buffers[t.buffer].data;
    if (t.type == ir::DataType::kFloat32 && data.size() == 4) {
      std::memcpy(&eps, data.data(), 4);
    }
  }
  ASSERT_GE(eps, 0.f);
  auto interp = runtime::Interpreter::Create(*model);
  ASSERT_TRUE(interp.ok()) << interp.status();
  const std::vector<float> x = RandomValues(768, 3);
  ASSERT_TRUE((*interp)->Run({MakeTensor<float>({1, 768}, x)}).ok());
  const std::vector<float> got = Values<float>((*interp)->OutputHost(0));
  ASSERT_EQ(got.size(), x.size());
  double sum = 0;
  for (float v : x) sum += static_cast<double>(v) * v;
  const double scale = 1.0 / std::sqrt(sum + eps);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(got[i], x[i] * scale, 1e-6) << i;
  }
}

// main: y = COMPOSITE(a, b) whose decomposition (subgraph `index`) is a MUL
// of its two inputs; `index` < 0: no options at all.
OpModel MulComposite(int32_t index) {
  OpModel m;
  const int a = m.Input(ir::DataType::kFloat32, {3});
  const int b = m.Input(ir::DataType::kFloat32, {3});
  const int y = m.Output(ir::DataType::kFloat32, {3});
  m.Op(ir::OpKind::kStablehloComposite, {a, b}, {y});
  ir::Model& model = m.model();
  if (index >= 0) {
    tflite::StableHLOCompositeOptionsT opts;
    opts.name = "test.mul";
    opts.decomposition_subgraph_index = index;
    tflite::BuiltinOptions2Union u;
    u.Set(std::move(opts));
    model.subgraphs[0].operators[0].options2 = formats::PackOpaque(u);
  }
  model.subgraphs.emplace_back();
  ir::Subgraph& sg = model.subgraphs.back();
  for (const char* name : {"x", "z", "x*z"}) {
    ir::Tensor t;
    t.type = ir::DataType::kFloat32;
    t.shape = {3};
    t.name = name;
    sg.tensors.push_back(std::move(t));
  }
  sg.inputs = {0, 1};
  sg.outputs = {2};
  ir::Operator mul;
  mul.kind = ir::OpKind::kMul;
  mul.builtin_code = ir::GetOpInfo(ir::OpKind::kMul).builtin_code;
  mul.inputs = {0, 1};
  mul.outputs = {2};
  mul.options = ir::ActivationOptions{};
  sg.operators.push_back(std::move(mul));
  return m;
}

TEST(CompositeTest, RunsTheDecompositionSubgraph) {
  // {1, -2, 3} * {4, 5, -0.5} = {4, -10, -1.5}.
  OpModel m = MulComposite(1);
  auto out = m.Run({MakeTensor<float>({3}, {1, -2, 3}),
                    MakeTensor<float>({3}, {4, 5, -0.5f})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{4, -10, -1.5f}));
}

TEST(CompositeTest, RejectsMissingOrSelfDecomposition) {
  for (int32_t index : {-1, 0}) {
    SCOPED_TRACE(index);
    OpModel m = MulComposite(index);
    auto out = m.Run(
        {MakeTensor<float>({3}, {1, 2, 3}), MakeTensor<float>({3}, {1, 2, 3})});
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
        << out.status();
  }
}

}  // namespace
}  // namespace qforge
