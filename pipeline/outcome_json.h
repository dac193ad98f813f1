// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A quantize outcome as JSON (`qforge quantize --json FILE`,
// docs/quantize-json.md): what the summary on stderr says, for scripts.
#ifndef QFORGE_PIPELINE_OUTCOME_JSON_H_
#define QFORGE_PIPELINE_OUTCOME_JSON_H_

#include <string>

#include "pipeline/quantize.h"
#include "pipeline/quantize_job.h"

namespace qforge::pipeline {

// Format "qforge-quantize-outcome"; a change of meaning or a removal bumps
// it, added fields do not.
inline constexpr int kOutcomeJsonVersion = 1;

// The outcome of `job`, one JSON object and a newline.
std::string QuantizeOutcomeJson(const QuantizeJob& job,
                                const QuantizeOutcome& outcome);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_OUTCOME_JSON_H_
