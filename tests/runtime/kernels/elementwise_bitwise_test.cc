// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BITWISE_XOR and RIGHT_SHIFT (elementwise/bitwise.cc). Expected values are
// worked out by hand in the comments.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "tests/runtime/kernels/elementwise_test_util.h"

namespace qforge::testing::elementwise {
namespace {

using ir::DataType;
using ir::OpKind;

template <typename T>
std::vector<T> ValuesOf(const ir::HostTensor& t) {
  auto s = t.Flat<T>();
  return std::vector<T>(s.begin(), s.end());
}

TEST(BitwiseTest, XorInt32SameShape) {
  // 0b1100 ^ 0b1010 = 0b0110 (6); -1 ^ 5 = ~5 = -6; 0 ^ 7 = 7.
  auto out = RunLike(OpKind::kBitwiseXor,
                     {{I32({3}, {12, -1, 0})}, {I32({3}, {10, 5, 7})}},
                     DataType::kInt32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(ValuesOf<int32_t>(*out), (std::vector<int32_t>{6, -6, 7}));
}

TEST(BitwiseTest, XorUint8Broadcasts) {
  // [2,2] ^ [2] (each row against {0xFF, 0x0F}):
  // 0x12^0xFF=0xED (237), 0x34^0x0F=0x3B (59), 0x00^0xFF=255, 0xF0^0x0F=255.
  auto out = RunLike(OpKind::kBitwiseXor,
                     {{MakeTensor<uint8_t>({2, 2}, {0x12, 0x34, 0x00, 0xF0})},
                      {MakeTensor<uint8_t>({2}, {0xFF, 0x0F})}},
                     DataType::kUInt8);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(ValuesOf<uint8_t>(*out), (std::vector<uint8_t>{237, 59, 255, 255}));
}

TEST(BitwiseTest, RightShiftIsArithmeticAndClampsTheShift) {
  // int8: -128 >> 3 = -16 (arithmetic); 100 >> 2 = 25; a shift of 9 clamps
  // to 7: -1 >> 7 = -1; a shift of -3 clamps to 0: 5 >> 0 = 5.
  auto out = RunLike(OpKind::kRightShift,
                     {{MakeTensor<int8_t>({4}, {-128, 100, -1, 5})},
                      {MakeTensor<int8_t>({4}, {3, 2, 9, -3})}},
                     DataType::kInt8);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(ValuesOf<int8_t>(*out), (std::vector<int8_t>{-16, 25, -1, 5}));
}

TEST(BitwiseTest, RightShiftInt16) {
  // -32768 >> 15 = -1 (arithmetic), 300 >> 1 = 150.
  auto s16 = RunLike(OpKind::kRightShift,
                     {{MakeTensor<int16_t>({2}, {-32768, 300})},
                      {MakeTensor<int16_t>({2}, {15, 1})}},
                     DataType::kInt16);
  ASSERT_TRUE(s16.ok()) << s16.status();
  EXPECT_EQ(ValuesOf<int16_t>(*s16), (std::vector<int16_t>{-1, 150}));
}

TEST(BitwiseTest, FloatAndMixedTypesAreRefused) {
  auto f =
      RunLike(OpKind::kBitwiseXor, {{F32({2}, {1, 2})}, {F32({2}, {3, 4})}},
              DataType::kFloat32);
  EXPECT_FALSE(f.ok());
  auto mixed = RunLike(OpKind::kRightShift,
                       {{I32({2}, {1, 2})}, {MakeTensor<int8_t>({2}, {1, 1})}},
                       DataType::kInt32);
  EXPECT_FALSE(mixed.ok());
}

}  // namespace
}  // namespace qforge::testing::elementwise
