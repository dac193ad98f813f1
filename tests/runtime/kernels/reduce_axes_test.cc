// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MEAN, SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN. Expected values are
// derived by hand (each case says how), or, for the large cases, by a plain
// nested-loop reference written here that follows TFLite's reference_ops::
// Reduce (walk the input in row-major order, accumulate into the output
// element each input element maps to); the kernel must match it bit for bit
// with 1 and 4 threads.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

using testing::Iota;

// One reduce op with constant axes; returns the output.
template <typename T>
absl::StatusOr<ir::HostTensor> RunReduce(
    ir::OpKind kind, std::vector<int32_t> in_shape, const std::vector<T>& in,
    std::vector<int32_t> axes, bool keep_dims, std::vector<int32_t> out_shape,
    int threads = 1) {
  OpModel m;
  const ir::DataType type = OpModel::TypeOf<T>();
  const int x = m.Input(type, in_shape);
  const int a = m.Constant<int32_t>({static_cast<int32_t>(axes.size())}, axes);
  const int y = m.Output(type, out_shape);
  m.Op(kind, {x, a}, {y}, ir::ReducerOptions{keep_dims});
  std::vector<int64_t> shape(in_shape.begin(), in_shape.end());
  // MakeTensor would memcpy from the null data() of an empty vector.
  auto out = m.Run(
      {in.empty() ? ir::HostTensor(type, shape) : MakeTensor<T>(shape, in)},
      threads);
  if (!out.ok()) return out.status();
  return (*out)[0];
}

std::vector<int64_t> Shape(const ir::HostTensor& t) { return t.shape(); }

