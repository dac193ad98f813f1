// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Unary kernels: activations (LOGISTIC TANH RELU* LEAKY_RELU HARD_SWISH GELU
// ELU) and maths (EXP LOG SQRT RSQRT SQUARE SIN COS FLOOR CEIL ROUND NEG ABS
// SIGN). Piecewise-linear ops are checked on hand-derived values; the
// transcendental ones against the defining formula evaluated in double
// precision (an independent computation; the kernels work in float, and
// LOGISTIC / TANH use Eigen's rational approximations).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "ir/options.h"
#include "tests/runtime/kernels/elementwise_test_util.h"

namespace qforge::testing::elementwise {
namespace {

using ir::DataType;
using ir::OpKind;

// Runs a float unary op on `x` (shape [n]).
ir::HostTensor RunUnary(OpKind kind, const std::vector<float>& x,
                        ir::Options options = {}, int threads = 1) {
  auto out = RunLike(kind, {{F32({static_cast<int64_t>(x.size())}, x)}},
                     DataType::kFloat32, std::move(options), threads);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : ir::HostTensor();
}

// Checks a float unary op against `ref` (double precision) on `x`.
template <typename Ref>
void ExpectMatchesFormula(OpKind kind, const std::vector<float>& x, Ref ref,
                          float tol, ir::Options options = {}) {
  std::vector<float> want;
  for (float v : x) want.push_back(static_cast<float>(ref(double{v})));
  ExpectFloats(RunUnary(kind, x, std::move(options)),
               {static_cast<int64_t>(x.size())}, want, tol);
}

std::vector<float> Range(float lo, float hi, int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * i / (n - 1));
  return v;
}

TEST(ActivationTest, LogisticMatchesDefinition) {
  // sigma(x) = 1 / (1 + e^-x): sigma(0) = 0.5, sigma(1) = 0.7310586,
  // sigma(-1) = 0.2689414, sigma(20) = 1 - 2e-9 (1 in float),
  // sigma(-20) = 2.06e-9 (Eigen switches to e^x below -9).
  ExpectMatchesFormula(
      OpKind::kLogistic, {0, 1, -1, 20, -20, 3.5f, -8.9f, -9.1f, 100, -100},
      [](double x) { return 1 / (1 + std::exp(-x)); }, 1e-6f);
  ExpectMatchesFormula(
      OpKind::kLogistic, Range(-30, 30, 601),
      [](double x) { return 1 / (1 + std::exp(-x)); }, 1e-6f);
}

TEST(ActivationTest, TanhMatchesDefinition) {
  // tanh(0) = 0, tanh(0.5) = 0.4621172, tanh(+-10) = +-1 in float.
  ExpectMatchesFormula(
      OpKind::kTanh, {0, 0.5f, -0.5f, 10, -10, 1e-5f},
      [](double x) { return std::tanh(x); }, 1e-6f);
  ExpectMatchesFormula(
      OpKind::kTanh, Range(-12, 12, 481), [](double x) { return std::tanh(x); },
      1e-6f);
}

TEST(ActivationTest, ReluFamily) {
  const std::vector<float> x = {-7, -1, -0.5f, 0, 0.5f, 1, 3, 7};
  ExpectFloats(RunUnary(OpKind::kRelu, x), {8}, {0, 0, 0, 0, 0.5f, 1, 3, 7});
  ExpectFloats(RunUnary(OpKind::kRelu6, x), {8}, {0, 0, 0, 0, 0.5f, 1, 3, 6});
  ExpectFloats(RunUnary(OpKind::kReluN1To1, x), {8},
               {-1, -1, -0.5f, 0, 0.5f, 1, 1, 1});
  ExpectFloats(RunUnary(OpKind::kRelu0To1, x), {8},
               {0, 0, 0, 0, 0.5f, 1, 1, 1});
  // NaN passes through every clamp (TFLite's comparisons are false for
  // NaN).
  EXPECT_TRUE(std::isnan(RunUnary(OpKind::kRelu, {kNaN}).Flat<float>()[0]));
  EXPECT_TRUE(std::isnan(RunUnary(OpKind::kRelu6, {kNaN}).Flat<float>()[0]));
}

TEST(ActivationTest, LeakyRelu) {
  // alpha 0.2: -5 -> -1, 0 -> 0, 3 -> 3. alpha 2 (> 1 allowed): -1 -> -2.
  ExpectFloats(
      RunUnary(OpKind::kLeakyRelu, {-5, 0, 3}, ir::LeakyReluOptions{0.2f}), {3},
      {-1, 0, 3});
  ExpectFloats(RunUnary(OpKind::kLeakyRelu, {-1, 1}, ir::LeakyReluOptions{2}),
               {2}, {-2, 1});
}

TEST(ActivationTest, HardSwish) {
  // x * relu6(x + 3) / 6: -4 -> 0, -3 -> 0, -1 -> -1*2/6 = -1/3, 0 -> 0,
  // 1 -> 1*4/6 = 2/3, 3 -> 3*6/6 = 3, 4 -> 4 (relu6 saturates at 6).
  ExpectFloats(RunUnary(OpKind::kHardSwish, {-4, -3, -1, 0, 1, 3, 4}), {7},
               {0, 0, -1.0f / 3, 0, 2.0f / 3, 3, 4});
}

TEST(ActivationTest, GeluExactAndApproximate) {
  // Exact: x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)):
  //   gelu(1) = 0.8413447, gelu(-1) = -0.1586553, gelu(-3) = -0.0040497.
  ExpectMatchesFormula(
      OpKind::kGelu, {0, 1, -1, 2, -3, 0.25f, -10, 10},
      [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); },
      1e-6f, ir::GeluOptions{false});
  // Approximate: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))):
  //   gelu~(1) = 0.5 (1 + tanh(0.7978846 * 1.044715)) = 0.8411920.
  const double k = std::sqrt(2 / 3.14159265358979323846);
  ExpectMatchesFormula(
      OpKind::kGelu, {0, 1, -1, 2, -3, 0.25f, -10, 10},
      [k](double x) {
        return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
      },
      1e-6f, ir::GeluOptions{true});
}

