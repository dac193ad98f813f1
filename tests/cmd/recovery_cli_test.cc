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

// --optimize fast: one-pass bias correction, the same bytes on 1 or 2
// threads, not plain; it does not combine with the sequential methods.
TEST(RecoveryCliTest, OptimizeFastIsOnePassBiasCorrection) {
  const std::string dir = testing::MakeTempDir();
  for (const char* threads : {"1", "2"}) {
    const testing::CommandResult r = RunCommand(
        Quantize(std::string("--optimize fast --threads ") + threads + " -o " +
                 dir + "/f" + threads + ".tflite"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("bias-correction (one pass): 3 layers on 10 of 10 "
                         "samples"),
              std::string::npos)
        << r.err;
  }
  const std::string f = testing::ReadText(dir + "/f1.tflite");
  EXPECT_EQ(f, testing::ReadText(dir + "/f2.tflite"));
  ASSERT_EQ(RunCommand(Quantize("-q -o " + dir + "/plain.tflite")).exit_code,
            0);
  EXPECT_NE(f, testing::ReadText(dir + "/plain.tflite"));
  const testing::CommandResult both = RunCommand(
      Quantize("--optimize fast --adaround -o " + dir + "/x.tflite"));
  EXPECT_EQ(both.exit_code, 1) << both.err;  // usage
  EXPECT_NE(both.err.find("--optimize fast is one-pass bias correction"),
            std::string::npos)
      << both.err;
}

// A model with float16 weights behind DEQUANTIZE (made here by --scheme
// float16): --optimize fast reaches its 3 weighted layers, and the int8
// model keeps no float16 constant.
TEST(RecoveryCliTest, OptimizeFastReachesFloat16Weights) {
  const std::string dir = testing::MakeTempDir();
  ASSERT_EQ(RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                       "/models/conv_fc_mnist.tflite --scheme float16 -q -o " +
                       dir + "/f16.tflite")
                .exit_code,
            0);
  const testing::CommandResult r = RunCommand(
      QforgeBinary() + " quantize " + dir + "/f16.tflite --data '" +
      TestDataDir() + "/mnist/*.png' --scale 0.003921569 --optimize fast -o " +
      dir + "/q.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("bias-correction (one pass): 3 layers"),
            std::string::npos)
      << r.err;
  const testing::CommandResult inspect =
      RunCommand(QforgeBinary() + " inspect " + dir + "/q.tflite");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_NE(inspect.out.find("quantization: full_int8"), std::string::npos)
      << inspect.out;
  EXPECT_EQ(inspect.out.find("float16"), std::string::npos) << inspect.out;
}

// --equalize reaches float16 weights as well: the float16 twin of
// conv_fc_mnist has the same CONV_2D -> RELU -> CONV_2D pair as the float32
// model (1 pair equalized there); before the layers were widened it found
// none.
TEST(RecoveryCliTest, EqualizeReachesFloat16Weights) {
  const std::string dir = testing::MakeTempDir();
  ASSERT_EQ(RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                       "/models/conv_fc_mnist.tflite --scheme float16 -q -o " +
                       dir + "/f16.tflite")
                .exit_code,
            0);
  const testing::CommandResult r = RunCommand(
      QforgeBinary() + " quantize " + dir + "/f16.tflite --data '" +
      TestDataDir() + "/mnist/*.png' --scale 0.003921569 --equalize -o " + dir +
      "/q.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("equalize: 1 layer pairs"), std::string::npos) << r.err;
  const testing::CommandResult inspect =
      RunCommand(QforgeBinary() + " inspect " + dir + "/q.tflite");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_NE(inspect.out.find("quantization: full_int8"), std::string::npos)
      << inspect.out;
}

}  // namespace
}  // namespace qforge
