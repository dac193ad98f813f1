// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize's accuracy-recovery flags (--optimize, --equalize,
// --bias-correction, --adaround, ...), bound to pipeline::RecoverySettings.
#ifndef QFORGE_CMD_RECOVERY_FLAGS_H_
#define QFORGE_CMD_RECOVERY_FLAGS_H_

#include "CLI/CLI.hpp"
#include "pipeline/recovery.h"

namespace qforge::cmd {

void AddRecoveryFlags(CLI::App* sub, pipeline::RecoverySettings& args);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_RECOVERY_FLAGS_H_
