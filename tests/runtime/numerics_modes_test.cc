// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Numerics modes are values of each interpreter (InterpreterOptions::
// numerics), not process state: interpreters with different --rounding and
// --arithmetic run side by side in one process, in threads of their own,
// and each gets its own mode's exact results. The expected values are
// computed here element by element with numerics/ (the definitions of the
// three requantizations); the kernels' own exactness against TFLite is
// tested elsewhere.
#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "numerics/fixed_point.h"
#include "numerics/modes.h"
#include "numerics/xnnpack_arithmetic.h"
#include "runtime/interpreter.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

using numerics::Arithmetic;
using numerics::Modes;
using numerics::RoundingPolicy;

// A 1x1 DEPTHWISE_CONV_2D over every int8 value, and its weight and
// scales: real multiplier 0.5 * 0.5 / 1 = 1/4 exactly (2^30, shift -1).
// acc / 4 ends in .5 for acc = 2 mod 4: single rounding goes up, XNNPACK's
// to even; acc = 5 mod 8 (x.625) rounds to x.5 then up twice under double
// rounding, down once under single.
constexpr float kInScale = 0.5f, kWScale = 0.5f, kOutScale = 1.0f;
constexpr int32_t kInZp = -5, kOutZp = 3, kW = 3, kBias = -17;
constexpr int kN = 256;

std::vector<int8_t> AllInt8() {
  std::vector<int8_t> v;
  for (int x = -128; x <= 127; ++x) v.push_back(static_cast<int8_t>(x));
  return v;
}

// The op's outputs under `modes`, element by element.
std::vector<int8_t> Expected(const Modes& modes) {
  const numerics::ChannelMultipliers cm =
      numerics::QuantizeChannelMultipliers(kInScale, &kWScale, 1, kOutScale, 1);
  float xnn_scale = 0;
  EXPECT_TRUE(numerics::XnnpackRequantizationScale(kInScale, kWScale, kOutScale,
                                                   &xnn_scale));
  // DEPTHWISE_CONV_2D is not a ruy GEMM: legacy rounds it twice.
  const numerics::Rounding r =
      numerics::OpRounding(modes.rounding, false, /*ruy_gemm=*/false);
  std::vector<int8_t> out;
  for (int8_t x : AllInt8()) {
    const int32_t acc = (x - kInZp) * kW + kBias;
    const int32_t q =
        modes.arithmetic == Arithmetic::kXnnpack
            ? numerics::XnnpackRequantize(acc, xnn_scale, kOutZp, -128, 127)
            : numerics::Requantize(acc, cm.multiplier[0], cm.shift[0], kOutZp,
                                   -128, 127, r);
    out.push_back(static_cast<int8_t>(q));
  }
  return out;
}

OpModel DepthwiseModel() {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 1, kN, 1}, kInScale, kInZp);
  const int w = QConst<int8_t>(m, {1, 1, 1, 1}, {static_cast<int8_t>(kW)},
                               {kWScale}, {0}, 3);
  const int b = QConst<int32_t>(m, {1}, {kBias}, {kInScale * kWScale}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 1, kN, 1}, kOutScale, kOutZp);
  ir::DepthwiseConv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  m.Op(ir::OpKind::kDepthwiseConv2D, {x, w, b}, {y}, o);
  return m;
}

TEST(NumericsModesTest, InterpretersWithDifferentModesRunConcurrently) {
  const std::vector<Modes> modes = {
      {RoundingPolicy::kSingle, Arithmetic::kTflite},
      {RoundingPolicy::kDouble, Arithmetic::kTflite},
      {RoundingPolicy::kSingle, Arithmetic::kXnnpack},
  };
  std::vector<std::vector<int8_t>> want;
  for (const Modes& m : modes) want.push_back(Expected(m));
  // Each pair of modes disagrees somewhere, so a mode leaking from one
  // interpreter into another would show.
  for (size_t i = 0; i < want.size(); ++i) {
    for (size_t j = i + 1; j < want.size(); ++j) {
      ASSERT_NE(want[i], want[j]) << i << " vs " << j;
    }
  }
  OpModel model = DepthwiseModel();
  const ir::HostTensor input = MakeTensor<int8_t>({1, 1, kN, 1}, AllInt8());
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (size_t k = 0; k < modes.size(); ++k) {
    threads.emplace_back([&, k] {
      runtime::InterpreterOptions options;
      options.threads = 2;  // tasks cross threads too
      options.numerics = modes[k];
      auto interp = runtime::Interpreter::Create(model.model(), options);
      if (!interp.ok()) {
        ++failed;
        return;
      }
      for (int run = 0; run < 200; ++run) {
        if (!(*interp)->Run({input}).ok()) {
          ++failed;
          return;
        }
        if (Values<int8_t>((*interp)->OutputHost(0)) != want[k]) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace qforge::testing::integer_test
