// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED (integer and
// hybrid) and TRANSPOSE_CONV: hand-derived cases (arithmetic in the
// comments) and randomized shapes checked within 1 LSB of the real-valued
// result computed in double from the dequantized operands (the integer
// pipeline rounds twice: the 31-bit multiplier and the double-rounding
// requantization, so 1 LSB is the bound).
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "ir/options.h"
#include "numerics/fixed_point.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

// ------------------------------------------------------------------ CONV

TEST(IntegerConvTest, Conv2DInt8HandDerived) {
  // Input real (x + 1) * 0.5 = {1, 2, 3, 4}; filter 4 * 0.25 = 1 each;
  // bias 8 * (0.5 * 0.25) = 1. VALID 2x2: 1+2+3+4+1 = 11 real, at output
  // scale 0.25 and zero point 3: 11 / 0.25 + 3 = 47.
  // Integer path: acc = 4 * (2+4+6+8) + 8 = 88; multiplier 0.5 -> 44; +3.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 2, 1}, 0.5f, -1);
  const int w = QConst<int8_t>(m, {1, 2, 2, 1}, {4, 4, 4, 4}, {0.25f}, {0});
  const int b = QConst<int32_t>(m, {1}, {8}, {0.125f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 1, 1, 1}, 0.25f, 3);
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, b}, {y}, o);
  EXPECT_EQ(
      RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2, 2, 1}, {1, 3, 5, 7})}),
      (std::vector<int8_t>{47}));
}

TEST(IntegerConvTest, Conv2DSamePaddingContributesNothing) {
  // All inputs are zp + 2 (real 2 * 0.5 = 1); a 3x3 filter of ones (scale
  // 1); SAME padding on 3x3: corners see 4 in-image taps, edges 6, the
  // centre 9. Padded taps add nothing (not the zero point): outputs 4, 6, 9
  // at output scale 1, zero point 0.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 3, 3, 1}, 0.5f, 10);
  const int w =
      QConst<int8_t>(m, {1, 3, 3, 1}, std::vector<int8_t>(9, 1), {1.0f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 3, 3, 1}, 1.0f, 0);
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_h = o.stride_w = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, -1}, {y}, o);
  EXPECT_EQ(
      RunValues<int8_t>(
          m, {MakeTensor<int8_t>({1, 3, 3, 1}, std::vector<int8_t>(9, 12))}),
      (std::vector<int8_t>{4, 6, 4, 6, 9, 6, 4, 6, 4}));
}

TEST(IntegerConvTest, Conv2DFusedRelu6ClampsAtQuantizedSix) {
  // Output scale 0.5, zp -10: RELU6 clamps to [-10, -10 + 12 = 2].
  // Input real 1 * 0.5 per tap with a 1x1 filter of 20 (scale 1): 10 real
  // -> clamped to 6 real = 2; input 0 real -> -10; negative -> -10.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 1, 3, 1}, 0.5f, 0);
  const int w = QConst<int8_t>(m, {1, 1, 1, 1}, {20}, {1.0f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 1, 3, 1}, 0.5f, -10);
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  o.activation = ir::Activation::kRelu6;
  m.Op(ir::OpKind::kConv2D, {x, w, -1}, {y}, o);
  EXPECT_EQ(
      RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 1, 3, 1}, {1, 0, -1})}),
      (std::vector<int8_t>{2, -10, -10}));
}

TEST(IntegerConvTest, Conv2DUint8LegacyWithFilterZeroPoint) {
  // uint8 input zp 128 scale 0.5: {130, 126} -> real {1, -1}; uint8
  // filter zp 100 scale 0.25: {104, 92} -> real {1, -2}; 1*1 + -1*-2 = 3;
  // output scale 0.125 zp 50: 3 / 0.125 + 50 = 74.
  OpModel m;
  const int x = QInput(m, DT::kUInt8, {1, 1, 1, 2}, 0.5f, 128);
  const int w = QConst<uint8_t>(m, {1, 1, 1, 2}, {104, 92}, {0.25f}, {100});
  const int y = QOutput(m, DT::kUInt8, {1, 1, 1, 1}, 0.125f, 50);
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, -1}, {y}, o);
  EXPECT_EQ(
      RunValues<uint8_t>(m, {MakeTensor<uint8_t>({1, 1, 1, 2}, {130, 126})}),
      (std::vector<uint8_t>{74}));
}

