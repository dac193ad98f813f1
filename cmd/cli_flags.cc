// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/cli_flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"

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

}  // namespace qforge::cmd
