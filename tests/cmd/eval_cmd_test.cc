// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --eval-cmd on the bundled MNIST CNN and its ten digits: the
// user's command accepts plans. The evaluator, tests/cmd/eval_min_sqnr.py,
// scores a candidate by its smallest output SQNR against the float model
// on the ten digits (`qforge report --format json`), and logs each
// candidate's SHA-256, so a test can tell which one was written.
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cmath>
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

using testing::RunCommand;
using testing::TestDataDir;

// The evaluator's command for --eval-cmd, single-quoted for the shell.
std::string SqnrEvaluator() {
  return "'python3 " + TestDataDir() + "/../tests/cmd/eval_min_sqnr.py " +
         testing::QforgeBinary() + " " + TestDataDir() +
         "/models/conv_fc_mnist.tflite {model} --data \"" + TestDataDir() +
         "/mnist/*.png\" --scale 0.003921569'";
}

// The evaluator is a python3 script; python3 is not among qforge's build
// dependencies (scripts/install_deps.sh).
bool HavePython() {
  return RunCommand("python3 -c 'import json, hashlib'").exit_code == 0;
}

#define SKIP_WITHOUT_PYTHON() \
  if (!HavePython()) GTEST_SKIP() << "python3 is not installed"

// quantize with `flags`, its temp files in DIR/tmp (which the test checks
// is left empty), candidates logged in DIR/log.
testing::CommandResult QuantizeWithEval(const std::string& dir,
                                        const std::string& flags) {
  std::filesystem::create_directories(dir + "/tmp");
  return RunCommand("TMPDIR=" + dir + "/tmp EVAL_LOG=" + dir + "/log " +
                    testing::QuantizeMnistCommand(flags));
}

bool Empty(const std::string& folder) {
  return std::filesystem::is_empty(folder);
}

struct LoggedRun {
  std::string sha;
  double score = 0;
};

std::vector<LoggedRun> EvalLog(const std::string& dir) {
  std::vector<LoggedRun> out;
  std::istringstream in(testing::ReadText(dir + "/log"));
  LoggedRun r;
  while (in >> r.sha >> r.score) out.push_back(r);
  return out;
}

std::string Sha256(const std::string& path) {
  const testing::CommandResult r = RunCommand("sha256sum " + path);
  return r.out.substr(0, 64);
}

// The int8 model scores about 41 dB on the ten digits: a bound of 30
// accepts it at once, one run, and it is the model written. (--keep-integer:
// on litert this tiny model's int8 form is estimated slower than its float
// form, so the search would end by trying the whole model float, a second
// run; quantize_json's whole-float tests cover that step.)
TEST(EvalCmdTest, AcceptsPlainInt8InOneRun) {
  SKIP_WITHOUT_PYTHON();
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r =
      QuantizeWithEval(dir, "--keep-integer --eval-cmd " + SqnrEvaluator() +
                                " --eval-min 30 -o " + dir +
                                "/m.tflite --json " + dir + "/o.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("eval-cmd: candidate 1 (as asked): "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(accept, >= 30)"), std::string::npos) << r.err;
  const nlohmann::json o =
      nlohmann::json::parse(testing::ReadText(dir + "/o.json"));
  const nlohmann::json& e = o["eval_cmd"];
  ASSERT_EQ(e["runs"].size(), 1u) << e;
  EXPECT_EQ(e["runs"][0]["candidate"], 1);
  EXPECT_EQ(e["runs"][0]["label"], "as asked");
  EXPECT_TRUE(e["runs"][0]["accepted"].get<bool>());
  EXPECT_GE(e["accepted_score"].get<double>(), 30);
  EXPECT_EQ(e["min"], 30.0);
  EXPECT_TRUE(e["max"].is_null());
  EXPECT_EQ(e["budget"], 16);
  EXPECT_FALSE(e["budget_spent"].get<bool>());
  EXPECT_TRUE(o["target"]["target"].is_null());  // no --target-sqnr
  EXPECT_TRUE(o["target"]["steps"].empty());
  const std::vector<LoggedRun> log = EvalLog(dir);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].sha, Sha256(dir + "/m.tflite"));
  EXPECT_TRUE(Empty(dir + "/tmp"));
}