TEST(IntegerConvTest, Conv2DInt16x8Int64BiasHandDerived) {
  // int16 input scale 2^-10 (zp 0): {1024, -2048} = {1, -2}; int8 filter
  // scale 0.5: {2, 4} = {1, 2}; bias int64 1536 at 2^-11 = 0.75.
  // 1*1 + -2*2 + 0.75 = -2.25; output scale 2^-8: -576.
  OpModel m;
  const int x = QInput(m, DT::kInt16, {1, 1, 1, 2}, 1.0f / 1024, 0);
  const int w = QConst<int8_t>(m, {1, 1, 1, 2}, {2, 4}, {0.5f}, {0});
  const int b = QConst<int64_t>(m, {1}, {1536}, {1.0f / 2048}, {0});
  const int y = QOutput(m, DT::kInt16, {1, 1, 1, 1}, 1.0f / 256, 0);
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, b}, {y}, o);
  EXPECT_EQ(
      RunValues<int16_t>(m, {MakeTensor<int16_t>({1, 1, 1, 2}, {1024, -2048})}),
      (std::vector<int16_t>{-576}));
}

// Real-valued reference of a (depthwise or regular) conv on quantized
// operands; returns quantized outputs.
struct ConvCase {
  int n = 1, h = 7, w = 6, c = 3, oc = 4, kh = 3, kw = 3;
  int stride = 1, dilation = 1, depth_mult = 1;
  ir::Padding padding = ir::Padding::kSame;
  bool depthwise = false;
  bool int16 = false;
};

template <typename TIn>
void CheckConvWithinOneLsb(const ConvCase& cc, uint32_t seed) {
  const DT type = cc.int16 ? DT::kInt16 : DT::kInt8;
  const int32_t lo = cc.int16 ? -32768 : -128, hi = cc.int16 ? 32767 : 127;
  const float in_scale = cc.int16 ? 1.0f / 4096 : 0.05f;
  const int32_t in_zp = cc.int16 ? 0 : -7;
  const float out_scale = cc.int16 ? 1.0f / 512 : 0.3f;
  const int32_t out_zp = cc.int16 ? 0 : 5;
  const int oc = cc.depthwise ? cc.c * cc.depth_mult : cc.oc;
  const int wn = cc.depthwise ? cc.kh * cc.kw * oc : oc * cc.kh * cc.kw * cc.c;
  std::vector<float> wscales(static_cast<size_t>(oc));
  for (int i = 0; i < oc; ++i)
    wscales[static_cast<size_t>(i)] = 0.01f * (i + 1);
  const std::vector<TIn> xv = RandomValues<TIn>(
      static_cast<size_t>(cc.n * cc.h * cc.w * cc.c), seed, lo, hi);
  const std::vector<int8_t> wv =
      RandomValues<int8_t>(static_cast<size_t>(wn), seed + 1, -127, 127);
  const std::vector<int32_t> bv =
      RandomValues<int32_t>(static_cast<size_t>(oc), seed + 2, -5000, 5000);
  const int eff_h = (cc.kh - 1) * cc.dilation + 1,
            eff_w = (cc.kw - 1) * cc.dilation + 1;
  const int oh = cc.padding == ir::Padding::kSame
                     ? (cc.h + cc.stride - 1) / cc.stride
                     : (cc.h - eff_h + cc.stride) / cc.stride;
  const int ow = cc.padding == ir::Padding::kSame
                     ? (cc.w + cc.stride - 1) / cc.stride
                     : (cc.w - eff_w + cc.stride) / cc.stride;
  const int pt = std::max(0, ((oh - 1) * cc.stride + eff_h - cc.h) / 2);
  const int pl = std::max(0, ((ow - 1) * cc.stride + eff_w - cc.w) / 2);

  OpModel m;
  const int x = QInput(m, type, {cc.n, cc.h, cc.w, cc.c}, in_scale, in_zp);
  int wt, bt;
  std::vector<float> bscales;
  for (float s : wscales) bscales.push_back(in_scale * s);
  if (cc.depthwise) {
    wt = QConst<int8_t>(m, {1, cc.kh, cc.kw, oc}, wv, wscales,
                        std::vector<int64_t>(static_cast<size_t>(oc), 0), 3);
  } else {
    wt = QConst<int8_t>(m, {oc, cc.kh, cc.kw, cc.c}, wv, wscales,
                        std::vector<int64_t>(static_cast<size_t>(oc), 0), 0);
  }
  if (cc.int16) {
    std::vector<int64_t> b64(bv.begin(), bv.end());
    bt = QConst<int64_t>(m, {oc}, b64, bscales,
                         std::vector<int64_t>(static_cast<size_t>(oc), 0));
  } else {
    bt = QConst<int32_t>(m, {oc}, bv, bscales,
                         std::vector<int64_t>(static_cast<size_t>(oc), 0));
  }
  const int y = QOutput(m, type, {cc.n, oh, ow, oc}, out_scale, out_zp);
  if (cc.depthwise) {
    ir::DepthwiseConv2DOptions o;
    o.padding = cc.padding;
    o.stride_h = o.stride_w = cc.stride;
    o.dilation_h = o.dilation_w = cc.dilation;
    o.depth_multiplier = cc.depth_mult;
    m.Op(ir::OpKind::kDepthwiseConv2D, {x, wt, bt}, {y}, o);
  } else {
    ir::Conv2DOptions o;
    o.padding = cc.padding;
    o.stride_h = o.stride_w = cc.stride;
    o.dilation_h = o.dilation_w = cc.dilation;
    m.Op(ir::OpKind::kConv2D, {x, wt, bt}, {y}, o);
  }
  // Reference.
  std::vector<int32_t> want;
  for (int b = 0; b < cc.n; ++b) {
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        for (int o = 0; o < oc; ++o) {
          const double ws = wscales[static_cast<size_t>(o)];
          double acc = bv[static_cast<size_t>(o)] * (double{in_scale} * ws);
          for (int ky = 0; ky < cc.kh; ++ky) {
            for (int kx = 0; kx < cc.kw; ++kx) {
              const int iy = oy * cc.stride - pt + ky * cc.dilation;
              const int ix = ox * cc.stride - pl + kx * cc.dilation;
              if (iy < 0 || iy >= cc.h || ix < 0 || ix >= cc.w) continue;
              if (cc.depthwise) {
                const int ic = o / cc.depth_mult;
                const double xr =
                    (xv[static_cast<size_t>(
                         ((b * cc.h + iy) * cc.w + ix) * cc.c + ic)] -
                     in_zp) *
                    double{in_scale};
                acc += xr *
                       wv[static_cast<size_t>((ky * cc.kw + kx) * oc + o)] * ws;
              } else {
                for (int ic = 0; ic < cc.c; ++ic) {
                  const double xr =
                      (xv[static_cast<size_t>(
                           ((b * cc.h + iy) * cc.w + ix) * cc.c + ic)] -
                       in_zp) *
                      double{in_scale};
                  acc += xr *
                         wv[static_cast<size_t>(
                             ((o * cc.kh + ky) * cc.kw + kx) * cc.c + ic)] *
                         ws;
                }
              }
            }
          }
          want.push_back(QuantizeRef(acc, out_scale, out_zp, lo, hi));
        }
      }
    }
  }
  const std::vector<TIn> got = RunValues<TIn>(
      m, {MakeTensor<TIn>({cc.n, cc.h, cc.w, cc.c}, xv)}, /*threads=*/3);
  EXPECT_LE(MaxAbsDiff(got, want), 1);
}

