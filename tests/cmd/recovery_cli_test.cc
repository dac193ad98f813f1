// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize's weight recovery from the command line on the bundled MNIST
// CNN and its ten digits: the options' rules, byte-identical output across
// thread counts, and the layer error AdaRound reports going down.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
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

// A model with float16 weights behind DEQUANTIZE (conv_fc_mnist through
// --scheme float16), quantized to int8 with the recovery flag `flag`: the
// quantize log and the result's inspect summary.
struct Float16Recovery {
  std::string log, inspect;
};
Float16Recovery RecoverFloat16Mnist(const std::string& flag) {
  const std::string dir = testing::MakeTempDir();
  Float16Recovery out;
  const testing::CommandResult f16 =
      RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --scheme float16 -q -o " + dir +
                 "/f16.tflite");
  EXPECT_EQ(f16.exit_code, 0) << f16.err;
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + dir + "/f16.tflite --data '" +
                 TestDataDir() + "/mnist/*.png' --scale 0.003921569 " + flag +
                 " --keep-integer -o " + dir + "/q.tflite");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  out.log = r.err;
  const testing::CommandResult inspect =
      RunCommand(QforgeBinary() + " inspect " + dir + "/q.tflite");
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
  out.inspect = inspect.out;
  return out;
}

// --optimize fast reaches the 3 weighted layers, and the int8 model keeps
// no float16 constant.
TEST(RecoveryCliTest, OptimizeFastReachesFloat16Weights) {
  const Float16Recovery r = RecoverFloat16Mnist("--optimize fast");
  EXPECT_NE(r.log.find("bias-correction (one pass): 3 layers"),
            std::string::npos)
      << r.log;
  EXPECT_NE(r.inspect.find("quantization: full_int8"), std::string::npos)
      << r.inspect;
  EXPECT_EQ(r.inspect.find("float16"), std::string::npos) << r.inspect;
}

// --equalize reaches float16 weights as well: the float16 model has the
// same CONV_2D -> RELU -> CONV_2D pair as the float32 one (1 pair equalized
// there); before the layers were widened it found none.
TEST(RecoveryCliTest, EqualizeReachesFloat16Weights) {
  const Float16Recovery r = RecoverFloat16Mnist("--equalize");
  EXPECT_NE(r.log.find("equalize: 1 layer pairs"), std::string::npos) << r.log;
  EXPECT_NE(r.inspect.find("quantization: full_int8"), std::string::npos)
      << r.inspect;
}

// --gptq, --weight-clip mse and --awq round the weights of the weight-only
// and dynamic forms on the --data samples (tests/quantizer/
// weight_form_rounding_test.cc checks the grids); the methods that need
// int8 activations stay with the int8 schemes; --data is required.
TEST(RecoveryCliTest, WeightFormsTakeTheRoundingMethods) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r =
      RunCommand(Quantize("--scheme weight-only --weight-bits 4 --gptq -o " +
                          dir + "/wo4_gptq.tflite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("gptq: 3 layers on 10 of 10 samples"), std::string::npos)
      << r.err;
  ASSERT_EQ(RunCommand(Quantize("--scheme weight-only --weight-bits 4 -q -o " +
                                dir + "/wo4.tflite"))
                .exit_code,
            0);
  EXPECT_NE(testing::ReadText(dir + "/wo4_gptq.tflite"),
            testing::ReadText(dir + "/wo4.tflite"));
  // Dynamic int4: only the large FULLY_CONNECTED (op 3) takes the form.
  r =
      RunCommand(Quantize("--scheme dynamic --weight-bits 4 --block-size 32 "
                          "--weight-clip mse -o " +
                          dir + "/dyn4.tflite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("weight-clip: 1 layers"), std::string::npos) << r.err;

  r = RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --scheme weight-only --gptq "
                 "-o " +
                 dir + "/x.tflite");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("calibrate on --data themselves"), std::string::npos)
      << r.err;
  r = RunCommand(Quantize("--scheme weight-only --bias-correction -o " + dir +
                          "/y.tflite"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("need scheme int8 or int16x8"), std::string::npos)
      << r.err;
  r = RunCommand(Quantize("--scheme float16 --awq -o " + dir + "/z.tflite"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("weight recovery needs scheme"), std::string::npos)
      << r.err;
}

// --optimize accuracy on the weight-only and dynamic forms scores every
// rounding candidate on the check samples (every 4th: digits 3 and 7).
// Two check samples are too few to overrule the default, GPTQ, whatever
// the scores; it is then fitted again on all ten digits: the same bytes as
// --gptq alone. The same bytes come out on 1 and 2 threads, and the single
// methods do not go with it.
TEST(RecoveryCliTest, OptimizeAccuracyChoosesTheWeightRounding) {
  const std::string dir = testing::MakeTempDir();
  for (const char* threads : {"1", "2"}) {
    const testing::CommandResult r = RunCommand(Quantize(
        std::string("--scheme weight-only --weight-bits 4 --optimize accuracy "
                    "--threads ") +
        threads + " -o " + dir + "/m" + threads + ".tflite --json " + dir +
        "/m" + threads + ".json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("optimize accuracy: weight rounding gptq (the "
                         "default: fewer than 8 check samples)"),
              std::string::npos)
        << r.err;
  }
  const std::string written = testing::ReadText(dir + "/m1.tflite");
  EXPECT_EQ(written, testing::ReadText(dir + "/m2.tflite"));
  const nlohmann::json out =
      nlohmann::json::parse(testing::ReadText(dir + "/m1.json"));
  const nlohmann::json& choice = out["weight_rounding"];
  ASSERT_TRUE(choice.is_object()) << out.dump(2);
  EXPECT_EQ(choice["check_samples"], 2);
  EXPECT_EQ(choice["fit_samples"], 8);
  EXPECT_EQ(choice["refit_samples"], 10);
  ASSERT_EQ(choice["candidates"].size(), 10u);
  // On this model no candidate is exact (null): every score is finite.
  for (const nlohmann::json& c : choice["candidates"]) {
    EXPECT_TRUE(c["worst_output_sqnr_db"].is_number()) << choice.dump(2);
  }
  const std::string first_best = choice["chosen"];
  EXPECT_EQ(first_best, "gptq");

  // The candidate's name as flags: "awq-mul+gptq" -> "--awq-mul --gptq".
  std::string flags;
  for (const absl::string_view part : absl::StrSplit(first_best, '+')) {
    if (part == "nearest") continue;
    absl::StrAppend(&flags, " --", part, part == "weight-clip" ? " mse" : "");
  }
  ASSERT_EQ(RunCommand(Quantize("--scheme weight-only --weight-bits 4" + flags +
                                " -q -o " + dir + "/alone.tflite"))
                .exit_code,
            0)
      << flags;
  EXPECT_EQ(written, testing::ReadText(dir + "/alone.tflite")) << flags;

  for (const char* alone :
       {"--gptq", "--awq", "--awq-mul", "--weight-clip mse"}) {
    const testing::CommandResult r = RunCommand(
        Quantize(std::string("--scheme dynamic --weight-bits 4 --optimize "
                             "accuracy ") +
                 alone + " -o " + dir + "/x.tflite"));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("chooses the weight rounding"), std::string::npos)
        << r.err;
  }
  const testing::CommandResult fast = RunCommand(
      Quantize("--scheme weight-only --optimize fast -o " + dir + "/y.tflite"));
  EXPECT_EQ(fast.exit_code, 1) << fast.err;
  EXPECT_NE(fast.err.find("takes --optimize accuracy"), std::string::npos)
      << fast.err;
}

}  // namespace
}  // namespace qforge
