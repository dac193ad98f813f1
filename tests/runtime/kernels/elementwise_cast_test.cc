// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CAST between the supported types and DEQUANTIZE (float16, int8/uint8/
// int16/int4 per tensor and per axis). Expected values derived by hand in
// the comments.
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

absl::StatusOr<ir::HostTensor> Cast(ir::HostTensor in, DataType to) {
  ir::CastOptions opts{in.type(), to};
  return RunLike(OpKind::kCast, {{std::move(in)}}, to, opts);
}

TEST(CastTest, FloatToInt32TruncatesAndSaturates) {
  // Truncation toward zero: 1.9 -> 1, -1.9 -> -1. TFLite saturates: 3e9 ->
  // INT32_MAX, -3e9 -> INT32_MIN, NaN -> INT32_MAX (NaN <= max is false).
  auto out =
      Cast(F32({6}, {1.9f, -1.9f, 0, 3e9f, -3e9f, kNaN}), DataType::kInt32);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectValues<int32_t>(*out, DataType::kInt32, {6},
                        {1, -1, 0, std::numeric_limits<int32_t>::max(),
                         std::numeric_limits<int32_t>::min(),
                         std::numeric_limits<int32_t>::max()});
}

TEST(CastTest, FloatToNarrowInts) {
  // int16 and uint8 are clamped to their range, then truncated.
  auto i16 = Cast(F32({3}, {40000.5f, -40000, 12.7f}), DataType::kInt16);
  ASSERT_TRUE(i16.ok()) << i16.status();
  ExpectValues<int16_t>(*i16, DataType::kInt16, {3}, {32767, -32768, 12});
  auto u8 = Cast(F32({3}, {300, -5, 7.9f}), DataType::kUInt8);
  ASSERT_TRUE(u8.ok()) << u8.status();
  ExpectValues<uint8_t>(*u8, DataType::kUInt8, {3}, {255, 0, 7});
  // int8 is a plain C++ cast in TFLite: via int32, then wrap (200 -> -56).
  auto i8 = Cast(F32({3}, {100.9f, -128.5f, 200}), DataType::kInt8);
  ASSERT_TRUE(i8.ok()) << i8.status();
  ExpectValues<int8_t>(*i8, DataType::kInt8, {3}, {100, -128, -56});
  // int64: 2^40 + 0.5 is not a float; 1099511627776 (2^40) is exact.
  auto i64 = Cast(F32({2}, {1099511627776.0f, -2.5f}), DataType::kInt64);
  ASSERT_TRUE(i64.ok()) << i64.status();
  ExpectValues<int64_t>(*i64, DataType::kInt64, {2}, {1099511627776LL, -2});
}

TEST(CastTest, IntConversions) {
  // 2^24 + 1 is not a float: rounds to nearest even, 16777216.
  auto f = Cast(I32({2}, {16777217, -3}), DataType::kFloat32);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {2}, {16777216.0f, -3}, 0);
  // int64 -> int32 keeps the low 32 bits: 2^32 + 1 -> 1.
  auto w = Cast(I64({2}, {4294967297LL, -7}), DataType::kInt32);
  ASSERT_TRUE(w.ok()) << w.status();
  ExpectValues<int32_t>(*w, DataType::kInt32, {2}, {1, -7});
  auto l = Cast(I32({2}, {-1, 2147483647}), DataType::kInt64);
  ASSERT_TRUE(l.ok()) << l.status();
  ExpectValues<int64_t>(*l, DataType::kInt64, {2}, {-1, 2147483647});
}