TEST(IntegerConvTest, Conv2DInt8RandomWithinOneLsb) {
  ConvCase cc;
  CheckConvWithinOneLsb<int8_t>(cc, 1);
  cc.stride = 2;
  CheckConvWithinOneLsb<int8_t>(cc, 2);
  cc.stride = 1;
  cc.dilation = 2;
  cc.padding = ir::Padding::kValid;
  CheckConvWithinOneLsb<int8_t>(cc, 3);
  cc.n = 2;
  cc.kh = 1;
  cc.kw = 1;
  CheckConvWithinOneLsb<int8_t>(cc, 4);
}

TEST(IntegerConvTest, Conv2DInt16x8RandomWithinOneLsb) {
  ConvCase cc;
  cc.int16 = true;
  CheckConvWithinOneLsb<int16_t>(cc, 5);
  cc.stride = 2;
  CheckConvWithinOneLsb<int16_t>(cc, 6);
}

TEST(IntegerConvTest, DepthwiseInt8RandomWithinOneLsb) {
  ConvCase cc;
  cc.depthwise = true;
  CheckConvWithinOneLsb<int8_t>(cc, 7);
  cc.depth_mult = 2;
  cc.stride = 2;
  CheckConvWithinOneLsb<int8_t>(cc, 8);
  cc.dilation = 2;
  cc.padding = ir::Padding::kValid;
  CheckConvWithinOneLsb<int8_t>(cc, 9);
}

TEST(IntegerConvTest, DepthwiseInt16RandomWithinOneLsb) {
  ConvCase cc;
  cc.depthwise = true;
  cc.int16 = true;
  cc.depth_mult = 2;
  CheckConvWithinOneLsb<int16_t>(cc, 10);
}

