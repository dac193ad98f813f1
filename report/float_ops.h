// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The ops of a quantized model that still compute in float, and why.
#ifndef QFORGE_REPORT_FLOAT_OPS_H_
#define QFORGE_REPORT_FLOAT_OPS_H_

#include <vector>

#include "ir/model.h"
#include "report/report.h"

namespace qforge::report {

// True when subgraph 0 has an integer activation with a scale (full
// integer schemes); false for weight-only schemes and float models.
bool HasIntegerActivations(const ir::Model& model);

// Ops of subgraph 0, other than QUANTIZE / DEQUANTIZE, with a float32
// activation input or output. The reason is filled only where the runtime
// explains it (custom ops LiteRT's builtin resolver lacks); why the
// quantizer left an op float is the quantizer's to say
// (pipeline/report_job.h fills it in).
std::vector<FloatOp> FindFloatOps(const ir::Model& model);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_FLOAT_OPS_H_
