// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `qforge quantize` on bad inputs: each is one line on stderr naming the
// problem, a non-zero exit code, and no output file left behind.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;

// x[1,64] -> FULLY_CONNECTED (weights [32,64], large enough for the
// dynamic-range scheme, with `bad` at one place) -> y.
std::string WriteFcModel(const std::string& path, float bad) {
  testing::OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 64}, "x");
  std::vector<float> w(32 * 64, 0.5f);
  w[100] = bad;
  const int wt = m.Constant<float>({32, 64}, w, "fc/weights");
  const int y = m.Output(ir::DataType::kFloat32, {1, 32}, "y");
  m.Op(ir::OpKind::kFullyConnected, {x, wt, -1}, {y},
       ir::FullyConnectedOptions{});
  const std::vector<uint8_t> bytes = *formats::SerializeTflite(m.model());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return path;
}

// Runs the command; expects failure with exactly one error line containing
// `needle`, and `out` not created.
void ExpectCleanFailure(const std::string& command, const std::string& out,
                        const std::string& needle, int exit_code = 2) {
  const testing::CommandResult r = RunCommand(command);
  EXPECT_EQ(r.exit_code, exit_code) << command << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("qforge: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out)) << out;
  // No temporary file either.
  for (const auto& e : std::filesystem::directory_iterator(
           std::filesystem::path(out).parent_path())) {
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  }
}

TEST(QuantizeErrorsTest, NonFiniteWeights) {
  const std::string dir = testing::MakeTempDir();
  for (float bad : {NAN, INFINITY, -INFINITY}) {
    const std::string model = WriteFcModel(dir + "/bad.tflite", bad);
    for (const char* scheme : {"dynamic", "float16"}) {
      ExpectCleanFailure(QforgeBinary() + " quantize " + model + " --scheme " +
                             scheme + " -o " + dir + "/out.tflite",
                         dir + "/out.tflite", "'fc/weights'");
    }
  }
}

TEST(QuantizeErrorsTest, StatsOfAnotherModelEmptyDataAndQuantizedInput) {
  const std::string dir = testing::MakeTempDir();
  const std::string mnist =
      testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  const std::string digits = testing::TestDataDir() + "/mnist";
  const std::string stats = dir + "/stats.json";
  ASSERT_EQ(RunCommand(QforgeBinary() + " calibrate " + mnist + " --data " +
                       digits + " -o " + stats + " -q")
                .exit_code,
            0);
  const std::string out = dir + "/out.tflite";
  // Statistics recorded on another model.
  const std::string other = WriteFcModel(dir + "/fc.tflite", 1.0f);
  ExpectCleanFailure(QforgeBinary() + " quantize " + other + " --stats " +
                         stats + " -o " + out,
                     out, "statistics of another model");
  // An empty data set (a folder without samples, a pattern matching none).
  std::filesystem::create_directory(dir + "/empty");
  ExpectCleanFailure(QforgeBinary() + " quantize " + mnist + " --data " + dir +
                         "/empty -o " + out,
                     out, "no sample files");
  ExpectCleanFailure(QforgeBinary() + " quantize " + mnist + " --data '" + dir +
                         "/empty/*.png' -o " + out,
                     out, "no sample files");
  // An already quantized model, in every scheme.
  const std::string q = dir + "/q.tflite";
  ASSERT_EQ(RunCommand(QforgeBinary() + " quantize " + mnist + " --stats " +
                       stats + " -o " + q + " -q")
                .exit_code,
            0);
  for (const char* scheme : {"int8", "dynamic", "float16"}) {
    ExpectCleanFailure(QforgeBinary() + " quantize " + q + " --data " + digits +
                           " --scheme " + scheme + " -o " + out,
                       out, "already quantized");
  }
}

// Op selectors are RE2 patterns: one that makes a backtracking matcher
// take exponential time ("(.|.|.)*Z": 3^n paths over an n-character
// tensor name; std::regex did not return within 30 s on vww_96's names)
// finishes at once, and so does one nested 20000 deep (std::regex
// overflowed the stack compiling it: SIGSEGV). An invalid one is a one-line
// error.
TEST(QuantizeErrorsTest, HostileRegularExpressionSelectors) {
  const std::string dir = testing::MakeTempDir();
  const std::string mnist =
      testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  const std::string stats = testing::TestDataDir() + "/stats/mnist.json";
  const std::string out = dir + "/out.tflite";
  const std::string base =
      QforgeBinary() + " quantize " + mnist + " --stats " + stats;
  ExpectCleanFailure(base + " --float-op 're:(.|.|.)*Z' -o " + out, out,
                     "matches no op");
  const std::string deep =
      std::string(20000, '(') + "Z" + std::string(20000, ')');
  ExpectCleanFailure(base + " --float-op 're:" + deep + "' -o " + out, out,
                     "matches no op");
  ExpectCleanFailure(base + " --float-op 're:conv(' -o " + out, out,
                     "bad regular expression");
  // A pattern that matches still selects: the model's first conv.
  EXPECT_EQ(
      RunCommand(base + " --float-op 're:conv2d.*' -q -o " + out).exit_code, 0);
}

}  // namespace
}  // namespace qforge
