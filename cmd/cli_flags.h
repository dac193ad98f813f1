// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Option checks shared by the subcommands, so that what a flag accepts is
// decided by the option parser (a usage error, exit code 1, before any file
// is read) and shown in --help.
#ifndef QFORGE_CMD_CLI_FLAGS_H_
#define QFORGE_CMD_CLI_FLAGS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"

namespace qforge::cmd {

// More threads than this is a typo, not a machine.
inline constexpr int kMaxThreads = 1024;

// --threads N, 1 <= N <= kMaxThreads when given; `threads` stays 0 (all
// cores) when not.
CLI::Option* AddThreadsOption(CLI::App* app, int& threads,
                              const std::string& description);

// A finite number ("nan", "inf" refused); with `nonzero`, 0 too.
CLI::Validator FiniteNumber(bool nonzero = false);

// --shard K/N (calibrate, report): 0 <= K < N, else a usage error.
absl::Status ParseShard(const std::string& text, int* index, int* count);

// --task OUTPUT=KIND (repeatable) and --labels FILE of report and quantize:
// how the report judges each output by its task (report/task_kind.h).
void AddTaskFlags(CLI::App* sub, std::vector<std::string>& tasks,
                  std::string& labels);

// Adds the subcommand's example to its --help.
void SetExample(CLI::App* app, const std::string& example);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_CLI_FLAGS_H_
