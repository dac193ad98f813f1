// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer SVDF (int8 input/output, int16 state and time weights, and
// TFLite Micro's int8 ones): hand-derived steps with a non-zero initial
// state, the types and activation TFLite refuses, and LiteRT's outputs on
// the corpus's SVDF twin.
#include <cstdint>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/options.h"
#include "runtime/interpreter.h"
#include "tests/runtime/kernels/integer_test_util.h"
#include "tests/support/test_paths.h"

namespace qforge::testing::integer_test {
namespace {

// input [1, 2] (scale 0.5, zp -1), weights_feature [2, 2] (0.5),
// weights_time [2, 2] int16 (0.5), bias [2] int32, state [1, 4] int16
// (0.25, variable, initial [100, 200, 300, 400]), output [1, 2] int8
// (0.25, zp -128). Rescales: e1 = 0.5 * 0.5 / 0.25 = 1 (exact),
// e2 = 0.25 * 0.5 / 0.25 = 0.5.
OpModel IntSvdfModel(ir::Activation act, DT state_type = DT::kInt16,
                     DT time_type = DT::kInt16) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2}, 0.5f, -1);
  const int wf = QConst<int8_t>(m, {2, 2}, {2, 7, -3, 1}, {0.5f}, {0});
  const int wt = time_type == DT::kInt16
                     ? QConst<int16_t>(m, {2, 2}, {1, 2, 3, -1}, {0.5f}, {0})
                     : QConst<int8_t>(m, {2, 2}, {1, 2, 3, -1}, {0.5f}, {0});
  // TFLite Micro's 8-bit variant has its state with a zero point of 2.
  const int state =
      state_type == DT::kInt16
          ? QConst<int16_t>(m, {1, 4}, {100, 200, 300, 400}, {0.25f}, {0})
          : QConst<int8_t>(m, {1, 4}, {1, 2, 3, 4}, {0.25f}, {2});
  m.tensor(state).is_variable = true;
  const int bias = QConst<int32_t>(m, {2}, {5, -1500}, {0.125f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 2}, 0.25f, -128);
  ir::SvdfOptions o;
  o.rank = 1;
  o.activation = act;
  m.Op(ir::OpKind::kSvdf, {x, wf, wt, bias, state}, {y}, o);
  return m;
}

// x = [3, -1], x - zp = [4, 0]: feature dots f0 = 2*4 + 7*0 = 8,
// f1 = -3*4 + 1*0 = -12, times e1 = 1 -> int16 state values 8, -12.
// State [f0: 100, 200 | f1: 300, 400] shifted left as one buffer ->
// [200, 300, 400, _]; newest slots written: f0 [200, 8], f1 [400, -12].
// Time: f0 = 1*200 + 2*8 = 216, f1 = 3*400 - 1*(-12) = 1212.
// + bias: 221, -288. Times e2 = 0.5: 110.5 rounds to 111 (ties up), -144.
// + zp -128: -17, -272 -> clamped to -128 (real 0: TFLite's RELU).
TEST(IntegerSvdfTest, HandDerivedStep) {
  OpModel m = IntSvdfModel(ir::Activation::kRelu);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2}, {3, -1})}),
            (std::vector<int8_t>{-17, -128}));
}

TEST(IntegerSvdfTest, OnlyRelu) {
  OpModel m = IntSvdfModel(ir::Activation::kNone);
  auto out = m.Run({MakeTensor<int8_t>({1, 2}, {3, -1})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(std::string(out.status().message()).find("RELU"),
            std::string::npos);
}

// TFLite Micro's 8-bit-state variant (svdf_common.cc,
// EvalIntegerSvdfReference<int8_t>), same x, e1 = 1, e2 = 0.5, zp_s = 2:
// new state values 8 + 2 = 10 and -12 + 2 = -10 (int8 clamp after the zero
// point). State [f0: 1, 2 | f1: 3, 4] shifted left -> f0 [2, 10],
// f1 [4, -10]. Time, on state - zp_s: f0 = 1*0 + 2*8 = 16,
// f1 = 3*2 - 1*(-12) = 18. + bias: 21, -1482. Times 0.5: 10.5 -> 11 (ties
// away from zero in both roundings), -741. + zp -128: -117, -869 -> -128.
// The activation is NONE: TFLite Micro ignores it in this kernel.
TEST(IntegerSvdfTest, EightBitStateHandDerivedStep) {
  OpModel m = IntSvdfModel(ir::Activation::kNone, DT::kInt8, DT::kInt8);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2}, {3, -1})}),
            (std::vector<int8_t>{-117, -128}));
}

TEST(IntegerSvdfTest, MixedStateTypesAreRefused) {
  // int16 state with int8 time weights: neither TFLite nor TFLite Micro.
  OpModel m = IntSvdfModel(ir::Activation::kRelu, DT::kInt16, DT::kInt8);
  auto out = m.Run({MakeTensor<int8_t>({1, 2}, {3, -1})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(std::string(out.status().message()).find("state"),
            std::string::npos)
      << out.status();
}

// LiteRT's svdf_quantized.tflite (the int8 twin of svdf_calibrated) has the
// same [1, 9] state LiteRT refuses; repaired to [1, 42], and with state
// scale 0.001 and output scale 0.0011 (its own scales put every output at
// the zero point's neighbours), tfjs-tflite gives these outputs.
TEST(IntegerSvdfTest, CorpusTwinMatchesLiteRT) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus absent";
  absl::StatusOr<ir::Model> model =
      formats::ReadTfliteFile(corpus + "/twins/litert/svdf_quantized.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<ir::Tensor>& t = model->subgraphs[0].tensors;
  t[4].shape = {1, 42};
  t[4].quantization->scale = {0.001f};
  t[5].quantization->scale = {0.0011f};
  auto interp = runtime::Interpreter::Create(*model, {});
  ASSERT_TRUE(interp.ok()) << interp.status();
  struct Case {
    std::vector<int8_t> in, want;
  };
  const Case cases[] = {
      {{-128, -60, 10, 127}, {-3, 116, -3, 116, -3, 116}},
      {{5, -5, 100, -100}, {-22, 79, -22, 79, -22, 79}},
      {{-128, -128, -128, -128}, {-117, -117, -117, -117, -117, -117}},
      {{77, -3, -90, 31}, {0, 124, 0, 124, 0, 124}},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE((*interp)->Run({MakeTensor<int8_t>({1, 4}, c.in)}).ok());
    EXPECT_EQ(Values<int8_t>((*interp)->OutputHost(0)), c.want);
  }
}

}  // namespace
}  // namespace qforge::testing::integer_test