// A bound above int8's score: the search raises ops (ranked by qforge's
// own report) until the command accepts, then lowers back what it can.
// The model written is one the command accepted.
TEST(EvalCmdTest, RejectedInt8RaisesOpsUntilAccepted) {
  SKIP_WITHOUT_PYTHON();
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = QuantizeWithEval(
      dir, "--eval-cmd " + SqnrEvaluator() + " --eval-min 60 -o " + dir +
               "/m.tflite --json " + dir + "/o.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("(reject, < 60)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(accept, >= 60)"), std::string::npos) << r.err;
  const nlohmann::json o =
      nlohmann::json::parse(testing::ReadText(dir + "/o.json"));
  const nlohmann::json& e = o["eval_cmd"];
  ASSERT_GE(e["runs"].size(), 2u) << e;
  EXPECT_FALSE(e["runs"][0]["accepted"].get<bool>());
  EXPECT_LT(e["runs"][0]["score"].get<double>(), 60);
  EXPECT_GE(e["accepted_score"].get<double>(), 60);
  EXPECT_FALSE(o["target"]["steps"].empty());
  const std::vector<LoggedRun> log = EvalLog(dir);
  ASSERT_EQ(log.size(), e["runs"].size());
  const std::string written = Sha256(dir + "/m.tflite");
  bool found = false;
  for (const LoggedRun& run : log) {
    if (run.sha == written) {
      found = true;
      EXPECT_GE(run.score, 60);
      EXPECT_NEAR(run.score, e["accepted_score"].get<double>(), 1e-9);
    }
  }
  EXPECT_TRUE(found) << "the model written was never evaluated";
  EXPECT_TRUE(Empty(dir + "/tmp"));
}

// With --target-sqnr too, both must hold: a plan below the SQNR target is
// never given to the command. On TFLite Micro (int8 -> int16x8, never
// float) no plan reaches 200 dB, so the command never runs.
TEST(EvalCmdTest, TargetSqnrIsCheckedBeforeTheCommand) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = QuantizeWithEval(
      dir, "--runtime tflm --target-sqnr 200 --eval-cmd " + SqnrEvaluator() +
               " --eval-min 0 -o " + dir + "/m.tflite");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("--target-sqnr 200.00 dB not met"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--eval-cmd ran 0 times"), std::string::npos) << r.err;
  EXPECT_TRUE(testing::ReadText(dir + "/log").empty());
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.tflite"));
}

TEST(EvalCmdTest, SpentBudgetExitsFourNamingTheRuns) {
  SKIP_WITHOUT_PYTHON();
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = QuantizeWithEval(
      dir, "--eval-cmd " + SqnrEvaluator() +
               " --eval-min 5000 --eval-budget 1 -o " + dir + "/m.tflite");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("--eval-cmd --eval-min 5000 not met"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("in 1 run (candidate 1 (as asked): "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--eval-budget 1 spent; nothing written"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(EvalLog(dir).size(), 1u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.tflite"));
  EXPECT_TRUE(Empty(dir + "/tmp"));
}

TEST(EvalCmdTest, EvalMaxAcceptsAScoreAtOrBelow) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = QuantizeWithEval(
      dir, "--eval-cmd 'test -s {model} && echo 0.01' --eval-max 0.05 -o " +
               dir + "/m.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("eval-cmd: candidate 1 (as asked): 0.01 (accept, <= "
                       "0.05)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/m.tflite"));
}

// The error's one line names the command, how it ended and the candidate;
// nothing is written and no temp file is left.
void ExpectEvalError(const std::string& dir, const testing::CommandResult& r,
                     const std::string& what) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const size_t at = r.err.find("qforge: error: ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string error = r.err.substr(at);
  EXPECT_EQ(error.find('\n'), error.size() - 1) << error;
  EXPECT_NE(error.find("--eval-cmd failed on candidate 1 (as asked): '"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find(what), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.tflite"));
  EXPECT_TRUE(Empty(dir + "/tmp"));
}

TEST(EvalCmdTest, FailingCommandIsAnErrorWithItsStatusAndStderr) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = QuantizeWithEval(
      dir,
      "--eval-cmd 'test -s {model} && echo no labels found >&2; exit 3' "
      "--eval-min 0.5 -o " +
          dir + "/m.tflite");
  ExpectEvalError(dir, r,
                  "exited with status 3; its stderr ended: 'no labels found'");
  EXPECT_NE(r.err.find("eval-cmd: stderr: no labels found"), std::string::npos)
      << r.err;
}

TEST(EvalCmdTest, NoNumberOnTheLastLineIsAnError) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r = QuantizeWithEval(
      dir,
      "--eval-cmd 'echo 0.5; echo score: high {model}' --eval-min 0.5 "
      "-o " +
          dir + "/m.tflite");
  ExpectEvalError(dir, r, "printed no number on the last line of its stdout");
  EXPECT_NE(r.err.find("'score: high "), std::string::npos) << r.err;
  r = QuantizeWithEval(
      dir, "--eval-cmd 'true {model}' --eval-min 0.5 -o " + dir + "/m.tflite");
  ExpectEvalError(dir, r, "printed nothing on stdout");
}

