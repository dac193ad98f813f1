// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SOFTMAX, LOG_SOFTMAX and L2_NORMALIZATION on hand-derived cases (each
// says how).
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

absl::StatusOr<std::vector<float>> RunNorm(ir::OpKind kind,
                                           std::vector<int32_t> shape,
                                           const std::vector<float>& in,
                                           ir::Options options = {},
                                           int threads = 1) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, shape);
  const int y = m.Output(ir::DataType::kFloat32, shape);
  m.Op(kind, {x}, {y}, std::move(options));
  auto out =
      m.Run({MakeTensor<float>({shape.begin(), shape.end()}, in)}, threads);
  if (!out.ok()) return out.status();
  return Values<float>((*out)[0]);
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want,
                double tol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
        << "element " << i;
  }
}

const double kLn2 = std::log(2.0), kLn3 = std::log(3.0);

TEST(SoftmaxTest, ExpRatios) {
  // exp(0), exp(ln 2), exp(ln 3) = 1, 2, 3; divided by 6.
  auto out = RunNorm(ir::OpKind::kSoftmax, {1, 3},
                     {0.f, static_cast<float>(kLn2), static_cast<float>(kLn3)},
                     ir::SoftmaxOptions{1.f});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1.0 / 6, 1.0 / 3, 1.0 / 2});
}

TEST(SoftmaxTest, BetaScalesInputs) {
  // beta 2 on x/2 gives the previous case.
  auto out =
      RunNorm(ir::OpKind::kSoftmax, {3},
              {0.f, static_cast<float>(kLn2 / 2), static_cast<float>(kLn3 / 2)},
              ir::SoftmaxOptions{2.f});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {1.0 / 6, 1.0 / 3, 1.0 / 2});
}

TEST(SoftmaxTest, LargeInputsAreStableAndRowsIndependent) {
  // Row {1000, 1000}: exp without subtracting the max would overflow;
  // softmax is {1/2, 1/2}. Row {-1, -1} likewise.
  auto out = RunNorm(ir::OpKind::kSoftmax, {2, 1, 2},
                     {1000.f, 1000.f, -1.f, -1.f}, ir::SoftmaxOptions{1.f});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {0.5, 0.5, 0.5, 0.5});
}

TEST(LogSoftmaxTest, LogOfRatios) {
  // log(1/6), log(1/3), log(1/2); and {1000, 1000} -> -ln 2 each.
  auto out = RunNorm(ir::OpKind::kLogSoftmax, {2, 3},
                     {0.f, static_cast<float>(kLn2), static_cast<float>(kLn3),
                      1000.f, 1000.f, 1000.f});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {-std::log(6.0), -kLn3, -kLn2, -kLn3, -kLn3, -kLn3});
}

TEST(L2NormalizationTest, DividesByRowNorm) {
  // {3,4}/5 and {0,5}/5.
  auto out = RunNorm(ir::OpKind::kL2Normalization, {2, 2}, {3, 4, 0, 5});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {0.6, 0.8, 0.0, 1.0});
}

TEST(L2NormalizationTest, EpsilonFloorsTheNorm) {
  // A zero row stays zero (norm floored to 1e-6, no NaN); a row of norm
  // 1e-7 is divided by 1e-6, not normalized to 1.
  auto out =
      RunNorm(ir::OpKind::kL2Normalization, {2, 2}, {0.f, 0.f, 1e-7f, 0.f});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {0.0, 0.0, 0.1, 0.0}, 1e-5);
}

TEST(NormTest, RejectsWhatTfliteRejects) {
  // L2 allows rank <= 4 and no fused activation.
  EXPECT_EQ(RunNorm(ir::OpKind::kL2Normalization, {1, 1, 1, 1, 2}, {1, 2})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  ir::ActivationOptions relu;
  relu.activation = ir::Activation::kRelu;
  relu.table = ir::ActivationOptions::Table::kL2Norm;
  EXPECT_EQ(
      RunNorm(ir::OpKind::kL2Normalization, {2}, {1, 2}, relu).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunNorm(ir::OpKind::kSoftmax, {}, {1.f}, ir::SoftmaxOptions{1.f})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  OpModel m;
  const int x = m.Input(ir::DataType::kInt8, {4});
  const int y = m.Output(ir::DataType::kInt8, {4});
  m.Op(ir::OpKind::kSoftmax, {x}, {y}, ir::SoftmaxOptions{1.f});
  auto out = m.Run({MakeTensor<int8_t>({4}, {1, 2, 3, 4})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented)
      << out.status();
}

TEST(NormTest, ThreadCountDoesNotChangeResults) {
  std::vector<float> in(513 * 77);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i))) * 9.f;
  }
  for (ir::OpKind kind : {ir::OpKind::kSoftmax, ir::OpKind::kLogSoftmax,
                          ir::OpKind::kL2Normalization}) {
    ir::Options opts;
    if (kind != ir::OpKind::kL2Normalization) opts = ir::SoftmaxOptions{0.7f};
    auto one = RunNorm(kind, {513, 77}, in, opts, 1);
    auto four = RunNorm(kind, {513, 77}, in, opts, 4);
    ASSERT_TRUE(one.ok() && four.ok());
    EXPECT_EQ(*one, *four);
  }
}

}  // namespace
}  // namespace qforge
