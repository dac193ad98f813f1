// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// pipeline/eval_command.h: quoting, the score on the last line, and how a
// command ends (status, signal, timeout, what it leaves running).
#include "pipeline/eval_command.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <string>

#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using pipeline::ParseScore;
using pipeline::RunShellCommand;

TEST(EvalCommandTest, ModelPathIsOneShellWord) {
  EXPECT_EQ(pipeline::ShellQuote("a b"), "'a b'");
  EXPECT_EQ(pipeline::ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(pipeline::SubstituteModel("run {model} --again {model}", "/t/m 1"),
            "run '/t/m 1' --again '/t/m 1'");
  // The shell gives the path back as it was, quotes, $ and spaces included.
  const std::string odd = "/tmp/a b'c$HOME;x";
  absl::StatusOr<pipeline::CommandRun> r = RunShellCommand(
      pipeline::SubstituteModel("printf '%s\\n' {model}", odd), 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->out, odd + "\n");
}

TEST(EvalCommandTest, ScoreIsTheNumberAloneOnTheLastNonEmptyLine) {
  EXPECT_EQ(ParseScore("loading\n0.913\n"), 0.913);
  EXPECT_EQ(ParseScore("acc\n  -12.5e1 \r\n\n  \n"), -125);
  EXPECT_EQ(ParseScore("7"), 7);
  EXPECT_FALSE(ParseScore("0.9\naccuracy 0.9\n").has_value());
  EXPECT_FALSE(ParseScore("0.9 %\n").has_value());
  EXPECT_FALSE(ParseScore("nan\n").has_value());
  EXPECT_FALSE(ParseScore("inf\n").has_value());
  EXPECT_FALSE(ParseScore("\n\n").has_value());
  EXPECT_EQ(pipeline::LastLine("a\nb c \n\n"), "b c");
}

TEST(EvalCommandTest, ExitStatusSignalAndStderr) {
  absl::StatusOr<pipeline::CommandRun> r =
      RunShellCommand("echo 1; echo oops >&2; exit 3", 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->out, "1\n");
  EXPECT_EQ(r->err_tail, "oops\n");
  r = RunShellCommand("kill -9 $$", 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_EQ(r->exit_code, -1);
  r = RunShellCommand("read x; echo \"[$x]\"", 10);  // stdin is /dev/null
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->out, "[]\n");
}

// The group is gone when the call returns: on a timeout, and when the
// shell exits leaving a background job behind (which also holds stdout).
TEST(EvalCommandTest, TimeoutAndLeftoversKillTheGroup) {
  const std::string dir = testing::MakeTempDir();
  for (const std::string& command :
       {"echo $$ > " + dir + "/pgid; sleep 30",
        "echo $$ > " + dir + "/pgid; sleep 30 & echo 5"}) {
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<pipeline::CommandRun> r = RunShellCommand(command, 1);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_LT(seconds, 5) << command;
    const int pgid = std::stoi("0" + testing::ReadText(dir + "/pgid"));
    ASSERT_GT(pgid, 0);
    errno = 0;
    EXPECT_EQ(::kill(-pgid, 0), -1) << command;
    EXPECT_EQ(errno, ESRCH) << command;
    if (command.back() == '0') {
      EXPECT_TRUE(r->timed_out);
    } else {
      EXPECT_FALSE(r->timed_out);
      EXPECT_EQ(r->exit_code, 0);
      EXPECT_EQ(ParseScore(r->out), 5);
    }
  }
}

}  // namespace
}  // namespace qforge
