// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Weight rounding (GPTQ, the clipping search) on the weight-only and
// dynamic forms, on ToyCar (10 trained FULLY_CONNECTED layers, [640 ->
// 128 -> ... -> 640]) and its real log-mel vectors: the grid recovery
// rounds on is the one the form's writer stores (PlannedWeightGrids), GPTQ
// lowers each layer's output error against nearest rounding on that grid,
// and the written file holds exactly the rounded weights: integers times
// the float16 block scales (blockwise) or the per-channel scales.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/data_source.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "numerics/float16.h"
#include "quantizer/quantize.h"
#include "quantizer/recover.h"
#include "quantizer/weight_forms.h"
#include "quantizer/weight_grid.h"
#include "quantizer/weighted_layer.h"
#include "tests/support/samples.h"
#include "tests/support/test_paths.h"

namespace qforge::quantizer {
namespace {

QuantizeOptions FormOptions(Scheme scheme, int bits, int block) {
  QuantizeOptions o;
  o.scheme = scheme;
  o.weight_bits = bits;
  o.block_size = block;
  return o;
}

// Rounds `model` in place for the form of `options` (as pipeline/quantize.cc
// does for these schemes) and returns what recovery reported.
RecoverResult RoundForForm(ir::Model& model, const std::string& data_spec,
                           const QuantizeOptions& options, bool gptq,
                           bool clip) {
  const size_t ops = model.subgraphs[0].operators.size();
  RecoverOptions ro;
  ro.grids = PlannedWeightGrids(model, std::vector<bool>(ops, false), options);
  ro.rounding.gptq = gptq;
  ro.rounding.clip_mse = clip;
  ro.threads = 2;
  formats::SampleSource data =
      ::qforge::testing::OpenFirstInputSamples(model, data_spec);
  std::vector<int64_t> samples;
  for (int64_t i = 0; i < 20; ++i) samples.push_back(i);
  absl::StatusOr<RecoverResult> r = RecoverWeights(model, data, samples, ro);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : RecoverResult{};
}

int Int4At(const ir::Bytes& packed, size_t i) {
  const int n = (packed[i / 2] >> (4 * (i % 2))) & 15;
  return n >= 8 ? n - 16 : n;
}

// The float the written tensor `t` stands for at flat index i.
float Dequantized(const ir::Model& m, const ir::Tensor& t, size_t i,
                  int64_t cols) {
  const ir::Bytes& b = m.buffers[t.buffer].data;
  const int q = t.type == ir::DataType::kInt4
                    ? Int4At(b, i)
                    : static_cast<int8_t>(b[static_cast<size_t>(i)]);
  const ir::Quantization& qp = *t.quantization;
  if (qp.IsBlockwise()) {
    const ir::Tensor& st = m.subgraphs[0].tensors[qp.block_scales];
    const ir::Bytes& sb = m.buffers[st.buffer].data;
    const int64_t blocks = cols / qp.block_size;
    const int64_t row = static_cast<int64_t>(i) / cols;
    const int64_t block = (static_cast<int64_t>(i) % cols) / qp.block_size;
    uint16_t h;
    std::memcpy(&h, sb.data() + 2 * (row * blocks + block), 2);
    return static_cast<float>(q) * numerics::HalfToFloat(h);
  }
  const float s = qp.scale.size() == 1
                      ? qp.scale[0]
                      : qp.scale[static_cast<size_t>(i / cols)];
  return static_cast<float>(q) * s;
}

// The written integer weights of every FULLY_CONNECTED of `written` (the
// hybrid kernel's input 1, or the DEQUANTIZE feeding it) against the
// rounded float weights of the same op in `rounded`: equal for blockwise
// float16 scales, within a float rounding of the scale for per-channel
// float32 scales. Returns the number of blockwise tensors checked.
int CheckWrittenOnGrid(const ir::Model& rounded, const ir::Model& written) {
  const ir::Subgraph& wsg = written.subgraphs[0];
  std::vector<int32_t> producer(wsg.tensors.size(), -1);
  for (size_t i = 0; i < wsg.operators.size(); ++i) {
    for (int32_t o : wsg.operators[i].outputs) {
      producer[o] = static_cast<int32_t>(i);
    }
  }
  std::vector<const ir::Operator*> rounded_fc, written_fc;
  for (const ir::Operator& op : rounded.subgraphs[0].operators) {
    if (op.kind == ir::OpKind::kFullyConnected) rounded_fc.push_back(&op);
  }
  for (const ir::Operator& op : wsg.operators) {
    if (op.kind == ir::OpKind::kFullyConnected) written_fc.push_back(&op);
  }
  EXPECT_EQ(rounded_fc.size(), written_fc.size());
  int blockwise = 0;
  for (size_t k = 0; k < rounded_fc.size() && k < written_fc.size(); ++k) {
    const std::vector<float> w =
        LayerWeights(rounded, rounded_fc[k]->inputs[1]);
    int32_t t = written_fc[k]->inputs[1];
    if (wsg.tensors[t].type == ir::DataType::kFloat32) {
      const int32_t p = producer[t];
      EXPECT_GE(p, 0) << "FC " << k << " kept float weights";
      if (p < 0) continue;
      EXPECT_EQ(wsg.operators[p].kind, ir::OpKind::kDequantize);
      t = wsg.operators[p].inputs[0];
    }
    const ir::Tensor& qt = wsg.tensors[t];
    EXPECT_TRUE(qt.quantization.has_value());
    if (!qt.quantization.has_value()) continue;
    const int64_t cols = qt.shape[1];
    const bool blocks = qt.quantization->IsBlockwise();
    blockwise += blocks;
    int64_t off = 0;
    size_t first = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      const float d = Dequantized(written, qt, i, cols);
      const bool same =
          blocks ? d == w[i]
                 : std::fabs(d - w[i]) <= 1e-6f * std::fabs(w[i]) + 1e-12f;
      if (!same && off++ == 0) first = i;
    }
    EXPECT_EQ(off, 0) << "FC " << k << ": " << off
                      << " weights off the grid, first " << first;
  }
  return blockwise;
}

// Dynamic int4, block 32: every ToyCar layer with input depth 640 or 128
// gets 32-input blocks with bfloat16-valued float16 scales (the one reading
// the 8-wide bottleneck, per channel); GPTQ on that
// grid lowers every layer's output error on the real inputs against
// nearest rounding on the same grid, the sum by more than half; and the
// hybrid FULLY_CONNECTED weights written from the rounded model are those
// integers times those scales, exactly.
TEST(WeightFormRoundingTest, GptqBlockwiseDynamicInt4OnToyCar) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  const QuantizeOptions options = FormOptions(Scheme::kDynamic, 4, 32);
  const std::vector<std::optional<WeightGrid>> grids = PlannedWeightGrids(
      toycar->model,
      std::vector<bool>(toycar->model.subgraphs[0].operators.size(), false),
      options);
  ASSERT_EQ(grids.size(), 10u);
  int blocked = 0;
  for (const std::optional<WeightGrid>& g : grids) {
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->qmax, 7);
    // The layer after the 8-wide bottleneck cannot take 32-input blocks.
    const bool blocks = g->group_size == 32;
    blocked += blocks;
    EXPECT_EQ(g->scale_type,
              blocks ? ScaleType::kBfloat16 : ScaleType::kFloat32);
  }
  EXPECT_EQ(blocked, 9);
  ir::Model model = toycar->model;
  const RecoverResult r =
      RoundForForm(model, toycar->data, options, true, false);
  ASSERT_EQ(r.layers.size(), 10u);
  double nearest = 0, gptq = 0;
  for (const RecoveredLayer& l : r.layers) {
    EXPECT_LT(l.loss_gptq, l.loss_nearest) << l.output;
    nearest += l.loss_nearest;
    gptq += l.loss_gptq;
  }
  EXPECT_LT(gptq, 0.5 * nearest);
  absl::StatusOr<QuantizeResult> q = Quantize(model, nullptr, options);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(CheckWrittenOnGrid(model, q->model), 9);
  // The scales are on the bfloat16 grid (XNNPACK reads them so).
  for (const ir::Tensor& t : q->model.subgraphs[0].tensors) {
    if (t.type != ir::DataType::kFloat16) continue;
    const ir::Bytes& b = q->model.buffers[t.buffer].data;
    for (size_t i = 0; i + 1 < b.size(); i += 2) {
      uint16_t h;
      std::memcpy(&h, b.data() + i, 2);
      const float s = numerics::HalfToFloat(h);
      uint32_t bits;
      std::memcpy(&bits, &s, 4);
      ASSERT_EQ(bits & 0xffffu, 0u) << t.name << " scale " << i / 2;
    }
  }
}

