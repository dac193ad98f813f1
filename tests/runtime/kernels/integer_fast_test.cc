// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vector paths of the integer CONV_2D, DEPTHWISE_CONV_2D and
// FULLY_CONNECTED kernels (runtime/kernels/conv/conv2d_simd.h,
// fully_connected_simd.h) against the scalar kernels, their oracle: random
// shapes, strides, dilations, paddings, zero points, per-channel scales (so
// multipliers and shifts), biases (none, int32, int64), fused activations,
// batch sizes, thread counts, every rounding policy and both arithmetics,
// on int8, uint8 and int16 activations. Each case runs in the interpreter
// limited to each instruction set this CPU has (InterpreterOptions::isa)
// and must give the scalar kernels' bytes exactly. (The scalar kernels' own
// exactness against TFLite is tests/interop and integer_conv_test.cc.)
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ir/options.h"
#include "runtime/cpu_isa.h"
#include "runtime/interpreter.h"
#include "tests/runtime/kernels/integer_test_util.h"

namespace qforge::testing::integer_test {
namespace {

using numerics::Arithmetic;
using numerics::RoundingPolicy;
using runtime::Isa;

struct Rng {
  std::mt19937 gen;
  explicit Rng(uint32_t seed) : gen(seed) {}
  int Int(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(gen);
  }
  float Real(float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(gen);
  }
  // Log-uniform in [lo, hi].
  float LogReal(float lo, float hi) {
    return std::exp(Real(std::log(lo), std::log(hi)));
  }
  bool Coin() { return Int(0, 1) == 1; }
};

int32_t TypeLo(DT t) {
  return t == DT::kUInt8 ? 0 : t == DT::kInt16 ? -32768 : -128;
}
int32_t TypeHi(DT t) {
  return t == DT::kUInt8 ? 255 : t == DT::kInt16 ? 32767 : 127;
}

std::vector<uint8_t> RandomBytes(Rng& r, size_t n) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(r.Int(0, 255));
  return v;
}

numerics::Modes RandomModes(Rng& r) {
  numerics::Modes m;
  const int k = r.Int(0, 2);
  m.rounding = k == 0   ? RoundingPolicy::kSingle
               : k == 1 ? RoundingPolicy::kDouble
                        : RoundingPolicy::kLegacy;
  m.arithmetic = r.Coin() ? Arithmetic::kXnnpack : Arithmetic::kTflite;
  return m;
}

ir::Activation RandomActivation(Rng& r) {
  const int k = r.Int(0, 3);
  return k == 0   ? ir::Activation::kNone
         : k == 1 ? ir::Activation::kRelu
         : k == 2 ? ir::Activation::kRelu6
                  : ir::Activation::kReluN1To1;
}

// Runs `m` on `input` with the given modes, Isa and threads; the output
// bytes, or the error message.
std::string RunBytes(OpModel& m, const std::vector<ir::HostTensor>& inputs,
                     const numerics::Modes& modes, Isa isa, int threads,
                     std::vector<uint8_t>* out) {
  runtime::InterpreterOptions o;
  o.threads = threads;
  o.numerics = modes;
  o.isa = isa;
  auto interp = runtime::Interpreter::Create(m.model(), o);
  if (!interp.ok()) return std::string(interp.status().message());
  const absl::Status s = (*interp)->Run(inputs);
  if (!s.ok()) return std::string(s.message());
  const ir::HostTensor y = (*interp)->OutputHost(0);
  out->assign(y.data(), y.data() + y.ByteSize());
  return "";
}

// Every vector Isa against the scalar kernels, 1 and 2 threads.
void ExpectSameAsScalar(OpModel& m, const std::vector<ir::HostTensor>& input,
                        const numerics::Modes& modes, const std::string& what,
                        int* compared) {
  std::vector<uint8_t> want;
  const std::string err = RunBytes(m, input, modes, Isa::kScalar, 1, &want);
  if (!err.empty()) {
    // The scalar kernel refuses it (e.g. a requantization scale too large):
    // nothing to compare.
    return;
  }
  for (Isa isa : {Isa::kAvx2, Isa::kAvx512Vnni}) {
    if (runtime::ResolveIsa(isa) != isa) continue;  // not on this CPU
    for (int threads : {1, 2}) {
      std::vector<uint8_t> got;
      const std::string e = RunBytes(m, input, modes, isa, threads, &got);
      ASSERT_EQ(e, "") << what;
      ASSERT_EQ(got.size(), want.size()) << what;
      size_t diff = 0, first = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i] && diff++ == 0) first = i;
      }
      ASSERT_EQ(diff, 0u) << what << " isa " << runtime::IsaName(isa)
                          << " threads " << threads << ": " << diff
                          << " bytes differ, first at " << first;
      ++*compared;
    }
  }
}

