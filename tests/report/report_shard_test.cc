// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `report --shard K/N` and `merge-reports` end to end on the bundled MNIST
// CNN: merged shards give exactly the bytes of one `report` in every
// format, for any shard count and any order of the files, on the ten
// bundled digits and on 300 generated samples (the attribution run then
// takes every 4th sample of the whole report); a shard of another data set
// is refused naming the file; missing shards are a note, or an error with
// --require-complete; the target search over eval-trial workers. And the
// exact sums themselves.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "report/exact_sum.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;

using testing::RunCommand;
using testing::TestDataDir;

std::string ShardModel() {
  return TestDataDir() + "/models/conv_fc_mnist.tflite";
}
std::string DigitsData() {
  return " --data '" + TestDataDir() + "/mnist/*.png' --scale 0.003921569 ";
}

// `n` samples of 28x28x1 float32 in [0, 1], stacked (docs/data.md).
std::string NoiseNpy(int64_t n, uint32_t seed) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(n) + ", 28, 28, 1), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int64_t i = 0; i < n * 28 * 28; ++i) {
    const float v = u(rng) < 0.7f ? 0.0f : u(rng);  // mostly background
    out.append(reinterpret_cast<const char*>(&v), 4);
  }
  return out;
}

void WriteShardTestFile(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

class ReportShardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::MakeTempDir());
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " quantize " + ShardModel() + DigitsData() +
                   " -o " + *dir_ + "/q.tflite -q");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    WriteShardTestFile(*dir_ + "/noise.npy", NoiseNpy(300, 7));
    WriteShardTestFile(*dir_ + "/other.npy", NoiseNpy(300, 8));
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string Dir() { return *dir_; }
  static std::string Models() {
    return " " + ShardModel() + " " + *dir_ + "/q.tflite ";
  }
  static std::string NoiseData(const std::string& name = "noise.npy") {
    return " --data " + *dir_ + "/" + name + " ";
  }

  // The partial report of shard k/n in `prefix`.k.part.
  static void Shard(const std::string& data, const std::string& prefix, int k,
                    int n) {
    const testing::CommandResult r =
        RunCommand(QforgeBinary() + " -q report" + Models() + data +
                   " --shard " + std::to_string(k) + "/" + std::to_string(n) +
                   " -o " + prefix + "." + std::to_string(k) + ".part");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  // Whole report against merges of 1..4 shards, in all four formats.
  static void ExpectMergesIdentical(const std::string& data,
                                    const std::string& tag) {
    const char* formats[] = {"text", "json", "md", "html"};
    for (const char* format : formats) {
      const testing::CommandResult r =
          RunCommand(QforgeBinary() + " -q report" + Models() + data +
                     " --threads 2 --format " + format + " -o " + Dir() + "/" +
                     tag + ".whole." + format);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    for (int n = 1; n <= 4; ++n) {
      const std::string prefix = Dir() + "/" + tag + "." + std::to_string(n);
      for (int k = 0; k < n; ++k) Shard(data, prefix, k, n);
      // Files in reverse order: the merge does not depend on it.
      std::string files;
      for (int k = n - 1; k >= 0; --k)
        files += " " + prefix + "." + std::to_string(k) + ".part";
      for (const char* format : formats) {
        const std::string out = prefix + ".merged." + format;
        const testing::CommandResult r =
            RunCommand(QforgeBinary() + " merge-reports" + files +
                       " --format " + format + " -o " + out);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
        EXPECT_EQ(testing::ReadText(out),
                  testing::ReadText(Dir() + "/" + tag + ".whole." + format))
            << n << " shards, " << format;
      }
    }
  }
  static std::string* dir_;
};
std::string* ReportShardTest::dir_ = nullptr;

TEST_F(ReportShardTest, MergedShardsAreTheReportOnTheDigits) {
  ExpectMergesIdentical(DigitsData(), "digits");
}

TEST_F(ReportShardTest, MergedShardsAreTheReportOn300Samples) {
  ExpectMergesIdentical(NoiseData(), "noise");
}

TEST_F(ReportShardTest, AShardOfAnotherDataSetIsRefused) {
  const std::string a = Dir() + "/fp_a", b = Dir() + "/fp_b";
  Shard(NoiseData(), a, 0, 2);
  Shard(NoiseData("other.npy"), b, 1, 2);
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " merge-reports " + a + ".0.part " + b +
                 ".1.part -o " + Dir() + "/fp.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(b + ".1.part: a report of another data set"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(Dir() + "/fp.json"));
}

TEST_F(ReportShardTest, MissingShardsAreANoteOrAnError) {
  const std::string p = Dir() + "/miss";
  Shard(DigitsData(), p, 0, 3);
  Shard(DigitsData(), p, 2, 3);
  const std::string files = " " + p + ".0.part " + p + ".2.part";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " merge-reports" + files + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: merged 2 of 3 shards (missing 1)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("\"samples\": 7"), std::string::npos) << r.out;
  r = RunCommand(QforgeBinary() + " merge-reports" + files +
                 " --require-complete -o " + Dir() + "/miss.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("merged 2 of 3 shards (missing 1); --require-complete"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(Dir() + "/miss.json"));
  // The same shard twice.
  r = RunCommand(QforgeBinary() + " merge-reports " + p + ".0.part " + p +
                 ".0.part");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("shard 0/3 is already in the merge"), std::string::npos)
      << r.err;
}

