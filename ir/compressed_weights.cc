// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/compressed_weights.h"

namespace qforge::ir {
namespace {

bool HoldsValues(const Model& m, const Tensor& t) {
  return t.buffer != 0 && t.buffer < m.buffers.size() &&
         !m.buffers[t.buffer].data.empty();
}

}  // namespace

WeightFold FoldOf(const Model& model, const Subgraph& sg, const Operator& op,
                  const std::set<int32_t>& made_constant) {
  if (op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0) {
    return WeightFold::kKeep;
  }
  const Tensor& in = sg.tensors[op.inputs[0]];
  const Tensor& out = sg.tensors[op.outputs[0]];
  const bool constant =
      HoldsValues(model, in) || made_constant.count(op.inputs[0]) > 0;
  if (op.kind == OpKind::kDensify && constant && in.sparsity.has_value() &&
      !out.sparsity.has_value()) {
    return WeightFold::kDensify;
  }
  if (GetOpInfo(op.kind).Has(op_flags::kConverter) && constant &&
      in.type == DataType::kFloat16 && !in.sparsity.has_value() &&
      out.type == DataType::kFloat32) {
    return WeightFold::kDequantize;
  }
  return WeightFold::kKeep;
}

std::vector<int> FoldedOpIndices(const Model& model) {
  std::vector<int> folded;
  if (model.subgraphs.empty()) return folded;
  const Subgraph& sg = model.subgraphs[0];
  std::set<int32_t> made_constant;
  int next = 0;
  for (const Operator& op : sg.operators) {
    if (FoldOf(model, sg, op, made_constant) != WeightFold::kKeep) {
      made_constant.insert(op.outputs[0]);
      folded.push_back(-1);
    } else {
      folded.push_back(next++);
    }
  }
  return folded;
}

}  // namespace qforge::ir