int64_t WindowOut(bool same, int64_t in, int64_t k, int64_t stride,
                  int64_t dil) {
  const int64_t eff = (k - 1) * dil + 1;
  return same ? (in + stride - 1) / stride : (in - eff + stride) / stride;
}

// Weight scales per channel (or one) and the output scale that keeps the
// requantized values mostly inside the type's range.
struct Scales {
  float in = 0, out = 0;
  std::vector<float> w;
};

Scales RandomScales(Rng& r, DT type, int64_t channels, bool per_channel,
                    int64_t depth) {
  Scales s;
  s.in = r.LogReal(0.002f, 0.1f);
  const int n = per_channel ? static_cast<int>(channels) : 1;
  for (int c = 0; c < n; ++c) s.w.push_back(r.LogReal(0.001f, 0.05f));
  // A typical accumulator is ~ sqrt(depth) * 60 * 60 (in * w units); aim
  // it at a fraction of the output range, with spread either way.
  const double typical = std::sqrt(static_cast<double>(depth)) * 3600.0;
  const double range = type == DT::kInt16 ? 20000.0 : 100.0;
  const double in_w = static_cast<double>(s.in) * s.w[0];
  s.out = static_cast<float>(in_w * typical / range * r.LogReal(0.1f, 10.0f));
  if (type == DT::kInt16) s.out = std::max(s.out, s.in * s.w[0] / 100.0f);
  return s;
}

