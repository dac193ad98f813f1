// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the elementwise kernel tests: build a one-op model
// around given input values, run it, compare outputs.
#ifndef QFORGE_TESTS_RUNTIME_KERNELS_ELEMENTWISE_TEST_UTIL_H_
#define QFORGE_TESTS_RUNTIME_KERNELS_ELEMENTWISE_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge::testing::elementwise {

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

// One op input: a value, fed at run time or baked in as a constant.
struct Arg {
  Arg(ir::HostTensor v, bool c = false,  // NOLINT: implicit by design
      std::optional<ir::Quantization> q = std::nullopt)
      : value(std::move(v)), constant(c), quantization(std::move(q)) {}
  ir::HostTensor value;
  bool constant = false;
  std::optional<ir::Quantization> quantization;
};

inline ir::HostTensor F32(std::vector<int64_t> shape, std::vector<float> v) {
  return MakeTensor<float>(std::move(shape), v);
}
inline ir::HostTensor I32(std::vector<int64_t> shape, std::vector<int32_t> v) {
  return MakeTensor<int32_t>(std::move(shape), v);
}
inline ir::HostTensor I64(std::vector<int64_t> shape, std::vector<int64_t> v) {
  return MakeTensor<int64_t>(std::move(shape), v);
}
// bool tensors from bytes (std::vector<bool> has no data()).
inline ir::HostTensor Bool(std::vector<int64_t> shape, std::vector<uint8_t> v) {
  ir::HostTensor t(ir::DataType::kBool, std::move(shape));
  const size_t bytes = std::min(t.ByteSize(), v.size());
  if (bytes > 0) std::memcpy(t.data(), v.data(), bytes);
  return t;
}
template <typename T>
ir::HostTensor Typed(ir::DataType type, std::vector<int64_t> shape,
                     std::vector<T> v) {
  ir::HostTensor t(type, std::move(shape));
  std::memcpy(t.data(), v.data(), std::min(t.ByteSize(), v.size() * sizeof(T)));
  return t;
}

inline std::vector<int32_t> Shape32(const std::vector<int64_t>& s) {
  return std::vector<int32_t>(s.begin(), s.end());
}

// Runs `kind` on `args` into one output of `out_type` / `out_shape` (the
// shape the model declares; kernels compute the real one).
inline absl::StatusOr<ir::HostTensor> RunOp(
    ir::OpKind kind, const std::vector<Arg>& args, ir::DataType out_type,
    std::vector<int32_t> out_shape, ir::Options options = {}, int threads = 1) {
  OpModel m;
  std::vector<int32_t> ins;
  std::vector<ir::HostTensor> feeds;
  for (const Arg& a : args) {
    int t;
    if (a.constant) {
      t = m.ConstantBytes(a.value.type(), Shape32(a.value.shape()),
                          a.value.bytes());
    } else {
      t = m.Input(a.value.type(), Shape32(a.value.shape()));
      feeds.push_back(a.value);
    }
    if (a.quantization.has_value()) m.tensor(t).quantization = a.quantization;
    ins.push_back(t);
  }
  const int y = m.Output(out_type, std::move(out_shape));
  m.Op(kind, ins, {y}, std::move(options));
  absl::StatusOr<std::vector<ir::HostTensor>> out = m.Run(feeds, threads);
  if (!out.ok()) return out.status();
  return std::move((*out)[0]);
}

// Same, output declared with the shape of the first argument.
inline absl::StatusOr<ir::HostTensor> RunLike(ir::OpKind kind,
                                              const std::vector<Arg>& args,
                                              ir::DataType out_type,
                                              ir::Options options = {},
                                              int threads = 1) {
  return RunOp(kind, args, out_type, Shape32(args[0].value.shape()),
               std::move(options), threads);
}

// |got - want| <= tol * max(1, |want|) elementwise; NaN matches NaN and
// infinities must match exactly.
inline void ExpectFloats(const ir::HostTensor& got,
                         const std::vector<int64_t>& shape,
                         const std::vector<float>& want, float tol = 1e-6f) {
  ASSERT_EQ(got.type(), ir::DataType::kFloat32);
  ASSERT_EQ(got.shape(), shape);
  auto g = got.Flat<float>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << "element " << i << " is " << g[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(g[i], want[i]) << "element " << i;
    } else {
      EXPECT_LE(std::fabs(g[i] - want[i]),
                tol * std::max(1.0f, std::fabs(want[i])))
          << "element " << i << ": got " << g[i] << ", want " << want[i];
    }
  }
}

template <typename T>
void ExpectValues(const ir::HostTensor& got, ir::DataType type,
                  const std::vector<int64_t>& shape,
                  const std::vector<T>& want) {
  ASSERT_EQ(got.type(), type);
  ASSERT_EQ(got.shape(), shape);
  auto g = got.Flat<T>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(g[i], want[i]) << "element " << i;
  }
}

inline void ExpectBools(const ir::HostTensor& got,
                        const std::vector<int64_t>& shape,
                        const std::vector<uint8_t>& want) {
  ExpectValues<uint8_t>(got, ir::DataType::kBool, shape, want);
}

}  // namespace qforge::testing::elementwise

#endif  // QFORGE_TESTS_RUNTIME_KERNELS_ELEMENTWISE_TEST_UTIL_H_
