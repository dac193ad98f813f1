// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --runtime on bundled models: what each profile writes, and the
// latency model's reading of the written model.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "formats/data/npy.h"
#include "formats/tflite_writer.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "pipeline/quantize.h"
#include "runtime/latency.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

pipeline::QuantizeJob MnistJob(const std::string& runtime,
                               const std::string& scheme,
                               const std::string& out) {
  pipeline::QuantizeJob job;
  job.model = testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  job.data.specs = {testing::TestDataDir() + "/mnist/*.png"};
  job.data.scale = 0.003921569f;
  job.runtime = runtime;
  job.scheme = scheme;
  job.output = out;
  return job;
}

bool IsFloatActivation(const ir::Model& m, const ir::Subgraph& sg, int32_t t) {
  if (t < 0) return false;
  const ir::Tensor& x = sg.tensors[static_cast<size_t>(t)];
  const bool constant = x.buffer != 0 && x.buffer < m.buffers.size() &&
                        !m.buffers[x.buffer].data.empty();
  return x.type == ir::DataType::kFloat32 && !constant;
}

// Ops other than the float model's QUANTIZE / DEQUANTIZE borders that read
// or write a float activation.
std::vector<std::string> FloatOpsInside(const ir::Model& m) {
  std::vector<std::string> out;
  const ir::Subgraph& sg = m.subgraphs[0];
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    if (op.kind == ir::OpKind::kQuantize || op.kind == ir::OpKind::kDequantize)
      continue;
    bool f = false;
    for (int32_t t : op.inputs) f |= IsFloatActivation(m, sg, t);
    for (int32_t t : op.outputs) f |= IsFloatActivation(m, sg, t);
    if (f) out.push_back(std::to_string(i) + " " + op.DisplayName());
  }
  return out;
}

TEST(RuntimeProfilesTest, LatencyModelReadsTheInt8Cnn) {
  const std::string dir = testing::MakeTempDir();
  // Every op integer (--keep-integer), as the paths below describe.
  pipeline::QuantizeJob job = MnistJob("litert", "int8", dir + "/q.tflite");
  job.keep_integer = true;
  ASSERT_TRUE(pipeline::RunQuantizeJob(job, pipeline::Hooks{}).ok());
  const runtime::LatencyEstimate est =
      runtime::EstimateLitertLatency(testing::ReadModel(job.output));
  // QUANTIZE, CONV_2D, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED x2,
  // SOFTMAX, DEQUANTIZE. XNNPACK has no int8 AVERAGE_POOL_2D or SOFTMAX
  // (VisitAveragePool2DNode, VisitSoftmaxNode check float32), so the
  // delegated runs are [QUANTIZE CONV], [RESHAPE FC FC], [DEQUANTIZE].
  ASSERT_EQ(est.ops.size(), 8u);
  const std::vector<bool> xnnpack = {true, true, false, true,
                                     true, true, false, true};
  for (size_t i = 0; i < est.ops.size(); ++i) {
    EXPECT_EQ(est.ops[i].xnnpack, xnnpack[i]) << i << " " << est.ops[i].op;
    EXPECT_EQ(est.ops[i].type, runtime::CostType::kInt8) << i;
  }
  EXPECT_EQ(est.partitions, 3);
  // The CNN: a 3x3 CONV_2D from 1 to 8 channels on 28x28 (SAME), 2x2
  // average pooling to 14x14x8 = 1568 values, FULLY_CONNECTED 1568 -> 32
  // and 32 -> 10. MACs: 28*28*8 outputs of 3*3*1 = 56448; 14*14*8 outputs
  // of a 2x2 window = 6272; 1568*32 = 50176; 32*10 = 320.
  EXPECT_EQ(est.ops[1].macs, 56448);
  EXPECT_EQ(est.ops[2].macs, 6272);
  EXPECT_EQ(est.ops[4].macs, 50176);
  EXPECT_EQ(est.ops[5].macs, 320);
  EXPECT_GT(est.ms, 0);
}

TEST(RuntimeProfilesTest, TflmWritesIntegerOnlyModels) {
  const std::string dir = testing::MakeTempDir();
  for (const char* scheme : {"int8", "int16x8"}) {
    const pipeline::QuantizeJob job =
        MnistJob("tflm", scheme, dir + "/" + scheme + ".tflite");
    absl::StatusOr<pipeline::QuantizeOutcome> o =
        pipeline::RunQuantizeJob(job, pipeline::Hooks{});
    ASSERT_TRUE(o.ok()) << scheme << ": " << o.status();
    EXPECT_TRUE(o->kept_float.empty()) << scheme;
    const ir::Model m = testing::ReadModel(job.output);
    EXPECT_TRUE(FloatOpsInside(m).empty())
        << scheme << ": " << ::testing::PrintToString(FloatOpsInside(m));
    EXPECT_TRUE(runtime::UnsupportedOps(runtime::Runtime::kTflm, m).empty());
  }
}