// A command past --eval-timeout is killed with everything it started (its
// process group: the shell and its `sleep`), at once, and is an error.
TEST(EvalCmdTest, TimeoutKillsTheProcessGroup) {
  const std::string dir = testing::MakeTempDir();
  const auto start = std::chrono::steady_clock::now();
  const testing::CommandResult r =
      QuantizeWithEval(dir, "--eval-cmd 'echo $$ > " + dir +
                                "/pgid; sleep 30; echo 1 {model}' --eval-min 0 "
                                "--eval-timeout 1 -o " +
                                dir + "/m.tflite");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ExpectEvalError(dir, r, "did not finish within --eval-timeout 1 s");
  EXPECT_LT(seconds, 10) << r.err;
  const int pgid = std::stoi("0" + testing::ReadText(dir + "/pgid"));
  ASSERT_GT(pgid, 0);
  errno = 0;
  EXPECT_EQ(::kill(-pgid, 0), -1) << "process group " << pgid << " lives";
  EXPECT_EQ(errno, ESRCH);
}

// SIGTERM to qforge while the command runs ends the command's process
// group too and removes the candidate and the temp folder.
TEST(EvalCmdTest, SignalEndsTheCommandAndRemovesTempFiles) {
  const std::string dir = testing::MakeTempDir();
  std::filesystem::create_directories(dir + "/tmp");
  const std::string quantize =
      "TMPDIR=" + dir + "/tmp " +
      testing::QuantizeMnistCommand(
          "--eval-cmd 'echo $$ > " + dir +
          "/pgid; sleep 30; echo 1 {model}' --eval-min 0 -o " + dir +
          "/m.tflite -q");
  const testing::CommandResult r = RunCommand(
      quantize + " & q=$!; for i in $(seq 100); do [ -s " + dir +
      "/pgid ] && break; sleep 0.1; done; kill -TERM $q; wait $q; echo $?");
  EXPECT_EQ(r.out, "143\n") << r.err;
  const int pgid = std::stoi("0" + testing::ReadText(dir + "/pgid"));
  ASSERT_GT(pgid, 0);
  // The group got SIGKILL; give the kernel a moment to take it down.
  for (int i = 0; i < 50 && ::kill(-pgid, 0) == 0; ++i) {
    ::usleep(20000);
  }
  EXPECT_EQ(::kill(-pgid, 0), -1) << "process group " << pgid << " lives";
  EXPECT_TRUE(Empty(dir + "/tmp"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.tflite"));
}

TEST(EvalCmdTest, UsageErrors) {
  const std::string dir = testing::MakeTempDir();
  const std::pair<std::string, std::string> cases[] = {
      {"--eval-cmd 'echo 1' --eval-min 0", "has no {model}"},
      {"--eval-cmd 'echo 1 {model}'", "needs one of --eval-min X"},
      {"--eval-cmd 'echo 1 {model}' --eval-min 0 --eval-max 1",
       "needs one of --eval-min X"},
      {"--eval-min 3", "go with --eval-cmd"},
      {"--eval-cmd 'echo 1 {model}' --eval-min 0 --scheme dynamic",
       "needs scheme int8 or int16x8"},
  };
  for (const auto& [flags, want] : cases) {
    const testing::CommandResult r =
        QuantizeWithEval(dir, flags + " -o " + dir + "/m.tflite");
    EXPECT_EQ(r.exit_code, 1) << flags << ": " << r.err;
    EXPECT_NE(r.err.find(want), std::string::npos) << flags << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/m.tflite"));
  }
  const testing::CommandResult r = RunCommand(
      testing::QforgeBinary() + " quantize " + TestDataDir() +
      "/models/conv_fc_mnist.tflite --stats x.json --eval-cmd 'echo {model}' "
      "--eval-min 0 -o " +
      dir + "/m.tflite");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--eval-cmd needs --data"), std::string::npos) << r.err;
  EXPECT_TRUE(Empty(dir + "/tmp"));
}

}  // namespace
}  // namespace qforge
