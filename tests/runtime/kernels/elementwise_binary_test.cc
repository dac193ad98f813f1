// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Broadcasting binary kernels: ADD SUB MUL DIV MAXIMUM MINIMUM POW
// SQUARED_DIFFERENCE FLOOR_DIV FLOOR_MOD PRELU. Expected values are worked
// out by hand in the comments; broadcast cases spell out NumPy's rule
// (align shapes on the right, a size-1 dim repeats) as explicit loops.
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

using ir::Activation;
using ir::DataType;
using ir::OpKind;

ir::Options AddOpts(Activation a = Activation::kNone) {
  return ir::AddSubOptions{a, true, false};
}
ir::Options SubOpts(Activation a = Activation::kNone) {
  return ir::AddSubOptions{a, true, true};
}
ir::Options MulOpts(Activation a = Activation::kNone) {
  return ir::ActivationOptions{a, ir::ActivationOptions::Table::kMul};
}
ir::Options DivOpts(Activation a = Activation::kNone) {
  return ir::ActivationOptions{a, ir::ActivationOptions::Table::kDiv};
}

TEST(AddTest, SameShape) {
  // 1+0.5=1.5, 2.5-0.5=2, -3+3=0, 4-8=-4.
  auto out = RunLike(
      OpKind::kAdd,
      {{F32({2, 2}, {1, 2.5f, -3, 4})}, {F32({2, 2}, {0.5f, -0.5f, 3, -8})}},
      DataType::kFloat32, AddOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {2, 2}, {1.5f, 2, 0, -4});
}

TEST(AddTest, ScalarOperandOnEitherSide) {
  // [2,3] + scalar 10 and scalar 10 + [2,3]: 10 is added to every element.
  auto a = RunOp(OpKind::kAdd,
                 {{F32({2, 3}, {0, 1, 2, 3, 4, 5})}, {F32({}, {10}), true}},
                 DataType::kFloat32, {2, 3}, AddOpts());
  ASSERT_TRUE(a.ok()) << a.status();
  ExpectFloats(*a, {2, 3}, {10, 11, 12, 13, 14, 15});
  auto b = RunOp(OpKind::kAdd,
                 {{F32({}, {10}), true}, {F32({2, 3}, {0, 1, 2, 3, 4, 5})}},
                 DataType::kFloat32, {2, 3}, AddOpts());
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectFloats(*b, {2, 3}, {10, 11, 12, 13, 14, 15});
}

TEST(AddTest, PerChannelBias) {
  // [1,2,2,3] + [3]: element i (channel i % 3) gets 100 * (channel + 1).
  std::vector<float> x(12), want(12);
  for (int i = 0; i < 12; ++i) {
    x[i] = static_cast<float>(i);
    want[i] = static_cast<float>(i + 100 * (i % 3 + 1));
  }
  auto out = RunOp(OpKind::kAdd,
                   {{F32({1, 2, 2, 3}, x)}, {F32({3}, {100, 200, 300}), true}},
                   DataType::kFloat32, {1, 2, 2, 3}, AddOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {1, 2, 2, 3}, want);
}

TEST(AddTest, BothOperandsBroadcast) {
  // [2,1,3] + [4,1] -> [2,4,3]: out[a][b][c] = x[a][0][c] + y[b][0].
  // x = 10*a + c, y = 1000*b, so out = 1000*b + 10*a + c.
  std::vector<float> x = {0, 1, 2, 10, 11, 12};
  std::vector<float> y = {0, 1000, 2000, 3000};
  std::vector<float> want;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int c = 0; c < 3; ++c) want.push_back(1000.0f * b + 10.0f * a + c);
    }
  }
  auto out = RunOp(OpKind::kAdd, {{F32({2, 1, 3}, x)}, {F32({4, 1}, y)}},
                   DataType::kFloat32, {2, 4, 3}, AddOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {2, 4, 3}, want);
}