TEST(CastTest, Bool) {
  // x != 0: 0 and -0 are false, 0.1 and NaN true.
  auto fb = Cast(F32({4}, {0, -0.0f, 0.1f, kNaN}), DataType::kBool);
  ASSERT_TRUE(fb.ok()) << fb.status();
  ExpectBools(*fb, {4}, {0, 0, 1, 1});
  auto ib = Cast(I32({3}, {0, 5, -1}), DataType::kBool);
  ASSERT_TRUE(ib.ok()) << ib.status();
  ExpectBools(*ib, {3}, {0, 1, 1});
  // bool -> 0 / 1.
  auto bf = Cast(Bool({2}, {0, 1}), DataType::kFloat32);
  ASSERT_TRUE(bf.ok()) << bf.status();
  ExpectFloats(*bf, {2}, {0, 1});
  auto bi = Cast(Bool({2}, {1, 0}), DataType::kInt64);
  ASSERT_TRUE(bi.ok()) << bi.status();
  ExpectValues<int64_t>(*bi, DataType::kInt64, {2}, {1, 0});
}

TEST(CastTest, Float16) {
  // 1 -> 0x3C00; 65520 is the tie above the largest half 65504 -> inf
  // 0x7C00; 0.1 -> 0x2E66 (0.0999755859375, the nearest half).
  auto h = Cast(F32({3}, {1, 65520, 0.1f}), DataType::kFloat16);
  ASSERT_TRUE(h.ok()) << h.status();
  ExpectValues<uint16_t>(*h, DataType::kFloat16, {3}, {0x3C00, 0x7C00, 0x2E66});
  // 0x4170 = 2^1 * (1 + 0x170/1024) = 2.71875 -> int32 2; 0xC500 = -5.
  auto i = Cast(Typed<uint16_t>(DataType::kFloat16, {2}, {0x4170, 0xC500}),
                DataType::kInt32);
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {2}, {2, -5});
  auto f = Cast(Typed<uint16_t>(DataType::kFloat16, {2}, {0x4170, 0x7C00}),
                DataType::kFloat32);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {2}, {2.71875f, kInf}, 0);
}

TEST(CastTest, UnsupportedType) {
  auto s = RunLike(OpKind::kCast, {{F32({1}, {1})}}, DataType::kFloat64);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kUnimplemented);
}

ir::Quantization PerTensor(float scale, int64_t zero_point) {
  ir::Quantization q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

ir::Quantization PerAxis(std::vector<float> scales, std::vector<int64_t> zps,
                         int axis) {
  ir::Quantization q;
  q.scale = std::move(scales);
  q.zero_point = std::move(zps);
  q.quantized_dimension = axis;
  return q;
}

absl::StatusOr<ir::HostTensor> Dequantize(ir::HostTensor in,
                                          std::optional<ir::Quantization> q,
                                          bool constant = true) {
  return RunLike(OpKind::kDequantize, {Arg(std::move(in), constant, q)},
                 DataType::kFloat32);
}

TEST(DequantizeTest, Float16Weights) {
  // 0x3C00 = 1, 0xC000 = -2, 0x3555 = 1365/4096 = 0.333251953, 0x0001 =
  // 2^-24 (smallest subnormal).
  auto out = Dequantize(
      Typed<uint16_t>(DataType::kFloat16, {4}, {0x3C00, 0xC000, 0x3555, 1}),
      std::nullopt);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {4}, {1, -2, 0.333251953f, 5.9604645e-8f}, 0);
}

TEST(DequantizeTest, PerTensor) {
  // int8, scale 0.5, zero point -1: 0.5 * (q + 1): -128 -> -63.5, 0 -> 0.5,
  // 127 -> 64.
  auto i8 = Dequantize(Typed<int8_t>(DataType::kInt8, {3}, {-128, 0, 127}),
                       PerTensor(0.5f, -1));
  ASSERT_TRUE(i8.ok()) << i8.status();
  ExpectFloats(*i8, {3}, {-63.5f, 0.5f, 64});
  // uint8, scale 0.1, zero point 128: 0 -> -12.8, 128 -> 0, 255 -> 12.7.
  auto u8 = Dequantize(Typed<uint8_t>(DataType::kUInt8, {3}, {0, 128, 255}),
                       PerTensor(0.1f, 128), /*constant=*/false);
  ASSERT_TRUE(u8.ok()) << u8.status();
  ExpectFloats(*u8, {3}, {-12.8f, 0, 12.7f});
  // int16, scale 2^-10, zero point 0: 1024 -> 1, -32768 -> -32.
  auto i16 = Dequantize(Typed<int16_t>(DataType::kInt16, {2}, {1024, -32768}),
                        PerTensor(1.0f / 1024, 0));
  ASSERT_TRUE(i16.ok()) << i16.status();
  ExpectFloats(*i16, {2}, {1, -32});
}

