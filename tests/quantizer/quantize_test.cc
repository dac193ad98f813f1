// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Quantizer rewrites on small hand-built float models with synthetic
// statistics whose ranges are chosen so the expected parameters can be
// derived by hand.
#include "quantizer/quantize.h"

#include <cmath>

#include "calibration/histogram.h"
#include "calibration/range.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "ir/validate.h"
#include "tests/quantizer/range_stats.h"
#include "tests/support/op_model.h"

namespace qforge::quantizer {
namespace {

using ir::DataType;
using ir::OpKind;

using testing::RangeStats;

// x[1,4,4,2] -> CONV_2D (3 filters 1x1, bias) -> y -> SOFTMAX -> z.
struct ConvModel {
  testing::OpModel m;
  int x, w, b, y, z;
  ConvModel(std::vector<float> weights = {1, -2, 0.5f, 0.25f, 0, 0}) {
    x = m.Input(DataType::kFloat32, {1, 4, 4, 2}, "x");
    w = m.Constant<float>({3, 1, 1, 2}, weights, "w");
    b = m.Constant<float>({3}, {0.5f, -1.0f, 2.0f}, "b");
    y = m.Tensor(DataType::kFloat32, {1, 4, 4, 3}, "y");
    z = m.Output(DataType::kFloat32, {1, 4, 4, 3}, "z");
    ir::Conv2DOptions conv;
    conv.padding = ir::Padding::kValid;
    conv.stride_w = conv.stride_h = 1;
    m.Op(OpKind::kConv2D, {x, w, b}, {y}, conv);
    m.Op(OpKind::kSoftmax, {y}, {z}, ir::SoftmaxOptions{1.0f});
  }
  calibration::StatsFile StatsFile() const {
    calibration::StatsFile f;
    f.tensors = {RangeStats(x, 0.0f, 2.55f), RangeStats(y, -4.0f, 6.2f),
                 RangeStats(z, 0.0f, 1.0f)};
    return f;
  }
};

const ir::Tensor* Find(const ir::Model& m, const std::string& name) {
  for (const ir::Tensor& t : m.subgraphs[0].tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

TEST(QuantizeTest, Int8ConvSoftmax) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->ops_quantized, 2);
  EXPECT_TRUE(r->kept_float.empty());
  const ir::Subgraph& sg = r->model.subgraphs[0];
  // QUANTIZE, CONV_2D, SOFTMAX, DEQUANTIZE.
  ASSERT_EQ(sg.operators.size(), 4u);
  EXPECT_EQ(sg.operators[0].kind, OpKind::kQuantize);
  EXPECT_EQ(sg.operators[1].kind, OpKind::kConv2D);
  EXPECT_EQ(sg.operators[1].version, 3);
  EXPECT_EQ(sg.operators[2].kind, OpKind::kSoftmax);
  EXPECT_EQ(sg.operators[2].version, 2);
  EXPECT_EQ(sg.operators[3].kind, OpKind::kDequantize);
  // Input x: [0, 2.55] -> scale 0.01, zero point -128.
  const ir::Tensor& xq = sg.tensors[sg.operators[0].outputs[0]];
  EXPECT_EQ(xq.type, DataType::kInt8);
  EXPECT_FLOAT_EQ(xq.quantization->scale[0], 0.01f);
  EXPECT_EQ(xq.quantization->zero_point[0], -128);
  // Weights per output channel (axis 0): |max| 2, 0.5, 0 -> 2/127,
  // 0.5/127; the all-zero channel takes the smallest scale its bias (2.0)
  // fits with, 2.0 / (0.01 * 2^30), as TFLite's AdjustWeightsForBiasScale.
  const ir::Tensor& wq = sg.tensors[sg.operators[1].inputs[1]];
  EXPECT_EQ(wq.type, DataType::kInt8);
  ASSERT_EQ(wq.quantization->scale.size(), 3u);
  EXPECT_FLOAT_EQ(wq.quantization->scale[0], 2.0f / 127);
  EXPECT_FLOAT_EQ(wq.quantization->scale[1], 0.5f / 127);
  EXPECT_FLOAT_EQ(wq.quantization->scale[2],
                  static_cast<float>(2.0 / (0.01f * 1073741824.0)));
  EXPECT_EQ(wq.quantization->quantized_dimension, 0);
  const auto& wdata = r->model.buffers[wq.buffer].data;
  const auto* w8 = reinterpret_cast<const int8_t*>(wdata.data());
  EXPECT_EQ(w8[0], 64);    // 1 / (2/127) = 63.5 -> 64 (away from zero)
  EXPECT_EQ(w8[1], -127);  // -2 / (2/127)
  EXPECT_EQ(w8[2], 127);   // 0.5 / (0.5/127)
  EXPECT_EQ(w8[3], 64);    // 0.25 / (0.5/127) = 63.5 -> 64
  // Bias int32, scale = 0.01 * weight scale, zero point 0, dim 0.
  const ir::Tensor& bq = sg.tensors[sg.operators[1].inputs[2]];
  EXPECT_EQ(bq.type, DataType::kInt32);
  EXPECT_FLOAT_EQ(bq.quantization->scale[0], 0.01f * 2.0f / 127);
  EXPECT_EQ(bq.quantization->quantized_dimension, 0);
  const auto* b32 =
      reinterpret_cast<const int32_t*>(r->model.buffers[bq.buffer].data.data());
  EXPECT_EQ(b32[0],
            static_cast<int32_t>(std::round(0.5 / (0.01f * 2.0f / 127))));
  // SOFTMAX output fixed at 1/256, -128.
  const ir::Tensor& zq = sg.tensors[sg.operators[2].outputs[0]];
  EXPECT_FLOAT_EQ(zq.quantization->scale[0], 1.0f / 256);
  EXPECT_EQ(zq.quantization->zero_point[0], -128);
  // The float model output keeps its name.
  EXPECT_EQ(sg.tensors[sg.outputs[0]].name, "z");
  EXPECT_EQ(sg.tensors[sg.outputs[0]].type, DataType::kFloat32);
  EXPECT_TRUE(ir::ValidateModel(r->model).ok());
}

TEST(QuantizeTest, Deterministic) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  auto a = Quantize(c.m.model(), &stats, {});
  auto b = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*formats::SerializeTflite(a->model),
            *formats::SerializeTflite(b->model));
}

