// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Which model outputs hold class scores, so the report states top-1/top-5
// agreement for them and for nothing else (a landmark regressor's [1, 63]
// has an argmax, but it means nothing).
#ifndef QFORGE_REPORT_CLASS_OUTPUT_H_
#define QFORGE_REPORT_CLASS_OUTPUT_H_

#include <cstdint>
#include <vector>

#include "ir/model.h"

namespace qforge::report {

// Whether output `output` of subgraph `sg` (of the float model) holds class
// scores: it is made by an op flagged kClassScores (SOFTMAX, LOG_SOFTMAX;
// ir/ops.def), looking back through ops that only reshape (kShapeOnly) or
// re-encode (kConverter) their input, or its name contains "logit"
// (case-insensitive; classifiers that end in raw scores). The shape is
// checked per sample by ClassCount.
bool ScoresClasses(const ir::Subgraph& sg, int output);

// Classes along the only non-unit axis of one sample's output ([C],
// [1, C], [1, 1, C], ...) when C >= 2, or 0.
int64_t ClassCount(const std::vector<int64_t>& shape);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_CLASS_OUTPUT_H_
