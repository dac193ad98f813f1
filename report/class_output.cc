// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/class_output.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "ir/graph.h"

namespace qforge::report {

bool ScoresClasses(const ir::Subgraph& sg, int output) {
  if (output < 0 || static_cast<size_t>(output) >= sg.outputs.size()) {
    return false;
  }
  int32_t t = sg.outputs[static_cast<size_t>(output)];
  if (t < 0 || static_cast<size_t>(t) >= sg.tensors.size()) return false;
  if (absl::StrContains(absl::AsciiStrToLower(sg.tensors[t].name), "logit")) {
    return true;
  }
  // Each hop moves to an op's first input, so a bounded walk ends even on a
  // malformed graph with a cycle.
  const ir::Graph graph(sg);
  for (int hop = 0; hop < 8; ++hop) {
    const int producer = graph.producer(t);
    if (producer < 0) return false;
    const ir::Operator& op = sg.operators[static_cast<size_t>(producer)];
    if (op.inputs.empty()) return false;
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    if (info.Has(ir::op_flags::kClassScores)) return true;
    // Ops that move or re-encode scores without changing what they mean;
    // any other op makes values that are not (yet) scores.
    if (!info.Has(ir::op_flags::kShapeOnly) &&
        !info.Has(ir::op_flags::kConverter)) {
      return false;
    }
    t = op.inputs[0];
  }
  return false;
}

int64_t ClassCount(const std::vector<int64_t>& shape) {
  if (shape.empty()) return 0;
  for (size_t d = 0; d + 1 < shape.size(); ++d) {
    if (shape[d] != 1) return 0;
  }
  return shape.back() >= 2 ? shape.back() : 0;
}

}  // namespace qforge::report
