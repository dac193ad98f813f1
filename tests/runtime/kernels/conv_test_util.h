// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers for the conv family tests: single-op model runs, and textbook
// reference implementations (direct loops over the definitions in TFLite's
// reference kernels, accumulated in double) used as the oracle for the
// randomized shape sweeps. The hand-derived cases in each test file pin the
// padding arithmetic these references share with the kernels.
#ifndef QFORGE_TESTS_RUNTIME_KERNELS_CONV_TEST_UTIL_H_
#define QFORGE_TESTS_RUNTIME_KERNELS_CONV_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "ir/options.h"
#include "tests/support/op_model.h"

namespace qforge::testing::conv {

using DT = ir::DataType;

// One op input: its shape and values, fed at run time or baked in as a
// constant. An empty shape with no values is an absent optional input.
struct Arg {
  std::vector<int64_t> shape;
  std::vector<float> values;
  bool constant = false;
  bool absent = false;
};
inline Arg In(std::vector<int64_t> shape, std::vector<float> v) {
  return Arg{std::move(shape), std::move(v), false, false};
}
inline Arg Const(std::vector<int64_t> shape, std::vector<float> v) {
  return Arg{std::move(shape), std::move(v), true, false};
}
inline Arg Absent() { return Arg{{}, {}, false, true}; }

inline std::vector<int32_t> Shape32(const std::vector<int64_t>& s) {
  return std::vector<int32_t>(s.begin(), s.end());
}

// Runs `kind` on float `args` (plus optional leading int32 constant
// `int_arg` for TRANSPOSE_CONV's output_shape) into one float output
// declared with `out_shape`.
inline absl::StatusOr<ir::HostTensor> RunOp(ir::OpKind kind,
                                            const std::vector<Arg>& args,
                                            std::vector<int64_t> out_shape,
                                            ir::Options options = {},
                                            int threads = 1) {
  OpModel m;
  std::vector<int32_t> ins;
  std::vector<ir::HostTensor> feeds;
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg& a = args[i];
    if (a.absent) {
      ins.push_back(-1);
      continue;
    }
    const std::string name = "arg" + std::to_string(i);
    if (a.constant) {
      ins.push_back(m.Constant<float>(Shape32(a.shape), a.values, name));
    } else {
      ins.push_back(m.Input(DT::kFloat32, Shape32(a.shape), name));
      feeds.push_back(MakeTensor<float>(a.shape, a.values));
    }
  }
  const int y = m.Output(DT::kFloat32, Shape32(out_shape), "out");
  m.Op(kind, ins, {y}, std::move(options));
  absl::StatusOr<std::vector<ir::HostTensor>> out = m.Run(feeds, threads);
  if (!out.ok()) return out.status();
  return std::move((*out)[0]);
}

// |got - want| <= tol * max(1, |want|) elementwise.
inline void ExpectNear(const ir::HostTensor& got,
                       const std::vector<int64_t>& shape,
                       const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.type(), DT::kFloat32);
  ASSERT_EQ(got.shape(), shape);
  auto g = got.Flat<float>();
  ASSERT_EQ(g.size(), want.size());
  int reported = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const bool ok =
        std::fabs(g[i] - want[i]) <= tol * std::max(1.0f, std::fabs(want[i]));
    if (!ok && ++reported <= 10) {
      ADD_FAILURE() << "element " << i << ": got " << g[i] << ", want "
                    << want[i];
    }
  }
}

inline std::vector<float> Random(size_t n, uint32_t seed, float lo = -1.0f,
                                 float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

inline std::vector<float> Iota(int n, float start = 0.0f) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + i;
  return v;
}

inline int64_t Count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// --------------------------------------------------------------- oracles

// TFLite's window arithmetic (tensorflow/lite/kernels/padding.h).
struct Axis {
  int64_t out, pad;
};
inline Axis Window(ir::Padding padding, int64_t in, int64_t filter,
                   int64_t stride, int64_t dilation) {
  const int64_t eff = (filter - 1) * dilation + 1;
  const int64_t out = padding == ir::Padding::kSame
                          ? (in + stride - 1) / stride
                          : (in - eff + stride) / stride;
  const int64_t total = (out - 1) * stride + eff - in;
  return Axis{out, total > 0 ? total / 2 : 0};
}

