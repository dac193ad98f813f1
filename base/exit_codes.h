// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The documented exit codes of the qforge CLI, and the one mapping from an
// absl::Status to them (README, "Exit codes").
#ifndef QFORGE_BASE_EXIT_CODES_H_
#define QFORGE_BASE_EXIT_CODES_H_

#include "absl/status/status.h"

namespace qforge {

enum ExitCode : int {
  kExitOk = 0,
  kExitUsageOrIo = 1,      // bad command line, unreadable/unwritable file
  kExitInvalidInput = 2,   // invalid model, stats or data
  kExitUnsupported = 3,    // an op without a kernel or integer form
  kExitAccuracyBound = 4,  // --min-sqnr (or similar) bound not met
};

// Builds a status that maps to kExitAccuracyBound.
absl::Status AccuracyBoundError(absl::string_view message);

// Builds a status that maps to kExitUsageOrIo: a command line qforge
// refuses (a flag value out of range, flags that do not go together).
absl::Status UsageError(absl::string_view message);

// Usage error -> 1, InvalidArgument / DataLoss / OutOfRange -> 2,
// Unimplemented -> 3, accuracy bound -> 4, anything else -> 1.
int ExitCodeFor(const absl::Status& status);

}  // namespace qforge

#endif  // QFORGE_BASE_EXIT_CODES_H_