TEST_F(ReportShardTest, ShardNeedsAnOutputFile) {
  const testing::CommandResult r = RunCommand(
      QforgeBinary() + " report" + Models() + DigitsData() + " --shard 0/2");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("needs -o FILE"), std::string::npos) << r.err;
}

// quantize --target-sqnr --trials-dir: the trials' reports come from
// eval-trial workers (two shards) and the same model comes out.
TEST_F(ReportShardTest, TargetSearchOverTrialWorkersIsTheSame) {
  const std::string q = QforgeBinary();
  const std::string search =
      " quantize " + ShardModel() + DigitsData() + " --target-sqnr 65 -q -o ";
  testing::CommandResult r = RunCommand(q + search + Dir() + "/one.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto workers = [&](const std::string& data, const std::string& dir) {
    std::string out;
    for (int k = 0; k < 2; ++k) {
      out += q + " eval-trial " + ShardModel() + data + " --trials-dir " + dir +
             " --shard " + std::to_string(k) + "/2 --idle-timeout 20 -q & ";
    }
    return out;
  };
  const std::string dir = Dir() + "/trials";
  // In a subshell: RunCommand's redirections apply to all of it.
  r = RunCommand("(" + workers(DigitsData(), dir) + q + search + Dir() +
                 "/workers.tflite --trials-dir " + dir +
                 " --trial-shards 2; rc=$?; wait; exit $rc)");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ReadText(Dir() + "/workers.tflite"),
            testing::ReadText(Dir() + "/one.tflite"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/trial-000.1.part"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/done"));
  // Workers given other data: the search refuses their results.
  const std::string bad = Dir() + "/bad_trials";
  r = RunCommand("(" + workers(NoiseData(), bad) + q + search + Dir() +
                 "/bad.tflite --trials-dir " + bad +
                 " --trial-shards 2; rc=$?; wait; exit $rc)");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("the workers ran another data set"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(Dir() + "/bad.tflite"));
}

TEST(ExactSumTest, AnyOrderAndGroupingGivesTheRoundedExactSum) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> mag(-30, 30);
  std::vector<double> xs;
  for (int i = 0; i < 2000; ++i) {
    const double x =
        std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(mag(rng)));
    xs.push_back(rng() % 2 ? x : -x);
  }
  xs.push_back(1e100);
  xs.push_back(-1e100);
  report::ExactSum forward, parts[3], merged;
  for (size_t i = 0; i < xs.size(); ++i) {
    forward.Add(xs[i]);
    parts[i % 3].Add(xs[xs.size() - 1 - i]);
  }
  for (int p = 2; p >= 0; --p) merged.Merge(parts[p]);
  EXPECT_EQ(forward.Value(), merged.Value());
  // 1 + 2^-53 + 2^-53 ... rounds up only when summed exactly.
  report::ExactSum tie;
  tie.Add(1.0);
  tie.Add(std::ldexp(1.0, -53));
  tie.Add(std::ldexp(1.0, -53));
  EXPECT_EQ(tie.Value(), 1.0 + std::ldexp(1.0, -52));
  report::ExactSum special;
  special.Add(1.0);
  special.Add(INFINITY);
  EXPECT_EQ(special.Value(), INFINITY);
  special.Add(-INFINITY);
  EXPECT_TRUE(std::isnan(special.Value()));
}

}  // namespace
}  // namespace qforge
