// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize's weight recovery from the command line on the bundled MNIST
// CNN and its ten digits: the options' rules, byte-identical output across
// thread counts, and the layer error AdaRound reports going down.
#include <string>

#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

std::string Quantize(const std::string& flags) {
  return testing::QuantizeMnistCommand(flags);
}

TEST(RecoveryCliTest, NeedsDataNotStats) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --stats " + TestDataDir() +
                 "/stats/mnist.json --bias-correction -o " + dir + "/m.tflite");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("calibrate on --data themselves"), std::string::npos)
      << r.err;
}

TEST(RecoveryCliTest, SameBytesOnOneOrTwoThreads) {
  const std::string dir = testing::MakeTempDir();
  for (const char* threads : {"1", "2"}) {
    const testing::CommandResult r = RunCommand(Quantize(
        std::string("--bias-correction --adaround --adaround-iterations 300 "
                    "--threads ") +
        threads + " -o " + dir + "/m" + threads + ".tflite"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("adaround+bias: 3 layers on 10 of 10 samples"),
              std::string::npos)
        << r.err;
  }
  const std::string a = testing::ReadText(dir + "/m1.tflite");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, testing::ReadText(dir + "/m2.tflite"));
  // Recovery changed the model.
  ASSERT_EQ(RunCommand(Quantize("-q -o " + dir + "/plain.tflite")).exit_code,
            0);
  EXPECT_NE(a, testing::ReadText(dir + "/plain.tflite"));
}

}  // namespace
}  // namespace qforge