TEST(ActivationTest, Elu) {
  // x < 0: e^x - 1 (e^-1 - 1 = -0.6321206, e^-10 - 1 ~ -0.9999546); else x.
  ExpectFloats(RunUnary(OpKind::kElu, {-1, -10, 0, 2}), {4},
               {-0.63212056f, -0.9999546f, 0, 2});
}

TEST(MathTest, ExpLog) {
  // e^0 = 1, e^1 = 2.7182817, e^-1 = 0.36787945, e^2 = 7.389056.
  ExpectFloats(RunUnary(OpKind::kExp, {0, 1, -1, 2}), {4},
               {1, 2.7182817f, 0.36787945f, 7.389056f});
  // ln 1 = 0, ln e = 1, ln 0.5 = -0.6931472, ln 0 = -inf, ln -1 = NaN.
  ExpectFloats(RunUnary(OpKind::kLog, {1, 2.7182817f, 0.5f, 0, -1}), {5},
               {0, 1, -0.6931472f, -kInf, kNaN});
}

TEST(MathTest, SqrtRsqrtSquare) {
  ExpectFloats(RunUnary(OpKind::kSqrt, {4, 2, 0, 0.25f}), {4},
               {2, 1.4142135f, 0, 0.5f});
  // 1/sqrt: 4 -> 0.5, 0.25 -> 2, 2 -> 0.70710677, 0 -> +inf.
  ExpectFloats(RunUnary(OpKind::kRsqrt, {4, 0.25f, 2, 0}), {4},
               {0.5f, 2, 0.70710677f, kInf});
  ExpectFloats(RunUnary(OpKind::kSquare, {-3, 0.5f, 0}), {3}, {9, 0.25f, 0});
}

TEST(MathTest, SinCos) {
  // sin/cos at 0, pi/2, pi, -pi/6 (float pi is off by 8.7e-8, hence the
  // tiny non-zeros): sin = 0, 1, 0, -0.5; cos = 1, 0, -1, 0.8660254.
  const float pi = 3.14159265f;
  const std::vector<float> x = {0, pi / 2, pi, -pi / 6};
  ExpectFloats(RunUnary(OpKind::kSin, x), {4}, {0, 1, 0, -0.5f}, 1e-6f);
  ExpectFloats(RunUnary(OpKind::kCos, x), {4}, {1, 0, -1, 0.8660254f}, 1e-6f);
}

TEST(MathTest, FloorCeil) {
  const std::vector<float> x = {-1.5f, -0.5f, 0.5f, 1.5f, 2};
  ExpectFloats(RunUnary(OpKind::kFloor, x), {5}, {-2, -1, 0, 1, 2});
  ExpectFloats(RunUnary(OpKind::kCeil, x), {5}, {-1, 0, 1, 2, 2});
}

