// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// How subcommands plug into the CLI: each registers itself on the CLI11 app
// and stores its outcome as a status; main() maps it to the exit code.
#ifndef QFORGE_CMD_COMMAND_H_
#define QFORGE_CMD_COMMAND_H_

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "numerics/modes.h"

namespace qforge::cmd {

struct GlobalFlags {
  bool quiet = false;
  numerics::Modes numerics;  // --rounding, --arithmetic
};

struct CommandContext {
  GlobalFlags flags;
  absl::Status status;
};

void RegisterInspect(CLI::App& app, CommandContext& ctx);
void RegisterCopy(CLI::App& app, CommandContext& ctx);
void RegisterExtract(CLI::App& app, CommandContext& ctx);
void RegisterRun(CLI::App& app, CommandContext& ctx);
void RegisterQuantize(CLI::App& app, CommandContext& ctx);
void RegisterReport(CLI::App& app, CommandContext& ctx);  // + merge-reports
void RegisterEvalTrial(CLI::App& app, CommandContext& ctx);
void RegisterCalibrate(CLI::App& app, CommandContext& ctx);  // + merge-stats

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_COMMAND_H_
