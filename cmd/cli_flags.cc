// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/cli_flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/exit_codes.h"

namespace qforge::cmd {

CLI::Option* AddThreadsOption(CLI::App* app, int& threads,
                              const std::string& description) {
  return app->add_option("--threads", threads, description)
      ->check(CLI::Range(1, kMaxThreads))
      ->default_str("all cores");
}

CLI::Validator FiniteNumber(bool nonzero) {
  return CLI::Validator(
      [nonzero](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || errno == ERANGE ||
            !std::isfinite(v)) {
          return absl::StrCat("'", text, "' is not a finite number");
        }
        if (nonzero && v == 0) return "must not be 0";
        return "";
      },
      nonzero ? "NONZERO" : "FINITE");
}

void SetExample(CLI::App* app, const std::string& example) {
  app->footer(absl::StrCat("Example:\n  ", example));
}

absl::Status ParseShard(const std::string& text, int* index, int* count) {
  std::vector<std::string> parts = absl::StrSplit(text, '/');
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], index) ||
      !absl::SimpleAtoi(parts[1], count) || *count < 1 || *index < 0 ||
      *index >= *count) {
    return UsageError(
        absl::StrCat("--shard ", text, ": expected K/N with 0 <= K < N"));
  }
  return absl::OkStatus();
}

void AddTaskFlags(CLI::App* sub, std::vector<std::string>& tasks,
                  std::string& labels) {
  sub->add_option("--task", tasks,
                  "OUTPUT=KIND: judge output OUTPUT (name or index) as KIND: "
                  "classification, segmentation, landmarks, detection, score "
                  "or none, instead of the kind detected (repeatable)")
      ->type_name("OUTPUT=KIND")
      ->allow_extra_args(false);
  sub->add_option("--labels", labels,
                  "FILE: one integer class per line, in --data sample order: "
                  "the accuracy of both models on classifier outputs. DIR: "
                  "one mask of class indices a sample, DIR/<stem>.png|.bmp|"
                  ".npy by the --data file's stem (255 ignored): both "
                  "models' mIoU on segmentation outputs")
      ->type_name("FILE|DIR");
}

}  // namespace qforge::cmd