TEST(AddTest, Rank6Broadcast) {
  // x [2,1,2,1,2,1] and y [1,3,1,2,1,2] -> [2,3,2,2,2,2]. Give each input
  // element a distinct power-of-ten weighted index so every output element
  // identifies which x and y elements it summed:
  //   x[i0,0,i2,0,i4,0] = 100000*i0 + 1000*i2 + 10*i4
  //   y[0,j1,0,j3,0,j5] = 10000*j1 + 100*j3 + j5
  std::vector<float> x, y, want;
  for (int i0 = 0; i0 < 2; ++i0)
    for (int i2 = 0; i2 < 2; ++i2)
      for (int i4 = 0; i4 < 2; ++i4)
        x.push_back(100000.f * i0 + 1000.f * i2 + 10.f * i4);
  for (int j1 = 0; j1 < 3; ++j1)
    for (int j3 = 0; j3 < 2; ++j3)
      for (int j5 = 0; j5 < 2; ++j5)
        y.push_back(10000.f * j1 + 100.f * j3 + j5);
  for (int d0 = 0; d0 < 2; ++d0)
    for (int d1 = 0; d1 < 3; ++d1)
      for (int d2 = 0; d2 < 2; ++d2)
        for (int d3 = 0; d3 < 2; ++d3)
          for (int d4 = 0; d4 < 2; ++d4)
            for (int d5 = 0; d5 < 2; ++d5)
              want.push_back(100000.f * d0 + 10000.f * d1 + 1000.f * d2 +
                             100.f * d3 + 10.f * d4 + d5);
  auto out = RunOp(OpKind::kAdd,
                   {{F32({2, 1, 2, 1, 2, 1}, x)}, {F32({1, 3, 1, 2, 1, 2}, y)}},
                   DataType::kFloat32, {2, 3, 2, 2, 2, 2}, AddOpts());
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {2, 3, 2, 2, 2, 2}, want);
}

TEST(AddTest, FusedActivations) {
  // x + 1 = [-2, 0.5, 3, 8] before the clamp.
  const std::vector<Arg> args = {{F32({4}, {-3, -0.5f, 2, 7})},
                                 {F32({1}, {1}), true}};
  auto relu = RunLike(OpKind::kAdd, args, DataType::kFloat32,
                      AddOpts(Activation::kRelu));
  ASSERT_TRUE(relu.ok()) << relu.status();
  ExpectFloats(*relu, {4}, {0, 0.5f, 3, 8});
  auto relu6 = RunLike(OpKind::kAdd, args, DataType::kFloat32,
                       AddOpts(Activation::kRelu6));
  ASSERT_TRUE(relu6.ok()) << relu6.status();
  ExpectFloats(*relu6, {4}, {0, 0.5f, 3, 6});
  auto n1to1 = RunLike(OpKind::kAdd, args, DataType::kFloat32,
                       AddOpts(Activation::kReluN1To1));
  ASSERT_TRUE(n1to1.ok()) << n1to1.status();
  ExpectFloats(*n1to1, {4}, {-1, 0.5f, 1, 1});
}

TEST(AddTest, Int32AndInt64) {
  // Shape arithmetic: [1, 224, 224, 3] + [0, 1, 1, 0]; int64 with a scalar.
  auto i32 = RunLike(OpKind::kAdd,
                     {{I32({4}, {1, 224, 224, 3})}, {I32({4}, {0, 1, 1, 0})}},
                     DataType::kInt32, AddOpts());
  ASSERT_TRUE(i32.ok()) << i32.status();
  ExpectValues<int32_t>(*i32, DataType::kInt32, {4}, {1, 225, 225, 3});
  auto i64 = RunOp(OpKind::kAdd,
                   {{I64({3}, {5000000000LL, -1, 7})}, {I64({}, {-2}), true}},
                   DataType::kInt64, {3}, AddOpts());
  ASSERT_TRUE(i64.ok()) << i64.status();
  ExpectValues<int64_t>(*i64, DataType::kInt64, {3}, {4999999998LL, -3, 5});
  // RELU6 on int32 clamps to [0, 6]: 4-9=-5 -> 0, 4+9=13 -> 6.
  auto act = RunLike(OpKind::kAdd, {{I32({2}, {4, 4})}, {I32({2}, {-9, 9})}},
                     DataType::kInt32, AddOpts(Activation::kRelu6));
  ASSERT_TRUE(act.ok()) << act.status();
  ExpectValues<int32_t>(*act, DataType::kInt32, {2}, {0, 6});
}

