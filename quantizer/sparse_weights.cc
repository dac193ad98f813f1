// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/sparse_weights.h"

#include <algorithm>

#include "ir/compressed_weights.h"

namespace qforge::quantizer {

SparseChains FindSparseChains(const ir::Model& model) {
  SparseChains chains;
  if (model.subgraphs.empty()) return chains;
  const ir::Subgraph& sg = model.subgraphs[0];
  std::set<int32_t> made_constant;
  std::map<int32_t, SparseChain> open;  // by the tensor the chain ends in
  for (const ir::Operator& op : sg.operators) {
    const ir::WeightFold fold = ir::FoldOf(model, sg, op, made_constant);
    if (fold == ir::WeightFold::kKeep) continue;
    made_constant.insert(op.outputs[0]);
    SparseChain chain;
    if (fold == ir::WeightFold::kDequantize) {
      // A float16 dense constant of a sparse chain (DENSIFY -> DEQUANTIZE).
      auto it = open.find(op.inputs[0]);
      if (it == open.end()) continue;
      chain = std::move(it->second);
      open.erase(it);
    }
    chain.ops.push_back(op);
    chain.written.push_back(op.outputs[0]);
    open[op.outputs[0]] = std::move(chain);
  }
  for (auto& [t, chain] : open) chains.emplace(t, std::move(chain));
  return chains;
}

void RestoreSparseWeights(ir::Model& model, const SparseChains& chains,
                          std::set<int32_t>& from_half) {
  if (chains.empty() || model.subgraphs.empty()) return;
  ir::Subgraph& sg = model.subgraphs[0];
  // Chains to place before op i.
  std::map<size_t, std::vector<const SparseChain*>> before;
  for (const auto& [dense, chain] : chains) {
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      const std::vector<int32_t>& in = sg.operators[i].inputs;
      if (std::find(in.begin(), in.end(), dense) == in.end()) continue;
      before[i].push_back(&chain);
      for (int32_t t : chain.written) {
        sg.tensors[static_cast<size_t>(t)].buffer = 0;
        from_half.erase(t);
      }
      break;
    }
  }
  if (before.empty()) return;
  std::vector<ir::Operator> ops;
  ops.reserve(sg.operators.size() + before.size() * 2);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    auto it = before.find(i);
    if (it != before.end()) {
      for (const SparseChain* c : it->second) {
        ops.insert(ops.end(), c->ops.begin(), c->ops.end());
      }
    }
    ops.push_back(std::move(sg.operators[i]));
  }
  sg.operators = std::move(ops);
}

}  // namespace qforge::quantizer
