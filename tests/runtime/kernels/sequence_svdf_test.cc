// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Float SVDF: a hand-derived step (state shift, feature and time filters,
// rank reduction, bias, activation), shape errors, and LiteRT's outputs on
// the corpus's SVDF test model.
#include <cstdint>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/options.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge::testing {
namespace {

using DT = ir::DataType;

// input [1, 2], weights_feature [2, 2], weights_time [2, 3], bias [U],
// state [1, 6] (variable, initial value `state0`), output [1, U].
OpModel SvdfModel(int rank, ir::Activation act,
                  const std::vector<float>& state0, bool with_bias) {
  OpModel m;
  const int units = 2 / rank;
  const int x = m.Input(DT::kFloat32, {1, 2});
  const int wf = m.Constant<float>({2, 2}, {1.f, 0.f, 0.5f, -1.f});
  const int wt = m.Constant<float>({2, 3}, {1.f, 0.1f, 0.01f, 0.f, 1.f, 2.f});
  const std::vector<float> bias_values =
      units == 2 ? std::vector<float>{0.5f, -10.f} : std::vector<float>{0.5f};
  const int bias = with_bias ? m.Constant<float>({units}, bias_values) : -1;
  const int state = m.Constant<float>({1, 6}, state0, "state");
  m.tensor(state).is_variable = true;
  const int y = m.Output(DT::kFloat32, {1, units});
  ir::SvdfOptions o;
  o.rank = rank;
  o.activation = act;
  m.Op(ir::OpKind::kSvdf, {x, wf, wt, bias, state}, {y}, o);
  return m;
}

// x = [1, 2]: features f0 = 1*1 + 0*2 = 1, f1 = 0.5*1 - 1*2 = -1.5.
// The state holds each filter's memory oldest first: f0 [10, 20, 30],
// f1 [4, 5, 6]. TFLite shifts the whole buffer left by one ([20, 30, 4,
// 5, 6, _]) and writes each filter's newest slot: f0 [20, 30, 1],
// f1 [5, 6, -1.5]. Time filters: f0 . [1, 0.1, 0.01] = 20 + 3 + 0.01 =
// 23.01; f1 . [0, 1, 2] = 6 - 3 = 3.
TEST(SequenceSvdfTest, HandDerivedStepRank1) {
  OpModel m = SvdfModel(1, ir::Activation::kNone, {10, 20, 30, 4, 5, 6}, true);
  auto out = m.Run({MakeTensor<float>({1, 2}, {1.f, 2.f})});
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> y = Values<float>((*out)[0]);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_NEAR(y[0], 23.01f + 0.5f, 1e-5);  // + bias 0.5
  EXPECT_NEAR(y[1], 3.f - 10.f, 1e-5);     // + bias -10
}

TEST(SequenceSvdfTest, ReluAndRank2SumsFilterPairs) {
  // RELU clamps unit 1 (-7) to 0.
  OpModel relu =
      SvdfModel(1, ir::Activation::kRelu, {10, 20, 30, 4, 5, 6}, true);
  auto out = relu.Run({MakeTensor<float>({1, 2}, {1.f, 2.f})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_NEAR(Values<float>((*out)[0])[0], 23.51f, 1e-5);
  EXPECT_EQ(Values<float>((*out)[0])[1], 0.f);
  // rank 2: one unit = f0 + f1 = 26.01, no bias.
  OpModel rank2 =
      SvdfModel(2, ir::Activation::kNone, {10, 20, 30, 4, 5, 6}, false);
  out = rank2.Run({MakeTensor<float>({1, 2}, {1.f, 2.f})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(Values<float>((*out)[0]).size(), 1u);
  EXPECT_NEAR(Values<float>((*out)[0])[0], 26.01f, 1e-5);
}

TEST(SequenceSvdfTest, ZeroStateUsesOnlyTheNewestSlot) {
  // From a zero state only the newest slot is set: 1 * 0.01, -1.5 * 2.
  OpModel m = SvdfModel(1, ir::Activation::kNone, {0, 0, 0, 0, 0, 0}, false);
  auto out = m.Run({MakeTensor<float>({1, 2}, {1.f, 2.f})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_NEAR(Values<float>((*out)[0])[0], 0.01f, 1e-7);
  EXPECT_NEAR(Values<float>((*out)[0])[1], -3.f, 1e-6);
}

TEST(SequenceSvdfTest, RankMustDivideFilters) {
  OpModel m = SvdfModel(1, ir::Activation::kNone, {0, 0, 0, 0, 0, 0}, true);
  std::get<ir::SvdfOptions>(m.model().subgraphs[0].operators[0].options).rank =
      3;
  auto out = m.Run({MakeTensor<float>({1, 2}, {1.f, 2.f})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("rank 3"),
            std::string::npos)
      << out.status();
}

// LiteRT's corpus test model svdf_calibrated.tflite (input [1, 4], 6
// filters, memory 7, rank 1) declares its state [1, 9] where TFLite needs
// [1, 42]; both LiteRT and qforge refuse it as is. With the state shape
// repaired, tfjs-tflite (TFLite's builtin kernels) gives these outputs.
TEST(SequenceSvdfTest, CorpusModelMatchesLiteRT) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus absent";
  absl::StatusOr<ir::Model> model =
      formats::ReadTfliteFile(corpus + "/models/litert/svdf_calibrated.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  {
    auto bad = runtime::Interpreter::Create(*model, {});
    ASSERT_TRUE(bad.ok());
    const absl::Status s =
        (*bad)->Run({MakeTensor<float>({1, 4}, {0.5f, -1.25f, 2.f, 0.75f})});
    EXPECT_NE(std::string(s.message()).find("must be [1,42]"),
              std::string::npos)
        << s;
  }
  model->subgraphs[0].tensors[4].shape = {1, 42};
  auto interp = runtime::Interpreter::Create(*model, {});
  ASSERT_TRUE(interp.ok()) << interp.status();
  struct Case {
    std::vector<float> in, want;
  };
  const Case cases[] = {
      {{0.5f, -1.25f, 2.f, 0.75f},
       {0.0503748730f, 0.0538089611f, 0.0503748730f, 0.0538089611f,
        0.0503748730f, 0.0538089611f}},
      {{-3.f, 0.1f, 0.2f, 1.5f},
       {0.0481632277f, 0.0492770746f, 0.0481632277f, 0.0492770746f,
        0.0481632277f, 0.0492770746f}},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE((*interp)->Run({MakeTensor<float>({1, 4}, c.in)}).ok());
    const std::vector<float> y = Values<float>((*interp)->OutputHost(0));
    ASSERT_EQ(y.size(), c.want.size());
    for (size_t i = 0; i < y.size(); ++i) {
      EXPECT_NEAR(y[i], c.want[i], 1e-7f * c.want[i]) << i;
    }
  }
}

}  // namespace
}  // namespace qforge::testing