TEST(AddTest, Errors) {
  // [2,3] and [4] do not broadcast (3 vs 4).
  auto shapes = RunOp(
      OpKind::kAdd,
      {{F32({2, 3}, std::vector<float>(6))}, {F32({4}, std::vector<float>(4))}},
      DataType::kFloat32, {2, 3}, AddOpts());
  EXPECT_EQ(shapes.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(shapes.status().message().find("do not broadcast"),
            std::string::npos)
      << shapes.status();
  // Mixed float32 / int32 inputs.
  auto types = RunOp(OpKind::kAdd, {{F32({2}, {1, 2})}, {I32({2}, {1, 2})}},
                     DataType::kFloat32, {2}, AddOpts());
  EXPECT_EQ(types.status().code(), absl::StatusCode::kInvalidArgument);
  // Quantized int8 is not a float kernel's business.
  auto int8 = RunOp(OpKind::kAdd,
                    {{Typed<int8_t>(DataType::kInt8, {2}, {1, 2})},
                     {Typed<int8_t>(DataType::kInt8, {2}, {1, 2})}},
                    DataType::kInt8, {2}, AddOpts());
  EXPECT_EQ(int8.status().code(), absl::StatusCode::kUnimplemented);
}

TEST(SubTest, OperandOrderWithBroadcast) {
  // [5,1] - [2,3] = [3,-2]; scalar 10 - [1,2,3] = [9,8,7]; [1,2,3] - 10.
  auto a = RunLike(OpKind::kSub, {{F32({2}, {5, 1})}, {F32({2}, {2, 3})}},
                   DataType::kFloat32, SubOpts());
  ASSERT_TRUE(a.ok()) << a.status();
  ExpectFloats(*a, {2}, {3, -2});
  auto b = RunOp(OpKind::kSub, {{F32({}, {10})}, {F32({3}, {1, 2, 3})}},
                 DataType::kFloat32, {3}, SubOpts());
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectFloats(*b, {3}, {9, 8, 7});
  auto c = RunOp(OpKind::kSub, {{F32({3}, {1, 2, 3})}, {F32({}, {10})}},
                 DataType::kFloat32, {3}, SubOpts());
  ASSERT_TRUE(c.ok()) << c.status();
  ExpectFloats(*c, {3}, {-9, -8, -7});
  // int64: 3 - 5 = -2.
  auto d = RunLike(OpKind::kSub, {{I64({1}, {3})}, {I64({1}, {5})}},
                   DataType::kInt64, SubOpts());
  ASSERT_TRUE(d.ok()) << d.status();
  ExpectValues<int64_t>(*d, DataType::kInt64, {1}, {-2});
}

TEST(MulTest, FloatIntAndRelu) {
  // 2*4=8, -3*5=-15; with RELU the -15 becomes 0.
  auto a = RunLike(OpKind::kMul, {{F32({2}, {2, -3})}, {F32({2}, {4, 5})}},
                   DataType::kFloat32, MulOpts());
  ASSERT_TRUE(a.ok()) << a.status();
  ExpectFloats(*a, {2}, {8, -15});
  auto r = RunLike(OpKind::kMul, {{F32({2}, {2, -3})}, {F32({2}, {4, 5})}},
                   DataType::kFloat32, MulOpts(Activation::kRelu));
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectFloats(*r, {2}, {8, 0});
  // int32 per-row scale: [[1,2],[3,4]] * [[10],[-1]] = [[10,20],[-3,-4]].
  auto i = RunOp(OpKind::kMul,
                 {{I32({2, 2}, {1, 2, 3, 4})}, {I32({2, 1}, {10, -1})}},
                 DataType::kInt32, {2, 2}, MulOpts());
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {2, 2}, {10, 20, -3, -4});
}

TEST(DivTest, FloatAndTruncatingInt) {
  // 1/4 = 0.25, -6/3 = -2, 5/0 = +inf (IEEE; TFLite does not check floats).
  auto f =
      RunLike(OpKind::kDiv, {{F32({3}, {1, -6, 5})}, {F32({3}, {4, 3, 0})}},
              DataType::kFloat32, DivOpts());
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {3}, {0.25f, -2, kInf});
  // Integer division truncates toward zero: 7/2=3, -7/2=-3, 7/-2=-3,
  // -7/-2=3.
  auto i = RunLike(OpKind::kDiv,
                   {{I32({4}, {7, -7, 7, -7})}, {I32({4}, {2, 2, -2, -2})}},
                   DataType::kInt32, DivOpts());
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {4}, {3, -3, -3, 3});
  auto zero = RunLike(OpKind::kDiv, {{I32({2}, {1, 2})}, {I32({2}, {1, 0})}},
                      DataType::kInt32, DivOpts());
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(zero.status().message().find("division by zero"),
            std::string::npos);
}

