// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `qforge run` runs samples side by side on one-thread interpreters when
// there are at least as many samples as threads, and splits each sample's
// ops otherwise. Either way the files it writes must not depend on the
// thread count: outputs and saved inputs stay in sample order.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "formats/data/npy.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::ReadBytes;
using testing::RunCommand;

// `n` MNIST-shaped float samples, each different (a fixed LCG), so that a
// sample written in the wrong place would change the output file.
std::string WriteSamples(const std::string& dir, int64_t n) {
  ir::HostTensor t(ir::DataType::kFloat32, {n, 28, 28, 1});
  float* v = reinterpret_cast<float*>(t.data());
  uint32_t s = 12345;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    s = s * 1103515245u + 12345u;
    v[i] = static_cast<float>(s >> 8) / 16777216.0f;
  }
  const std::string path = dir + "/x.npy";
  const std::vector<uint8_t> bytes = formats::WriteNpy(t).value();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(RunThreadsTest, SameFilesOnOneTwoAndThreeThreads) {
  const std::string dir = testing::MakeTempDir();
  const std::string model =
      testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  const std::string data = WriteSamples(dir, 7);
  std::vector<std::vector<uint8_t>> outputs, inputs;
  for (int threads : {1, 2, 3}) {
    const std::string out = dir + "/out" + std::to_string(threads);
    const std::string saved = dir + "/in" + std::to_string(threads);
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " -q run " + model + " --data " + data +
                   " --output-dir " + out + " --save-inputs " + saved +
                   " --threads " + std::to_string(threads));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    outputs.push_back(ReadBytes(out + "/output_0.npy"));
    inputs.push_back(ReadBytes(saved + "/input_0.npy"));
  }
  // 7 samples x 10 classes of float32 after the .npy header.
  ASSERT_GT(outputs[0].size(), 7u * 10 * 4);
  EXPECT_EQ(outputs[0], outputs[1]);
  EXPECT_EQ(outputs[0], outputs[2]);
  // The saved inputs are the samples fed, in order: the data file's bytes
  // after its header.
  const std::vector<uint8_t> given = ReadBytes(data);
  ASSERT_GE(inputs[0].size(), 7u * 28 * 28 * 4);
  EXPECT_EQ(0,
            std::memcmp(inputs[0].data() + inputs[0].size() - 7 * 28 * 28 * 4,
                        given.data() + given.size() - 7 * 28 * 28 * 4,
                        7 * 28 * 28 * 4));
  EXPECT_EQ(inputs[0], inputs[1]);
  EXPECT_EQ(inputs[0], inputs[2]);
}

}  // namespace
}  // namespace qforge