// x[b][j][k] = 12b + 4j + k, shape [2,3,4].
TEST(ReduceAxesTest, SumMiddleAxis) {
  // sum_j (12b + 4j + k) = 36b + 12 + 3k.
  auto out = RunReduce<float>(ir::OpKind::kSum, {2, 3, 4}, Iota(24), {1}, false,
                              {2, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Shape(*out), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(Values<float>(*out),
            (std::vector<float>{12, 15, 18, 21, 48, 51, 54, 57}));
}

TEST(ReduceAxesTest, NegativeAndDuplicateAxesKeepDims) {
  // Axes {-2, 1} both mean axis 1: same sums as above, shape [2,1,4].
  auto out = RunReduce<float>(ir::OpKind::kSum, {2, 3, 4}, Iota(24), {-2, 1},
                              true, {2, 1, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Shape(*out), (std::vector<int64_t>{2, 1, 4}));
  EXPECT_EQ(Values<float>(*out),
            (std::vector<float>{12, 15, 18, 21, 48, 51, 54, 57}));
}

TEST(ReduceAxesTest, MeanOuterAndInnerAxes) {
  // Mean over b and k of 12b + 4j + k: 12*0.5 + 4j + 1.5 = 7.5 + 4j.
  auto out = RunReduce<float>(ir::OpKind::kMean, {2, 3, 4}, Iota(24), {0, 2},
                              false, {3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>(*out), (std::vector<float>{7.5f, 11.5f, 15.5f}));
}

TEST(ReduceAxesTest, MeanOfOuterAxesKeepsInnerRun) {
  // Mean over b and j keeps k (the innermost axis, accumulated as a run):
  // 6 + 4 + k = 10 + k.
  auto out = RunReduce<float>(ir::OpKind::kMean, {2, 3, 4}, Iota(24), {0, 1},
                              true, {1, 1, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Shape(*out), (std::vector<int64_t>{1, 1, 4}));
  EXPECT_EQ(Values<float>(*out), (std::vector<float>{10, 11, 12, 13}));
}

TEST(ReduceAxesTest, MaxAndMin) {
  // max_k (12b + 4j + k) = 12b + 4j + 3.
  auto max = RunReduce<float>(ir::OpKind::kReduceMax, {2, 3, 4}, Iota(24), {2},
                              true, {2, 3, 1});
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<float>(*max), (std::vector<float>{3, 7, 11, 15, 19, 23}));
  // min_b (12b + 4j + k) = 4j + k: the first 12 values.
  auto min = RunReduce<float>(ir::OpKind::kReduceMin, {2, 3, 4}, Iota(24), {0},
                              false, {3, 4});
  ASSERT_TRUE(min.ok()) << min.status();
  std::vector<float> first12 = Iota(12);
  EXPECT_EQ(Values<float>(*min), first12);
}

TEST(ReduceAxesTest, MaxOfNegativesStartsAtLowest) {
  // A running max that started at min() (smallest positive float) would
  // give 1.2e-38 here.
  auto out = RunReduce<float>(ir::OpKind::kReduceMax, {1, 3},
                              {-5.f, -3.f, -4.f}, {1}, false, {1});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>(*out), (std::vector<float>{-3.f}));
}

TEST(ReduceAxesTest, ProdFloatAndInt32) {
  // Rows {1,2,3} and {4,5,6}: products 6 and 120; everything: 720.
  auto rows = RunReduce<float>(ir::OpKind::kReduceProd, {2, 3},
                               {1, 2, 3, 4, 5, 6}, {1}, false, {2});
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(Values<float>(*rows), (std::vector<float>{6, 120}));
  auto all = RunReduce<int32_t>(ir::OpKind::kReduceProd, {2, 3},
                                {1, 2, 3, 4, 5, 6}, {0, 1}, false, {});
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(Shape(*all), std::vector<int64_t>{});
  EXPECT_EQ(Values<int32_t>(*all), (std::vector<int32_t>{720}));
}

TEST(ReduceAxesTest, IntegerSums) {
  // int64 keeps 1e12 + 3 exactly (a float would not).
  auto sum64 = RunReduce<int64_t>(ir::OpKind::kSum, {2, 2},
                                  {1000000000000LL, 2000000000000LL, 3, 4}, {0},
                                  false, {2});
  ASSERT_TRUE(sum64.ok()) << sum64.status();
  EXPECT_EQ(Values<int64_t>(*sum64),
            (std::vector<int64_t>{1000000000003LL, 2000000000004LL}));
  // int32 sums wrap around like TFLite's int32 accumulator:
  // INT32_MAX + 1 = INT32_MIN.
  auto wrap = RunReduce<int32_t>(ir::OpKind::kSum, {2},
                                 {std::numeric_limits<int32_t>::max(), 1}, {0},
                                 false, {});
  ASSERT_TRUE(wrap.ok()) << wrap.status();
  EXPECT_EQ(Values<int32_t>(*wrap),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min()}));
  auto max = RunReduce<int32_t>(ir::OpKind::kReduceMax, {3}, {-7, -2, -9}, {0},
                                false, {});
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<int32_t>(*max), (std::vector<int32_t>{-2}));
}