TEST(QuantizeTest, IntegerInputAndOutputTypes) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  QuantizeOptions o;
  o.input_type = o.output_type = DataType::kInt8;
  auto r = Quantize(c.m.model(), &stats, o);
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Subgraph& sg = r->model.subgraphs[0];
  EXPECT_EQ(sg.tensors[sg.inputs[0]].type, DataType::kInt8);
  EXPECT_EQ(sg.tensors[sg.outputs[0]].type, DataType::kInt8);
  EXPECT_EQ(sg.operators.size(), 2u);  // no QUANTIZE / DEQUANTIZE
}

TEST(QuantizeTest, Uint8InputAndOutputTypes) {
  // TFLite's converter with inference_input/output_type uint8: uint8 border
  // tensors (int8 scale, zero point + 128) requantized by QUANTIZE ops.
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  QuantizeOptions o;
  o.input_type = o.output_type = DataType::kUInt8;
  auto r = Quantize(c.m.model(), &stats, o);
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Subgraph& sg = r->model.subgraphs[0];
  // QUANTIZE (uint8 -> int8), CONV_2D, SOFTMAX, QUANTIZE (int8 -> uint8).
  ASSERT_EQ(sg.operators.size(), 4u);
  EXPECT_EQ(sg.operators[0].kind, OpKind::kQuantize);
  EXPECT_EQ(sg.operators[3].kind, OpKind::kQuantize);
  const ir::Tensor& in = sg.tensors[sg.inputs[0]];
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.type, DataType::kUInt8);
  // x in [0, 2.55]: int8 scale 0.01, zero point -128 -> uint8 zero point 0.
  EXPECT_FLOAT_EQ(in.quantization->scale[0], 0.01f);
  EXPECT_EQ(in.quantization->zero_point[0], 0);
  EXPECT_EQ(sg.operators[0].inputs[0], sg.inputs[0]);
  EXPECT_EQ(sg.tensors[sg.operators[0].outputs[0]].type, DataType::kInt8);
  EXPECT_EQ(sg.tensors[sg.operators[0].outputs[0]].quantization->zero_point[0],
            -128);
  // SOFTMAX output: int8 (1/256, -128) -> uint8 (1/256, 0).
  const ir::Tensor& out = sg.tensors[sg.outputs[0]];
  EXPECT_EQ(out.name, "z");
  EXPECT_EQ(out.type, DataType::kUInt8);
  EXPECT_FLOAT_EQ(out.quantization->scale[0], 1.0f / 256);
  EXPECT_EQ(out.quantization->zero_point[0], 0);
  EXPECT_EQ(sg.operators[3].outputs[0], sg.outputs[0]);
  EXPECT_TRUE(ir::ValidateModel(r->model).ok());
  // uint8 goes with int8 only.
  o.scheme = Scheme::kInt16x8;
  EXPECT_FALSE(Quantize(c.m.model(), &stats, o).ok());
}

