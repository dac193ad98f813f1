// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The CLI's contract: exit codes, one-line errors, atomic outputs, never
// overwriting an input.
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

std::string Model(const std::string& name) {
  return TestDataDir() + "/models/" + name;
}

TEST(CliTest, VersionAndHelp) {
  testing::CommandResult r = RunCommand(QforgeBinary() + " --version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("qforge ", 0), 0u) << r.out;
  r = RunCommand(QforgeBinary() + " help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("inspect"), std::string::npos);
  EXPECT_NE(r.out.find("copy"), std::string::npos);
}

TEST(CliTest, UsageErrorsExitOne) {
  EXPECT_EQ(RunCommand(QforgeBinary()).exit_code, 1);
  EXPECT_EQ(RunCommand(QforgeBinary() + " frobnicate").exit_code, 1);
  EXPECT_EQ(
      RunCommand(QforgeBinary() + " copy " + Model("add.tflite")).exit_code,
      1);  // missing -o
}

TEST(CliTest, MissingFileExitsOneWithOneLine) {
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " inspect /nonexistent/model.tflite");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "qforge: error: /nonexistent/model.tflite: no such file\n");
}

TEST(CliTest, CopyWritesAnEquivalentModelAndRefusesItsInput) {
  const std::string dir = testing::MakeTempDir();
  const std::string input = dir + "/in.tflite";
  std::filesystem::copy_file(Model("conv_fc_mnist.tflite"), input);
  const std::string out = dir + "/out.tflite";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " copy " + input + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Writing onto the input (by any path that names it) is refused, and the
  // input is left as it was.
  const auto before = std::filesystem::file_size(input);
  r = RunCommand(QforgeBinary() + " copy " + input + " -o " + dir +
                 "/./in.tflite");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("refusing to overwrite"), std::string::npos) << r.err;
  EXPECT_EQ(std::filesystem::file_size(input), before);
  // No temp files left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 2);
}

TEST(CliTest, CopyIntoMissingDirectoryFailsCleanly) {
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " copy " + Model("add.tflite") +
                 " -o /nonexistent/dir/out.tflite");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliTest, InspectJsonDescribesTheModel) {
  const testing::CommandResult r = RunCommand(
      QforgeBinary() + " inspect --json " + Model("two_signatures.tflite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["subgraph_count"], 2);
  ASSERT_EQ(j["signatures"].size(), 2u);
  EXPECT_EQ(j["quantization_state"], "none");
}

TEST(CliTest, InspectQuantizationStates) {
  auto state = [](const std::string& model) {
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " inspect --json " + Model(model));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out)["quantization_state"]
        .get<std::string>();
  };
  EXPECT_EQ(state("conv_fc_mnist.tflite"), "none");
  EXPECT_EQ(state("vww_96_int8.tflite"), "full_int8");
  EXPECT_EQ(state("conv0.tflite"), "int16x8");
  EXPECT_EQ(state("face_detection_short_range.tflite"), "float16_weights");
}

TEST(CliTest, InspectTextShowsDynamicDims) {
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " inspect " + Model("conv_fc_mnist.tflite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("float32[?,28,28,1]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CONV_2D"), std::string::npos);
}

}  // namespace
}  // namespace qforge
