// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/fold_activations.h"

#include <algorithm>
#include <optional>
#include <variant>

#include "ir/clamp.h"
#include "ir/op_kind.h"
#include "runtime/fast_path.h"
#include "runtime/legality.h"

namespace qforge::quantizer {
namespace {

// Producers whose int8 kernels (TFLite's, XNNPACK's, TFLM's) clamp their
// requantized output at CalculateActivationRangeQuantized's bounds of the
// fused activation. Pools and CONCATENATION take their input's parameters,
// so their output cannot take the activation's range.
bool FoldsActivation(const ir::Options& options) {
  if (std::holds_alternative<ir::Conv2DOptions>(options) ||
      std::holds_alternative<ir::DepthwiseConv2DOptions>(options) ||
      std::holds_alternative<ir::FullyConnectedOptions>(options) ||
      std::holds_alternative<ir::AddSubOptions>(options)) {
    return true;
  }
  const auto* a = std::get_if<ir::ActivationOptions>(&options);
  return a != nullptr && a->table == ir::ActivationOptions::Table::kMul;
}

// int8 with one scale and zero point.
bool PerTensorInt8(const ir::Tensor& t) {
  return t.type == ir::DataType::kInt8 && t.quantization.has_value() &&
         t.quantization->scale.size() == 1 &&
         t.quantization->zero_point.size() == 1;
}

bool SameParameters(const ir::Tensor& a, const ir::Tensor& b) {
  return PerTensorInt8(a) && PerTensorInt8(b) &&
         a.quantization->scale[0] == b.quantization->scale[0] &&
         a.quantization->zero_point[0] == b.quantization->zero_point[0];
}

}  // namespace

int FoldableActivation(const ir::Subgraph& sg, const ir::Graph& graph,
                       size_t producer) {
  const ir::Operator& p = sg.operators[producer];
  if (!FoldsActivation(p.options) ||
      ir::FusedActivationOf(p.options) != ir::Activation::kNone ||
      p.outputs.size() != 1 || p.outputs[0] < 0) {
    return -1;
  }
  const int32_t t = p.outputs[0];
  if (std::find(sg.outputs.begin(), sg.outputs.end(), t) != sg.outputs.end()) {
    return -1;
  }
  const absl::Span<const int> readers = graph.consumers(t);
  if (readers.size() != 1) return -1;
  const int a = readers[0];
  const ir::Operator& act = sg.operators[static_cast<size_t>(a)];
  const ir::OpInfo& info = ir::GetOpInfo(act.kind);
  if (!info.clamps || act.inputs.size() != 1 || act.inputs[0] != t ||
      act.outputs.size() != 1 || act.outputs[0] < 0 ||
      !ir::FusedActivationWithClamp(info.clamp).has_value()) {
    return -1;
  }
  return a;
}

std::vector<FoldedActivation> FoldActivations(ir::Model& model,
                                              runtime::Runtime runtime) {
  std::vector<FoldedActivation> folded;
  if (model.subgraphs.empty()) return folded;
  ir::Subgraph& sg = model.subgraphs[0];
  const ir::Graph graph(sg);
  std::vector<bool> removed(sg.operators.size(), false);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const int a = FoldableActivation(sg, graph, i);
    if (a < 0 || removed[i]) continue;
    ir::Operator& p = sg.operators[i];
    const ir::Operator& act = sg.operators[static_cast<size_t>(a)];
    const ir::Tensor& t = sg.tensors[static_cast<size_t>(p.outputs[0])];
    const ir::Tensor& z = sg.tensors[static_cast<size_t>(act.outputs[0])];
    if (!SameParameters(t, z)) continue;
    ir::Operator candidate = p;
    candidate.outputs[0] = act.outputs[0];
    ir::SetFusedActivation(
        candidate.options,
        *ir::FusedActivationWithClamp(ir::GetOpInfo(act.kind).clamp));
    const runtime::legality::OpForm before =
        runtime::legality::FormOf(model, sg, p);
    const runtime::legality::OpForm after =
        runtime::legality::FormOf(model, sg, candidate);
    if (!runtime::CheckForm(runtime, after).empty()) continue;
    if (runtime == runtime::Runtime::kLitert &&
        runtime::fast_path::XnnpackRefusal(before).empty() &&
        !runtime::fast_path::XnnpackRefusal(after).empty()) {
      continue;
    }
    folded.push_back({act.DisplayName(), t.name, p.DisplayName()});
    p = std::move(candidate);
    removed[static_cast<size_t>(a)] = true;
  }
  std::vector<ir::Operator> kept;
  kept.reserve(sg.operators.size());
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    if (!removed[i]) kept.push_back(std::move(sg.operators[i]));
  }
  sg.operators = std::move(kept);
  return folded;
}

}  // namespace qforge::quantizer
