// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The Glow single-op TFLite models (pytorch/glow tests/models/tfliteModels)
// for CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and the pools, run through
// the interpreter and compared with the golden outputs Glow's test suite
// ships (computed by TensorFlow Lite): `<name>.inp0` / `<name>.out0` hold
// one pad byte and then the raw little-endian float32 tensor. Skipped when
// the shared corpus is absent.
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

class GlowModel : public ::testing::TestWithParam<const char*> {};

TEST_P(GlowModel, MatchesGoldenOutput) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  const std::string name = GetParam();
  const std::string model_path = corpus + "/models/glow/" + name + ".tflite";
  const std::string data =
      corpus + "/data/glow/tests/models/tfliteModels/" + name;
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(model_path);
  ASSERT_TRUE(model.ok()) << model.status();
  const ir::Subgraph& sg = model->subgraphs[0];
  ASSERT_EQ(sg.inputs.size(), 1u);
  ASSERT_EQ(sg.outputs.size(), 1u);

  const ir::Tensor& in_t = sg.tensors[static_cast<size_t>(sg.inputs[0])];
  ir::HostTensor input(
      ir::DataType::kFloat32,
      std::vector<int64_t>(in_t.shape.begin(), in_t.shape.end()));
  const std::vector<uint8_t> inp = ReadBytes(data + ".inp0");
  ASSERT_EQ(inp.size(), input.ByteSize() + 1) << data << ".inp0";
  std::memcpy(input.data(), inp.data() + 1, input.ByteSize());

  for (int threads : {1, 2}) {
    runtime::InterpreterOptions opts;
    opts.threads = threads;
    auto interp = runtime::Interpreter::Create(*model, opts);
    ASSERT_TRUE(interp.ok()) << interp.status();
    ASSERT_TRUE((*interp)->Run({input}).ok());
    const ir::HostTensor out = (*interp)->OutputHost(0);
    const ir::Tensor& out_t = sg.tensors[static_cast<size_t>(sg.outputs[0])];
    EXPECT_EQ(out.shape(),
              std::vector<int64_t>(out_t.shape.begin(), out_t.shape.end()));
    const std::vector<uint8_t> golden = ReadBytes(data + ".out0");
    ASSERT_EQ(golden.size(), out.ByteSize() + 1) << data << ".out0";
    std::vector<float> want(out.ByteSize() / sizeof(float));
    std::memcpy(want.data(), golden.data() + 1, out.ByteSize());
    auto got = out.Flat<float>();
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_LE(std::fabs(got[i] - want[i]),
                1e-4f * std::max(1.0f, std::fabs(want[i])))
          << name << " element " << i << ": got " << got[i] << ", want "
          << want[i];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Conv, GlowModel,
    ::testing::Values("conv2d_same", "conv2d_valid", "conv2d_relu",
                      "depthwise_conv2d_c1_m1", "depthwise_conv2d_c1_m2",
                      "depthwise_conv2d_c2_m1", "depthwise_conv2d_c2_m2",
                      "fully_connected", "avgpool2d_same", "avgpool2d_valid",
                      "maxpool2d_same", "maxpool2d_valid"));

}  // namespace
}  // namespace qforge
