// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MATRIX_SET_DIAG, with expected values derived by hand in the comments:
// element (i, i) of each innermost matrix comes from the diagonal, every
// other element from the input (TFLite's matrix_set_diag.cc). The quantized
// forms copy raw values, so they are checked on raw integers, and a form
// whose diagonal is on other parameters than the output is refused as
// LiteRT would compute garbage for it.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "tests/runtime/kernels/integer_test_util.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::Iota;
using testing::MakeTensor;
using testing::OpModel;
using testing::Values;
using testing::integer_test::QInput;
using testing::integer_test::QOutput;
using DT = ir::DataType;

// Two 3 x 4 matrices (more columns than rows): 3 diagonal values each.
//   input 0..11 | 12..23, diagonal [-1 -2 -3] [-4 -5 -6]
//   matrix 0: (0,0)=0->-1, (1,1)=5->-2, (2,2)=10->-3
//   matrix 1: (0,0)=12->-4, (1,1)=17->-5, (2,2)=22->-6
TEST(MatrixSetDiag, BatchOfWideMatrices) {
  OpModel m;
  const int x = m.Input(DT::kFloat32, {2, 3, 4});
  const int d = m.Input(DT::kFloat32, {2, 3});
  const int y = m.Output(DT::kFloat32, {2, 3, 4});
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run({MakeTensor<float>({2, 3, 4}, Iota(24)),
                    MakeTensor<float>({2, 3}, {-1, -2, -3, -4, -5, -6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(
      Values<float>((*out)[0]),
      (std::vector<float>{-1, 1,  2,  3,  4,  -2, 6,  7,  8,  9,  -3, 11,
                          -4, 13, 14, 15, 16, -5, 18, 19, 20, 21, -6, 23}));
}

// One 3 x 2 matrix (more rows than columns): 2 diagonal values; row 2 is
// untouched. input [[1 2] [3 4] [5 6]], diagonal [9 8] -> [[9 2] [3 8] [5 6]].
TEST(MatrixSetDiag, TallMatrixWithConstantDiagonal) {
  OpModel m;
  const int x = m.Input(DT::kFloat32, {3, 2});
  const int d = m.Constant<float>({2}, {9, 8});
  const int y = m.Output(DT::kFloat32, {3, 2});
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run({MakeTensor<float>({3, 2}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{9, 2, 3, 8, 5, 6}));
}

// int64 (TFLite's kernel moves it as itself): 2 x 2, diagonal [7 7].
TEST(MatrixSetDiag, Int64) {
  OpModel m;
  const int x = m.Input(DT::kInt64, {2, 2});
  const int d = m.Input(DT::kInt64, {2});
  const int y = m.Output(DT::kInt64, {2, 2});
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run({MakeTensor<int64_t>({2, 2}, {1, 2, 3, 4}),
                    MakeTensor<int64_t>({2}, {7, 7})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int64_t>((*out)[0]), (std::vector<int64_t>{7, 2, 3, 7}));
}

// int8 on one scale and zero point (0.5, -3): raw values are copied, so
// the raw output is the raw input with the raw diagonal on (i, i).
TEST(MatrixSetDiag, Int8SharedParamsCopiesRawValues) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 2}, 0.5f, -3);
  const int d = QInput(m, DT::kInt8, {1, 2}, 0.5f, -3);
  const int y = QOutput(m, DT::kInt8, {1, 2, 2}, 0.5f, -3);
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run({MakeTensor<int8_t>({1, 2, 2}, {-128, 5, 6, 127}),
                    MakeTensor<int8_t>({1, 2}, {-3, 100})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int8_t>((*out)[0]), (std::vector<int8_t>{-3, 5, 6, 100}));
}

// int16x8 form (zero point 0): 2 x 3, diagonal [-32768 32767].
TEST(MatrixSetDiag, Int16) {
  OpModel m;
  const int x = QInput(m, DT::kInt16, {2, 3}, 1.0f / 4096, 0);
  const int d = QInput(m, DT::kInt16, {2}, 1.0f / 4096, 0);
  const int y = QOutput(m, DT::kInt16, {2, 3}, 1.0f / 4096, 0);
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run({MakeTensor<int16_t>({2, 3}, {1, 2, 3, 4, 5, 6}),
                    MakeTensor<int16_t>({2}, {-32768, 32767})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int16_t>((*out)[0]),
            (std::vector<int16_t>{-32768, 2, 3, 4, 32767, 6}));
}

// TFLite copies the diagonal's raw int8 values whatever its parameters: a
// diagonal on scale 1.0 written into an output on 0.5 would double. LiteRT
// runs it; qforge refuses it as a form LiteRT computes garbage for.
TEST(MatrixSetDiag, Int8DiagonalOnOtherParamsIsRefused) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {2, 2}, 0.5f, 0);
  const int d = QInput(m, DT::kInt8, {2}, 1.0f, 0);
  const int y = QOutput(m, DT::kInt8, {2, 2}, 0.5f, 0);
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run({MakeTensor<int8_t>({2, 2}, {1, 2, 3, 4}),
                    MakeTensor<int8_t>({2}, {1, 1})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("computes garbage"),
            std::string::npos)
      << out.status();
  EXPECT_NE(std::string(out.status().message()).find("diagonal 't1'"),
            std::string::npos)
      << out.status();
  EXPECT_NE(std::string(out.status().message()).find("matrix_set_diag.cc"),
            std::string::npos)
      << out.status();
}

// TFLite's Prepare does not check the diagonal's shape (its Eval reads
// past a short one): [2, 2] needs a diagonal of [2].
TEST(MatrixSetDiag, DiagonalOfTheWrongShapeIsAnError) {
  OpModel m;
  const int x = m.Input(DT::kFloat32, {2, 2});
  const int d = m.Input(DT::kFloat32, {1});
  const int y = m.Output(DT::kFloat32, {2, 2});
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run(
      {MakeTensor<float>({2, 2}, {1, 2, 3, 4}), MakeTensor<float>({1}, {0})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("needs [2]"),
            std::string::npos)
      << out.status();
}

TEST(MatrixSetDiag, VectorInputIsAnError) {
  OpModel m;
  const int x = m.Input(DT::kFloat32, {3});
  const int d = m.Input(DT::kFloat32, {1});
  const int y = m.Output(DT::kFloat32, {3});
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out =
      m.Run({MakeTensor<float>({3}, {1, 2, 3}), MakeTensor<float>({1}, {0})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(std::string(out.status().message()).find("rank >= 2"),
            std::string::npos)
      << out.status();
}

// TFLite's kernel moves other types as float32 elements (garbage for bool,
// 1 byte each): unsupported here.
TEST(MatrixSetDiag, BoolIsUnsupported) {
  OpModel m;
  const int x = m.Input(DT::kBool, {2, 2});
  const int d = m.Input(DT::kBool, {2});
  const int y = m.Output(DT::kBool, {2, 2});
  m.Op(ir::OpKind::kMatrixSetDiag, {x, d}, {y});
  auto out = m.Run(
      {ir::HostTensor(DT::kBool, {2, 2}), ir::HostTensor(DT::kBool, {2})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnimplemented)
      << out.status();
}

}  // namespace
}  // namespace qforge