// pairs8: an 8-bit, 8-channel depthwise with x stride and dilation 1 (two
// output pixels per vector in the AVX-512 form).
void RunConvCase(Rng& r, bool depthwise, int* compared, bool pairs8 = false) {
  const int t = pairs8 ? r.Int(0, 1) : r.Int(0, 2);
  const DT type = t == 0 ? DT::kInt8 : t == 1 ? DT::kUInt8 : DT::kInt16;
  const int batch = r.Int(1, 2);
  // Some wide depthwise rows: the 8-bit AVX-512 form runs a row in chunks
  // of 64 output pixels.
  const bool wide = depthwise && r.Int(0, 7) == 0;
  const int in_h = r.Int(1, 11), in_w = wide ? r.Int(60, 150) : r.Int(1, 11);
  const int in_c = pairs8 ? 8 : r.Int(1, depthwise ? 40 : 24);
  const int out_c = depthwise ? in_c : r.Int(1, 70);
  // A quarter are pointwise (1x1, stride 1: MobileNet's), which the fast
  // path runs without an indirection table.
  const bool pointwise = !pairs8 && r.Int(0, 3) == 0;
  const int k_h = pointwise ? 1 : r.Int(1, 5),
            k_w = pointwise ? 1 : r.Int(1, 5);
  const int stride_h = pointwise ? 1 : r.Int(1, 3);
  const int stride_w = pointwise || pairs8 ? 1 : r.Int(1, 3);
  const int dil_h = r.Int(1, 2), dil_w = pairs8 ? 1 : r.Int(1, 2);
  const bool same = r.Coin();
  const int64_t out_h = WindowOut(same, in_h, k_h, stride_h, dil_h);
  const int64_t out_w = WindowOut(same, in_w, k_w, stride_w, dil_w);
  if (out_h <= 0 || out_w <= 0) return;
  const int64_t taps = int64_t{k_h} * k_w;
  const bool per_channel = type != DT::kUInt8 && r.Coin();
  const Scales sc =
      RandomScales(r, type, out_c, per_channel, depthwise ? taps : taps * in_c);
  const int32_t in_zp =
      type == DT::kInt16 ? 0 : r.Int(TypeLo(type), TypeHi(type));
  const int32_t out_zp =
      type == DT::kInt16 ? 0 : r.Int(TypeLo(type), TypeHi(type));
  OpModel m;
  const int x = QInput(m, type, {batch, in_h, in_w, in_c}, sc.in, in_zp);
  const int64_t wn = depthwise ? taps * out_c : out_c * taps * in_c;
  const std::vector<int32_t> wshape =
      depthwise ? std::vector<int32_t>{1, k_h, k_w, out_c}
                : std::vector<int32_t>{out_c, k_h, k_w, in_c};
  int w;
  if (type == DT::kUInt8) {
    std::vector<uint8_t> wv = RandomBytes(r, static_cast<size_t>(wn));
    w = QConst<uint8_t>(m, wshape, wv, sc.w, {r.Int(0, 255)});
  } else {
    std::vector<int8_t> wv(static_cast<size_t>(wn));
    for (int8_t& v : wv) v = static_cast<int8_t>(r.Int(-127, 127));
    w = QConst<int8_t>(m, wshape, wv, sc.w,
                       std::vector<int64_t>(sc.w.size(), 0), depthwise ? 3 : 0);
  }
  std::vector<float> bias_scales;
  for (float ws : sc.w) bias_scales.push_back(sc.in * ws);
  const std::vector<int64_t> bias_zps(bias_scales.size(), 0);
  int b = -1;
  const int bias_kind = r.Int(0, 2);  // none, int32, int64 (int16 only)
  if (bias_kind == 1 || (bias_kind == 2 && type != DT::kInt16)) {
    std::vector<int32_t> bv(static_cast<size_t>(out_c));
    for (int32_t& v : bv) v = r.Int(-50000, 50000);
    b = QConst<int32_t>(m, {out_c}, bv, bias_scales, bias_zps);
  } else if (bias_kind == 2) {
    std::vector<int64_t> bv(static_cast<size_t>(out_c));
    for (int64_t& v : bv) v = r.Int(-5000000, 5000000);
    b = QConst<int64_t>(m, {out_c}, bv, bias_scales, bias_zps);
  }
  const int y = QOutput(
      m, type,
      {batch, static_cast<int32_t>(out_h), static_cast<int32_t>(out_w), out_c},
      sc.out, out_zp);
  const ir::Padding pad = same ? ir::Padding::kSame : ir::Padding::kValid;
  const ir::Activation act = RandomActivation(r);
  if (depthwise) {
    ir::DepthwiseConv2DOptions o;
    o.padding = pad;
    o.stride_h = stride_h;
    o.stride_w = stride_w;
    o.dilation_h = dil_h;
    o.dilation_w = dil_w;
    o.depth_multiplier = 1;
    o.activation = act;
    m.Op(ir::OpKind::kDepthwiseConv2D, {x, w, b}, {y}, o);
  } else {
    ir::Conv2DOptions o;
    o.padding = pad;
    o.stride_h = stride_h;
    o.stride_w = stride_w;
    o.dilation_h = dil_h;
    o.dilation_w = dil_w;
    o.activation = act;
    m.Op(ir::OpKind::kConv2D, {x, w, b}, {y}, o);
  }
  ir::HostTensor input(type, {batch, in_h, in_w, in_c});
  for (uint8_t& v : input.bytes()) v = static_cast<uint8_t>(r.Int(0, 255));
  const numerics::Modes modes = RandomModes(r);
  const std::string what = absl::StrCat(
      depthwise ? "DEPTHWISE_CONV_2D " : "CONV_2D ", ir::DataTypeName(type),
      " in ", batch, "x", in_h, "x", in_w, "x", in_c, " out_c ", out_c, " k ",
      k_h, "x", k_w, " s ", stride_h, ",", stride_w, " d ", dil_h, ",", dil_w,
      same ? " SAME" : " VALID", " bias ", bias_kind, " zp ", in_zp, "/",
      out_zp, " rounding ", static_cast<int>(modes.rounding), " arithmetic ",
      static_cast<int>(modes.arithmetic));
  ExpectSameAsScalar(m, {input}, modes, what, compared);
}