TEST(IntegerConvTest, RejectsBadQuantization) {
  // Bias scale 1.0 instead of input * filter = 0.125 (difference / output
  // scale = 3.5 > 0.02).
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2, 2, 1}, 0.5f, 0);
  const int w = QConst<int8_t>(m, {1, 2, 2, 1}, {1, 1, 1, 1}, {0.25f}, {0});
  const int b = QConst<int32_t>(m, {1}, {8}, {1.0f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 1, 1, 1}, 0.25f, 0);
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, b}, {y}, o);
  auto r = m.Run({MakeTensor<int8_t>({1, 2, 2, 1}, {0, 0, 0, 0})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bias"), std::string::npos) << r.status();

  // Asymmetric int8 weights are rejected.
  OpModel m2;
  const int x2 = QInput(m2, DT::kInt8, {1, 1, 1, 1}, 0.5f, 0);
  const int w2 = QConst<int8_t>(m2, {1, 1, 1, 1}, {1}, {0.25f}, {3});
  const int y2 = QOutput(m2, DT::kInt8, {1, 1, 1, 1}, 0.25f, 0);
  m2.Op(ir::OpKind::kConv2D, {x2, w2, -1}, {y2}, o);
  r = m2.Run({MakeTensor<int8_t>({1, 1, 1, 1}, {0})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("zero point"), std::string::npos);
}

// -------------------------------------------------------- FULLY_CONNECTED

TEST(IntegerConvTest, FullyConnectedInt8PerTensorWithWeightZeroPoint) {
  // Input scale 0.5 zp 2: {4, 0} -> {1, -1}; weights scale 0.25 zp -1:
  // row 0 {3, -1} -> {1, 0}, row 1 {-5, 7} -> {-1, 2}; bias {4, -8} at
  // 0.125 -> {0.5, -1}. Row 0: 1 + 0 + 0.5 = 1.5; row 1: -1 - 2 - 1 = -4.
  // Output scale 0.25 zp 0: {6, -16}.
  OpModel m;
  const int x = QInput(m, DT::kInt8, {1, 2}, 0.5f, 2);
  const int w = QConst<int8_t>(m, {2, 2}, {3, -1, -5, 7}, {0.25f}, {-1});
  const int b = QConst<int32_t>(m, {2}, {4, -8}, {0.125f}, {0});
  const int y = QOutput(m, DT::kInt8, {1, 2}, 0.25f, 0);
  m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
       ir::FullyConnectedOptions{});
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2}, {4, 0})}),
            (std::vector<int8_t>{6, -16}));
}

TEST(IntegerConvTest, FullyConnectedPerChannelAndInt16RandomWithinOneLsb) {
  for (const bool int16 : {false, true}) {
    const DT type = int16 ? DT::kInt16 : DT::kInt8;
    const int32_t lo = int16 ? -32768 : -128, hi = int16 ? 32767 : 127;
    const float in_scale = int16 ? 1.0f / 8192 : 0.02f;
    const int32_t in_zp = int16 ? 0 : 11;
    const float out_scale = int16 ? 1.0f / 1024 : 0.1f;
    const int32_t out_zp = int16 ? 0 : -3;
    const int batch = 3, depth = 37, units = 9;
    std::vector<float> ws;
    for (int u = 0; u < units; ++u) ws.push_back(0.003f * (u + 2));
    const auto xv = RandomValues<int16_t>(batch * depth, 20, lo, hi);
    const auto wv = RandomValues<int8_t>(units * depth, 21, -127, 127);
    const auto bv = RandomValues<int32_t>(units, 22, -20000, 20000);
    OpModel m;
    const int x = QInput(m, type, {batch, depth}, in_scale, in_zp);
    const int w = QConst<int8_t>(m, {units, depth}, wv, ws,
                                 std::vector<int64_t>(units, 0), 0);
    std::vector<float> bs;
    for (float s : ws) bs.push_back(in_scale * s);
    int b;
    if (int16) {
      b = QConst<int64_t>(m, {units},
                          std::vector<int64_t>(bv.begin(), bv.end()), bs,
                          std::vector<int64_t>(units, 0));
    } else {
      b = QConst<int32_t>(m, {units}, bv, bs, std::vector<int64_t>(units, 0));
    }
    const int y = QOutput(m, type, {batch, units}, out_scale, out_zp);
    m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
         ir::FullyConnectedOptions{});
    std::vector<int32_t> want;
    for (int bi = 0; bi < batch; ++bi) {
      for (int u = 0; u < units; ++u) {
        double acc = bv[static_cast<size_t>(u)] * double{in_scale} * ws[u];
        for (int d = 0; d < depth; ++d) {
          acc += (xv[static_cast<size_t>(bi * depth + d)] - in_zp) *
                 double{in_scale} * wv[static_cast<size_t>(u * depth + d)] *
                 ws[u];
        }
        want.push_back(QuantizeRef(acc, out_scale, out_zp, lo, hi));
      }
    }
    if (int16) {
      EXPECT_LE(MaxAbsDiff(RunValues<int16_t>(
                               m, {MakeTensor<int16_t>({batch, depth}, xv)}, 2),
                           want),
                1);
    } else {
      std::vector<int8_t> x8(xv.begin(), xv.end());
      EXPECT_LE(MaxAbsDiff(RunValues<int8_t>(
                               m, {MakeTensor<int8_t>({batch, depth}, x8)}, 2),
                           want),
                1);
    }
  }
}

