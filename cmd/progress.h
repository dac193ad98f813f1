// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Progress on stderr for long-running commands: samples done, samples/s and
// ETA, redrawn in place. Shown only when stderr is a terminal and --quiet
// is off.
#ifndef QFORGE_CMD_PROGRESS_H_
#define QFORGE_CMD_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "pipeline/hooks.h"

namespace qforge::cmd {

class Progress {
 public:
  Progress(std::string label, bool quiet);
  ~Progress();
  void Update(int64_t done, int64_t total);

 private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// Hooks that print a pipeline's notes on stderr, one line each, and draw
// its progress (on a terminal); neither when `quiet`.
pipeline::Hooks StderrHooks(bool quiet);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_PROGRESS_H_
