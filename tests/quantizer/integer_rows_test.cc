// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The int8 / int16x8 rows of PRELU, RSQRT, BATCH_MATMUL, TRANSPOSE_CONV and
// MATRIX_SET_DIAG (quantizer/op_quant_spec.cc), and the zero bias a
// bias-less CONV_2D
// gets: small hand-built float models with synthetic statistics, the
// expected parameters derived by hand in the comments.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "calibration/histogram.h"
#include "gtest/gtest.h"
#include "quantizer/quantize.h"
#include "tests/quantizer/range_stats.h"
#include "tests/support/op_model.h"

namespace qforge::quantizer {
namespace {

using ir::DataType;
using ir::OpKind;

using testing::RangeStats;

const ir::Operator* FindOp(const ir::Model& m, OpKind kind) {
  for (const ir::Operator& op : m.subgraphs[0].operators) {
    if (op.kind == kind) return &op;
  }
  return nullptr;
}

const ir::Tensor& In(const ir::Model& m, const ir::Operator& op, size_t k) {
  return m.subgraphs[0].tensors[op.inputs[k]];
}

QuantizeOptions Scheme16() {
  QuantizeOptions o;
  o.scheme = Scheme::kInt16x8;
  return o;
}

// x[1,4] -> PRELU(alpha [4] constant) -> y.
struct PreluModel {
  testing::OpModel m;
  int x, a, y;
  PreluModel() {
    x = m.Input(DataType::kFloat32, {1, 4}, "x");
    a = m.Constant<float>({4}, {0.1f, 0.2f, -0.5f, 1.0f}, "alpha");
    y = m.Output(DataType::kFloat32, {1, 4}, "y");
    m.Op(OpKind::kPrelu, {x, a}, {y}, ir::Options{});
  }
  calibration::StatsFile StatsFile() const {
    calibration::StatsFile f;
    f.tensors = {RangeStats(x, -2.0f, 2.0f), RangeStats(y, -1.0f, 2.0f)};
    return f;
  }
};

TEST(IntegerRowsTest, PreluInt8AlphaQuantizedFromItsValues) {
  PreluModel p;
  const calibration::StatsFile stats = p.StatsFile();
  absl::StatusOr<QuantizeResult> r = Quantize(p.m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->kept_float.empty());
  const ir::Operator* op = FindOp(r->model, OpKind::kPrelu);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->version, 1);  // TFLite registers PRELU version 1 only
  const ir::Tensor& alpha = In(r->model, *op, 1);
  ASSERT_EQ(alpha.type, DataType::kInt8);
  ASSERT_TRUE(alpha.quantization.has_value());
  // Alpha range [-0.5, 1.0]: scale 1.5 / 255, zero point
  // -128 - round(-0.5 / scale) = -128 + 85 = -43.
  EXPECT_FLOAT_EQ(alpha.quantization->scale[0], 1.5f / 255);
  EXPECT_EQ(alpha.quantization->zero_point[0], -43);
}

TEST(IntegerRowsTest, PreluHasNoInt16Form) {
  PreluModel p;
  const calibration::StatsFile stats = p.StatsFile();
  absl::StatusOr<QuantizeResult> r = Quantize(p.m.model(), &stats, Scheme16());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->kept_float.size(), 1u);
  EXPECT_NE(r->kept_float[0].reason.find("int16x8"), std::string::npos)
      << r->kept_float[0].reason;
}

TEST(IntegerRowsTest, RsqrtVersions) {
  testing::OpModel m;
  const int x = m.Input(DataType::kFloat32, {4}, "x");
  const int y = m.Output(DataType::kFloat32, {4}, "y");
  m.Op(OpKind::kRsqrt, {x}, {y}, ir::Options{});
  calibration::StatsFile stats;
  stats.tensors = {RangeStats(x, 0.1f, 4.0f), RangeStats(y, 0.5f, 3.2f)};
  for (const auto& [opts, version, type] :
       {std::tuple{QuantizeOptions{}, 2, DataType::kInt8},
        std::tuple{Scheme16(), 3, DataType::kInt16}}) {
    absl::StatusOr<QuantizeResult> r = Quantize(m.model(), &stats, opts);
    ASSERT_TRUE(r.ok()) << r.status();
    const ir::Operator* op = FindOp(r->model, OpKind::kRsqrt);
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->version, version);
    EXPECT_EQ(In(r->model, *op, 0).type, type);
  }
}

