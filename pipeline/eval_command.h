// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --eval-cmd: the user's own evaluator, a shell command that
// scores one candidate model. This file runs it: `{model}` replaced by the
// candidate's path (shell-quoted), `/bin/sh -c` in a session of its own
// (so that a timeout, or qforge's own end, kills everything it started:
// the whole process group), stdout read for the score (a number alone on
// its last non-empty line), stderr kept for the error message. The search
// that calls it is pipeline/candidate_eval.h.
#ifndef QFORGE_PIPELINE_EVAL_COMMAND_H_
#define QFORGE_PIPELINE_EVAL_COMMAND_H_

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace qforge::pipeline {

// --eval-cmd and its settings, as the quantize job holds them.
struct EvalSettings {
  std::string cmd;  // contains {model}; "": no evaluator
  // Accept a score >= min, or <= max: exactly one of them is set.
  double min = std::numeric_limits<double>::quiet_NaN();
  double max = std::numeric_limits<double>::quiet_NaN();
  int budget = 16;       // runs of the command at most
  double timeout = 600;  // seconds per run

  bool active() const { return !cmd.empty(); }
};

// `text` as one word of /bin/sh: single-quoted, a quote inside as '\''.
std::string ShellQuote(std::string_view text);

// `cmd` with every "{model}" replaced by ShellQuote(path).
std::string SubstituteModel(std::string_view cmd, std::string_view path);

// The number alone (spaces around it aside) on the last non-empty line of
// `out`; nullopt when that line is not a finite number.
std::optional<double> ParseScore(std::string_view out);

// The last non-empty line of `text` ("" if none).
std::string LastLine(std::string_view text);

struct CommandRun {
  int exit_code = -1;  // the shell's exit status; -1 when it did not exit
  int signal = 0;      // the signal that ended it, if one did
  bool timed_out = false;
  std::string out;       // stdout (its last 64 KiB)
  std::string err_tail;  // stderr's last 4 KiB
};

// Runs `command` through `/bin/sh -c` (stdin /dev/null) in a new session
// and waits at most `timeout_seconds` for it: then its process group gets
// SIGTERM, and SIGKILL a second later. Whatever the command leaves running
// in its process group when it exits is killed too. An error only when the
// process cannot be started; how it ended is in the result.
absl::StatusOr<CommandRun> RunShellCommand(const std::string& command,
                                           double timeout_seconds);

// The process group of the command running now (0: none), for a signal
// handler that must end it with qforge (candidate_eval.cc).
int RunningCommandGroup();

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_EVAL_COMMAND_H_