inline float Act(double v, ir::Activation act) {
  double lo = std::numeric_limits<float>::lowest();
  double hi = std::numeric_limits<float>::max();
  switch (act) {
    case ir::Activation::kRelu:
      lo = 0;
      break;
    case ir::Activation::kRelu6:
      lo = 0;
      hi = 6;
      break;
    case ir::Activation::kReluN1To1:
      lo = -1;
      hi = 1;
      break;
    default:
      break;
  }
  return static_cast<float>(std::min(hi, std::max(lo, v)));
}

struct ConvGeom {
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  ir::Padding padding = ir::Padding::kSame;
  ir::Activation act = ir::Activation::kNone;
};

// CONV_2D (grouped when the input has a multiple of the filter channels).
inline std::vector<float> RefConv(const std::vector<float>& in,
                                  const std::vector<int64_t>& is,
                                  const std::vector<float>& w,
                                  const std::vector<int64_t>& ws,
                                  const std::vector<float>* bias,
                                  const ConvGeom& g,
                                  std::vector<int64_t>* out_shape) {
  const int64_t n = is[0], h = is[1], wd = is[2], c = is[3];
  const int64_t o = ws[0], kh = ws[1], kw = ws[2], cg = ws[3];
  const int64_t groups = c / cg, og = o / groups;
  const Axis ay = Window(g.padding, h, kh, g.stride_h, g.dil_h);
  const Axis ax = Window(g.padding, wd, kw, g.stride_w, g.dil_w);
  *out_shape = {n, ay.out, ax.out, o};
  std::vector<float> out(static_cast<size_t>(n * ay.out * ax.out * o));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oy = 0; oy < ay.out; ++oy)
      for (int64_t ox = 0; ox < ax.out; ++ox)
        for (int64_t oc = 0; oc < o; ++oc) {
          const int64_t grp = oc / og;
          double acc = 0;
          for (int64_t ky = 0; ky < kh; ++ky)
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t iy = oy * g.stride_h - ay.pad + ky * g.dil_h;
              const int64_t ix = ox * g.stride_w - ax.pad + kx * g.dil_w;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              for (int64_t ic = 0; ic < cg; ++ic) {
                acc += double{in[static_cast<size_t>(
                           ((b * h + iy) * wd + ix) * c + grp * cg + ic)]} *
                       w[static_cast<size_t>(((oc * kh + ky) * kw + kx) * cg +
                                             ic)];
              }
            }
          if (bias != nullptr) acc += (*bias)[static_cast<size_t>(oc)];
          out[static_cast<size_t>(((b * ay.out + oy) * ax.out + ox) * o + oc)] =
              Act(acc, g.act);
        }
  return out;
}

// DEPTHWISE_CONV_2D, filter [1, KH, KW, C * M].
inline std::vector<float> RefDepthwise(const std::vector<float>& in,
                                       const std::vector<int64_t>& is,
                                       const std::vector<float>& w,
                                       const std::vector<int64_t>& ws,
                                       const std::vector<float>* bias,
                                       const ConvGeom& g,
                                       std::vector<int64_t>* out_shape) {
  const int64_t n = is[0], h = is[1], wd = is[2], c = is[3];
  const int64_t kh = ws[1], kw = ws[2], o = ws[3], mult = o / c;
  const Axis ay = Window(g.padding, h, kh, g.stride_h, g.dil_h);
  const Axis ax = Window(g.padding, wd, kw, g.stride_w, g.dil_w);
  *out_shape = {n, ay.out, ax.out, o};
  std::vector<float> out(static_cast<size_t>(n * ay.out * ax.out * o));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oy = 0; oy < ay.out; ++oy)
      for (int64_t ox = 0; ox < ax.out; ++ox)
        for (int64_t ic = 0; ic < c; ++ic)
          for (int64_t m = 0; m < mult; ++m) {
            const int64_t oc = ic * mult + m;
            double acc = 0;
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t iy = oy * g.stride_h - ay.pad + ky * g.dil_h;
                const int64_t ix = ox * g.stride_w - ax.pad + kx * g.dil_w;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += double{in[static_cast<size_t>(
                           ((b * h + iy) * wd + ix) * c + ic)]} *
                       w[static_cast<size_t>((ky * kw + kx) * o + oc)];
              }
            if (bias != nullptr) acc += (*bias)[static_cast<size_t>(oc)];
            out[static_cast<size_t>(((b * ay.out + oy) * ax.out + ox) * o +
                                    oc)] = Act(acc, g.act);
          }
  return out;
}

}  // namespace qforge::testing::conv

#endif  // QFORGE_TESTS_RUNTIME_KERNELS_CONV_TEST_UTIL_H_