// Block 128 fits the 640- and 128-input layers (9 of 10); GPTQ with the
// clipping search also writes exactly what it chose.
TEST(WeightFormRoundingTest, GptqAndClipBlock128WrittenExactly) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  const QuantizeOptions options = FormOptions(Scheme::kDynamic, 4, 128);
  ir::Model model = toycar->model;
  const RecoverResult r =
      RoundForForm(model, toycar->data, options, true, true);
  ASSERT_EQ(r.layers.size(), 10u);
  for (const RecoveredLayer& l : r.layers) {
    EXPECT_LE(l.mean_clip, 1.0) << l.output;
    EXPECT_LT(l.loss_gptq, l.loss_nearest) << l.output;
  }
  absl::StatusOr<QuantizeResult> q = Quantize(model, nullptr, options);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(CheckWrittenOnGrid(model, q->model), 9);
}

// Weight-only int4 and int8, per channel (DEQUANTIZE before the float
// FULLY_CONNECTED): GPTQ lowers the layer error, and the written integers
// times the written per-channel scales give the rounded weights back.
TEST(WeightFormRoundingTest, GptqWeightOnlyPerChannelOnToyCar) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  for (int bits : {4, 8}) {
    const QuantizeOptions options = FormOptions(Scheme::kWeightOnly, bits, 0);
    ir::Model model = toycar->model;
    const RecoverResult r =
        RoundForForm(model, toycar->data, options, true, false);
    ASSERT_EQ(r.layers.size(), 10u);
    double nearest = 0, gptq = 0;
    for (const RecoveredLayer& l : r.layers) {
      nearest += l.loss_nearest;
      gptq += l.loss_gptq;
    }
    EXPECT_LT(gptq, 0.5 * nearest) << bits;
    absl::StatusOr<QuantizeResult> q = Quantize(model, nullptr, options);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(CheckWrittenOnGrid(model, q->model), 0) << bits;
  }
}

