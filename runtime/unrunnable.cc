// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/unrunnable.h"

#include <map>
#include <set>

#include "runtime/kernel.h"
#include "runtime/kernels/control_flow/control_flow.h"

namespace qforge::runtime {
namespace {

// Whether subgraph `index` (or one it calls) holds an op without a kernel.
bool HoldsUnrunnable(const ir::Model& model, int index,
                     std::map<int, bool>& memo, std::set<int>& visiting) {
  if (index < 0 || static_cast<size_t>(index) >= model.subgraphs.size())
    return false;  // a bad index fails in the calling kernel's prepare
  if (auto it = memo.find(index); it != memo.end()) return it->second;
  if (!visiting.insert(index).second) return false;  // recursion
  const ir::Subgraph& sg = model.subgraphs[static_cast<size_t>(index)];
  bool holds = false;
  for (const ir::Operator& op : sg.operators) {
    if (FindKernel(model, sg, op) == nullptr) holds = true;
    for (int callee : CalledSubgraphs(op)) {
      if (HoldsUnrunnable(model, callee, memo, visiting)) holds = true;
    }
    if (holds) break;
  }
  visiting.erase(index);
  memo[index] = holds;
  return holds;
}

}  // namespace

std::vector<int> CalledSubgraphs(const ir::Operator& op) {
  if (const auto* w = std::get_if<ir::WhileOptions>(&op.options)) {
    return {w->cond_subgraph, w->body_subgraph};
  }
  if (const auto* f = std::get_if<ir::IfOptions>(&op.options)) {
    return {f->then_subgraph, f->else_subgraph};
  }
  if (const auto* c = std::get_if<ir::CallOnceOptions>(&op.options)) {
    return {c->init_subgraph};
  }
  // STABLEHLO_COMPOSITE: its options2 table names the decomposition.
  if (const std::optional<int32_t> d = CompositeDecompositionSubgraph(op))
    return {*d};
  return {};
}

std::vector<SkippedOp> UnrunnableOps(const ir::Model& model, int subgraph) {
  std::vector<SkippedOp> skipped;
  if (subgraph < 0 || static_cast<size_t>(subgraph) >= model.subgraphs.size())
    return skipped;
  const ir::Subgraph& sg = model.subgraphs[static_cast<size_t>(subgraph)];
  std::map<int, bool> memo;
  std::set<int> visiting{subgraph};
  // Tensor -> the root op whose missing kernel leaves it uncomputed.
  std::map<int32_t, int> blocked;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    int root = -1;
    if (FindKernel(model, sg, op) == nullptr) root = static_cast<int>(i);
    for (int callee : CalledSubgraphs(op)) {
      if (root < 0 && HoldsUnrunnable(model, callee, memo, visiting))
        root = static_cast<int>(i);
    }
    for (int32_t in : op.inputs) {
      auto it = in >= 0 ? blocked.find(in) : blocked.end();
      if (root < 0 && it != blocked.end()) root = it->second;
    }
    if (root < 0) continue;
    for (int32_t out : op.outputs) blocked.emplace(out, root);
    skipped.push_back(
        SkippedOp{static_cast<int>(i), op.DisplayName(), root,
                  sg.operators[static_cast<size_t>(root)].DisplayName()});
  }
  return skipped;
}

}  // namespace qforge::runtime
