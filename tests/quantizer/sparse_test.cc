// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Sparse weights (TFLite SparsityParameters behind DENSIFY) on the corpus'
// sparse MediaPipe models: the float16 scheme keeps them sparse and leaves
// float16 ones untouched; the other schemes decode them first, so the
// convolutions behind them are quantized.
#include <string>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/validate.h"
#include "quantizer/quantize.h"
#include "quantizer/sparse_weights.h"
#include "runtime/latency.h"
#include "tests/quantizer/range_stats.h"
#include "tests/support/test_paths.h"

namespace qforge::quantizer {
namespace {

using ir::DataType;
using ir::OpKind;

absl::StatusOr<ir::Model> CorpusModel(const std::string& name) {
  return formats::ReadTfliteFile(testing::CorpusDir() + "/models/mediapipe/" +
                                 name);
}

int Count(const ir::Model& m, OpKind kind) {
  int n = 0;
  for (const ir::Operator& op : m.subgraphs[0].operators) n += op.kind == kind;
  return n;
}

#define REQUIRE_CORPUS() \
  if (testing::CorpusDir().empty()) GTEST_SKIP() << "no ../shared/corpus"

TEST(SparseTest, Float16KeepsFloat32SparseWeightsSparse) {
  REQUIRE_CORPUS();
  // float32 sparse weights -> DENSIFY -> CONV_2D.
  absl::StatusOr<ir::Model> m =
      CorpusModel("hand_landmark_sparse__20210227.tflite");
  ASSERT_TRUE(m.ok()) << m.status();
  const int densify = Count(*m, OpKind::kDensify);
  ASSERT_EQ(densify, 30);
  QuantizeOptions o;
  o.scheme = Scheme::kFloat16;
  absl::StatusOr<QuantizeResult> r = Quantize(*m, nullptr, o);
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Subgraph& sg = r->model.subgraphs[0];
  // Every DENSIFY now reads a sparse float16 constant (same sparsity) and
  // feeds a DEQUANTIZE back to float32, as TFLite's converter writes it.
  int checked = 0;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    if (op.kind != OpKind::kDensify) continue;
    const ir::Tensor& in = sg.tensors[op.inputs[0]];
    EXPECT_EQ(in.type, DataType::kFloat16) << in.name;
    ASSERT_TRUE(in.sparsity.has_value()) << in.name;
    EXPECT_EQ(sg.tensors[op.outputs[0]].type, DataType::kFloat16);
    ASSERT_LT(i + 1, sg.operators.size());
    EXPECT_EQ(sg.operators[i + 1].kind, OpKind::kDequantize);
    EXPECT_EQ(sg.operators[i + 1].inputs[0], op.outputs[0]);
    ++checked;
  }
  EXPECT_EQ(checked, densify);
  EXPECT_TRUE(ir::ValidateModel(r->model).ok());
}

TEST(SparseTest, Float16LeavesSparseFloat16WeightsAsTheyAre) {
  REQUIRE_CORPUS();
  // sparse float16 -> DENSIFY -> DEQUANTIZE -> CONV_2D, dense float16 biases
  // -> DEQUANTIZE: already float16 weights, nothing is folded (folding the
  // biases alone, as qforge did, left a graph LiteRT ran wrongly).
  absl::StatusOr<ir::Model> m =
      CorpusModel("face_detection_full_range_sparse.tflite");
  ASSERT_TRUE(m.ok()) << m.status();
  QuantizeOptions o;
  o.scheme = Scheme::kFloat16;
  absl::StatusOr<QuantizeResult> r = Quantize(*m, nullptr, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Count(r->model, OpKind::kDensify), 46);
  EXPECT_EQ(Count(r->model, OpKind::kDequantize),
            Count(*m, OpKind::kDequantize));
  for (const ir::Tensor& t : r->model.subgraphs[0].tensors) {
    if (t.sparsity.has_value()) {
      EXPECT_EQ(t.type, DataType::kFloat16) << t.name;
    }
  }
}

TEST(SparseTest, DynamicAndInt8DecodeSparseWeights) {
  REQUIRE_CORPUS();
  absl::StatusOr<ir::Model> m =
      CorpusModel("face_detection_full_range_sparse.tflite");
  ASSERT_TRUE(m.ok()) << m.status();
  QuantizeOptions o;
  o.scheme = Scheme::kDynamic;
  absl::StatusOr<QuantizeResult> r = Quantize(*m, nullptr, o);
  ASSERT_TRUE(r.ok()) << r.status();
  // No DENSIFY or DEQUANTIZE left; the 1x1 convolutions behind DENSIFY
  // have int8 weights when large enough for the hybrid kernels.
  EXPECT_EQ(Count(r->model, OpKind::kDensify), 0);
  EXPECT_EQ(Count(r->model, OpKind::kDequantize), 0);
  const ir::Subgraph& sg = r->model.subgraphs[0];
  int int8_convs = 0;
  for (const ir::Operator& op : sg.operators) {
    if (op.kind == OpKind::kConv2D &&
        sg.tensors[op.inputs[1]].type == DataType::kInt8)
      ++int8_convs;
  }
  EXPECT_GE(int8_convs, 40);
  for (const ir::Tensor& t : sg.tensors) EXPECT_FALSE(t.sparsity.has_value());
}

TEST(SparseTest, Int8OpsKeptFloatGetTheirSparseWeightsBack) {
  REQUIRE_CORPUS();
  // sparse float16 -> DENSIFY -> DEQUANTIZE -> CONV_2D (op 4 as quantize
  // numbers ops: the folded model's).
  absl::StatusOr<ir::Model> m =
      CorpusModel("face_detection_full_range_sparse.tflite");
  ASSERT_TRUE(m.ok()) << m.status();
  const SparseChains chains = FindSparseChains(*m);
  EXPECT_EQ(chains.size(), 46u);
  for (const auto& [dense, chain] : chains) {
    ASSERT_EQ(chain.ops.size(), 2u);
    EXPECT_EQ(chain.ops[0].kind, OpKind::kDensify);
    EXPECT_EQ(chain.ops[1].kind, OpKind::kDequantize);
    EXPECT_EQ(chain.written.back(), dense);
  }
  calibration::StatsFile stats;  // ranges of every float activation
  for (size_t t = 0; t < m->subgraphs[0].tensors.size(); ++t) {
    stats.tensors.push_back(testing::RangeStats(static_cast<int>(t), -1, 1));
  }
  // Only the convolutions float: the sparse weights come back, but XNNPACK
  // runs no sparse kernel in a graph with integer ops.
  QuantizeOptions mixed;
  mixed.rules.push_back({"CONV_2D", "float", "test"});
  absl::StatusOr<QuantizeResult> rm = Quantize(*m, &stats, mixed);
  ASSERT_TRUE(rm.ok()) << rm.status();
  EXPECT_EQ(Count(rm->model, OpKind::kDensify), 46);
  for (const runtime::OpLatency& l :
       runtime::EstimateLitertLatency(rm->model).ops) {
    EXPECT_FALSE(l.sparse) << l.op_index;
  }
  // Every op float.
  QuantizeOptions o;
  o.rules.push_back({"re:.*", "float", "test"});
  absl::StatusOr<QuantizeResult> r = Quantize(*m, &stats, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Count(r->model, OpKind::kDensify), 46);
  const ir::Subgraph& sg = r->model.subgraphs[0];
  int sparse = 0;
  for (const ir::Tensor& t : sg.tensors) {
    if (t.sparsity.has_value()) {
      EXPECT_EQ(t.type, DataType::kFloat16) << t.name;
      ++sparse;
    }
  }
  EXPECT_EQ(sparse, 46);
  EXPECT_TRUE(ir::ValidateModel(r->model).ok());
  // LiteRT unpacks them at init: the DENSIFY and DEQUANTIZE are free, the
  // convolutions of the float graph on XNNPACK count their stored weights
  // only.
  const runtime::LatencyEstimate est = runtime::EstimateLitertLatency(r->model);
  int sparse_convs = 0;
  for (const runtime::OpLatency& l : est.ops) {
    if (sg.operators[static_cast<size_t>(l.op_index)].kind ==
        OpKind::kDensify) {
      EXPECT_TRUE(l.xnnpack && l.folded) << l.op_index;
    }
    if (l.sparse) {
      EXPECT_TRUE(l.xnnpack);
      ++sparse_convs;
    }
  }
  EXPECT_EQ(sparse_convs, 46);
}

}  // namespace
}  // namespace qforge::quantizer
