// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/interpreter_batch.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace qforge::runtime {
namespace {

using Rule = ir::BatchRule;

// The op table's batch rule of `kind` (ir/ops.def); nullopt when the op is
// not known to keep samples apart.
std::optional<Rule> RuleOf(ir::OpKind kind) {
  const Rule rule = ir::GetOpInfo(kind).batch;
  if (rule == Rule::kNone) return std::nullopt;
  return rule;
}

class Checker {
 public:
  Checker(const ir::Model& model, const ir::Subgraph& sg)
      : model_(model), sg_(sg), constant_(sg.tensors.size(), false) {
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const ir::Tensor& it = sg.tensors[t];
      constant_[t] = !it.is_variable && it.buffer != 0 &&
                     it.buffer < model.buffers.size() &&
                     !model.buffers[it.buffer].data.empty();
    }
  }

  bool Run() {
    if (sg_.inputs.empty() || sg_.outputs.empty()) return false;
    for (int32_t t : sg_.inputs) {
      if (!IsActivation(t)) return false;
    }
    for (const ir::Operator& op : sg_.operators) {
      if (Folded(op)) {
        for (int32_t out : op.outputs) constant_[out] = true;
        continue;
      }
      if (!OpOk(op)) return false;
    }
    for (int32_t t : sg_.outputs) {
      if (!IsActivation(t)) return false;
    }
    return true;
  }

 private:
  const ir::Tensor& T(int32_t t) const { return sg_.tensors[t]; }
  bool Valid(int32_t t) const {
    return t >= 0 && static_cast<size_t>(t) < sg_.tensors.size();
  }
  bool Const(int32_t t) const { return Valid(t) && constant_[t]; }
  // A per-sample activation: not constant, not a variable, batch 1.
  bool IsActivation(int32_t t) const {
    if (!Valid(t) || constant_[t] || T(t).is_variable) return false;
    return !T(t).shape.empty() && T(t).shape[0] == 1;
  }
  // The interpreter evaluates ops whose inputs are all constant once.
  bool Folded(const ir::Operator& op) const {
    if (op.inputs.empty() || op.outputs.empty()) return false;
    for (int32_t in : op.inputs) {
      if (in >= 0 && !Const(in)) return false;
    }
    return RuleOf(op.kind).has_value();  // other kinds: not trusted here
  }
  // Constant integer tensor values (int32 / int64).
  bool Ints(int32_t t, std::vector<int64_t>* out) const {
    if (!Const(t)) return false;
    const ir::Bytes& data = model_.buffers[T(t).buffer].data;
    out->clear();
    if (T(t).type == ir::DataType::kInt32) {
      for (size_t i = 0; i + 4 <= data.size(); i += 4) {
        int32_t v;
        std::memcpy(&v, data.data() + i, 4);
        out->push_back(v);
      }
      return true;
    }
    if (T(t).type == ir::DataType::kInt64) {
      for (size_t i = 0; i + 8 <= data.size(); i += 8) {
        int64_t v;
        std::memcpy(&v, data.data() + i, 8);
        out->push_back(v);
      }
      return true;
    }
    return false;
  }
  static int64_t Axis(int64_t axis, size_t rank) {
    return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
  }

  bool OpOk(const ir::Operator& op) const {
    const std::optional<Rule> rule = RuleOf(op.kind);
    if (!rule.has_value() || op.outputs.size() != 1 || op.inputs.empty())
      return false;
    const int32_t out = op.outputs[0];
    const int32_t in0 = op.inputs[0];
    if (!IsActivation(out) || !IsActivation(in0)) return false;
    const size_t out_rank = T(out).shape.size();
    const size_t in_rank = T(in0).shape.size();
    // Inputs after the first must be constants, except where a rule says.
    auto rest_constant = [&] {
      for (size_t i = 1; i < op.inputs.size(); ++i) {
        if (op.inputs[i] >= 0 && !Const(op.inputs[i])) return false;
      }
      return true;
    };
    std::vector<int64_t> v;
    switch (*rule) {
      case Rule::kNone:
        return false;
      case Rule::kElementwise:
        for (int32_t in : op.inputs) {
          if (in < 0) continue;
          if (Const(in)) {
            // Broadcast over the batch: fine when it has no batch extent.
            if (T(in).shape.size() >= out_rank && T(in).shape.size() > 0 &&
                T(in).shape[T(in).shape.size() - out_rank] != 1)
              return false;
          } else if (!IsActivation(in) || T(in).shape.size() != out_rank) {
            return false;
          }
        }
        return true;
      case Rule::kWindow:
        return in_rank == 4 && out_rank == 4 && rest_constant();
      case Rule::kFullyConnected: {
        if (!rest_constant() || op.inputs.size() < 2) return false;
        const std::vector<int32_t>& w = T(op.inputs[1]).shape;
        int64_t in_elems = 1;
        for (int32_t d : T(in0).shape) in_elems *= d;
        return w.size() == 2 && in_elems == w[1];  // one row per sample
      }
      case Rule::kReshape: {
        if (!rest_constant()) return false;
        if (op.inputs.size() >= 2 && op.inputs[1] >= 0) {
          if (!Ints(op.inputs[1], &v)) return false;
        } else {
          const auto opts = ir::OptionsOr<ir::ReshapeOptions>(op.options);
          v.assign(opts.new_shape.begin(), opts.new_shape.end());
        }
        return !v.empty() && v[0] == -1;
      }
      case Rule::kSqueeze: {
        const auto opts = ir::OptionsOr<ir::SqueezeOptions>(op.options);
        if (opts.squeeze_dims.empty()) return false;
        for (int32_t d : opts.squeeze_dims) {
          if (Axis(d, in_rank) == 0) return false;
        }
        return true;
      }
      case Rule::kConcatenation: {
        const auto opts = ir::OptionsOr<ir::ConcatenationOptions>(op.options);
        for (int32_t in : op.inputs) {
          if (!IsActivation(in) || T(in).shape.size() != out_rank) return false;
        }
        return Axis(opts.axis, out_rank) != 0;
      }
      case Rule::kLastAxis:
        return in_rank >= 2 && rest_constant();
      case Rule::kReduce:
        if (!rest_constant() || op.inputs.size() < 2 ||
            !Ints(op.inputs[1], &v)) {
          return false;
        }
        for (int64_t a : v) {
          if (Axis(a, in_rank) == 0) return false;
        }
        return true;
      case Rule::kPad:
        if (!rest_constant() || op.inputs.size() < 2 ||
            !Ints(op.inputs[1], &v)) {
          return false;
        }
        return v.size() == 2 * in_rank && v[0] == 0 && v[1] == 0;
    }
    return false;
  }

  const ir::Model& model_;
  const ir::Subgraph& sg_;
  std::vector<bool> constant_;
};

}  // namespace

bool SamplesAreIndependent(const ir::Model& model, int subgraph) {
  if (subgraph < 0 || static_cast<size_t>(subgraph) >= model.subgraphs.size())
    return false;
  return Checker(model, model.subgraphs[subgraph]).Run();
}

}  // namespace qforge::runtime