void RunFcCase(Rng& r, int* compared) {
  const int t = r.Int(0, 2);
  const DT type = t == 0 ? DT::kInt8 : t == 1 ? DT::kUInt8 : DT::kInt16;
  const int batch = r.Int(1, 5);
  const int depth = r.Int(1, 300);
  const int units = r.Int(1, 100);
  const bool per_channel = type != DT::kUInt8 && r.Coin();
  const Scales sc = RandomScales(r, type, units, per_channel, depth);
  const int32_t in_zp =
      type == DT::kInt16 ? 0 : r.Int(TypeLo(type), TypeHi(type));
  const int32_t out_zp =
      type == DT::kInt16 ? 0 : r.Int(TypeLo(type), TypeHi(type));
  // Per-tensor weights may carry a zero point (TFLite's per-tensor FC).
  const int32_t w_zp = per_channel || type == DT::kInt16 ? 0
                       : type == DT::kUInt8              ? r.Int(0, 255)
                                                         : r.Int(-20, 20);
  OpModel m;
  const int x = QInput(m, type, {batch, depth}, sc.in, in_zp);
  int w;
  if (type == DT::kUInt8) {
    w = QConst<uint8_t>(
        m, {units, depth},
        RandomBytes(r, static_cast<size_t>(int64_t{units} * depth)), sc.w,
        {w_zp});
  } else {
    std::vector<int8_t> wv(static_cast<size_t>(int64_t{units} * depth));
    for (int8_t& v : wv) v = static_cast<int8_t>(r.Int(-127, 127));
    w = QConst<int8_t>(m, {units, depth}, wv, sc.w,
                       std::vector<int64_t>(sc.w.size(), w_zp), 0);
  }
  std::vector<float> bias_scales;
  for (float ws : sc.w) bias_scales.push_back(sc.in * ws);
  const std::vector<int64_t> bias_zps(bias_scales.size(), 0);
  int b = -1;
  const int bias_kind = r.Int(0, 2);
  if (bias_kind == 1 || (bias_kind == 2 && type != DT::kInt16)) {
    std::vector<int32_t> bv(static_cast<size_t>(units));
    for (int32_t& v : bv) v = r.Int(-50000, 50000);
    b = QConst<int32_t>(m, {units}, bv, bias_scales, bias_zps);
  } else if (bias_kind == 2) {
    std::vector<int64_t> bv(static_cast<size_t>(units));
    for (int64_t& v : bv) v = r.Int(-5000000, 5000000);
    b = QConst<int64_t>(m, {units}, bv, bias_scales, bias_zps);
  }
  const int y = QOutput(m, type, {batch, units}, sc.out, out_zp);
  ir::FullyConnectedOptions o;
  o.activation = RandomActivation(r);
  m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y}, o);
  ir::HostTensor input(type, {batch, depth});
  for (uint8_t& v : input.bytes()) v = static_cast<uint8_t>(r.Int(0, 255));
  const numerics::Modes modes = RandomModes(r);
  const std::string what = absl::StrCat(
      "FULLY_CONNECTED ", ir::DataTypeName(type), " ", batch, "x", depth,
      " -> ", units, " bias ", bias_kind, " zp ", in_zp, "/", w_zp, "/", out_zp,
      " rounding ", static_cast<int>(modes.rounding), " arithmetic ",
      static_cast<int>(modes.arithmetic));
  ExpectSameAsScalar(m, {input}, modes, what, compared);
}

// 8-bit ADD and SUB (general path; --arithmetic xnnpack's ADD stays
// scalar): random shapes with broadcasting, scales, zero points.
void RunAddSubCase(Rng& r, int* compared) {
  const DT type = r.Coin() ? DT::kInt8 : DT::kUInt8;
  const bool sub = r.Coin();
  std::vector<int32_t> out_shape = {r.Int(1, 2), r.Int(1, 9), r.Int(1, 9),
                                    r.Int(1, 40)};
  // Each input drops some dims to 1 (broadcast) or keeps them.
  std::vector<int32_t> sa = out_shape, sb = out_shape;
  for (size_t d = 0; d < 4; ++d) {
    const int k = r.Int(0, 5);
    if (k == 0) sa[d] = 1;
    if (k == 1) sb[d] = 1;
  }
  const float s1 = r.LogReal(0.005f, 0.5f), s2 = r.LogReal(0.005f, 0.5f);
  const float so = std::max(s1, s2) * r.LogReal(0.3f, 4.0f);
  auto zp = [&] { return r.Int(TypeLo(type), TypeHi(type)); };
  OpModel m;
  const int a = QInput(m, type, sa, s1, zp());
  const int b = QInput(m, type, sb, s2, zp());
  const int y = QOutput(m, type, out_shape, so, zp());
  ir::AddSubOptions o;
  o.activation = RandomActivation(r);
  o.is_sub = sub;
  m.Op(sub ? ir::OpKind::kSub : ir::OpKind::kAdd, {a, b}, {y}, o);
  std::vector<ir::HostTensor> inputs;
  for (const auto& shape : {sa, sb}) {
    ir::HostTensor t(type, std::vector<int64_t>(shape.begin(), shape.end()));
    for (uint8_t& v : t.bytes()) v = static_cast<uint8_t>(r.Int(0, 255));
    inputs.push_back(std::move(t));
  }
  const numerics::Modes modes = RandomModes(r);
  const std::string what =
      absl::StrCat(sub ? "SUB " : "ADD ", ir::DataTypeName(type), " ", sa[0],
                   "x", sa[1], "x", sa[2], "x", sa[3], " + ", sb[0], "x", sb[1],
                   "x", sb[2], "x", sb[3], " scales ", s1, ",", s2, "->", so,
                   " rounding ", static_cast<int>(modes.rounding),
                   " arithmetic ", static_cast<int>(modes.arithmetic));
  ExpectSameAsScalar(m, inputs, modes, what, compared);
}

