// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// How a pipeline job talks while it works: notes, one line each, said as
// they happen (the CLI prints them on stderr), and the progress of sample
// loops. Both are optional; a library user who gives neither gets a silent
// run. Results never travel through hooks: they are in the job's outcome.
#ifndef QFORGE_PIPELINE_HOOKS_H_
#define QFORGE_PIPELINE_HOOKS_H_

#include <cstdint>
#include <functional>
#include <string>

namespace qforge::pipeline {

using ProgressFn = std::function<void(int64_t done, int64_t total)>;

struct Hooks {
  // One line, without its newline.
  std::function<void(const std::string& line)> note;
  // A progress callback for a loop named `label` ("calibrate", "report");
  // the loop ends when the callback and its copies are destroyed.
  std::function<ProgressFn(const std::string& label)> progress;

  bool quiet() const { return !note; }
  void Note(const std::string& line) const {
    if (note) note(line);
  }
  ProgressFn Progress(const std::string& label) const {
    return progress ? progress(label) : ProgressFn();
  }
  // The same hooks without notes (progress stays).
  Hooks Silent() const {
    Hooks h;
    h.progress = progress;
    return h;
  }
};

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_HOOKS_H_