TEST(IntegerConvTest, FullyConnectedKeepNumDims) {
  OpModel m;
  const int x = QInput(m, DT::kInt8, {2, 1, 2}, 1.0f, 0);
  const int w = QConst<int8_t>(m, {3, 2}, {1, 0, 0, 1, 1, 1}, {1.0f}, {0});
  const int y = QOutput(m, DT::kInt8, {2, 1, 3}, 1.0f, 0);
  ir::FullyConnectedOptions o;
  o.keep_num_dims = true;
  m.Op(ir::OpKind::kFullyConnected, {x, w, -1}, {y}, o);
  auto out = m.Run({MakeTensor<int8_t>({2, 1, 2}, {1, 2, 3, 4})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{2, 1, 3}));
  EXPECT_EQ(Values<int8_t>((*out)[0]), (std::vector<int8_t>{1, 2, 3, 3, 4, 7}));
}

TEST(IntegerConvTest, HybridFullyConnectedSymmetric) {
  // x = {1, -2, 0.5}: max |x| = 2, scale 2/127; q = round(x * 63.5) =
  // {64, -127, 32} (63.5 and 31.75 round to 64 and 32). Weights {1, 2, 3}
  // at 0.5: dot = 64 - 254 + 96 = -94; scale (2/127) * 0.5 = 1/127.
  // y = 0.25 + -94/127.
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 3});
  const int w = QConst<int8_t>(m, {1, 3}, {1, 2, 3}, {0.5f}, {0});
  const int b = m.Constant<float>({1}, {0.25f});
  const int y = m.Output(DT::kFloat32, {1, 1});
  m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
       ir::FullyConnectedOptions{});
  const auto got =
      RunValues<float>(m, {MakeTensor<float>({1, 3}, {1.f, -2.f, 0.5f})});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NEAR(got[0], 0.25f - 94.0f / 127.0f, 1e-6f);
}

TEST(IntegerConvTest, HybridFullyConnectedAddsTheRoundedProduct) {
  // x = {127}: scale 1, q = 127; weight 1 at 0.1: dot * scale = 127 * 0.1f,
  // which needs 31 significant bits. The bias is minus that product rounded
  // to float, so TFLite's unfused bias + dot * scale is exactly 0; an FMA
  // would leave the product's rounding error.
  const float ws = 0.1f;
  volatile float rounded = 127.0f * ws;
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 1});
  const int w = QConst<int8_t>(m, {1, 1}, {1}, {ws}, {0});
  const int b = m.Constant<float>({1}, {-rounded});
  const int y = m.Output(DT::kFloat32, {1, 1});
  m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
       ir::FullyConnectedOptions{});
  EXPECT_EQ(RunValues<float>(m, {MakeTensor<float>({1, 1}, {127.f})}),
            (std::vector<float>{0.0f}));
}

TEST(IntegerConvTest, HybridFullyConnectedAsymmetricPerChannel) {
  // x = {0, 1, 2}: range [0, 2], scale 2/255, zero point -128 (from the
  // min side); q = round(-128 + x * 127.5) = {-128, -1, 127} (-0.5 rounds
  // away from zero). Row 0 weights {1, 2, 3} at 0.5: dot = -128 - 2 + 381
  // = 251, minus row sum 6 * -128 -> 1019; scale (2/255) * 0.5 -> 1019/255.
  // Row 1 weights {-1, 0, 1} at 2.0: dot = 128 + 127 = 255, row sum 0 ->
  // 255 * (2/255) * 2 = 4. Exact answers: 4 and 4.
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 3});
  const int w =
      QConst<int8_t>(m, {2, 3}, {1, 2, 3, -1, 0, 1}, {0.5f, 2.0f}, {0, 0}, 0);
  const int y = m.Output(DT::kFloat32, {1, 2});
  ir::FullyConnectedOptions o;
  o.asymmetric_quantize_inputs = true;
  m.Op(ir::OpKind::kFullyConnected, {x, w, -1}, {y}, o);
  const auto got =
      RunValues<float>(m, {MakeTensor<float>({1, 3}, {0.f, 1.f, 2.f})});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NEAR(got[0], 1019.0f / 255.0f, 1e-5f);
  EXPECT_NEAR(got[1], 4.0f, 1e-5f);
}

