// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --method auto on the bundled MNIST CNN and its ten digits: it
// needs --data, gives the same bytes on one or two threads, and the model
// it writes is at least as close to the float model on those samples as
// the mse model it starts from (the search keeps a tensor's new method only
// when the outputs improve on both halves of the samples, so the pooled
// output noise can only go down).
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

// The output SQNR `qforge report` gives `quant` on the ten digits.
double OutputSqnr(const std::string& quant, const std::string& dir) {
  const testing::CommandResult r = RunCommand(
      QforgeBinary() + " report " + TestDataDir() +
      "/models/conv_fc_mnist.tflite " + quant + " --data '" + TestDataDir() +
      "/mnist/*.png' --scale 0.003921569 -q --format json -o " + dir +
      "/r.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(testing::ReadText(dir + "/r.json"));
  return j["outputs"][0]["sqnr_db"].get<double>();
}

TEST(MethodAutoTest, NeedsData) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --stats " + TestDataDir() +
                 "/stats/mnist.json --method auto -o " + dir + "/m.tflite");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--method auto"), std::string::npos) << r.err;
}

TEST(MethodAutoTest, DeterministicAndNoWorseThanMse) {
  const std::string dir = testing::MakeTempDir();
  for (const char* threads : {"1", "2"}) {
    const testing::CommandResult r = RunCommand(testing::QuantizeMnistCommand(
        std::string("--method auto --threads ") + threads + " -o " + dir +
        "/auto" + threads + ".tflite"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("tensors moved off mse, mean output SQNR"),
              std::string::npos)
        << r.err;
  }
  const std::string a = testing::ReadText(dir + "/auto1.tflite");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, testing::ReadText(dir + "/auto2.tflite"));
  ASSERT_EQ(RunCommand(testing::QuantizeMnistCommand("--method mse -q -o " +
                                                     dir + "/mse.tflite"))
                .exit_code,
            0);
  const double mse = OutputSqnr(dir + "/mse.tflite", dir);
  const double chosen = OutputSqnr(dir + "/auto1.tflite", dir);
  EXPECT_GE(chosen, mse - 1e-9) << "auto " << chosen << " dB, mse " << mse;
}

}  // namespace
}  // namespace qforge