TEST(MaxMinTest, FloatInt64AndBroadcast) {
  const std::vector<Arg> args = {{F32({3}, {1, 5, -2})},
                                 {F32({3}, {3, 2, -2})}};
  auto mx = RunLike(OpKind::kMaximum, args, DataType::kFloat32);
  ASSERT_TRUE(mx.ok()) << mx.status();
  ExpectFloats(*mx, {3}, {3, 5, -2});
  auto mn = RunLike(OpKind::kMinimum, args, DataType::kFloat32);
  ASSERT_TRUE(mn.ok()) << mn.status();
  ExpectFloats(*mn, {3}, {1, 2, -2});
  // Clamp-style use: max([2,2] matrix, scalar 0) keeps positives.
  auto b = RunOp(OpKind::kMaximum,
                 {{F32({2, 2}, {-1, 2, -3, 4})}, {F32({}, {0}), true}},
                 DataType::kFloat32, {2, 2});
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectFloats(*b, {2, 2}, {0, 2, 0, 4});
  auto i =
      RunLike(OpKind::kMinimum, {{I64({2}, {7, -9})}, {I64({2}, {-8, 10})}},
              DataType::kInt64);
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int64_t>(*i, DataType::kInt64, {2}, {-8, -9});
}

TEST(PowTest, FloatAndInt) {
  // 2^3=8, 9^0.5=3, 2^-1=0.5, (-2)^2=4.
  auto f = RunLike(OpKind::kPow,
                   {{F32({4}, {2, 9, 2, -2})}, {F32({4}, {3, 0.5f, -1, 2})}},
                   DataType::kFloat32);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {4}, {8, 3, 0.5f, 4});
  // 2^10=1024, 3^0=1, (-2)^3=-8, 5^1=5.
  auto i = RunLike(OpKind::kPow,
                   {{I32({4}, {2, 3, -2, 5})}, {I32({4}, {10, 0, 3, 1})}},
                   DataType::kInt32);
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {4}, {1024, 1, -8, 5});
  // Results beyond int32 saturate (TFLite converts a double pow result;
  // LiteRT saturates): 3^21 = 10460353203 -> INT32_MAX, (-3)^21 ->
  // INT32_MIN, 2^31 -> INT32_MAX, 2^30 fits.
  auto big = RunLike(OpKind::kPow,
                     {{I32({4}, {3, -3, 2, 2})}, {I32({4}, {21, 21, 31, 30})}},
                     DataType::kInt32);
  ASSERT_TRUE(big.ok()) << big.status();
  ExpectValues<int32_t>(*big, DataType::kInt32, {4},
                        {2147483647, -2147483647 - 1, 2147483647, 1073741824});
  auto neg = RunLike(OpKind::kPow, {{I32({1}, {2})}, {I32({1}, {-1})}},
                     DataType::kInt32);
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SquaredDifferenceTest, FloatAndInt) {
  // (1-4)^2=9, (5-(-1))^2=36; broadcast against scalar 2: (3-2)^2=1.
  auto f =
      RunLike(OpKind::kSquaredDifference,
              {{F32({2}, {1, 5})}, {F32({2}, {4, -1})}}, DataType::kFloat32);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {2}, {9, 36});
  auto i = RunOp(OpKind::kSquaredDifference,
                 {{I32({2}, {3, -1})}, {I32({}, {2})}}, DataType::kInt32, {2});
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {2}, {1, 9});
}