TEST(IntegerRowsTest, BatchMatMulConstantRhsPerTensor) {
  testing::OpModel m;
  const int x = m.Input(DataType::kFloat32, {1, 2, 3}, "x");
  const int w = m.Constant<float>({3, 2}, {1, -2, 0.5f, 0, 0.25f, 1}, "w");
  const int y = m.Output(DataType::kFloat32, {1, 2, 2}, "y");
  m.Op(OpKind::kBatchMatMul, {x, w}, {y}, ir::BatchMatMulOptions{});
  calibration::StatsFile stats;
  stats.tensors = {RangeStats(x, -1.0f, 1.0f), RangeStats(y, -3.0f, 3.0f)};
  absl::StatusOr<QuantizeResult> r = Quantize(m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Operator* op = FindOp(r->model, OpKind::kBatchMatMul);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->version, 2);
  const ir::Tensor& rhs = In(r->model, *op, 1);
  ASSERT_EQ(rhs.type, DataType::kInt8);
  // rhs range [-2, 1]: one scale 3 / 255, zero point -128 + round(2 / scale)
  // = -128 + 170 = 42.
  ASSERT_EQ(rhs.quantization->scale.size(), 1u);
  EXPECT_FLOAT_EQ(rhs.quantization->scale[0], 3.0f / 255);
  EXPECT_EQ(rhs.quantization->zero_point[0], 42);
  // int16x8: symmetric, version 3.
  r = Quantize(m.model(), &stats, Scheme16());
  ASSERT_TRUE(r.ok()) << r.status();
  op = FindOp(r->model, OpKind::kBatchMatMul);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->version, 3);
  EXPECT_EQ(In(r->model, *op, 1).quantization->zero_point[0], 0);
}

TEST(IntegerRowsTest, TransposeConvWeightsPerOutputChannelAndBias) {
  // TRANSPOSE_CONV(output_shape, weights [2,1,1,1] OHWI, x [1,2,2,1], bias).
  testing::OpModel m;
  const int shape = m.Constant<int32_t>({4}, {1, 2, 2, 2}, "shape");
  const int w = m.Constant<float>({2, 1, 1, 1}, {0.5f, -2.0f}, "w");
  const int x = m.Input(DataType::kFloat32, {1, 2, 2, 1}, "x");
  const int b = m.Constant<float>({2}, {0.25f, -0.5f}, "b");
  const int y = m.Output(DataType::kFloat32, {1, 2, 2, 2}, "y");
  ir::TransposeConvOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_w = o.stride_h = 1;
  m.Op(OpKind::kTransposeConv, {shape, w, x, b}, {y}, o);
  calibration::StatsFile stats;
  stats.tensors = {RangeStats(x, -1.0f, 1.0f), RangeStats(y, -2.5f, 1.0f)};
  absl::StatusOr<QuantizeResult> r = Quantize(m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->kept_float.empty());
  const ir::Operator* op = FindOp(r->model, OpKind::kTransposeConv);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->version, 3);                               // with a bias
  EXPECT_EQ(In(r->model, *op, 0).type, DataType::kInt32);  // shape untouched
  const ir::Tensor& wq = In(r->model, *op, 1);
  ASSERT_EQ(wq.type, DataType::kInt8);
  // Per output channel (axis 0): 0.5 / 127 and 2 / 127.
  ASSERT_EQ(wq.quantization->scale.size(), 2u);
  EXPECT_FLOAT_EQ(wq.quantization->scale[0], 0.5f / 127);
  EXPECT_FLOAT_EQ(wq.quantization->scale[1], 2.0f / 127);
  EXPECT_EQ(wq.quantization->quantized_dimension, 0);
  // Input [-1, 1]: scale 2 / 255; bias scales s_in * s_w[c].
  const float s_in = In(r->model, *op, 2).quantization->scale[0];
  EXPECT_FLOAT_EQ(s_in, 2.0f / 255);
  const ir::Tensor& bq = In(r->model, *op, 3);
  ASSERT_EQ(bq.type, DataType::kInt32);
  EXPECT_FLOAT_EQ(bq.quantization->scale[0], s_in * (0.5f / 127));
  EXPECT_FLOAT_EQ(bq.quantization->scale[1], s_in * (2.0f / 127));
}

