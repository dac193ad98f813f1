// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/latency.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "ir/compressed_weights.h"
#include "ir/op_kind.h"
#include "runtime/fast_path.h"
#include "runtime/legality.h"

namespace qforge::runtime {
namespace {

using legality::OpForm;
using legality::TensorForm;

// The fitted coefficients, ms per unit of each LatencyFeature.
constexpr LatencyFeatures kCoefficients = {
#include "runtime/latency_fit.inc"
};

double Elements(const std::vector<int32_t>& shape) {
  double n = 1;
  for (int32_t d : shape) n *= std::max<int32_t>(d, 1);
  return n;
}

CostType TypeOf(const OpForm& form) {
  CostType type = CostType::kFloat32;
  auto visit = [&](const TensorForm& t) {
    if (t.constant) return;
    if (t.type == ir::DataType::kInt16) type = CostType::kInt16;
    if ((t.type == ir::DataType::kInt8 || t.type == ir::DataType::kUInt8) &&
        type == CostType::kFloat32) {
      type = CostType::kInt8;
    }
  };
  for (const std::optional<TensorForm>& t : form.inputs) {
    if (t.has_value()) visit(*t);
  }
  for (const TensorForm& t : form.outputs) visit(t);
  return type;
}

// Multiply-accumulates of a weighted op: each output element takes the
// weights of its output channel (the WEIGHTS trait's layout), each input
// element of a TRANSPOSE_CONV those of its input channel; BATCH_MATMUL's
// output elements take the shared dimension; pools their window.
double Macs(const OpForm& form) {
  const ir::OpInfo& info = ir::GetOpInfo(form.kind);
  const TensorForm* out = form.out(0);
  if (out == nullptr) return 0;
  if (info.weight_input >= 0) {
    const TensorForm* w = form.in(static_cast<size_t>(info.weight_input));
    if (w == nullptr || w->shape.empty()) return 0;
    const double weights = Elements(w->shape);
    if (info.weight_layout == ir::WeightLayout::kTransposeConv) {
      const TensorForm* in = form.in(2);
      const double per_input = weights / std::max<int32_t>(w->shape.back(), 1);
      return in == nullptr ? 0 : Elements(in->shape) * per_input;
    }
    const int axis = ir::OutputChannelAxis(info.weight_layout);
    const double channels =
        axis >= 0 && static_cast<size_t>(axis) < w->shape.size()
            ? std::max<int32_t>(w->shape[static_cast<size_t>(axis)], 1)
            : 1;
    return Elements(out->shape) * weights / channels;
  }
  if (const auto* o = std::get_if<ir::BatchMatMulOptions>(&form.options)) {
    const TensorForm* a = form.in(0);
    if (a == nullptr || a->shape.size() < 2) return 0;
    const size_t k = a->shape.size() - (o->adj_x ? 2 : 1);
    return Elements(out->shape) * std::max<int32_t>(a->shape[k], 1);
  }
  if (const auto* o = std::get_if<ir::Pool2DOptions>(&form.options)) {
    return Elements(out->shape) * std::max(o->filter_width, 1) *
           std::max(o->filter_height, 1);
  }
  return 0;
}

double ElementsMoved(const OpForm& form) {
  double n = 0;
  for (const std::optional<TensorForm>& t : form.inputs) {
    if (t.has_value() && !t->constant) n += Elements(t->shape);
  }
  for (const TensorForm& t : form.outputs) n += Elements(t.shape);
  return n;
}

// The fraction of its dense elements the sparse constant that `densify`
// reads stores (its values, the zeros within stored blocks included).
double StoredFraction(const ir::Model& model, const ir::Subgraph& sg,
                      const ir::Operator& densify) {
  const ir::Tensor& in = sg.tensors[static_cast<size_t>(densify.inputs[0])];
  const ir::Tensor& out = sg.tensors[static_cast<size_t>(densify.outputs[0])];
  const double dense = Elements(out.shape);
  const std::optional<int> bits = ir::DataTypeBits(in.type);
  if (in.buffer >= model.buffers.size() || !bits.has_value() || *bits <= 0 ||
      dense <= 0) {
    return 1;
  }
  const double stored =
      static_cast<double>(model.buffers[in.buffer].data.size()) * 8 / *bits;
  return std::min(1.0, stored / dense);
}

}  // namespace

double LatencyOf(const LatencyFeatures& features) {
  double ms = 0;
  for (int i = 0; i < kNumLatencyFeatures; ++i) {
    ms += kCoefficients[static_cast<size_t>(i)] *
          features[static_cast<size_t>(i)];
  }
  return ms;
}

LatencyEstimate EstimateLitertLatency(const ir::Model& model) {
  LatencyEstimate est;
  if (model.subgraphs.empty()) return est;
  const ir::Subgraph& sg = model.subgraphs[0];
  // Outputs of a DEQUANTIZE of a constant: XNNPACK folds them at prepare
  // time, so to the ops reading them they are constants
  // (CheckTensorStaticAllocation's quasi-static tensors). So are those of a
  // DENSIFY of a sparse constant (PrepareOpsToDelegate's
  // static_unpack_nodes_, unpacked at init, float16 or float32) and of the
  // DEQUANTIZE after it: `unpacked` holds those ops and `density` the
  // fraction of the dense weights the sparse constant stores.
  std::set<int32_t> widened;
  std::set<int32_t> made_constant;
  std::set<size_t> unpacked;
  std::map<int32_t, double> density;
  std::vector<OpForm> forms;
  forms.reserve(sg.operators.size());
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    const ir::WeightFold fold = ir::FoldOf(model, sg, op, made_constant);
    if (fold != ir::WeightFold::kKeep) made_constant.insert(op.outputs[0]);
    if (fold == ir::WeightFold::kDensify) {
      unpacked.insert(i);
      widened.insert(op.outputs[0]);
      density[op.outputs[0]] = StoredFraction(model, sg, op);
    } else if (fold == ir::WeightFold::kDequantize &&
               density.count(op.inputs[0])) {
      unpacked.insert(i);
      widened.insert(op.outputs[0]);
      density[op.outputs[0]] = density[op.inputs[0]];
    }
    OpForm form = legality::FormOf(model, sg, op);
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (op.inputs[i] >= 0 && widened.count(op.inputs[i]) &&
          form.inputs[i].has_value()) {
        form.inputs[i]->constant = true;
      }
    }
    const TensorForm* in = form.in(0);
    if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter) && in != nullptr &&
        in->constant && !op.outputs.empty() && form.outputs.size() == 1 &&
        form.outputs[0].type == ir::DataType::kFloat32) {
      widened.insert(op.outputs[0]);
    }
    forms.push_back(std::move(form));
  }
  // XNNPACK's sparse kernels run in its NCHW rewrite of the delegated
  // graph, a float cluster from the first 3x3 stride-2 convolution on to the
  // final pooling: an integer op in the graph breaks it, and the
  // convolutions run dense.
  bool whole_float = true;
  for (const OpForm& form : forms) {
    whole_float = whole_float && TypeOf(form) == CostType::kFloat32;
  }
  bool in_partition = false;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    const OpForm& form = forms[i];
    OpLatency l;
    l.op_index = static_cast<int>(i);
    l.op = op.DisplayName();
    l.why_builtin = unpacked.count(i) ? "" : fast_path::XnnpackRefusal(form);
    l.xnnpack = l.why_builtin.empty();
    l.folded =
        l.xnnpack && !op.outputs.empty() && widened.count(op.outputs[0]) > 0;
    l.type = TypeOf(form);
    l.macs = Macs(form);
    // XNNPACK's sparse float kernels (its NCHW rewrite of a graph with
    // sparse weights: XNN_FLAG_HINT_SPARSE_INFERENCE) compute the 1x1
    // convolutions with their stored weights only.
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    if (whole_float && l.xnnpack && info.weight_input >= 0 &&
        info.weight_layout == ir::WeightLayout::kConv &&
        static_cast<size_t>(info.weight_input) < op.inputs.size()) {
      const int32_t w = op.inputs[static_cast<size_t>(info.weight_input)];
      auto d = density.find(w);
      const TensorForm* wf = form.in(static_cast<size_t>(info.weight_input));
      if (d != density.end() && wf != nullptr && wf->shape.size() == 4 &&
          wf->shape[1] == 1 && wf->shape[2] == 1) {
        l.macs *= d->second;
        l.sparse = true;
      }
    }
    l.elements = ElementsMoved(form);
    LatencyFeatures f{};
    if (l.folded) {
      // No run-time cost.
    } else if (l.xnnpack) {
      f[kXnnOps] = 1;
      f[l.type == CostType::kFloat32 ? kXnnMacsF32 : kXnnMacsInt8] = l.macs;
      f[kXnnElements] = l.elements;
      if (!in_partition) f[kXnnPartitions] = 1;
    } else {
      f[kBuiltinOps] = 1;
      switch (l.type) {
        case CostType::kFloat32:
          f[kBuiltinMacsF32] = l.macs;
          f[kBuiltinElementsF32] = l.elements;
          break;
        case CostType::kInt8:
          f[kBuiltinMacsInt8] = l.macs;
          f[kBuiltinElementsInt8] = l.elements;
          break;
        case CostType::kInt16:
          f[kBuiltinMacsInt16] = l.macs;
          f[kBuiltinElementsInt16] = l.elements;
          break;
      }
    }
    if (!l.folded) in_partition = l.xnnpack;
    l.ms = LatencyOf(f);
    est.partitions += static_cast<int>(f[kXnnPartitions]);
    for (int k = 0; k < kNumLatencyFeatures; ++k) {
      est.features[static_cast<size_t>(k)] += f[static_cast<size_t>(k)];
    }
    est.ms += l.ms;
    est.ops.push_back(std::move(l));
  }
  return est;
}

}  // namespace qforge::runtime
