// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The --data flags shared by run, calibrate, quantize and report, bound to
// a pipeline::DataSpec (pipeline/data_spec.h: the syntax as a value).
#ifndef QFORGE_CMD_DATA_FLAGS_H_
#define QFORGE_CMD_DATA_FLAGS_H_

#include "CLI/CLI.hpp"
#include "pipeline/data_spec.h"

namespace qforge::cmd {

// Adds --data (required when `required`), --resize, --mean, --std,
// --scale, --color, --layout, --sample-rate, --window, --hop.
void AddDataFlags(CLI::App* app, pipeline::DataSpec& flags, bool required);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_DATA_FLAGS_H_
