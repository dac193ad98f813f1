// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RFFT2D and COMPLEX_ABS on hand-derived transforms. For
//   x = [[1, 2, 3, 4],
//        [1, 0, -1, 0]]
// the row DFTs (W = 4, kernel (-i)^(k n)) keep frequencies 0..2:
//   row 0: [10, -2 + 2i, -2],  row 1: [0, 2, 0];
// the column DFT (H = 2) is their sum and difference:
//   out = [[10, 2i, -2], [10, -4 + 2i, -2]].
// fft_length {2, 2} crops the rows to [1, 2] and [1, 0]: rows [3, -1] and
// [1, 1], out = [[4, 0], [2, -2]]. fft_length {4, 4} zero-pads two rows:
//   out[k1, k2] = row0[k2] + row1[k2] (-i)^k1, so column 1 is
//   2i, -2, -4 + 2i, -2 + 4i and columns 0 and 2 are 10 and -2 throughout.
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;
using C = std::complex<float>;

const std::vector<float> kX = {1, 2, 3, 4, 1, 0, -1, 0};

std::vector<C> ComplexValues(const ir::HostTensor& t) {
  std::vector<C> v(t.ByteSize() / sizeof(C));
  std::memcpy(v.data(), t.data(), v.size() * sizeof(C));
  return v;
}

// The transform is computed in double; twiddles such as exp(-i pi / 2) are
// not exact there, so values are compared to 1e-6.
void ExpectNear(const std::vector<C>& got, const std::vector<C>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_LE(std::abs(got[i] - want[i]), 1e-6f)
        << "element " << i << ": " << got[i] << " vs " << want[i];
  }
}

absl::StatusOr<std::vector<C>> Rfft2d(std::vector<int32_t> in_shape,
                                      const std::vector<float>& x,
                                      std::vector<int32_t> fft_length,
                                      std::vector<int32_t> out_shape) {
  OpModel m;
  const int in = m.Input(ir::DataType::kFloat32, in_shape);
  const int len = m.Constant<int32_t>({2}, fft_length);
  const int out = m.Output(ir::DataType::kComplex64, out_shape);
  m.Op(ir::OpKind::kRfft2d, {in, len}, {out});
  auto r = m.Run({MakeTensor<float>({in_shape.begin(), in_shape.end()}, x)});
  if (!r.ok()) return r.status();
  EXPECT_EQ((*r)[0].shape(),
            std::vector<int64_t>(out_shape.begin(), out_shape.end()));
  return ComplexValues((*r)[0]);
}

TEST(SpectralTest, Rfft2dHandDerived) {
  auto out = Rfft2d({2, 4}, kX, {2, 4}, {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectNear(*out, {{10, 0}, {0, 2}, {-2, 0}, {10, 0}, {-4, 2}, {-2, 0}});
}

TEST(SpectralTest, Rfft2dCropsAndPads) {
  auto cropped = Rfft2d({2, 4}, kX, {2, 2}, {2, 2});
  ASSERT_TRUE(cropped.ok()) << cropped.status();
  ExpectNear(*cropped, {{4, 0}, {0, 0}, {2, 0}, {-2, 0}});
  auto padded = Rfft2d({2, 4}, kX, {4, 4}, {4, 3});
  ASSERT_TRUE(padded.ok()) << padded.status();
  ExpectNear(*padded, {{10, 0},
                       {0, 2},
                       {-2, 0},  //
                       {10, 0},
                       {-2, 0},
                       {-2, 0},  //
                       {10, 0},
                       {-4, 2},
                       {-2, 0},  //
                       {10, 0},
                       {-2, 4},
                       {-2, 0}});
}

// Each slice over the outer dims is its own transform: the second slice is
// twice the first, and so is its transform.
TEST(SpectralTest, Rfft2dSlicesOuterDims) {
  std::vector<float> x = kX;
  for (float v : kX) x.push_back(2 * v);
  auto out = Rfft2d({2, 2, 4}, x, {2, 4}, {2, 2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 12u);
  const std::vector<C> first(out->begin(), out->begin() + 6);
  std::vector<C> doubled;
  for (const C& v : first) doubled.push_back(2.0f * v);
  ExpectNear(first, {{10, 0}, {0, 2}, {-2, 0}, {10, 0}, {-4, 2}, {-2, 0}});
  ExpectNear({out->begin() + 6, out->end()}, doubled);
}

TEST(SpectralTest, Rfft2dRefusesLengthsNotPowersOfTwo) {
  auto out = Rfft2d({2, 4}, kX, {2, 3}, {2, 2});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().ToString().find("powers of two"), std::string::npos)
      << out.status();
}

// 2^24 x 2^24 would need 2^48 working values: an error, not an allocation.
TEST(SpectralTest, Rfft2dRefusesAbsurdLengths) {
  auto out = Rfft2d({2, 4}, kX, {1 << 24, 1 << 24}, {2, 2});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().ToString().find("2^26"), std::string::npos)
      << out.status();
}

// |3 + 4i| = 5, |-4 + 2i| = sqrt(20), |0| = 0.
TEST(SpectralTest, ComplexAbs) {
  OpModel m;
  const int in = m.Input(ir::DataType::kComplex64, {3});
  const int out = m.Output(ir::DataType::kFloat32, {3});
  m.Op(ir::OpKind::kComplexAbs, {in}, {out});
  ir::HostTensor z(ir::DataType::kComplex64, {3});
  const std::vector<C> values = {{3, 4}, {-4, 2}, {0, 0}};
  std::memcpy(z.data(), values.data(), sizeof(C) * values.size());
  auto r = m.Run({z});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> got = Values<float>((*r)[0]);
  EXPECT_EQ(got[0], 5.0f);
  EXPECT_FLOAT_EQ(got[1], std::sqrt(20.0f));
  EXPECT_EQ(got[2], 0.0f);
}

}  // namespace
}  // namespace qforge
