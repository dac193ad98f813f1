// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SIGTERM at random moments of `quantize -o OUT` and `calibrate -o OUT`:
// afterwards OUT is either absent or complete (byte-identical to an
// uninterrupted run's), and the output folder holds no temporary file.
// Both ways of writing are covered: the unnamed O_TMPFILE file, and the
// named temp file that the signal handler removes (QFORGE_NAMED_TEMP=1,
// base/file_io.h).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

extern char** environ;

namespace qforge {
namespace {

namespace fs = std::filesystem;
using testing::QforgeBinary;
using testing::TestDataDir;

struct Outcome {
  int status = 0;
  double seconds = 0;
};

// Runs qforge with `args` (stderr to /dev/null), sending SIGTERM after
// `kill_after` seconds unless it ended first (< 0: never).
Outcome Run(const std::vector<std::string>& args, double kill_after,
            bool named_temp) {
  std::vector<std::string> argv_s = {QforgeBinary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) env_s.push_back(*e);
  if (named_temp) env_s.push_back("QFORGE_NAMED_TEMP=1");
  std::vector<char*> envp;
  for (std::string& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  EXPECT_EQ(
      posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()),
      0);
  posix_spawn_file_actions_destroy(&actions);
  Outcome out;
  if (kill_after >= 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(kill_after));
    ::kill(pid, SIGTERM);
  }
  EXPECT_EQ(::waitpid(pid, &out.status, 0), pid);
  out.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return out;
}

void KillAtRandomMoments(const std::vector<std::string>& args_before_out,
                         const std::string& out_name) {
  const std::string dir = testing::MakeTempDir();
  const std::string out = dir + "/" + out_name;
  std::vector<std::string> args = args_before_out;
  args.push_back("-o");
  args.push_back(out);
  args.push_back("-q");
  // The uninterrupted run: the reference output and duration.
  const Outcome whole = Run(args, -1, false);
  ASSERT_TRUE(WIFEXITED(whole.status) && WEXITSTATUS(whole.status) == 0);
  const std::string reference = testing::ReadText(out);
  ASSERT_FALSE(reference.empty());
  std::mt19937 rng(20261204);
  std::uniform_real_distribution<double> moment(0.0, 1.1 * whole.seconds);
  int killed = 0, complete = 0;
  for (int i = 0; i < 24; ++i) {
    fs::remove(out);
    const bool named = i % 2 == 1;
    const Outcome o = Run(args, moment(rng), named);
    if (WIFSIGNALED(o.status)) {
      EXPECT_EQ(WTERMSIG(o.status), SIGTERM);
      ++killed;
    } else {
      EXPECT_TRUE(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
    }
    if (fs::exists(out)) {
      EXPECT_EQ(testing::ReadText(out), reference)
          << "run " << i << ": partial output";
      ++complete;
    }
    for (const auto& entry : fs::directory_iterator(dir)) {
      EXPECT_EQ(entry.path().filename().string(), out_name)
          << "run " << i << (named ? " (named temp)" : "") << ": left behind "
          << entry.path();
    }
  }
  // Most kills land while it runs.
  EXPECT_GE(killed, 8) << complete << " complete";
  fs::remove_all(dir);
}

TEST(InterruptTest, CalibrateLeavesNoPartialOutput) {
  KillAtRandomMoments(
      {"calibrate", TestDataDir() + "/models/conv_fc_mnist.tflite", "--data",
       TestDataDir() + "/mnist", "--scale", "0.003921569", "--threads", "1"},
      "stats.json");
}

TEST(InterruptTest, QuantizeLeavesNoPartialOutput) {
  KillAtRandomMoments(
      {"quantize", TestDataDir() + "/models/conv_fc_mnist.tflite", "--data",
       TestDataDir() + "/mnist", "--scale", "0.003921569", "--threads", "1"},
      "model.tflite");
}

}  // namespace
}  // namespace qforge
