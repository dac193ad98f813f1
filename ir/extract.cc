// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/extract.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/compact.h"

namespace qforge::ir {

absl::StatusOr<Model> ExtractOps(const Model& model, int32_t first,
                                 int32_t last) {
  if (model.subgraphs.empty()) {
    return absl::InvalidArgumentError("the model has no subgraph");
  }
  const Subgraph& sg = model.subgraphs[0];
  const auto n = static_cast<int32_t>(sg.operators.size());
  if (first < 0 || last < first || last >= n) {
    return absl::InvalidArgumentError(
        absl::StrCat("op range ", first, "..", last,
                     " is not within subgraph 0's ops 0..", n - 1));
  }
  const size_t nt = sg.tensors.size();
  std::vector<bool> produced(nt, false), used_outside(nt, false);
  for (int32_t i = 0; i < n; ++i) {
    const bool inside = i >= first && i <= last;
    for (int32_t t : sg.operators[i].inputs) {
      if (t >= 0 && !inside) used_outside[t] = true;
    }
    if (!inside) continue;
    for (int32_t t : sg.operators[i].outputs) {
      if (t >= 0) produced[t] = true;
    }
  }
  for (int32_t t : sg.outputs) used_outside[t] = true;

  Model out = model;
  Subgraph& cut = out.subgraphs[0];
  cut.operators.assign(sg.operators.begin() + first,
                       sg.operators.begin() + last + 1);
  std::vector<int32_t> inputs, outputs;
  auto add_once = [](std::vector<int32_t>& list, int32_t t) {
    if (std::find(list.begin(), list.end(), t) == list.end()) list.push_back(t);
  };
  for (const Operator& op : cut.operators) {
    for (int32_t t : op.inputs) {
      if (t < 0 || produced[t] || sg.tensors[t].is_variable) continue;
      const uint32_t b = sg.tensors[t].buffer;
      const bool constant =
          b != 0 && b < model.buffers.size() && !model.buffers[b].data.empty();
      if (!constant) add_once(inputs, t);
    }
    for (int32_t t : op.outputs) {
      if (t >= 0 && used_outside[t]) add_once(outputs, t);
    }
  }
  // A cut whose results nobody uses still shows its last op's outputs.
  if (outputs.empty()) {
    for (int32_t t : cut.operators.back().outputs) {
      if (t >= 0) outputs.push_back(t);
    }
  }
  cut.inputs = std::move(inputs);
  cut.outputs = std::move(outputs);
  out.signature_defs.clear();
  CompactTensors(out);
  return out;
}

}  // namespace qforge::ir
