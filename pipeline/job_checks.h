// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What a quantize job may ask (internal to pipeline/): the checks of flags
// that do not go together, made before any file is read, with the usage
// errors the CLI prints.
#ifndef QFORGE_PIPELINE_JOB_CHECKS_H_
#define QFORGE_PIPELINE_JOB_CHECKS_H_

#include "absl/status/status.h"
#include "pipeline/quantize_job.h"
#include "pipeline/recovery.h"

namespace qforge::pipeline {

// --target-sqnr, --target or --eval-cmd: the precision search runs.
bool Searches(const QuantizeJob& job);

// The notes' name for the search: target-sqnr, target or eval-cmd.
const char* SearchName(const QuantizeJob& job);

// The checks that need no file: flags that do not go together. Resolves
// `recovery` (--optimize) on the way.
absl::Status CheckJob(const QuantizeJob& job, RecoverySettings& recovery);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_JOB_CHECKS_H_