// QUANTIZE float32 -> int8 / uint8 / int16 per tensor: random values with
// exact halves of the step (where rounding half away from zero and half to
// even differ), values far outside the range, NaN and infinities.
void RunQuantizeCase(Rng& r, int* compared) {
  const int k = r.Int(0, 2);
  const DT type = k == 0 ? DT::kInt8 : k == 1 ? DT::kUInt8 : DT::kInt16;
  // Power-of-two scales make the halves exact.
  const float scale =
      r.Coin() ? std::ldexp(1.0f, -r.Int(0, 12)) : r.LogReal(1e-4f, 1.0f);
  const int32_t zp = r.Int(TypeLo(type), TypeHi(type));
  const int32_t n = r.Int(1, 700);
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, n});
  const int y = QOutput(m, type, {1, n}, scale, zp);
  m.Op(ir::OpKind::kQuantize, {x}, {y});
  ir::HostTensor input(DT::kFloat32, {1, n});
  float* v = reinterpret_cast<float*>(input.data());
  for (int32_t i = 0; i < n; ++i) {
    const int kind = r.Int(0, 9);
    v[i] = kind == 0   ? (r.Int(-300, 300) + 0.5f) * scale
           : kind == 1 ? r.Real(-1e6f, 1e6f)
           : kind == 2 ? std::numeric_limits<float>::quiet_NaN()
           : kind == 3
               ? (r.Coin() ? 1 : -1) * std::numeric_limits<float>::infinity()
               : r.Real(-300.0f, 300.0f) * scale;
  }
  const numerics::Modes modes = RandomModes(r);
  ExpectSameAsScalar(
      m, {input}, modes,
      absl::StrCat("QUANTIZE float32 -> ", ir::DataTypeName(type), " n ", n,
                   " scale ", scale, " zp ", zp),
      compared);
}

TEST(IntegerFastTest, ConvMatchesScalarKernel) {
  if (runtime::DetectIsa() == Isa::kScalar) GTEST_SKIP() << "no vector Isa";
  Rng r(2026);
  int compared = 0;
  for (int i = 0; i < 400 && !HasFatalFailure(); ++i) {
    RunConvCase(r, /*depthwise=*/false, &compared);
  }
  EXPECT_GT(compared, 300);
}

TEST(IntegerFastTest, DepthwiseMatchesScalarKernel) {
  if (runtime::DetectIsa() == Isa::kScalar) GTEST_SKIP() << "no vector Isa";
  Rng r(2027);
  int compared = 0;
  for (int i = 0; i < 400 && !HasFatalFailure(); ++i) {
    RunConvCase(r, /*depthwise=*/true, &compared);
  }
  EXPECT_GT(compared, 300);
}

TEST(IntegerFastTest, DepthwiseEightChannelPairsMatchScalarKernel) {
  if (runtime::DetectIsa() == Isa::kScalar) GTEST_SKIP() << "no vector Isa";
  Rng r(2031);
  int compared = 0;
  for (int i = 0; i < 200 && !HasFatalFailure(); ++i) {
    RunConvCase(r, /*depthwise=*/true, &compared, /*pairs8=*/true);
  }
  EXPECT_GT(compared, 100);
}

TEST(IntegerFastTest, FullyConnectedMatchesScalarKernel) {
  if (runtime::DetectIsa() == Isa::kScalar) GTEST_SKIP() << "no vector Isa";
  Rng r(2028);
  int compared = 0;
  for (int i = 0; i < 300 && !HasFatalFailure(); ++i) {
    RunFcCase(r, &compared);
  }
  EXPECT_GT(compared, 300);
}

TEST(IntegerFastTest, AddSubMatchesScalarKernel) {
  if (runtime::DetectIsa() == Isa::kScalar) GTEST_SKIP() << "no vector Isa";
  Rng r(2029);
  int compared = 0;
  for (int i = 0; i < 300 && !HasFatalFailure(); ++i) {
    RunAddSubCase(r, &compared);
  }
  EXPECT_GT(compared, 800);
}

TEST(IntegerFastTest, QuantizeMatchesScalarKernel) {
  if (runtime::DetectIsa() == Isa::kScalar) GTEST_SKIP() << "no vector Isa";
  Rng r(2030);
  int compared = 0;
  for (int i = 0; i < 300 && !HasFatalFailure(); ++i) {
    RunQuantizeCase(r, &compared);
  }
  EXPECT_GT(compared, 300);
}

}  // namespace
}  // namespace qforge::testing::integer_test