TEST(IntegerConvTest, HybridConv2DPerTensorSymmetric) {
  // As the hybrid FULLY_CONNECTED case, as a 1x1 convolution: q = {64,
  // -127, 32} at scale 2/127, weights {1, 2, 3} at 0.5: 0.25 - 94/127.
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 1, 1, 3});
  const int w = QConst<int8_t>(m, {1, 1, 1, 3}, {1, 2, 3}, {0.5f}, {0});
  const int b = m.Constant<float>({1}, {0.25f});
  const int y = m.Output(DT::kFloat32, {1, 1, 1, 1});
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, b}, {y}, o);
  const auto got =
      RunValues<float>(m, {MakeTensor<float>({1, 1, 1, 3}, {1.f, -2.f, 0.5f})});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NEAR(got[0], 0.25f - 94.0f / 127.0f, 1e-6f);
}

TEST(IntegerConvTest, HybridDepthwiseAsymmetricPerChannel) {
  // Input {0, 2}: asymmetric scale 2/255, zero point -128: q = {-128, 127}.
  // Channel 0: 4 * (-128 + 128) = 0. Channel 1: -2 * (127 + 128) = -510,
  // times 0.25 * 2/255 = -1 (exactly 2 * -0.5).
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 1, 1, 2});
  const int w =
      QConst<int8_t>(m, {1, 1, 1, 2}, {4, -2}, {0.5f, 0.25f}, {0, 0}, 3);
  const int y = m.Output(DT::kFloat32, {1, 1, 1, 2});
  ir::DepthwiseConv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = o.stride_w = 1;
  o.depth_multiplier = 1;
  m.Op(ir::OpKind::kDepthwiseConv2D, {x, w, -1}, {y}, o);
  const auto got =
      RunValues<float>(m, {MakeTensor<float>({1, 1, 1, 2}, {0.f, 2.f})});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 0.0f);
  EXPECT_NEAR(got[1], -1.0f, 1e-6f);
}

// --------------------------------------------------------- TRANSPOSE_CONV

TEST(IntegerConvTest, TransposeConvInt8HandDerived) {
  // Input {2, 3} (scale 1) at rows 0 and 1, stride 2, VALID, 3-tap filter
  // {1, 2, 3}: row 0 writes 2 * {1, 2, 3} to outputs 0..2, row 1 writes
  // 3 * {1, 2, 3} to outputs 2..4: {2, 4, 6 + 3, 6, 9}. Output scale 0.5
  // doubles them.
  OpModel m;
  const int shape = m.Constant<int32_t>({4}, {1, 5, 1, 1});
  const int w = QConst<int8_t>(m, {1, 3, 1, 1}, {1, 2, 3}, {1.0f}, {0});
  const int x = QInput(m, DT::kInt8, {1, 2, 1, 1}, 1.0f, 0);
  const int y = QOutput(m, DT::kInt8, {1, 5, 1, 1}, 0.5f, 0);
  ir::TransposeConvOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = 2;
  o.stride_w = 1;
  m.Op(ir::OpKind::kTransposeConv, {shape, w, x, -1}, {y}, o);
  EXPECT_EQ(RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 2, 1, 1}, {2, 3})}),
            (std::vector<int8_t>{4, 8, 18, 12, 18}));
}

TEST(IntegerConvTest, TransposeConvInt16Int64Bias) {
  // Same geometry in int16 (scale 1), bias 10 (int64, scale 1): each
  // output + 10, output scale 1: {12, 14, 19, 16, 19}.
  OpModel m;
  const int shape = m.Constant<int32_t>({4}, {1, 5, 1, 1});
  const int w = QConst<int8_t>(m, {1, 3, 1, 1}, {1, 2, 3}, {1.0f}, {0});
  const int x = QInput(m, DT::kInt16, {1, 2, 1, 1}, 1.0f, 0);
  const int b = QConst<int64_t>(m, {1}, {10}, {1.0f}, {0});
  const int y = QOutput(m, DT::kInt16, {1, 5, 1, 1}, 1.0f, 0);
  ir::TransposeConvOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_h = 2;
  o.stride_w = 1;
  m.Op(ir::OpKind::kTransposeConv, {shape, w, x, b}, {y}, o);
  EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({1, 2, 1, 1}, {2, 3})}),
            (std::vector<int16_t>{12, 14, 19, 16, 19}));
}

// ------------------------------------------------- --rounding legacy

// Numerics modes with rounding policy `p`.
numerics::Modes Policy(numerics::RoundingPolicy p) {
  numerics::Modes modes;
  modes.rounding = p;
  return modes;
}

