// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers for the integer-kernel tests: quantized single-op models, and
// float references (dequantize, compute in double, quantize with round
// half away from zero) for the "within 1 LSB of the real result" checks.
#ifndef QFORGE_TESTS_RUNTIME_KERNELS_INTEGER_TEST_UTIL_H_
#define QFORGE_TESTS_RUNTIME_KERNELS_INTEGER_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge::testing::integer_test {

using DT = ir::DataType;

inline void SetQuant(OpModel& m, int t, std::vector<float> scales,
                     std::vector<int64_t> zero_points, int axis = 0) {
  ir::Quantization q;
  q.scale = std::move(scales);
  q.zero_point = std::move(zero_points);
  q.quantized_dimension = axis;
  m.tensor(t).quantization = q;
}

// A quantized tensor of the model.
inline int QInput(OpModel& m, DT type, std::vector<int32_t> shape, float scale,
                  int64_t zp) {
  const int t = m.Input(type, std::move(shape));
  SetQuant(m, t, {scale}, {zp});
  return t;
}
inline int QOutput(OpModel& m, DT type, std::vector<int32_t> shape, float scale,
                   int64_t zp) {
  const int t = m.Output(type, std::move(shape));
  SetQuant(m, t, {scale}, {zp});
  return t;
}
template <typename T>
int QConst(OpModel& m, std::vector<int32_t> shape, const std::vector<T>& v,
           std::vector<float> scales, std::vector<int64_t> zps, int axis = 0) {
  const int t = m.Constant<T>(std::move(shape), v);
  SetQuant(m, t, std::move(scales), std::move(zps), axis);
  return t;
}

// Runs the model and returns output 0's values; fails the test on error.
template <typename T>
std::vector<T> RunValues(OpModel& m, const std::vector<ir::HostTensor>& in,
                         int threads = 1, const numerics::Modes& modes = {}) {
  absl::StatusOr<std::vector<ir::HostTensor>> out = m.Run(in, threads, modes);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  return Values<T>((*out)[0]);
}

// round(real / scale) + zp, ties away from zero, clamped to [lo, hi].
inline int32_t QuantizeRef(double real, double scale, int32_t zp, int32_t lo,
                           int32_t hi) {
  const double q = std::round(real / scale) + zp;
  return static_cast<int32_t>(std::max<double>(lo, std::min<double>(hi, q)));
}

template <typename T>
std::vector<T> RandomValues(size_t n, uint32_t seed, int32_t lo, int32_t hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(d(rng));
  return v;
}

// Max |a - b| over two integer vectors of equal length.
template <typename T>
int64_t MaxAbsDiff(const std::vector<T>& a, const std::vector<int32_t>& b) {
  EXPECT_EQ(a.size(), b.size());
  int64_t m = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    m = std::max<int64_t>(m, std::abs(static_cast<int64_t>(a[i]) - b[i]));
  }
  return m;
}

}  // namespace qforge::testing::integer_test

#endif  // QFORGE_TESTS_RUNTIME_KERNELS_INTEGER_TEST_UTIL_H_