// int16 activations: symmetric, scale = headroom * max|range| / 32767. The
// conv output y was calibrated over [-4, 6.2]; the default headroom 2
// leaves room for values up to 12.4 (samples beyond the calibration set),
// headroom 1 is TFLite's min/max.
TEST(QuantizeTest, Int16RangesHaveHeadroom) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  QuantizeOptions o;
  o.scheme = Scheme::kInt16x8;
  o.range.num_bits = 16;
  for (const float headroom : {2.0f, 1.0f}) {
    o.int16_headroom = headroom;
    absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, o);
    ASSERT_TRUE(r.ok()) << r.status();
    const ir::Tensor* y = Find(r->model, "y");
    ASSERT_NE(y, nullptr);
    ASSERT_EQ(y->type, DataType::kInt16);
    EXPECT_FLOAT_EQ(y->quantization->scale[0], headroom * 6.2f / 32767);
    EXPECT_EQ(y->quantization->zero_point[0], 0);
  }
}

// SOFTMAX reads its input for the largest values (ops.def kReadsLargest):
// whatever the range method, y keeps its whole calibrated range [-4, 6.2]
// and a quarter of that span above it, for held-out samples with a
// larger top logit: [-4, 8.75], scale 12.75 / 255 = 0.05, zero point
// -128 + 4 / 0.05 = -48.
TEST(QuantizeTest, SoftmaxInputKeepsItsTopValues) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  for (const char* method : {"minmax", "mse", "percentile:60"}) {
    QuantizeOptions o;
    absl::StatusOr<calibration::RangeSpec> spec =
        calibration::ParseRangeMethod(method);
    ASSERT_TRUE(spec.ok());
    o.range = *spec;
    absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, o);
    ASSERT_TRUE(r.ok()) << r.status();
    const ir::Tensor* y = Find(r->model, "y");
    ASSERT_NE(y, nullptr);
    ASSERT_EQ(y->type, DataType::kInt8);
    EXPECT_FLOAT_EQ(y->quantization->scale[0], 0.05f) << method;
    EXPECT_EQ(y->quantization->zero_point[0], -48) << method;
  }
}

TEST(QuantizeTest, NanWeightsAreRefused) {
  ConvModel c({1, NAN, 0, 0, 0, 0});
  const calibration::StatsFile stats = c.StatsFile();
  auto r = Quantize(c.m.model(), &stats, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("'w'"), std::string::npos) << r.status();
}

TEST(QuantizeTest, AlreadyQuantizedIsRefused) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  auto once = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(once.ok());
  auto twice = Quantize(once->model, &stats, {});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("already quantized"),
            std::string::npos);
}

TEST(QuantizeTest, ExcludedOpStaysFloatBetweenConversions) {
  ConvModel c;
  const calibration::StatsFile stats = c.StatsFile();
  QuantizeOptions o;
  o.exclude = {"SOFTMAX"};
  auto r = Quantize(c.m.model(), &stats, o);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->kept_float.size(), 1u);
  EXPECT_EQ(r->kept_float[0].op_name, "SOFTMAX");
  const ir::Subgraph& sg = r->model.subgraphs[0];
  // QUANTIZE, CONV (int8), DEQUANTIZE, SOFTMAX (float).
  ASSERT_EQ(sg.operators.size(), 4u);
  EXPECT_EQ(sg.operators[2].kind, OpKind::kDequantize);
  EXPECT_EQ(sg.operators[3].kind, OpKind::kSoftmax);
  EXPECT_EQ(sg.tensors[sg.operators[3].outputs[0]].type, DataType::kFloat32);
  // --strict turns the kept op into an error (exit code 3).
  o.strict = true;
  auto strict = Quantize(c.m.model(), &stats, o);
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().code(), absl::StatusCode::kUnimplemented);
  // An exclusion that matches nothing is a usage error.
  o.strict = false;
  o.exclude = {"NO_SUCH_OP"};
  EXPECT_FALSE(Quantize(c.m.model(), &stats, o).ok());
}