TEST(ReduceAxesTest, IntegerMeanTruncates) {
  // 11 / 4 = 2.75 -> 2; -11 / 4 = -2.75 -> -2 (int64 sum, C++ division).
  auto out = RunReduce<int32_t>(ir::OpKind::kMean, {2, 4},
                                {1, 2, 3, 5, -1, -2, -3, -5}, {1}, false, {2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<int32_t>(*out), (std::vector<int32_t>{2, -2}));
}

TEST(ReduceAxesTest, ScalarInputIsUnchanged) {
  auto out = RunReduce<float>(ir::OpKind::kMean, {}, {3.5f}, {0}, false, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>(*out), (std::vector<float>{3.5f}));
}

TEST(ReduceAxesTest, NoAxesCopies) {
  auto out = RunReduce<float>(ir::OpKind::kSum, {2, 2}, {1, -2, 3, -4}, {},
                              false, {2, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Shape(*out), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>(*out), (std::vector<float>{1, -2, 3, -4}));
}

TEST(ReduceAxesTest, EmptyReductionGivesNeutralValues) {
  // Reducing a size-0 axis: SUM 0, PROD 1, MAX lowest, MEAN NaN (TFLite).
  auto sum = RunReduce<float>(ir::OpKind::kSum, {2, 0}, {}, {1}, false, {2});
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(Values<float>(*sum), (std::vector<float>{0, 0}));
  auto prod =
      RunReduce<float>(ir::OpKind::kReduceProd, {2, 0}, {}, {1}, false, {2});
  ASSERT_TRUE(prod.ok()) << prod.status();
  EXPECT_EQ(Values<float>(*prod), (std::vector<float>{1, 1}));
  auto max =
      RunReduce<float>(ir::OpKind::kReduceMax, {1, 0}, {}, {1}, false, {1});
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values<float>(*max)[0], std::numeric_limits<float>::lowest());
  auto mean = RunReduce<float>(ir::OpKind::kMean, {1, 0}, {}, {1}, false, {1});
  ASSERT_TRUE(mean.ok()) << mean.status();
  EXPECT_TRUE(std::isnan(Values<float>(*mean)[0]));
}

TEST(ReduceAxesTest, AxesFromAnotherOp) {
  // The axes are a model input (not constant): prepare reads them at run
  // time. Sum of [[1,2],[3,4]] over axis 0 = [4, 6].
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {2, 2});
  const int a = m.Input(ir::DataType::kInt32, {1});
  const int y = m.Output(ir::DataType::kFloat32, {2});
  m.Op(ir::OpKind::kSum, {x, a}, {y}, ir::ReducerOptions{false});
  auto out = m.Run(
      {MakeTensor<float>({2, 2}, {1, 2, 3, 4}), MakeTensor<int32_t>({1}, {0})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[0]), (std::vector<float>{4, 6}));
  // Same model, axis 1 = [3, 7], through one interpreter run twice.
  auto interp = runtime::Interpreter::Create(m.model());
  ASSERT_TRUE(interp.ok()) << interp.status();
  ASSERT_TRUE((*interp)
                  ->Run({MakeTensor<float>({2, 2}, {1, 2, 3, 4}),
                         MakeTensor<int32_t>({1}, {1})})
                  .ok());
  EXPECT_EQ(Values<float>((*interp)->OutputHost(0)),
            (std::vector<float>{3, 7}));
  ASSERT_TRUE((*interp)
                  ->Run({MakeTensor<float>({2, 2}, {1, 2, 3, 4}),
                         MakeTensor<int32_t>({1}, {0})})
                  .ok());
  EXPECT_EQ(Values<float>((*interp)->OutputHost(0)),
            (std::vector<float>{4, 6}));
}

TEST(ReduceAxesTest, RejectsBadAxesAndTypes) {
  auto range =
      RunReduce<float>(ir::OpKind::kSum, {2, 3}, Iota(6), {2}, false, {2});
  EXPECT_EQ(range.status().code(), absl::StatusCode::kInvalidArgument)
      << range.status();
  auto neg =
      RunReduce<float>(ir::OpKind::kSum, {2, 3}, Iota(6), {-3}, false, {2});
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
  auto int8 = RunReduce<int8_t>(ir::OpKind::kSum, {2}, {1, 2}, {0}, false, {});
  EXPECT_EQ(int8.status().code(), absl::StatusCode::kUnimplemented)
      << int8.status();
  // Float axes.
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {2});
  const int a = m.Constant<float>({1}, {0.f});
  const int y = m.Output(ir::DataType::kFloat32, {});
  m.Op(ir::OpKind::kMean, {x, a}, {y}, ir::ReducerOptions{false});
  auto out = m.Run({MakeTensor<float>({2}, {1, 2})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
}

// TFLite's reference order: one pass over the input in row-major order,
// output[o] = op(output[o], input[i]) for the output o of each input i.
template <typename Op>
std::vector<float> ReferenceReduce(const std::vector<int32_t>& shape,
                                   const std::vector<float>& in,
                                   const std::vector<bool>& reduced, float init,
                                   Op op) {
  std::vector<int64_t> out_dims;
  for (size_t d = 0; d < shape.size(); ++d) {
    out_dims.push_back(reduced[d] ? 1 : shape[d]);
  }
  int64_t out_count = 1;
  for (int64_t d : out_dims) out_count *= d;
  std::vector<float> out(static_cast<size_t>(out_count), init);
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      o = o * out_dims[d] + (reduced[d] ? 0 : idx[d]);
    }
    out[static_cast<size_t>(o)] = op(out[static_cast<size_t>(o)], in[i]);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  return out;
}