TEST(DequantizeTest, PerAxis) {
  // Axis 0 of [2,3]: row 0 scale 0.5 zp 0, row 1 scale 2 zp 1:
  // [2,4,-6] -> [1,2,-3]; [1,3,-1] -> [0,4,-4].
  auto a0 =
      Dequantize(Typed<int8_t>(DataType::kInt8, {2, 3}, {2, 4, -6, 1, 3, -1}),
                 PerAxis({0.5f, 2}, {0, 1}, 0));
  ASSERT_TRUE(a0.ok()) << a0.status();
  ExpectFloats(*a0, {2, 3}, {1, 2, -3, 0, 4, -4});
  // Axis 1 of [2,3]: column scales [1, 0.5, 0.25], zero points 0:
  // [4,4,4] -> [4,2,1]; [8,-8,0] -> [8,-4,0].
  auto a1 =
      Dequantize(Typed<int8_t>(DataType::kInt8, {2, 3}, {4, 4, 4, 8, -8, 0}),
                 PerAxis({1, 0.5f, 0.25f}, {0, 0, 0}, 1));
  ASSERT_TRUE(a1.ok()) << a1.status();
  ExpectFloats(*a1, {2, 3}, {4, 2, 1, 8, -4, 0});
}

TEST(DequantizeTest, Int4Packed) {
  // Values [1, -2, 7, -8, 3], two per byte, low nibble first:
  // byte 0 = 1 | (-2 & 15) << 4 = 0xE1, byte 1 = 7 | 8 << 4 = 0x87,
  // byte 2 = 3. Scale 0.5, zero point 0.
  ir::HostTensor packed(DataType::kInt4, {5});
  ASSERT_EQ(packed.ByteSize(), 3u);
  packed.bytes() = {0xE1, 0x87, 0x03};
  auto out = Dequantize(packed, PerTensor(0.5f, 0));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {5}, {0.5f, -1, 3.5f, -4, 1.5f});
}

TEST(DequantizeTest, Errors) {
  // No quantization parameters on an int8 input.
  auto none =
      Dequantize(Typed<int8_t>(DataType::kInt8, {2}, {1, 2}), std::nullopt);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kInvalidArgument);
  // Three scales for a dim of 2.
  auto count = Dequantize(Typed<int8_t>(DataType::kInt8, {2}, {1, 2}),
                          PerAxis({1, 1, 1}, {0, 0, 0}, 0));
  EXPECT_EQ(count.status().code(), absl::StatusCode::kInvalidArgument);
  // quantized_dimension out of range.
  auto axis = Dequantize(Typed<int8_t>(DataType::kInt8, {2}, {1, 2}),
                         PerAxis({1, 1}, {0, 0}, 3));
  EXPECT_EQ(axis.status().code(), absl::StatusCode::kInvalidArgument);
  // int16 quantization is symmetric: a non-zero zero point is rejected.
  auto i16 = Dequantize(Typed<int16_t>(DataType::kInt16, {2}, {1, 2}),
                        PerTensor(0.5f, 3));
  EXPECT_EQ(i16.status().code(), absl::StatusCode::kInvalidArgument);
  // float32 input is not dequantizable.
  auto f = Dequantize(F32({1}, {1}), std::nullopt);
  EXPECT_EQ(f.status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace qforge::testing::elementwise
