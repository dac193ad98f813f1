// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The CLI's error contract beyond bad files: usage errors (whatever refuses
// them: the option parser or a command) exit 1 with one "qforge: error:"
// line; `qforge help COMMAND`; names that are not UTF-8 escaped in every
// text output; outputs that would replace an input (data files included)
// or cannot be written refused before any work; all-NaN calibration data
// and incomplete merges.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

namespace fs = std::filesystem;
using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

std::string Model(const std::string& name) {
  return TestDataDir() + "/models/" + name;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A float32 .npy of `shape` holding `values` (cycled).
std::string Npy(const std::vector<int>& shape,
                const std::vector<float>& values) {
  std::string dims;
  int64_t n = 1;
  for (int d : shape) {
    dims += std::to_string(d) + ", ";
    n *= d;
  }
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  for (int64_t i = 0; i < n; ++i) {
    const float v = values[static_cast<size_t>(i) % values.size()];
    out.append(reinterpret_cast<const char*>(&v), 4);
  }
  return out;
}

void ExpectUsageError(const std::string& args, const std::string& phrase) {
  const testing::CommandResult r = RunCommand(QforgeBinary() + " " + args);
  EXPECT_EQ(r.exit_code, 1) << args << "\n" << r.err;
  EXPECT_EQ(r.err.rfind("qforge: error: ", 0), 0u) << args << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n"
                                                             << r.err;
  EXPECT_NE(r.err.find(phrase), std::string::npos) << args << "\n" << r.err;
  EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
}

TEST(UsageTest, ParserAndCommandRefusalsAreOneLineExitOne) {
  const std::string m = Model("conv_fc_mnist.tflite");
  const std::string data = " --data " + TestDataDir() + "/mnist";
  ExpectUsageError("frobnicate", "unknown command 'frobnicate'");
  ExpectUsageError("inspect", "model is required");
  ExpectUsageError("calibrate " + m + data + " -o x.json --threads abc",
                   "--threads");
  for (const char* t : {"0", "-1", "100000"}) {
    ExpectUsageError("calibrate " + m + data + " -o x.json --threads " + t,
                     "--threads");
    ExpectUsageError("run " + m + data + " --output-dir d --threads " + t,
                     "--threads");
  }
  ExpectUsageError("calibrate " + m + data + " -o x.json --histogram-stride 0",
                   "--histogram-stride");
  ExpectUsageError("calibrate " + m + data + " -o x.json --scale nan",
                   "--scale");
  ExpectUsageError("calibrate " + m + data + " -o x.json --std 0", "--std");
  ExpectUsageError("report " + m + " " + m + data + " --min-sqnr nan",
                   "--min-sqnr");
  ExpectUsageError("run " + m + data + " --output-dir d --sample-rate -16000",
                   "--sample-rate");
  ExpectUsageError("calibrate " + m + data + " -o x.json --color rgb",
                   "one channel");
  ExpectUsageError("calibrate " + m + data + " -o x.json --shard 3/2",
                   "--shard");
  ExpectUsageError("calibrate " + m + data + " -o x.json --resize 10",
                   "--resize");
  ExpectUsageError("quantize " + m + " -o x.tflite --scheme int3", "--scheme");
  ExpectUsageError("quantize " + m + " -o x.tflite --method foo", "--method");
  ExpectUsageError("quantize " + m + " -o x.tflite", "needs --stats");
  ExpectUsageError("quantize " + m + " --stats s.json -o x.tflite --report r",
                   "--report needs --data");
  ExpectUsageError("report " + m + " " + m + data + " --format pdf",
                   "--format");
  ExpectUsageError("extract " + m + " --ops x -o e.tflite", "--ops");
  ExpectUsageError("help frobnicate", "no command 'frobnicate'");
  // Binary in an argument is escaped, never echoed raw.
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " inspect $(printf 'x\\377\\033[31m')");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("x\\xff\\x1b[31m"), std::string::npos) << r.err;
}

TEST(UsageTest, HelpForEachCommandShowsDefaultsAndAnExample) {
  for (const char* cmd : {"inspect", "copy", "extract", "run", "calibrate",
                          "merge-stats", "quantize", "report"}) {
    const testing::CommandResult help =
        RunCommand(QforgeBinary() + " help " + cmd);
    EXPECT_EQ(help.exit_code, 0) << cmd << help.err;
    EXPECT_NE(help.out.find(std::string("Usage: qforge ") + cmd),
              std::string::npos)
        << help.out;
    EXPECT_NE(help.out.find(std::string("Example:\n  qforge ") + cmd),
              std::string::npos)
        << help.out;
    const testing::CommandResult flag =
        RunCommand(QforgeBinary() + " " + cmd + " --help");
    EXPECT_EQ(flag.exit_code, 0) << cmd;
    EXPECT_NE(flag.out.find("Example:"), std::string::npos) << flag.out;
  }
  const testing::CommandResult help =
      RunCommand(QforgeBinary() + " help calibrate");
  EXPECT_NE(help.out.find("=31"), std::string::npos) << help.out;  // stride
  EXPECT_NE(help.out.find("=all cores"), std::string::npos) << help.out;
}

// add.tflite with the name of its input 'input1' made 'inp\xfft1' (same
// length, so the file stays valid).
std::string ModelWithBinaryName(const std::string& dir) {
  std::string bytes = testing::ReadText(Model("add.tflite"));
  const size_t at = bytes.find("input1");
  EXPECT_NE(at, std::string::npos);
  bytes[at + 3] = '\xff';
  const std::string path = dir + "/binary_name.tflite";
  WriteFile(path, bytes);
  return path;
}

