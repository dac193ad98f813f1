// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/largest_values.h"

#include <optional>

#include "ir/op_kind.h"
#include "quantizer/op_quant_spec.h"

namespace qforge::quantizer {
namespace {

bool ReadForLargestFrom(const ir::Subgraph& sg, const ir::Graph& graph,
                        int32_t t, int depth) {
  if (depth > 16) return false;  // a chain of moves that long: give up
  for (int c : graph.consumers(t)) {
    const ir::Operator& op = sg.operators[static_cast<size_t>(c)];
    if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kReadsLargest)) return true;
    const std::optional<OpQuantSpec> spec = GetOpQuantSpec(op.kind);
    if (!spec.has_value() || spec->output != OutputRule::kSameAsInput ||
        op.inputs.empty() || op.inputs[0] != t)
      continue;
    for (int32_t o : op.outputs) {
      if (o >= 0 && ReadForLargestFrom(sg, graph, o, depth + 1)) return true;
    }
  }
  return false;
}

}  // namespace

bool ReadForLargest(const ir::Subgraph& sg, const ir::Graph& graph, int32_t t) {
  return ReadForLargestFrom(sg, graph, t, 0);
}

calibration::Range WidenedForLargest(calibration::Range whole) {
  // A sample the calibration did not see can have a larger top value (a
  // more confident class): clipped, it ties with the runner-up.
  whole.max += 0.25f * (whole.max - whole.min);
  return whole;
}

}  // namespace qforge::quantizer
