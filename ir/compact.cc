// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/compact.h"

#include <vector>

namespace qforge::ir {

void CompactTensors(Model& model) {
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    Subgraph& sg = model.subgraphs[s];
    std::vector<bool> used(sg.tensors.size(), false);
    auto mark = [&](const std::vector<int32_t>& list) {
      for (int32_t t : list) {
        if (t >= 0 && static_cast<size_t>(t) < used.size()) used[t] = true;
      }
    };
    mark(sg.inputs);
    mark(sg.outputs);
    for (const Operator& op : sg.operators) {
      mark(op.inputs);
      mark(op.outputs);
      mark(op.intermediates);
    }
    for (const SignatureDef& sig : model.signature_defs) {
      if (sig.subgraph_index != s) continue;
      for (const auto* maps : {&sig.inputs, &sig.outputs}) {
        for (const TensorMap& m : *maps) {
          if (m.tensor_index < used.size()) used[m.tensor_index] = true;
        }
      }
    }
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      if (sg.tensors[t].is_variable) used[t] = true;
    }
    // Blockwise scales and zero points are named by a tensor's quantization
    // only; kept while that tensor is.
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const auto& q = sg.tensors[t].quantization;
      if (!used[t] || !q.has_value()) continue;
      mark({q->block_scales, q->block_zero_points});
    }
    std::vector<int32_t> remap(sg.tensors.size(), -1);
    std::vector<Tensor> kept;
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      if (!used[t]) continue;
      remap[t] = static_cast<int32_t>(kept.size());
      kept.push_back(std::move(sg.tensors[t]));
    }
    sg.tensors = std::move(kept);
    auto apply = [&](std::vector<int32_t>& list) {
      for (int32_t& t : list) {
        if (t >= 0) t = remap[t];
      }
    };
    apply(sg.inputs);
    apply(sg.outputs);
    for (Tensor& t : sg.tensors) {
      if (!t.quantization.has_value()) continue;
      for (int32_t* i : {&t.quantization->block_scales,
                         &t.quantization->block_zero_points}) {
        if (*i >= 0 && static_cast<size_t>(*i) < remap.size()) *i = remap[*i];
      }
    }
    for (Operator& op : sg.operators) {
      apply(op.inputs);
      apply(op.outputs);
      apply(op.intermediates);
    }
    for (SignatureDef& sig : model.signature_defs) {
      if (sig.subgraph_index != s) continue;
      for (auto* maps : {&sig.inputs, &sig.outputs}) {
        for (TensorMap& m : *maps)
          m.tensor_index = static_cast<uint32_t>(remap[m.tensor_index]);
      }
    }
  }
}

}  // namespace qforge::ir
