// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LSTM (builtin op 16, full kernel, float): one step of the LSTM cell on an
// input [B, I] with the output and cell states as variable tensors (reset
// to 0 every run). Expected values:
//  - a hand derivation for a one-cell LSTM (below);
//  - LiteRT (tfjs-tflite, via tests/interop/run_model.mjs) on LiteRT's
//    test models litert/{lstm,custom_lstm,lstm_calibrated}.tflite
//    (input gate, projection, layer norm);
//  - the double-precision reference of lstm_test_util.h for
//    litert/lstm_calibrated2.tflite (peepholes; LiteRT itself cannot load
//    it) and for synthetic variants with batches.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/model.h"
#include "runtime/interpreter.h"
#include "tests/runtime/kernels/lstm_test_util.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using lstm_test::ExpectClose;
using lstm_test::LstmWeights;
using lstm_test::MakeWeights;
using lstm_test::Random;
using lstm_test::ReferenceLstm;
using lstm_test::RunVariant;
using lstm_test::Variant;
using lstm_test::WeightsOfOp;
using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

// One cell, one input, no projection; every input weight 1, recurrent
// weights 0.5 (h starts at 0, so they do not matter), biases 0; x = 1:
//   i = f = o = sigmoid(1) = 0.7310585786   g = tanh(1) = 0.7615941560
//   c = f * 0 + i * g = 0.5567699411
//   h = o * tanh(c) = 0.7310585786 * 0.5055769315 = 0.3696063529
// With cell_clip 0.5, c = 0.5 and h = 0.7310585786 * tanh(0.5)
// = 0.3378347121.
LstmWeights OneCell() {
  LstmWeights w;
  w.n_input = w.n_cell = w.n_output = 1;
  w.wi = w.wf = w.wc = w.wo = {1.f};
  w.ri = w.rf = w.rc = w.ro = {0.5f};
  w.bi = w.bf = w.bc = w.bo = {0.f};
  return w;
}

TEST(LstmStepTest, OneCellByHand) {
  Variant v = {"one cell", false, false, false, false, false, 1,
               1,          1,     1,     1,     0.f,   0.f};
  auto got = RunVariant(v, OneCell(), {1.f}, 1, /*single_step=*/true);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_NEAR((*got)[0], 0.3696063529, 1e-6);
  v.cell_clip = 0.5f;
  got = RunVariant(v, OneCell(), {1.f}, 1, /*single_step=*/true);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_NEAR((*got)[0], 0.3378347121, 1e-6);
}

absl::StatusOr<ir::Model> CorpusModel(const std::string& name) {
  return formats::ReadTfliteFile(testing::CorpusDir() + "/models/litert/" +
                                 name);
}

TEST(LstmStepTest, LitertModelsMatchLitert) {
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "shared corpus not found";
  // tfjs-tflite's output for input [0.5, -0.25] (the three files hold the
  // same weights: 24 inputs, input gate, projection, layer norm).
  const std::vector<float> litert = {0.468415022f, 0.265967757f};
  for (const char* name :
       {"lstm.tflite", "custom_lstm.tflite", "lstm_calibrated.tflite"}) {
    SCOPED_TRACE(name);
    auto model = CorpusModel(name);
    ASSERT_TRUE(model.ok()) << model.status();
    ASSERT_EQ(model->subgraphs[0].operators[0].kind, ir::OpKind::kLstm);
    auto interp = runtime::Interpreter::Create(*model);
    ASSERT_TRUE(interp.ok()) << interp.status();
    // Twice: the states are reset between runs, so both runs agree.
    for (int run = 0; run < 2; ++run) {
      ASSERT_TRUE(
          (*interp)->Run({MakeTensor<float>({1, 2}, {0.5f, -0.25f})}).ok());
      const std::vector<float> got = Values<float>((*interp)->OutputHost(0));
      ASSERT_EQ(got.size(), 2u);
      for (size_t k = 0; k < 2; ++k) EXPECT_NEAR(got[k], litert[k], 1e-6);
    }
    // And the reference on other inputs.
    const LstmWeights w = WeightsOfOp(*model, model->subgraphs[0].operators[0]);
    for (const std::vector<float>& x :
         {std::vector<float>{2.f, 1.f}, std::vector<float>{-3.f, 0.75f}}) {
      ASSERT_TRUE((*interp)->Run({MakeTensor<float>({1, 2}, x)}).ok());
      ExpectClose(Values<float>((*interp)->OutputHost(0)),
                  ReferenceLstm(w, x, 1, 1));
    }
  }
}

TEST(LstmStepTest, PeepholeModelMatchesReference) {
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "shared corpus not found";
  auto model = CorpusModel("lstm_calibrated2.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  const LstmWeights w = WeightsOfOp(*model, model->subgraphs[0].operators[0]);
  ASSERT_FALSE(w.pf.empty());
  auto interp = runtime::Interpreter::Create(*model);
  ASSERT_TRUE(interp.ok()) << interp.status();
  for (const std::vector<float>& x :
       {std::vector<float>{0.5f, -0.25f}, std::vector<float>{-2.f, 1.5f}}) {
    ASSERT_TRUE((*interp)->Run({MakeTensor<float>({1, 2}, x)}).ok());
    ExpectClose(Values<float>((*interp)->OutputHost(0)),
                ReferenceLstm(w, x, 1, 1));
  }
}

TEST(LstmStepTest, SyntheticVariantsMatchReference) {
  const Variant variants[] = {
      {"basic", false, false, false, false, false, 3, 1, 3, 4, 4, 0.f, 0.f},
      {"cifg+peephole", true, true, false, false, false, 2, 1, 2, 4, 4, 0.f,
       0.f},
      {"projection+clips", false, true, true, false, false, 2, 1, 3, 6, 3, 0.2f,
       0.05f},
      {"layer_norm", false, true, true, true, false, 2, 1, 3, 5, 4, 3.f, 0.f},
      {"big (parallel)", false, false, true, false, false, 4, 1, 96, 160, 64,
       0.f, 0.f},
  };
  std::mt19937 rng(16);
  for (const Variant& v : variants) {
    lstm_test::CheckRandomVariant(v, rng, /*single_step=*/true);
  }
}

TEST(LstmStepTest, RejectsBasicKernel) {
  // The BASIC kernel type (5 inputs, 4 outputs) is not implemented.
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 2});
  std::vector<int32_t> ins = {x};
  for (int i = 1; i < 5; ++i) {
    ins.push_back(m.Constant<float>({2}, {0.f, 0.f}));
  }
  std::vector<int32_t> outs;
  for (int o = 0; o < 4; ++o) {
    outs.push_back(m.Output(ir::DataType::kFloat32, {1, 2}));
  }
  ir::LstmOptions basic;
  basic.kernel_type = 1;
  m.Op(ir::OpKind::kLstm, ins, outs, basic);
  auto out = m.Run({MakeTensor<float>({1, 2}, {0.f, 0.f})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented)
      << out.status();
}

TEST(LstmStepTest, PrintCount) {
  std::printf("[ lstm ] %d output values compared with the double reference\n",
              lstm_test::g_values_checked);
}

}  // namespace
}  // namespace qforge