TEST(QuantizeTest, ConcatRequantizesInputsToTheSharedRange) {
  testing::OpModel m;
  const int a = m.Input(DataType::kFloat32, {1, 2}, "a");
  const int b = m.Input(DataType::kFloat32, {1, 2}, "b");
  const int c = m.Output(DataType::kFloat32, {1, 4}, "c");
  m.Op(OpKind::kConcatenation, {a, b}, {c}, ir::ConcatenationOptions{1});
  calibration::StatsFile stats;
  stats.tensors = {RangeStats(a, -1, 1), RangeStats(b, 0, 10),
                   RangeStats(c, -1, 10)};
  auto r = Quantize(m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Subgraph& sg = r->model.subgraphs[0];
  const ir::Operator* concat = nullptr;
  for (const ir::Operator& op : sg.operators) {
    if (op.kind == OpKind::kConcatenation) concat = &op;
  }
  ASSERT_NE(concat, nullptr);
  // Both inputs carry the output's parameters ([-1, 10] -> 11/255).
  for (int32_t in : concat->inputs) {
    EXPECT_FLOAT_EQ(sg.tensors[in].quantization->scale[0], 11.0f / 255);
  }
  EXPECT_FLOAT_EQ(sg.tensors[concat->outputs[0]].quantization->scale[0],
                  11.0f / 255);
}

TEST(QuantizeTest, MissingStatisticsKeepOpsFloat) {
  ConvModel c;
  calibration::StatsFile stats;  // nothing observed
  auto r = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->ops_quantized, 0);
  EXPECT_EQ(r->kept_float.size(), 2u);
  EXPECT_FALSE(Quantize(c.m.model(), nullptr, {}).ok());  // int8 needs stats
}

TEST(QuantizeTest, Float16WeightsBehindDequantize) {
  ConvModel c;
  QuantizeOptions o;
  o.scheme = Scheme::kFloat16;
  auto r = Quantize(c.m.model(), nullptr, o);
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Subgraph& sg = r->model.subgraphs[0];
  int dequantize = 0;
  for (const ir::Operator& op : sg.operators) {
    if (op.kind == OpKind::kDequantize) {
      ++dequantize;
      EXPECT_EQ(sg.tensors[op.inputs[0]].type, DataType::kFloat16);
      EXPECT_EQ(op.version, 3);
    }
  }
  EXPECT_EQ(dequantize, 2);  // weights and bias
  ASSERT_NE(Find(r->model, "w"), nullptr);
  EXPECT_EQ(Find(r->model, "w")->type, DataType::kFloat32);
}

TEST(QuantizeTest, DynamicRangeQuantizesLargeFullyConnectedWeights) {
  testing::OpModel m;
  const int x = m.Input(DataType::kFloat32, {1, 64}, "x");
  std::vector<float> weights(32 * 64);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = std::sin(0.1f * i);
  const int w = m.Constant<float>({32, 64}, weights, "w");
  const int y = m.Output(DataType::kFloat32, {1, 32}, "y");
  m.Op(OpKind::kFullyConnected, {x, w, -1}, {y}, ir::FullyConnectedOptions{});
  QuantizeOptions o;
  o.scheme = Scheme::kDynamic;
  auto r = Quantize(m.model(), nullptr, o);
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Operator& fc = r->model.subgraphs[0].operators[0];
  EXPECT_EQ(r->model.subgraphs[0].tensors[fc.inputs[1]].type, DataType::kInt8);
  EXPECT_EQ(r->model.subgraphs[0].tensors[fc.outputs[0]].type,
            DataType::kFloat32);
  EXPECT_TRUE(ir::OptionsOr<ir::FullyConnectedOptions>(fc.options)
                  .asymmetric_quantize_inputs);
  EXPECT_EQ(fc.version, 9);
}

}  // namespace
}  // namespace qforge::quantizer
