// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What `qforge inspect` reports about a model, as JSON (schema documented in
// docs/inspect-json.md; bump kInspectSchemaVersion on any incompatible
// change) and as a terminal summary.
#ifndef QFORGE_CMD_MODEL_SUMMARY_H_
#define QFORGE_CMD_MODEL_SUMMARY_H_

#include <cstdint>
#include <string>

#include "ir/model.h"
#include "nlohmann/json.hpp"

namespace qforge::cmd {

inline constexpr int kInspectSchemaVersion = 1;

// "none", "float16_weights", "dynamic_range", "full_int8", "int16x8",
// "mixed".
std::string QuantizationState(const ir::Model& model);

nlohmann::ordered_json SummarizeModel(const ir::Model& model,
                                      const std::string& path,
                                      uint64_t file_bytes);

// Human-readable rendering of SummarizeModel's JSON.
std::string RenderSummaryText(const nlohmann::ordered_json& summary);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_MODEL_SUMMARY_H_