TEST(IntegerRowsTest, BiaslessConvGetsAZeroBias) {
  // LiteRT's quantized CONV_2D needs a bias: the quantizer adds zeros.
  testing::OpModel m;
  const int x = m.Input(DataType::kFloat32, {1, 2, 2, 1}, "x");
  const int w = m.Constant<float>({3, 1, 1, 1}, {1, -1, 0.5f}, "w");
  const int y = m.Output(DataType::kFloat32, {1, 2, 2, 3}, "y");
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_w = o.stride_h = 1;
  m.Op(OpKind::kConv2D, {x, w, -1}, {y}, o);
  calibration::StatsFile stats;
  stats.tensors = {RangeStats(x, -1.0f, 1.0f), RangeStats(y, -1.0f, 1.0f)};
  for (const QuantizeOptions& opts : {QuantizeOptions{}, Scheme16()}) {
    absl::StatusOr<QuantizeResult> r = Quantize(m.model(), &stats, opts);
    ASSERT_TRUE(r.ok()) << r.status();
    const ir::Operator* op = FindOp(r->model, OpKind::kConv2D);
    ASSERT_NE(op, nullptr);
    ASSERT_EQ(op->inputs.size(), 3u);
    ASSERT_GE(op->inputs[2], 0);
    const ir::Tensor& bq = In(r->model, *op, 2);
    EXPECT_EQ(bq.type, opts.scheme == Scheme::kInt8 ? DataType::kInt32
                                                    : DataType::kInt64);
    EXPECT_EQ(bq.shape, (std::vector<int32_t>{3}));
    const ir::Bytes& data = r->model.buffers[bq.buffer].data;
    EXPECT_FALSE(data.empty());
    for (uint8_t byte : data) EXPECT_EQ(byte, 0);
    ASSERT_EQ(bq.quantization->scale.size(), 3u);
  }
}

// x [2, 2, 3] with its diagonals d [2, 2] (an activation, or a constant)
// -> MATRIX_SET_DIAG -> y. TFLite's kernel copies raw values, so the row
// is Q(Shared, ...): y keeps its own range, and x and d are quantized onto
// y's parameters (the constant diagonal in its values' grid there).
TEST(IntegerRowsTest, MatrixSetDiagPutsBothInputsOnTheOutputsGrid) {
  for (const bool constant_diagonal : {false, true}) {
    SCOPED_TRACE(constant_diagonal ? "constant diagonal" : "diagonal input");
    testing::OpModel m;
    const int x = m.Input(DataType::kFloat32, {2, 2, 3}, "x");
    const std::vector<float> diagonal = {-4.0f, 0.5f, 3.0f, -1.0f};
    const int d = constant_diagonal ? m.Constant<float>({2, 2}, diagonal, "d")
                                    : m.Input(DataType::kFloat32, {2, 2}, "d");
    const int y = m.Output(DataType::kFloat32, {2, 2, 3}, "y");
    m.Op(OpKind::kMatrixSetDiag, {x, d}, {y}, ir::Options{});
    calibration::StatsFile stats;
    stats.tensors = {RangeStats(x, -1.0f, 1.0f), RangeStats(y, -4.0f, 3.0f)};
    if (!constant_diagonal) stats.tensors.push_back(RangeStats(d, -4.0f, 3.0f));
    for (const QuantizeOptions& opts : {QuantizeOptions{}, Scheme16()}) {
      const DataType type =
          opts.scheme == Scheme::kInt8 ? DataType::kInt8 : DataType::kInt16;
      absl::StatusOr<QuantizeResult> r = Quantize(m.model(), &stats, opts);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_TRUE(r->kept_float.empty());
      const ir::Operator* op = FindOp(r->model, OpKind::kMatrixSetDiag);
      ASSERT_NE(op, nullptr);
      EXPECT_EQ(op->version, 1);  // TFLite registers version 1 only
      const ir::Tensor& out = r->model.subgraphs[0].tensors[op->outputs[0]];
      ASSERT_EQ(out.type, type);
      ASSERT_TRUE(out.quantization.has_value());
      if (type == DataType::kInt16) {
        EXPECT_EQ(out.quantization->zero_point[0], 0);
      }
      for (size_t k = 0; k < 2; ++k) {
        const ir::Tensor& in = In(r->model, *op, k);
        EXPECT_EQ(in.type, type) << k;
        ASSERT_TRUE(in.quantization.has_value()) << k;
        EXPECT_EQ(in.quantization->scale, out.quantization->scale) << k;
        EXPECT_EQ(in.quantization->zero_point, out.quantization->zero_point)
            << k;
      }
      if (constant_diagonal && type == DataType::kInt8) {
        // Each value within half a step of the output's grid.
        const ir::Tensor& dq = In(r->model, *op, 1);
        const ir::Bytes& data = r->model.buffers[dq.buffer].data;
        ASSERT_EQ(data.size(), diagonal.size());
        const float s = out.quantization->scale[0];
        const int64_t zp = out.quantization->zero_point[0];
        for (size_t i = 0; i < diagonal.size(); ++i) {
          const float v = s * (static_cast<int8_t>(data[i]) - zp);
          EXPECT_NEAR(v, diagonal[i], 0.5f * s + 1e-6f) << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace qforge::quantizer