TEST(RuntimeProfilesTest, TflmRefusesAnOpThatStaysFloat) {
  // LOG has no integer form in qforge: a TFLM target cannot take the model.
  const std::string dir = testing::MakeTempDir();
  pipeline::QuantizeJob job;
  job.model = testing::TestDataDir() + "/patterns/log_eps.tflite";
  job.data.specs = {testing::TestDataDir() + "/patterns/log_eps_x.npy"};
  job.runtime = "tflm";
  job.output = dir + "/q.tflite";
  absl::StatusOr<pipeline::QuantizeOutcome> o =
      pipeline::RunQuantizeJob(job, pipeline::Hooks{});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(ExitCodeFor(o.status()), kExitUnsupported) << o.status();
  EXPECT_NE(o.status().message().find("--runtime tflm"), std::string::npos)
      << o.status();
  // Without a target the same model quantizes, LOG kept float.
  job.runtime = "litert";
  EXPECT_TRUE(pipeline::RunQuantizeJob(job, pipeline::Hooks{}).ok());
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

// x[1,4,4,2] -> CONV_2D 1x1 -> PRELU -> y, and 16 samples of x.
void WriteConvPrelu(const std::string& model, const std::string& data) {
  testing::OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 4, 4, 2}, "x");
  const int w = m.Constant<float>({2, 1, 1, 2}, {0.9f, -0.4f, 0.3f, 1.1f}, "w");
  const int b = m.Constant<float>({2}, {0.05f, -0.1f}, "b");
  const int c = m.Tensor(ir::DataType::kFloat32, {1, 4, 4, 2}, "conv");
  ir::Conv2DOptions conv;
  conv.stride_w = conv.stride_h = 1;
  m.Op(ir::OpKind::kConv2D, {x, w, b}, {c}, conv);
  const int alpha = m.Constant<float>({1, 1, 2}, {0.25f, 0.1f}, "alpha");
  const int y = m.Output(ir::DataType::kFloat32, {1, 4, 4, 2}, "y");
  m.Op(ir::OpKind::kPrelu, {c, alpha}, {y});
  WriteFile(model, *formats::SerializeTflite(m.model()));
  std::vector<float> v(16 * 4 * 4 * 2);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<float>((i * 37) % 101) / 25.0f - 2.0f;
  }
  WriteFile(data,
            *formats::WriteNpy(testing::MakeTensor<float>({16, 4, 4, 2}, v)));
}

// TFLM's ladder is int8 -> int16x8: an op with no int16 form (PRELU in
// qforge) stays int8 instead of falling to float, which TFLM cannot run.
// An unreachable target is then exit 4 (not met), not exit 3.
TEST(RuntimeProfilesTest, TflmTargetSqnrLeavesOpsWithoutInt16FormInt8) {
  const std::string dir = testing::MakeTempDir();
  pipeline::QuantizeJob job;
  job.model = dir + "/conv_prelu.tflite";
  WriteConvPrelu(job.model, dir + "/x.npy");
  job.data.specs = {dir + "/x.npy"};
  job.runtime = "tflm";
  job.output = dir + "/q.tflite";
  job.target.sqnr = 200;
  absl::StatusOr<pipeline::QuantizeOutcome> o =
      pipeline::RunQuantizeJob(job, pipeline::Hooks{});
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(ExitCodeFor(o.status()), kExitAccuracyBound) << o.status();
  EXPECT_NE(o.status().message().find("not met"), std::string::npos)
      << o.status();
}

TEST(RuntimeProfilesTest, ArmnnPerTensorFullyConnectedWithBiases) {
  const std::string dir = testing::MakeTempDir();
  const pipeline::QuantizeJob job =
      MnistJob("armnn", "int8", dir + "/q.tflite");
  ASSERT_TRUE(pipeline::RunQuantizeJob(job, pipeline::Hooks{}).ok());
  const ir::Model m = testing::ReadModel(job.output);
  const ir::Subgraph& sg = m.subgraphs[0];
  int fcs = 0;
  for (const ir::Operator& op : sg.operators) {
    if (op.kind != ir::OpKind::kFullyConnected) continue;
    ++fcs;
    ASSERT_GE(op.inputs.size(), 3u);
    const ir::Tensor& w = sg.tensors[static_cast<size_t>(op.inputs[1])];
    ASSERT_TRUE(w.quantization.has_value());
    EXPECT_EQ(w.quantization->scale.size(), 1u);
    // The second FULLY_CONNECTED has no bias in the float model: Arm NN's
    // parser refuses an omitted input, so it gets a zero one.
    EXPECT_GE(op.inputs[2], 0);
  }
  EXPECT_EQ(fcs, 2);
  EXPECT_TRUE(runtime::UnsupportedOps(runtime::Runtime::kArmnn, m).empty());
}

TEST(RuntimeProfilesTest, SchemesARuntimeLacks) {
  const std::string dir = testing::MakeTempDir();
  for (const char* rt : {"tflm", "armnn"}) {
    for (const char* scheme : {"dynamic", "float16"}) {
      absl::StatusOr<pipeline::QuantizeOutcome> o = pipeline::RunQuantizeJob(
          MnistJob(rt, scheme, dir + "/q.tflite"), pipeline::Hooks{});
      ASSERT_FALSE(o.ok()) << rt << " " << scheme;
      EXPECT_EQ(ExitCodeFor(o.status()), kExitUsageOrIo) << o.status();
    }
  }
}

}  // namespace
}  // namespace qforge