TEST(MathTest, RoundHalfToEven) {
  // TFLite rounds ties to the even neighbour (banker's rounding):
  // -2.5 -> -2, -1.5 -> -2, -0.5 -> 0, 0.5 -> 0, 1.5 -> 2, 2.5 -> 2;
  // non-ties to nearest: 2.4 -> 2, 2.6 -> 3, -2.6 -> -3; 2^23 + 1 has no
  // fraction and stays.
  ExpectFloats(RunUnary(OpKind::kRound, {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f,
                                         2.4f, 2.6f, -2.6f, 8388609.0f}),
               {10}, {-2, -2, 0, 0, 2, 2, 2, 3, -3, 8388609.0f});
}

TEST(MathTest, NegAbsSignFloatAndInt) {
  ExpectFloats(RunUnary(OpKind::kNeg, {1.5f, -2, 0}), {3}, {-1.5f, 2, 0});
  ExpectFloats(RunUnary(OpKind::kAbs, {1.5f, -2, -0.0f}), {3}, {1.5f, 2, 0});
  // sign: -1 below zero, 1 above, 0 at zero; NaN stays NaN (LiteRT and
  // TensorFlow agree on that).
  ExpectFloats(RunUnary(OpKind::kSign, {-3, 0, 2, kNaN}), {4},
               {-1, 0, 1, kNaN});
  auto neg = RunLike(OpKind::kNeg, {{I32({3}, {5, -7, 0})}}, DataType::kInt32);
  ASSERT_TRUE(neg.ok()) << neg.status();
  ExpectValues<int32_t>(*neg, DataType::kInt32, {3}, {-5, 7, 0});
  auto neg64 =
      RunLike(OpKind::kNeg, {{I64({1}, {-5000000000LL})}}, DataType::kInt64);
  ASSERT_TRUE(neg64.ok()) << neg64.status();
  ExpectValues<int64_t>(*neg64, DataType::kInt64, {1}, {5000000000LL});
  auto abs = RunLike(OpKind::kAbs, {{I32({3}, {5, -7, 0})}}, DataType::kInt32);
  ASSERT_TRUE(abs.ok()) << abs.status();
  ExpectValues<int32_t>(*abs, DataType::kInt32, {3}, {5, 7, 0});
  auto sign =
      RunLike(OpKind::kSign, {{I32({3}, {5, -7, 0})}}, DataType::kInt32);
  ASSERT_TRUE(sign.ok()) << sign.status();
  ExpectValues<int32_t>(*sign, DataType::kInt32, {3}, {1, -1, 0});
}

TEST(UnaryTest, TypeErrors) {
  // Float-only ops reject int32; ABS rejects int64; output type must match.
  auto exp = RunLike(OpKind::kExp, {{I32({1}, {1})}}, DataType::kInt32);
  EXPECT_EQ(exp.status().code(), absl::StatusCode::kUnimplemented);
  auto abs = RunLike(OpKind::kAbs, {{I64({1}, {1})}}, DataType::kInt64);
  EXPECT_EQ(abs.status().code(), absl::StatusCode::kUnimplemented);
  auto relu = RunLike(OpKind::kRelu, {{F32({1}, {1})}}, DataType::kInt32);
  EXPECT_EQ(relu.status().code(), absl::StatusCode::kInvalidArgument);
}

// TANH and LOGISTIC over many chunks: identical bits for 1 and 4 threads,
// and the shape passes through (rank 4).
TEST(UnaryTest, ParallelChunksAreDeterministic) {
  std::vector<float> x(3 * 50000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(static_cast<int>(i % 2001) - 1000) / 97.0f;
  }
  for (OpKind kind : {OpKind::kTanh, OpKind::kLogistic, OpKind::kHardSwish}) {
    auto one =
        RunLike(kind, {{F32({3, 50, 100, 10}, x)}}, DataType::kFloat32, {}, 1);
    auto four =
        RunLike(kind, {{F32({3, 50, 100, 10}, x)}}, DataType::kFloat32, {}, 4);
    ASSERT_TRUE(one.ok() && four.ok());
    EXPECT_EQ(one->shape(), (std::vector<int64_t>{3, 50, 100, 10}));
    EXPECT_TRUE(*one == *four) << ir::GetOpInfo(kind).name;
  }
}

}  // namespace
}  // namespace qforge::testing::elementwise