// Every int8 input through a 1x1 CONV_2D and a 1x1 DEPTHWISE_CONV_2D with
// the same weight and scales: under the legacy policy (tfjs-tflite's TFLite)
// the conv rounds once (ruy's output stage) and the depthwise conv twice;
// under the single policy both round once.
TEST(IntegerConvTest, LegacyRoundingConvOnceDepthwiseTwice) {
  // Real multiplier 0.05 * 0.0123 / 0.004 ~ 0.154 (a 2-bit right shift):
  // the two roundings part on 30 of the 256 accumulators.
  const float in_scale = 0.05f, w_scale = 0.0123f, out_scale = 0.004f;
  const int32_t in_zp = -5, out_zp = 3, wv = 5, bias = -17;
  std::vector<int8_t> xv;
  for (int v = -128; v <= 127; ++v) xv.push_back(static_cast<int8_t>(v));
  const int n = static_cast<int>(xv.size());
  const numerics::ChannelMultipliers cm =
      numerics::QuantizeChannelMultipliers(in_scale, &w_scale, 1, out_scale, 1);
  auto expect = [&](bool once) {
    std::vector<int8_t> want;
    for (int8_t v : xv) {
      const int32_t acc = (v - in_zp) * wv + bias;
      const int32_t r = once ? numerics::MultiplyByQuantizedMultiplierSingle(
                                   acc, cm.multiplier[0], cm.shift[0])
                             : numerics::MultiplyByQuantizedMultiplierDouble(
                                   acc, cm.multiplier[0], cm.shift[0]);
      want.push_back(
          static_cast<int8_t>(numerics::Clamp(r + out_zp, -128, 127)));
    }
    return want;
  };
  ASSERT_NE(expect(true), expect(false));  // the two roundings differ here
  auto run = [&](bool depthwise, numerics::RoundingPolicy policy) {
    OpModel m;
    const int x = QInput(m, DT::kInt8, {1, 1, n, 1}, in_scale, in_zp);
    const int w = QConst<int8_t>(m, {1, 1, 1, 1}, {static_cast<int8_t>(wv)},
                                 {w_scale}, {0}, depthwise ? 3 : 0);
    const int b = QConst<int32_t>(m, {1}, {bias}, {in_scale * w_scale}, {0});
    const int y = QOutput(m, DT::kInt8, {1, 1, n, 1}, out_scale, out_zp);
    if (depthwise) {
      ir::DepthwiseConv2DOptions o;
      o.padding = ir::Padding::kValid;
      o.stride_h = o.stride_w = 1;
      o.depth_multiplier = 1;
      m.Op(ir::OpKind::kDepthwiseConv2D, {x, w, b}, {y}, o);
    } else {
      ir::Conv2DOptions o;
      o.padding = ir::Padding::kValid;
      o.stride_h = o.stride_w = 1;
      m.Op(ir::OpKind::kConv2D, {x, w, b}, {y}, o);
    }
    return RunValues<int8_t>(m, {MakeTensor<int8_t>({1, 1, n, 1}, xv)}, 1,
                             Policy(policy));
  };
  using numerics::RoundingPolicy;
  EXPECT_EQ(run(false, RoundingPolicy::kLegacy), expect(true));
  EXPECT_EQ(run(true, RoundingPolicy::kLegacy), expect(false));
  EXPECT_EQ(run(false, RoundingPolicy::kSingle), expect(true));
  EXPECT_EQ(run(true, RoundingPolicy::kSingle), expect(true));
}

