// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What the summaries of `calibrate` and `quantize` say about the parts of a
// model that stay float for reasons the quantizer cannot see: ops qforge
// cannot run (not calibrated, so neither is anything after them) and custom
// ops whose runtime is not LiteRT's builtin resolver (MediaPipe's).
#ifndef QFORGE_PIPELINE_FLOAT_REGION_H_
#define QFORGE_PIPELINE_FLOAT_REGION_H_

#include <string>
#include <vector>

#include "ir/model.h"
#include "quantizer/options.h"

namespace qforge::pipeline {

// One line per op qforge cannot run in subgraph 0, naming the ops after it
// that calibration skips too, e.g. "not calibrated: op 7 VendorOp (qforge
// has no kernel for it) and the 3 ops that depend on it: 8 RELU, 9 CONV_2D,
// 10 SOFTMAX". Empty when every op runs.
std::vector<std::string> UncalibratedNotes(const ir::Model& model);

// k.reason, completed from the float model: custom ops get their runtime
// note; ops without statistics behind an op qforge cannot run name it.
std::string ExplainKeptFloat(const ir::Model& float_model,
                             const quantizer::KeptFloat& k);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_FLOAT_REGION_H_
