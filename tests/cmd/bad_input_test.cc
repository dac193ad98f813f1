// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Hostile input through the CLI: every hand-made bad statistics file
// (testdata/bad_stats, see make_bad_stats.py) and every model that passes
// the reader's validation but cannot run (testdata/bad_models, see
// make_bad_models.py) must end the command with exit code 1 or 2 and exactly
// one line on stderr, "qforge: error: ...", never by a signal, and leave no
// output behind. Labelled `unit`, so CI runs it under ASan/UBSan too.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

namespace fs = std::filesystem;
using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

// One error line, the process not killed by a signal, exit code 1 or 2.
void ExpectOneLineError(const testing::CommandResult& r,
                        const std::string& what) {
  EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 2)
      << what << ": exit code " << r.exit_code << "\n"
      << r.err;
  EXPECT_EQ(r.err.rfind("qforge: error: ", 0), 0u) << what << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << "\n"
                                                             << r.err;
}

// Files in `dir` ending in `suffix`, as test parameters named after them.
std::vector<std::string> Files(const std::string& dir,
                               const std::string& suffix) {
  std::vector<std::string> out;
  for (const std::string& path :
       testing::FindFiles(TestDataDir() + "/" + dir, suffix)) {
    if (fs::path(path).parent_path() == fs::path(TestDataDir() + "/" + dir)) {
      out.push_back(path);
    }
  }
  return out;
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// ------------------------------------------------------- statistics files

// testdata/bad_stats/expected.tsv (written by make_bad_stats.py): per file,
// the field its error names (the text right after "FILE: ", then ':') and
// a phrase the line holds too.
std::map<std::string, std::pair<std::string, std::string>> ExpectedErrors() {
  std::map<std::string, std::pair<std::string, std::string>> out;
  std::ifstream in(TestDataDir() + "/bad_stats/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab1 = line.find('\t');
    const size_t tab2 = line.find('\t', tab1 + 1);
    if (tab1 == std::string::npos || tab2 == std::string::npos) continue;
    out[line.substr(0, tab1)] = {line.substr(tab1 + 1, tab2 - tab1 - 1),
                                 line.substr(tab2 + 1)};
  }
  return out;
}

// The error line names the field: "qforge: error: FILE: FIELD: ...".
void ExpectNamesField(const std::string& err, const std::string& file) {
  static const auto* expected =
      new std::map<std::string, std::pair<std::string, std::string>>(
          ExpectedErrors());
  const std::string name = fs::path(file).stem().string();
  const auto it = expected->find(name);
  ASSERT_NE(it, expected->end()) << name << " is not in expected.tsv";
  const auto& [field, also] = it->second;
  EXPECT_NE(err.find(file + ": " + field + (also.empty() ? "" : ":")),
            std::string::npos)
      << "expected '" << field << "' named in:\n"
      << err;
  EXPECT_NE(err.find(also), std::string::npos) << also << "\n" << err;
}

class BadStatsTest : public ::testing::TestWithParam<std::string> {};

TEST(BadStatsSetTest, HoldsAtLeastFiftyFilesEachWithItsExpectedError) {
  const std::vector<std::string> files = Files("bad_stats", ".json");
  EXPECT_GE(files.size(), 50u);
  EXPECT_EQ(ExpectedErrors().size(), files.size());
}

TEST_P(BadStatsTest, QuantizeAndMergeRefuseItInOneLine) {
  const std::string bad = GetParam();
  const std::string dir = testing::MakeTempDir();
  const std::string out = dir + "/out.tflite";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/add.tflite --stats '" + bad + "' -o " + out);
  ExpectOneLineError(r, "quantize --stats " + bad);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // invalid input, not usage
  ExpectNamesField(r.err, bad);
  EXPECT_FALSE(fs::exists(out));
  // Files broken in themselves (not only for add.tflite) are refused by
  // merge-stats too, with a good shard beside them.
  if (fs::path(bad).filename().string().rfind("file_", 0) == 0) {
    const std::string merged = dir + "/merged.json";
    r = RunCommand(QforgeBinary() + " merge-stats '" + bad + "' " +
                   TestDataDir() + "/stats/add.shard1of2.json -o " + merged);
    ExpectOneLineError(r, "merge-stats " + bad);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    ExpectNamesField(r.err, bad);
    EXPECT_FALSE(fs::exists(merged));
  }
  EXPECT_EQ(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 0);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Files, BadStatsTest,
                         ::testing::ValuesIn(Files("bad_stats", ".json")),
                         ParamName);

// ------------------------------------------------------------------ models

// testdata/bad_models/NAME.tflite runs on testdata/bad_models/inputs/BASE.npy
// where BASE is NAME up to its "__" (the bundled model it was made from);
// models with several inputs have one file per input, BASE.INPUT.npy.
std::string DataFlags(const std::string& model) {
  const std::string name = fs::path(model).stem().string();
  const std::string base = name.substr(0, name.find("__"));
  const std::string dir = TestDataDir() + "/bad_models/inputs/";
  std::string flags;
  for (const std::string& npy : testing::FindFiles(dir, ".npy")) {
    const std::string stem = fs::path(npy).stem().string();
    if (stem == base) return " --data " + npy;
    if (stem.rfind(base + ".", 0) == 0) {
      flags += " --data " + stem.substr(base.size() + 1) + "=" + npy;
    }
  }
  return flags;
}

class BadModelTest : public ::testing::TestWithParam<std::string> {};

TEST(BadModelSetTest, HoldsAtLeastTenModels) {
  EXPECT_GE(Files("bad_models", ".tflite").size(), 30u);
}

TEST_P(BadModelTest, ValidatesButRunAndQuantizeRefuseItInOneLine) {
  const std::string model = GetParam();
  // The reader accepts it: the defect is one only a run can meet.
  testing::CommandResult r = RunCommand(QforgeBinary() + " inspect " + model);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string data = DataFlags(model);
  ASSERT_FALSE(data.empty()) << "no input data for " << model;
  const std::string dir = testing::MakeTempDir();
  r = RunCommand(QforgeBinary() + " run " + model + data +
                 " --threads 1 --output-dir " + dir + "/out");
  ExpectOneLineError(r, "run " + model);
  EXPECT_FALSE(fs::exists(dir + "/out/output_0.npy"));
  r = RunCommand(QforgeBinary() + " inspect --json " + model);
  const bool float_model =
      r.out.find("\"quantization_state\": \"none\"") != std::string::npos;
  if (float_model) {
    // Calibration runs the model too; a defect the quantizer works around
    // (exit 0) is fine, a crash is not.
    r = RunCommand(QforgeBinary() + " quantize " + model + data +
                   " --threads 1 -o " + dir + "/q.tflite");
    if (r.exit_code != 0) {
      ExpectOneLineError(r, "quantize " + model);
      EXPECT_FALSE(fs::exists(dir + "/q.tflite"));
    }
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Files, BadModelTest,
                         ::testing::ValuesIn(Files("bad_models", ".tflite")),
                         ParamName);

}  // namespace
}  // namespace qforge