// int16x8 FULLY_CONNECTED without bias under the legacy policy: ruy's 16x8
// GEMM, an int32 accumulator rounded once; with an int64 bias: the int64
// accumulator and TFLite's int64 fixed-point multiply.
TEST(IntegerConvTest, LegacyRoundingInt16FullyConnected) {
  const float in_scale = 1.0f / 8192, out_scale = 1.0f / 1024;
  const int batch = 4, depth = 29, units = 7;
  std::vector<float> ws;
  for (int u = 0; u < units; ++u) ws.push_back(0.0031f * (u + 2));
  const auto xv = RandomValues<int16_t>(batch * depth, 30, -32768, 32767);
  const auto wv = RandomValues<int8_t>(units * depth, 31, -127, 127);
  const auto bv = RandomValues<int32_t>(units, 32, -20000, 20000);
  const numerics::ChannelMultipliers cm = numerics::QuantizeChannelMultipliers(
      in_scale, ws.data(), units, out_scale, units);
  for (const bool with_bias : {false, true}) {
    OpModel m;
    const int x = QInput(m, DT::kInt16, {batch, depth}, in_scale, 0);
    const int w = QConst<int8_t>(m, {units, depth}, wv, ws,
                                 std::vector<int64_t>(units, 0), 0);
    std::vector<float> bs;
    for (float s : ws) bs.push_back(in_scale * s);
    const int b =
        with_bias ? QConst<int64_t>(m, {units},
                                    std::vector<int64_t>(bv.begin(), bv.end()),
                                    bs, std::vector<int64_t>(units, 0))
                  : -1;
    const int y = QOutput(m, DT::kInt16, {batch, units}, out_scale, 0);
    m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
         ir::FullyConnectedOptions{});
    std::vector<int16_t> want;
    for (int bi = 0; bi < batch; ++bi) {
      for (int u = 0; u < units; ++u) {
        int64_t acc = with_bias ? bv[static_cast<size_t>(u)] : 0;
        for (int d = 0; d < depth; ++d) {
          acc += int64_t{xv[static_cast<size_t>(bi * depth + d)]} *
                 wv[static_cast<size_t>(u * depth + d)];
        }
        const size_t k = static_cast<size_t>(u);
        const int32_t r =
            with_bias
                ? numerics::MultiplyByQuantizedMultiplier(acc, cm.multiplier[k],
                                                          cm.shift[k])
                : numerics::MultiplyByQuantizedMultiplierSingle(
                      static_cast<int32_t>(acc), cm.multiplier[k], cm.shift[k]);
        want.push_back(static_cast<int16_t>(numerics::Clamp(r, -32768, 32767)));
      }
    }
    EXPECT_EQ(RunValues<int16_t>(m, {MakeTensor<int16_t>({batch, depth}, xv)},
                                 2, Policy(numerics::RoundingPolicy::kLegacy)),
              want)
        << (with_bias ? "int64 bias" : "no bias");
  }
}

// int16x8 FULLY_CONNECTED with per-tensor weights under the double policy
// (TFLite Micro's reference kernel): the int64 accumulator (int64 bias or
// none) requantized by the int64 fixed-point multiply, with the multiplier
// from the float product of the scales; the single policy requantizes by
// the float scale (current TFLite).
TEST(IntegerConvTest, DoubleRoundingInt16FullyConnected) {
  const float in_scale = 1.0f / 8192, w_scale = 0.0123f,
              out_scale = 1.0f / 1024;
  const int batch = 64, depth = 29, units = 7;
  const auto xv = RandomValues<int16_t>(batch * depth, 40, -32768, 32767);
  const auto wv = RandomValues<int8_t>(units * depth, 41, -127, 127);
  const auto bv = RandomValues<int32_t>(units, 42, -20000, 20000);
  int32_t multiplier = 0;
  int shift = 0;
  numerics::QuantizeMultiplier(
      static_cast<double>(in_scale * w_scale) / static_cast<double>(out_scale),
      &multiplier, &shift);
  const double real = static_cast<double>(in_scale) *
                      static_cast<double>(w_scale) /
                      static_cast<double>(out_scale);
  for (const bool with_bias : {false, true}) {
    OpModel m;
    const int x = QInput(m, DT::kInt16, {batch, depth}, in_scale, 0);
    const int w = QConst<int8_t>(m, {units, depth}, wv, {w_scale}, {0});
    const int b =
        with_bias ? QConst<int64_t>(m, {units},
                                    std::vector<int64_t>(bv.begin(), bv.end()),
                                    {in_scale * w_scale}, {0})
                  : -1;
    const int y = QOutput(m, DT::kInt16, {batch, units}, out_scale, 0);
    m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
         ir::FullyConnectedOptions{});
    std::vector<int16_t> fixed, by_scale;
    for (int bi = 0; bi < batch; ++bi) {
      for (int u = 0; u < units; ++u) {
        int64_t acc = with_bias ? bv[static_cast<size_t>(u)] : 0;
        for (int d = 0; d < depth; ++d) {
          acc += int64_t{xv[static_cast<size_t>(bi * depth + d)]} *
                 wv[static_cast<size_t>(u * depth + d)];
        }
        fixed.push_back(static_cast<int16_t>(numerics::Clamp(
            numerics::MultiplyByQuantizedMultiplier(acc, multiplier, shift),
            -32768, 32767)));
        by_scale.push_back(static_cast<int16_t>(
            numerics::RequantizeByScale(acc, real, 0, -32768, 32767)));
      }
    }
    const char* what = with_bias ? "int64 bias" : "no bias";
    ASSERT_NE(fixed, by_scale) << what;  // the two requantizations part here
    const auto input = MakeTensor<int16_t>({batch, depth}, xv);
    EXPECT_EQ(RunValues<int16_t>(m, {input}, 2,
                                 Policy(numerics::RoundingPolicy::kDouble)),
              fixed)
        << what;
    EXPECT_EQ(RunValues<int16_t>(m, {input}, 2,
                                 Policy(numerics::RoundingPolicy::kSingle)),
              by_scale)
        << what;
  }
}

}  // namespace
}  // namespace qforge::testing::integer_test
