// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "base/exit_codes.h"

namespace qforge {
namespace {
constexpr char kAccuracyPayload[] = "qforge/accuracy-bound";
constexpr char kUsagePayload[] = "qforge/usage";
}  // namespace

absl::Status AccuracyBoundError(absl::string_view message) {
  absl::Status status = absl::FailedPreconditionError(message);
  status.SetPayload(kAccuracyPayload, absl::Cord("1"));
  return status;
}

absl::Status UsageError(absl::string_view message) {
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kUsagePayload, absl::Cord("1"));
  return status;
}

int ExitCodeFor(const absl::Status& status) {
  if (status.ok()) return kExitOk;
  if (status.GetPayload(kUsagePayload).has_value()) return kExitUsageOrIo;
  if (status.GetPayload(kAccuracyPayload).has_value()) {
    return kExitAccuracyBound;
  }
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kOutOfRange:
      return kExitInvalidInput;
    case absl::StatusCode::kUnimplemented:
      return kExitUnsupported;
    default:
      return kExitUsageOrIo;
  }
}

}  // namespace qforge
