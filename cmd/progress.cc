// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/progress.h"

#include <unistd.h>

#include <cstdio>
#include <memory>

namespace qforge::cmd {

Progress::Progress(std::string label, bool quiet)
    : label_(std::move(label)),
      enabled_(!quiet && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  if (drawn_) std::fputc('\n', stderr);
}

void Progress::Update(int64_t done, int64_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // Redraw at most 10 times a second, and always at the end.
  if (done < total && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? done / seconds : 0.0;
  const double eta = rate > 0 ? (total - done) / rate : 0.0;
  std::fprintf(stderr, "\r%s: %lld/%lld samples  %.1f samples/s  ETA %.0fs   ",
               label_.c_str(), static_cast<long long>(done),
               static_cast<long long>(total), rate, eta);
  std::fflush(stderr);
  drawn_ = true;
}

pipeline::Hooks StderrHooks(bool quiet) {
  pipeline::Hooks hooks;
  if (quiet) return hooks;
  hooks.note = [](const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
  };
  hooks.progress = [](const std::string& label) -> pipeline::ProgressFn {
    auto progress = std::make_shared<Progress>(label, /*quiet=*/false);
    return [progress](int64_t done, int64_t total) {
      progress->Update(done, total);
    };
  };
  return hooks;
}

}  // namespace qforge::cmd