TEST(FloorDivTest, RoundsTowardMinusInfinity) {
  // 7/2=3.5->3, -7/2=-3.5->-4, 7/-2->-4, -7/-2=3.5->3.
  auto i = RunLike(OpKind::kFloorDiv,
                   {{I32({4}, {7, -7, 7, -7})}, {I32({4}, {2, 2, -2, -2})}},
                   DataType::kInt32);
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {4}, {3, -4, -4, 3});
  // INT32_MIN / -1 = 2^31 does not fit and saturates to INT32_MAX.
  auto sat = RunLike(OpKind::kFloorDiv,
                     {{I32({1}, {-2147483647 - 1})}, {I32({1}, {-1})}},
                     DataType::kInt32);
  ASSERT_TRUE(sat.ok()) << sat.status();
  ExpectValues<int32_t>(*sat, DataType::kInt32, {1}, {2147483647});
  // 7.5/2=3.75->3, -7.5/2=-3.75->-4, 6/3=2 exactly.
  auto f = RunLike(OpKind::kFloorDiv,
                   {{F32({3}, {7.5f, -7.5f, 6})}, {F32({3}, {2, 2, 3})}},
                   DataType::kFloat32);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {3}, {3, -4, 2});
  auto zero = RunLike(OpKind::kFloorDiv, {{F32({1}, {1})}, {F32({1}, {0})}},
                      DataType::kFloat32);
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(FloorModTest, TakesTheDivisorsSign) {
  // a - floor(a/b)*b: 7 mod 3 = 1, -7 mod 3 = 2, 7 mod -3 = -2,
  // -7 mod -3 = -1.
  auto i = RunLike(OpKind::kFloorMod,
                   {{I32({4}, {7, -7, 7, -7})}, {I32({4}, {3, 3, -3, -3})}},
                   DataType::kInt32);
  ASSERT_TRUE(i.ok()) << i.status();
  ExpectValues<int32_t>(*i, DataType::kInt32, {4}, {1, 2, -2, -1});
  auto l = RunOp(OpKind::kFloorMod, {{I64({2}, {-1, 10})}, {I64({}, {4})}},
                 DataType::kInt64, {2});
  ASSERT_TRUE(l.ok()) << l.status();
  ExpectValues<int64_t>(*l, DataType::kInt64, {2}, {3, 2});
  // 7.5 mod 2 = 1.5; -7.5 mod 2 = 0.5 (-7.5 = -4*2 + 0.5); 7.5 mod -2 =
  // -0.5 (7.5 = -4*-2 - 0.5).
  auto f = RunLike(OpKind::kFloorMod,
                   {{F32({3}, {7.5f, -7.5f, 7.5f})}, {F32({3}, {2, 2, -2})}},
                   DataType::kFloat32);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectFloats(*f, {3}, {1.5f, 0.5f, -0.5f});
  auto zero = RunLike(OpKind::kFloorMod, {{I32({1}, {1})}, {I32({1}, {0})}},
                      DataType::kInt32);
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(PreluTest, PerChannelAlpha) {
  // x [1,2,2], alpha [2] = [0.1, 0.2] along the last dim:
  // -1*0.1, -1*0.2, 2 (positive stays), -3*0.2 = -0.6; 0 stays 0.
  auto out =
      RunOp(OpKind::kPrelu,
            {{F32({1, 2, 2}, {-1, -1, 2, -3})}, {F32({2}, {0.1f, 0.2f}), true}},
            DataType::kFloat32, {1, 2, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectFloats(*out, {1, 2, 2}, {-0.1f, -0.2f, 2, -0.6f});
}

// Large broadcast and same-shape ops split into several parallel chunks:
// the result must be bit-identical for 1 and 4 threads and match the
// per-element formula everywhere (chunk edges included).
TEST(BinaryParallelTest, ThreadCountDoesNotChangeResults) {
  const int rows = 40000, ch = 3;  // 120000 elements, several chunks
  std::vector<float> x(rows * ch);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.37f - 100.0f;
  }
  const std::vector<float> bias = {0.5f, -1.25f, 3.0f};
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    want[i] = std::min(std::max(x[i] + bias[i % ch], 0.0f), 6.0f);
  }
  for (int threads : {1, 4}) {
    auto out = RunOp(
        OpKind::kAdd, {{F32({rows, ch}, x)}, {F32({ch}, bias), true}},
        DataType::kFloat32, {rows, ch}, AddOpts(Activation::kRelu6), threads);
    ASSERT_TRUE(out.ok()) << out.status();
    auto g = out->Flat<float>();
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(g[i], want[i]) << "threads " << threads << " element " << i;
    }
  }
}

// Same-shape operands collapse into one long row, which is cut into
// segments: an odd length checks the segment edges.
TEST(BinaryParallelTest, LongSameShapeRowIsSegmented) {
  const int n = 70001;
  std::vector<float> a(n), b(n), want(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = static_cast<float>(n - i);
    want[i] = a[i] * b[i];
  }
  for (int threads : {1, 4}) {
    auto out = RunLike(OpKind::kMul, {{F32({1, n}, a)}, {F32({1, n}, b)}},
                       DataType::kFloat32, MulOpts(), threads);
    ASSERT_TRUE(out.ok()) << out.status();
    auto g = out->Flat<float>();
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(g[i], want[i]) << "threads " << threads << " element " << i;
    }
  }
}

}  // namespace
}  // namespace qforge::testing::elementwise