TEST(UsageTest, NamesThatAreNotUtf8AreEscapedInEveryOutput) {
  const std::string dir = testing::MakeTempDir();
  const std::string model = ModelWithBinaryName(dir);
  WriteFile(dir + "/a.npy", Npy({4, 10}, {0.5f, -1.0f, 2.0f}));
  WriteFile(dir + "/b.npy", Npy({4, 10}, {1.5f, -0.25f}));
  const std::string data = " --data \"$(printf 'inp\\377t1')\"=" + dir +
                           "/a.npy --data input2=" + dir + "/b.npy";
  const char kEscaped[] = "inp\\xfft1";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " inspect --json " + model);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["inputs"][0]["name"], kEscaped);

  r = RunCommand(QforgeBinary() + " calibrate " + model + data + " -o " + dir +
                 "/stats.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(testing::ReadText(dir + "/stats.json").find("inp\\\\xfft1"),
            std::string::npos);
  r = RunCommand(QforgeBinary() + " quantize " + model + " --stats " + dir +
                 "/stats.json -o " + dir + "/q.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " quantize " + model + data + " -o " + dir +
                 "/q2.tflite --report " + dir + "/r.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(testing::ReadText(dir + "/r.json"));
  EXPECT_NE(j.dump().find("inp\\\\xfft1"), std::string::npos);
  for (const char* format : {"json", "md", "html", "text"}) {
    r = RunCommand(QforgeBinary() + " report " + model + " " + dir +
                   "/q.tflite" + data + " --format " + format);
    ASSERT_EQ(r.exit_code, 0) << format << r.err;
    EXPECT_EQ(r.out.find('\xff'), std::string::npos) << format;
    if (std::string(format) == "json") {
      EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
    }
  }
  fs::remove_all(dir);
}

TEST(UsageTest, OutputsNeverReplaceInputsAndAreCheckedFirst) {
  const std::string dir = testing::MakeTempDir();
  const std::string m = Model("conv_fc_mnist.tflite");
  const std::string digit = dir + "/digit.png";
  fs::copy_file(TestDataDir() + "/mnist/sample3.png", digit);
  const std::string before = testing::ReadText(digit);
  // A data file named as the output: refused, the file unchanged.
  for (const std::string& args :
       {"calibrate " + m + " --data " + digit + " -o " + digit,
        "quantize " + m + " --data " + digit + " -o " + digit,
        "quantize " + m + " --data " + dir + " -o " + digit,
        "report " + m + " " + m + " --data " + digit + " -o " + digit}) {
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " " + args + " --scale 0.003921569");
    EXPECT_EQ(r.exit_code, 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("refusing to overwrite an input"), std::string::npos)
        << r.err;
    EXPECT_EQ(testing::ReadText(digit), before);
  }
  // run: an output_K.npy that is the data file.
  const std::string npy = dir + "/output_0.npy";
  WriteFile(npy, Npy({1, 28, 28, 1}, {0.5f}));
  testing::CommandResult r = RunCommand(
      QforgeBinary() + " run " + m + " --data " + npy + " --output-dir " + dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // --report to a folder that does not exist: refused before the model is
  // written.
  r = RunCommand(QforgeBinary() + " quantize " + m + " --data " + digit +
                 " --scale 0.003921569 -o " + dir +
                 "/q.tflite --report /nonexistent/r.html");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/q.tflite"));
  ExpectUsageError("quantize " + m + " --data " + digit + " -o " + dir +
                       "/q.tflite --report " + dir + "/./q.tflite",
                   "output model's path");
  EXPECT_FALSE(fs::exists(dir + "/q.tflite"));
  fs::remove_all(dir);
}

TEST(UsageTest, CalibrationOnAllNanDataIsInvalidInput) {
  const std::string dir = testing::MakeTempDir();
  WriteFile(dir + "/nan.npy", Npy({2, 10}, {std::nanf("")}));
  WriteFile(dir + "/ok.npy", Npy({2, 10}, {1.0f}));
  const std::string data =
      " --data input1=" + dir + "/nan.npy --data input2=" + dir + "/ok.npy";
  for (const std::string& cmd :
       {"calibrate " + Model("add.tflite") + data + " -o " + dir + "/s.json",
        "quantize " + Model("add.tflite") + data + " -o " + dir +
            "/q.tflite"}) {
    const testing::CommandResult r = RunCommand(QforgeBinary() + " " + cmd);
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.err;
    EXPECT_NE(r.err.find("'input1': all 20 values are NaN or Inf"),
              std::string::npos)
        << r.err;
  }
  EXPECT_FALSE(fs::exists(dir + "/s.json"));
  EXPECT_FALSE(fs::exists(dir + "/q.tflite"));
  fs::remove_all(dir);
}

TEST(UsageTest, MergingSomeShardsSaysSoAndRequireCompleteRefuses) {
  const std::string dir = testing::MakeTempDir();
  const std::string m = Model("conv_fc_mnist.tflite");
  std::string shards;
  for (int k : {0, 1, 3}) {
    const std::string s = dir + "/s" + std::to_string(k) + ".json";
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " calibrate " + m + " --data " +
                   TestDataDir() + "/mnist --scale 0.003921569 -q --shard " +
                   std::to_string(k) + "/4 -o " + s);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    shards += " " + s;
  }
  testing::CommandResult r = RunCommand(QforgeBinary() + " merge-stats" +
                                        shards + " -o " + dir + "/m.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: merged 3 of 4 shards (missing 2)"),
            std::string::npos)
      << r.err;
  r = RunCommand(QforgeBinary() + " merge-stats" + shards + " -o " + dir +
                 "/m2.json --require-complete");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("merged 3 of 4 shards"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/m2.json"));
  r = RunCommand(QforgeBinary() + " quantize " + m + " --stats " + dir +
                 "/m.json -o " + dir + "/q.tflite");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("covers 3 of 4 shards"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qforge
