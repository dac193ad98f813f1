// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The range of a tensor read for its largest values: by an op flagged
// kReadsLargest (SOFTMAX, LOG_SOFTMAX, ARG_MAX; ops.def), directly or
// through ops whose output shares their input's parameters (SQUEEZE,
// RESHAPE, ...). Range methods that trade clipping for resolution clip
// exactly those values first, and a held-out sample can be more confident
// than any calibration sample, so such a tensor keeps its whole calibrated
// range and a quarter of that span above it (docs/quantization.md). The
// planner applies it over any --method; --method auto does not search it.
#ifndef QFORGE_QUANTIZER_LARGEST_VALUES_H_
#define QFORGE_QUANTIZER_LARGEST_VALUES_H_

#include <cstdint>

#include "calibration/range.h"
#include "ir/graph.h"
#include "ir/model.h"

namespace qforge::quantizer {

// Whether tensor `t` of `sg` is read for its largest values (`graph`:
// ir::Graph(sg)).
bool ReadForLargest(const ir::Subgraph& sg, const ir::Graph& graph, int32_t t);

// The whole calibrated int8 range of such a tensor, widened above: a
// quarter of the span, a rule that commutes with shifting the input, as
// SOFTMAX does.
calibration::Range WidenedForLargest(calibration::Range whole);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_LARGEST_VALUES_H_