struct OrderCase {
  std::vector<int32_t> shape;
  std::vector<int32_t> axes;
};

TEST(ReduceAxesTest, SumOrderIsTfliteReferenceOrderForAnyThreadCount) {
  const std::vector<OrderCase> cases = {
      {{64, 300, 7}, {1}},     // middle axis, inner run of 7
      {{64, 300, 7}, {2}},     // innermost axis
      {{64, 300, 7}, {0, 2}},  // outer and inner
      {{3, 5, 7, 11, 13}, {1, 3}},
      {{1, 200000}, {0, 1}},  // everything (one long sum)
      {{200, 1, 300}, {0}},   // size-1 axis between
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  int checked = 0;
  for (const OrderCase& c : cases) {
    int64_t n = 1;
    for (int32_t d : c.shape) n *= d;
    std::vector<float> in(static_cast<size_t>(n));
    for (float& v : in) v = dist(rng);
    std::vector<bool> reduced(c.shape.size(), false);
    for (int32_t a : c.axes) reduced[static_cast<size_t>(a)] = true;
    std::vector<int32_t> out_shape;
    for (size_t d = 0; d < c.shape.size(); ++d) {
      out_shape.push_back(reduced[d] ? 1 : c.shape[d]);
    }
    const std::vector<float> want = ReferenceReduce(
        c.shape, in, reduced, 0.f, [](float acc, float x) { return acc + x; });
    for (int threads : {1, 4}) {
      auto got = RunReduce<float>(ir::OpKind::kSum, c.shape, in, c.axes, true,
                                  out_shape, threads);
      ASSERT_TRUE(got.ok()) << got.status();
      const std::vector<float> values = Values<float>(*got);
      ASSERT_EQ(values.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(values[i], want[i])
            << "element " << i << ", " << threads << " threads";
        ++checked;
      }
    }
  }
  std::printf(
      "[ reduce ] %d sums compared bit-exactly with the reference "
      "order\n",
      checked);
}

TEST(ReduceAxesTest, MeanMaxMinProdMatchReferenceOnRandomData) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.5f, 1.5f);
  const std::vector<int32_t> shape = {6, 17, 9};
  std::vector<float> in(6 * 17 * 9);
  for (float& v : in) v = dist(rng);
  const std::vector<bool> reduced = {true, false, true};
  const auto add = [](float a, float x) { return a + x; };
  std::vector<float> mean = ReferenceReduce(shape, in, reduced, 0.f, add);
  for (float& v : mean) v /= 54.f;
  const std::vector<float> max =
      ReferenceReduce(shape, in, reduced, std::numeric_limits<float>::lowest(),
                      [](float a, float x) { return a > x ? a : x; });
  const std::vector<float> min =
      ReferenceReduce(shape, in, reduced, std::numeric_limits<float>::max(),
                      [](float a, float x) { return a < x ? a : x; });
  const std::vector<float> prod = ReferenceReduce(
      shape, in, reduced, 1.f, [](float a, float x) { return a * x; });
  const std::pair<ir::OpKind, const std::vector<float>*> ops[] = {
      {ir::OpKind::kMean, &mean},
      {ir::OpKind::kReduceMax, &max},
      {ir::OpKind::kReduceMin, &min},
      {ir::OpKind::kReduceProd, &prod}};
  for (const auto& [kind, want] : ops) {
    for (int threads : {1, 3}) {
      auto got =
          RunReduce<float>(kind, shape, in, {0, -1}, false, {17}, threads);
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(Values<float>(*got), *want);
    }
  }
}

}  // namespace
}  // namespace qforge