// Ops whose form the scheme does not offer keep their weights: with
// FULLY_CONNECTED excluded, no grid is planned and recovery changes
// nothing.
TEST(WeightFormRoundingTest, OpsLeftFloatAreNotRounded) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  const size_t ops = toycar->model.subgraphs[0].operators.size();
  const std::vector<std::optional<WeightGrid>> grids =
      PlannedWeightGrids(toycar->model, std::vector<bool>(ops, true),
                         FormOptions(Scheme::kWeightOnly, 4, 0));
  for (const std::optional<WeightGrid>& g : grids) EXPECT_FALSE(g.has_value());
}

// A blockwise group whose float16 scale is subnormal rounds coarsely: a
// block whose largest weight is 10.6 float16 steps (2^-24) gets the scale
// 2 steps (10.6 / 7 rounded), its largest weight rounds to 5, and from 10
// steps the writer would derive the scale 1 step. Recovery pins that weight
// to 7, so the file holds exactly the rounded values.
TEST(WeightFormRoundingTest, TinyBlocksStillComeBackExactly) {
  std::optional<::qforge::testing::ModelWithData> toycar =
      ::qforge::testing::LoadToyCar();
  if (!toycar) GTEST_SKIP() << "no ../shared/corpus";
  ir::Model model = toycar->model;
  const int32_t wt = model.subgraphs[0].operators[0].inputs[1];
  std::vector<float> w = LayerWeights(model, wt);
  const float step = std::ldexp(1.0f, -24);
  for (size_t j = 0; j < 640; ++j) {  // row 0
    w[j] = j % 32 == 0 ? 10.6f * step
                       : step * static_cast<float>(static_cast<int>(j % 7) - 3);
  }
  SetTensorValues(model, wt, w);
  const QuantizeOptions options = FormOptions(Scheme::kDynamic, 4, 32);
  ir::Model rounded = model;
  RoundForForm(rounded, toycar->data, options, false, false);
  EXPECT_EQ(LayerWeights(rounded, wt)[0], 14 * step);  // 7 x 2 steps
  absl::StatusOr<QuantizeResult> q = Quantize(rounded, nullptr, options);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(CheckWrittenOnGrid(rounded, q->model), 9);
}

}  // namespace
}  // namespace qforge::quantizer
