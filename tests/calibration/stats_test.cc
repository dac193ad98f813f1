// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Stats files: exact merging, byte-identical shards vs. a single run (with
// 1 and 2 threads), refusals, and bounded memory.
#include <sys/resource.h>

#include <fstream>
#include <sstream>

#include "calibration/histogram.h"
#include "calibration/stats_file.h"
#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge::calibration {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(HistogramTest, BucketsCoverTheirValues) {
  // Every float lies inside the range of its own bucket.
  for (float v : {1.0f, 1.03f, 0.5f, -2.75f, 1e-20f, 3e30f, -7e-3f}) {
    const BucketRange r = RangeOf(BucketOf(v));
    EXPECT_LE(r.lo, v) << v;
    EXPECT_GE(r.hi, v) << v;
    // 5 mantissa bits: a bucket is at most 1/32 of its lower edge wide.
    EXPECT_LE(std::abs(r.hi - r.lo), std::abs(v) / 32 + 1e-30) << v;
  }
}

TEST(StatsFileTest, SerializeParseRoundTrip) {
  StatsFile f;
  f.fingerprint = {
      "00000000000000aa", "00000000000000bb", "0.1.0", 10, 7, 1, {}};
  f.samples = 10;
  TensorStats t;
  t.subgraph = 0;
  t.tensor = 3;
  t.name = "conv/out";
  t.count = 5;
  t.nan = 1;
  t.min = -0.1f;
  t.max = 3.3f;
  t.histogram.Add(BucketOf(1.0f), 4);
  f.tensors.push_back(t);
  const std::string text = SerializeStats(f);
  absl::StatusOr<StatsFile> back = ParseStats(text, "x");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(SerializeStats(*back), text);
  EXPECT_TRUE(back->tensors[0] == t);
  EXPECT_FALSE(ParseStats("{}", "x").ok());
  EXPECT_FALSE(ParseStats("not json", "x").ok());
}

std::string Calibrate(const std::string& extra, const std::string& out) {
  const std::string cmd =
      QforgeBinary() + " calibrate " + TestDataDir() +
      "/models/conv_fc_mnist.tflite --data '" + TestDataDir() +
      "/mnist/*.png' --scale 0.003921569 -o " + out + " " + extra;
  const testing::CommandResult r = RunCommand(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  return Slurp(out);
}

TEST(CalibrateCliTest, ShardsMergeToTheSingleRunByteForByte) {
  const std::string dir = testing::MakeTempDir();
  const std::string whole = Calibrate("--threads 1", dir + "/whole.json");
  ASSERT_FALSE(whole.empty());
  EXPECT_EQ(Calibrate("--threads 2", dir + "/whole2.json"), whole);
  for (const char* threads : {"1", "2"}) {
    std::string parts;
    for (int k = 0; k < 3; ++k) {
      const std::string path = dir + "/s" + std::to_string(k) + ".json";
      Calibrate(std::string("--threads ") + threads + " --shard " +
                    std::to_string(k) + "/3",
                path);
      parts += " " + path;
    }
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " merge-stats" + parts + " -o " + dir +
                   "/merged.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(Slurp(dir + "/merged.json"), whole) << "threads " << threads;
  }
  // Shards merge in any order.
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " merge-stats " + dir + "/s2.json " + dir +
                 "/s0.json " + dir + "/s1.json -o " + dir + "/merged2.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(dir + "/merged2.json"), whole);
}

TEST(CalibrateCliTest, RefusesMixedModelsAndDuplicateShards) {
  const std::string dir = testing::MakeTempDir();
  Calibrate("--shard 0/2", dir + "/a.json");
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " merge-stats " + dir + "/a.json " + dir +
                 "/a.json -o " + dir + "/m.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("already in the merge"), std::string::npos) << r.err;
  // Stats of another model (same data): refused.
  const std::string other = dir + "/other.json";
  r = RunCommand(QforgeBinary() + " calibrate " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --data '" + TestDataDir() +
                 "/mnist/*.png' -o " + other + " --shard 1/2");
  ASSERT_EQ(r.exit_code, 0) << r.err;  // different preprocessing: other data
  r = RunCommand(QforgeBinary() + " merge-stats " + dir + "/a.json " + other +
                 " -o " + dir + "/m.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("another data set"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/m.json").good());
}

TEST(CalibrateCliTest, EmptyDataAndBadShardAreErrors) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " calibrate " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --data '" + dir + "/*.png' -o " +
                 dir + "/x.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = RunCommand(QforgeBinary() + " calibrate " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --data '" + TestDataDir() +
                 "/mnist/*.png' -o " + dir + "/x.json --shard 3/3");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/x.json").good());
}

}  // namespace
}  // namespace qforge::calibration
