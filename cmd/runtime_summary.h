// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What `inspect --runtime R` adds: for litert, the estimated latency, which
// ops run on XNNPACK and why the others do not (runtime/latency.h); for
// tflm and armnn, the ops the runtime cannot run (runtime/profile.h).
// docs/inspect-json.md gives the JSON.
#ifndef QFORGE_CMD_RUNTIME_SUMMARY_H_
#define QFORGE_CMD_RUNTIME_SUMMARY_H_

#include <string>

#include "ir/model.h"
#include "nlohmann/json.hpp"
#include "runtime/profile.h"

namespace qforge::cmd {

nlohmann::ordered_json SummarizeRuntime(const ir::Model& model,
                                        runtime::Runtime runtime);
std::string RenderRuntimeText(const nlohmann::ordered_json& summary);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_RUNTIME_SUMMARY_H_
