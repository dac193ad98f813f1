// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/class_output.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

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
  for (int hop = 0; hop < 8; ++hop) {
    const ir::Operator* producer = nullptr;
    for (const ir::Operator& op : sg.operators) {
      for (int32_t o : op.outputs) {
        if (o == t) producer = &op;
      }
    }
    if (producer == nullptr || producer->inputs.empty()) return false;
    const ir::OpKind kind = producer->kind;
    if (kind == ir::OpKind::kSoftmax || kind == ir::OpKind::kLogSoftmax) {
      return true;
    }
    // Ops that move or re-encode scores without changing what they mean;
    // any other op makes values that are not (yet) scores.
    if (kind != ir::OpKind::kReshape && kind != ir::OpKind::kSqueeze &&
        kind != ir::OpKind::kQuantize && kind != ir::OpKind::kDequantize) {
      return false;
    }
    t = producer->inputs[0];
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
