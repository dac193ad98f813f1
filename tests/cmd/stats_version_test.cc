// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Statistics format versions (docs/stats-format.md): version 2 files (XXH3
// model hash) are written; the bundled version 1 files (FNV-1a model hash)
// are still read and checked with their own hash; shards of different
// versions do not merge.
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

const std::string kMnistModel = "/models/conv_fc_mnist.tflite";

TEST(StatsVersionTest, WritesVersion2AndReadsVersion1) {
  const std::string dir = testing::MakeTempDir();
  const std::string q = QforgeBinary();
  const std::string model = TestDataDir() + kMnistModel;
  ASSERT_EQ(
      RunCommand(q + " calibrate " + model + " --data '" + TestDataDir() +
                 "/mnist/*.png' --scale 0.003921569 -o " + dir + "/s2.json -q")
          .exit_code,
      0);
  std::ifstream f(dir + "/s2.json");
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("\"version\":2"), std::string::npos);
  // Both versions quantize the model they belong to.
  for (const std::string& stats :
       {dir + "/s2.json", TestDataDir() + "/stats/mnist.json"}) {
    const testing::CommandResult r =
        RunCommand(q + " quantize " + model + " --stats " + stats + " -q -o " +
                   dir + "/m.tflite");
    EXPECT_EQ(r.exit_code, 0) << stats << ": " << r.err;
  }
  // A version 1 file of another model is still refused by its FNV hash.
  const testing::CommandResult other = RunCommand(
      q + " quantize " + TestDataDir() + "/models/add.tflite --stats " +
      TestDataDir() + "/stats/mnist.json -q -o " + dir + "/a.tflite");
  EXPECT_EQ(other.exit_code, 2) << other.err;
  EXPECT_NE(other.err.find("statistics of another model"), std::string::npos)
      << other.err;
  // Mixed versions do not merge.
  const testing::CommandResult merged = RunCommand(
      q + " merge-stats " + TestDataDir() + "/stats/mnist.shard0of2.json " +
      dir + "/s2.json -o " + dir + "/m.json");
  EXPECT_EQ(merged.exit_code, 2) << merged.err;
  EXPECT_NE(merged.err.find("stats format version"), std::string::npos)
      << merged.err;
}

}  // namespace
}  // namespace qforge
