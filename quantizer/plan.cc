// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "calibration/range.h"
#include "ir/graph.h"
#include "quantizer/fold_activations.h"
#include "quantizer/graph_edit.h"
#include "quantizer/largest_values.h"
#include "quantizer/planner.h"
#include "runtime/legality.h"
#include "runtime/profile.h"

namespace qforge::quantizer {

std::string PrecisionName(Precision p) {
  switch (p) {
    case Precision::kFloat:
      return "float";
    case Precision::kInt8:
      return "int8";
    case Precision::kInt16:
      return "int16x8";
  }
  return "?";
}

ir::DataType ActivationType(Precision p) {
  switch (p) {
    case Precision::kFloat:
      return ir::DataType::kFloat32;
    case Precision::kInt8:
      return ir::DataType::kInt8;
    case Precision::kInt16:
      return ir::DataType::kInt16;
  }
  return ir::DataType::kFloat32;
}

namespace plan_internal {

absl::Status Planner::PlanOp(size_t i, const OpQuantSpec& spec, OpPlan& op) {
  const ir::Operator& src = sg_.operators[i];
  const Precision precision = op.precision;
  const ir::DataType qtype = ActivationType(precision);
  op.inputs.assign(src.inputs.size(), std::nullopt);
  op.outputs.clear();
  op.notes = range_notes_[i];
  op.weight_input = op.bias_input = -1;
  op.weight_bits = 8;
  op.add_zero_bias = false;
  std::optional<ActParams> shared;
  if (spec.output == OutputRule::kSharedInputs) {
    const int32_t o = src.outputs[0];
    auto r = output_range_.find({static_cast<int>(i), 0});
    shared = ParamsOf(
        o, precision,
        r != output_range_.end() ? r->second : StatsRange(o, precision));
  }
  std::optional<ActParams> first_activation;
  for (size_t k = 0; k < src.inputs.size(); ++k) {
    const int32_t t = src.inputs[k];
    if (t < 0) continue;
    switch (RoleOf(spec, k)) {
      case Role::kNotReal:
        break;
      case Role::kWeight:
        op.weight_input = static_cast<int>(k);
        break;
      case Role::kBias:
        op.bias_input = static_cast<int>(k);
        break;
      case Role::kActivation: {
        ActParams p;
        if (Constant(t)) {
          const absl::Span<const float> v = FloatSpan(model_, T(t));
          RETURN_IF_ERROR(CheckFinite(T(t), v, "quantize"));
          float lo = 0, hi = 0;
          for (float x : v) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
          }
          p = shared.value_or(ActParams{qtype, ForRange(lo, hi, precision)});
        } else if (std::optional<ActParams> a = Available(t);
                   a.has_value() && a->type == qtype &&
                   !input_range_.count(
                       {static_cast<int>(i), static_cast<int>(k)})) {
          p = shared.value_or(*a);
        } else {
          auto r =
              input_range_.find({static_cast<int>(i), static_cast<int>(k)});
          p = shared.value_or(ParamsOf(
              t, precision,
              r != input_range_.end() ? r->second : StatsRange(t, precision)));
        }
        op.inputs[k] = p;
        if (!first_activation.has_value()) first_activation = p;
        break;
      }
    }
  }
  // A constant operand of ADD/SUB smaller than half the other operand's
  // step vanishes from the integer sum: quantize it on that grid, where it
  // is exactly 0, rather than on a scale of its own that makes the
  // rescaling extreme.
  if (ir::GetOpInfo(src.kind).Has(ir::op_flags::kSumOfInputs) &&
      src.inputs.size() == 2) {
    for (int k = 0; k < 2; ++k) {
      const int32_t c = src.inputs[static_cast<size_t>(k)];
      const int32_t x = src.inputs[static_cast<size_t>(1 - k)];
      if (c < 0 || x < 0 || !Constant(c) || Constant(x)) continue;
      const ActParams& px = *op.inputs[static_cast<size_t>(1 - k)];
      const absl::Span<const float> v = FloatSpan(model_, T(c));
      float m = 0.0f;
      for (float e : v) m = std::max(m, std::fabs(e));
      if (m > 0.0f && m < 0.5f * px.p.scale) {
        op.inputs[static_cast<size_t>(k)] = px;
        op.notes.push_back(absl::StrCat(
            "constant '", T(c).name, "' (", Short(m),
            ") is below half a quantization step (", Short(px.p.scale),
            ") of '", T(x).name, "': quantized on that grid it adds 0"));
      }
    }
  }
  const float input_scale =
      first_activation.has_value() ? first_activation->p.scale : 1.0f;
  if (op.weight_input >= 0) {
    const int32_t w = src.inputs[static_cast<size_t>(op.weight_input)];
    const std::vector<int32_t>& wshape = T(w).shape;
    const int axis = WeightsPerTensor(src.kind, options_.fc_per_tensor)
                         ? -1
                         : spec.weight_axis;
    op.weight_axis = axis;
    const int64_t channels =
        axis >= 0 && axis < static_cast<int>(wshape.size()) ? wshape[axis] : 1;
    // Per-channel weight-scale floors that keep the bias within +/-2^30
    // (TFLite's AdjustWeightsForBiasScale).
    std::vector<float> floors;
    if (axis >= 0 && op.bias_input < 0 &&
        static_cast<size_t>(op.weight_input + 1) < src.inputs.size() &&
        RoleOf(spec, op.weight_input + 1) == Role::kBias) {
      op.bias_input = op.weight_input + 1;
    }
    if (axis >= 0 && op.bias_input >= 0 &&
        src.inputs[static_cast<size_t>(op.bias_input)] >= 0) {
      const ir::Tensor& bias =
          T(src.inputs[static_cast<size_t>(op.bias_input)]);
      if (IsConstant(model_, bias) && bias.type == ir::DataType::kFloat32) {
        const absl::Span<const float> b = FloatSpan(model_, bias);
        if (static_cast<int64_t>(b.size()) == channels) {
          floors.assign(channels, 0.0f);
          for (int64_t c = 0; c < channels; ++c) {
            if (std::isfinite(b[c])) {
              floors[c] = static_cast<float>(
                  std::fabs(b[c]) /
                  (static_cast<double>(input_scale) * 1073741824.0));
            }
          }
        }
      }
    }
    // int4 where asked and the op has an int4 form (PlannedWeightBits),
    // and only in the int8 form the plan settled on.
    if (precision == Precision::kInt8 && weight_bits_[i] == 4) {
      op.weight_bits = 4;
    }
    const absl::Span<const float> values = FloatSpan(model_, T(w));
    RETURN_IF_ERROR(CheckFinite(T(w), values, "quantize"));
    op.weight_scales = SymmetricScales(values, wshape, axis, floors,
                                       WeightQMax(op.weight_bits));
    // LiteRT's integer CONV_2D / DEPTHWISE_CONV_2D need a bias input.
    const size_t slot = static_cast<size_t>(op.weight_input) + 1;
    if (runtime::NeedsBias(options_.runtime, src.kind) &&
        (slot >= src.inputs.size() || src.inputs[slot] < 0)) {
      op.add_zero_bias = true;
      op.bias_input = static_cast<int>(slot);
    }
  }
  if (op.bias_input >= 0 && !op.add_zero_bias &&
      (static_cast<size_t>(op.bias_input) >= src.inputs.size() ||
       src.inputs[static_cast<size_t>(op.bias_input)] < 0)) {
    op.bias_input = -1;
  }
  for (size_t k = 0; k < src.outputs.size(); ++k) {
    const int32_t o = src.outputs[k];
    ActParams out;
    switch (spec.output) {
      case OutputRule::kOwnRange: {
        // The range of the activation folded into the op (exact: it clamps
        // where the op's int8 output would clamp anyway).
        const int fold = i < fold_into_.size() ? fold_into_[i] : -1;
        const int at = fold >= 0 ? fold : static_cast<int>(i);
        const int32_t ranged =
            fold >= 0 ? sg_.operators[static_cast<size_t>(fold)].outputs[0] : o;
        auto r = output_range_.find({at, static_cast<int>(k)});
        out =
            ParamsOf(ranged, precision,
                     r != output_range_.end() ? r->second
                                              : StatsRange(ranged, precision));
        break;
      }
      case OutputRule::kSharedInputs:
        out = *shared;
        break;
      case OutputRule::kSameAsInput:
        out = first_activation.has_value()
                  ? *first_activation
                  : ParamsOf(o, precision, StatsRange(o, precision));
        break;
      case OutputRule::kFixed:
        out =
            ActParams{qtype, precision == Precision::kInt16 ? spec.fixed_int16
                                                            : spec.fixed_int8};
        break;
    }
    op.outputs.push_back(out);
  }
  return absl::OkStatus();
}

std::string Planner::Illegal(size_t i, const OpQuantSpec& spec,
                             const OpPlan& op) {
  const ir::Operator& src = sg_.operators[i];
  const bool int16 = op.precision == Precision::kInt16;
  LegalityForm form;
  form.kind = src.kind;
  form.op_name = src.DisplayName();
  form.options = src.options;
  if (int16 && ir::GetOpInfo(src.kind).Has(ir::op_flags::kGeneralInt16Scales)) {
    auto o = ir::OptionsOr<ir::AddSubOptions>(src.options);
    o.pot_scale_int16 = false;
    form.options = o;
  }
  auto act = [](TensorForm f, const ActParams& p) {
    f.type = p.type;
    f.scales = {p.p.scale};
    f.zero_points = {p.p.zero_point};
    return f;
  };
  std::vector<LegalityForm> quantizes;  // the QUANTIZE ops placed before the op
  const size_t inputs =
      std::max(src.inputs.size(), static_cast<size_t>(op.bias_input + 1));
  for (size_t k = 0; k < inputs; ++k) {
    const int32_t t = k < src.inputs.size() ? src.inputs[k] : -1;
    if (static_cast<int>(k) == op.bias_input) {
      TensorForm b;
      b.type = int16 ? ir::DataType::kInt64 : ir::DataType::kInt32;
      b.constant = true;
      b.name = t >= 0 ? T(t).name : "zero bias";
      float in_scale = 1.0f;
      for (const std::optional<ActParams>& a : op.inputs) {
        if (a.has_value()) {
          in_scale = a->p.scale;
          break;
        }
      }
      std::vector<float> values;
      if (t >= 0) values = FloatValues(model_, T(t));
      const size_t n = std::max(values.size(), op.weight_scales.size());
      // As the rewrite writes it: one scale per weight scale.
      const bool per_channel = op.weight_scales.size() > 1;
      for (size_t c = 0; c < n; ++c) {
        const float ws =
            op.weight_scales.empty()
                ? 1.0f
                : op.weight_scales[std::min(c, op.weight_scales.size() - 1)];
        const float s = std::max(in_scale * ws, numerics::kMinScale);
        if (per_channel || c == 0) {
          b.scales.push_back(s);
          b.zero_points.push_back(0);
        }
        const double v = c < values.size() ? values[c] : 0.0;
        // A NaN bias (or scale) has no integer value; the quantizer refuses
        // NaN constants elsewhere, here it must only not be UB.
        const double r = std::round(v / s);
        b.int_data.push_back(std::isnan(r) ? 0
                                           : static_cast<int64_t>(std::clamp(
                                                 r, -9.2e18, 9.2e18)));
      }
      form.inputs.push_back(b);
      continue;
    }
    if (t < 0) {
      form.inputs.push_back(std::nullopt);
      continue;
    }
    TensorForm f = FormOfTensor(t);
    if (static_cast<int>(k) == op.weight_input) {
      f.type = op.weight_bits == 4 ? ir::DataType::kInt4 : ir::DataType::kInt8;
      f.scales = op.weight_scales;
      f.zero_points.assign(op.weight_scales.size(), 0);
      f.axis = std::max(op.weight_axis, 0);
    } else if (op.inputs[k].has_value()) {
      const ActParams& want = *op.inputs[k];
      f = act(f, want);
      if (!Constant(t)) {
        const std::optional<ActParams> have = Available(t);
        if (!(have.has_value() && *have == want)) {
          LegalityForm q;
          q.kind = ir::OpKind::kQuantize;
          q.op_name = absl::StrCat("QUANTIZE of '", T(t).name, "'");
          TensorForm from = FormOfTensor(t);
          if (have.has_value()) from = act(from, *have);
          q.inputs.push_back(from);
          q.outputs.push_back(f);
          quantizes.push_back(std::move(q));
        }
      }
    }
    form.inputs.push_back(std::move(f));
  }
  for (size_t k = 0; k < src.outputs.size(); ++k) {
    form.outputs.push_back(act(FormOfTensor(src.outputs[k]), op.outputs[k]));
  }
  (void)spec;
  for (const LegalityForm& q : quantizes) {
    const auto v = runtime::CheckForm(options_.runtime, q);
    if (!v.empty()) return runtime::legality::Describe(v[0]);
  }
  const auto v = runtime::CheckForm(options_.runtime, form);
  if (!v.empty()) return runtime::legality::Describe(v[0]);
  return "";
}

absl::Status Planner::Plan(QuantPlan& plan) {
  available_.clear();
  for (const auto& [t, p] : plan.integer_inputs) available_[t] = p;
  // An int8 op feeding an int8 standalone activation takes the
  // activation's output parameters (fold_activations.h). As planned so
  // far: when the activation ends float, the next pass plans without.
  fold_into_.assign(plan.ops.size(), -1);
  for (size_t i = 0; i < plan.ops.size(); ++i) {
    if (plan.ops[i].precision != Precision::kInt8) continue;
    const int a = FoldableActivation(sg_, graph_, i);
    if (a < 0 || plan.ops[static_cast<size_t>(a)].precision != Precision::kInt8)
      continue;
    const std::optional<OpQuantSpec> p = GetOpQuantSpec(sg_.operators[i].kind);
    const std::optional<OpQuantSpec> s =
        GetOpQuantSpec(sg_.operators[static_cast<size_t>(a)].kind);
    const int32_t z = sg_.operators[static_cast<size_t>(a)].outputs[0];
    if (p.has_value() && s.has_value() && p->output == OutputRule::kOwnRange &&
        s->output == OutputRule::kOwnRange && HasStats(z)) {
      fold_into_[i] = a;
    }
  }
  for (size_t i = 0; i < plan.ops.size(); ++i) {
    OpPlan& op = plan.ops[i];
    if (op.precision == Precision::kFloat) continue;
    const OpQuantSpec spec = *GetOpQuantSpec(sg_.operators[i].kind);
    RETURN_IF_ERROR(PlanOp(i, spec, op));
    std::string why = Illegal(i, spec, op);
    if (!why.empty() && op.weight_bits == 4) {
      // The runtime refuses the op's int4 form (TFLM's per-channel int4
      // FULLY_CONNECTED): int8 weights, before giving up on integer.
      const std::string int4 = why;
      weight_bits_[i] = 8;
      op = OpPlan{};
      op.precision = Precision::kInt8;
      RETURN_IF_ERROR(PlanOp(i, spec, op));
      why = Illegal(i, spec, op);
      if (why.empty()) {
        op.notes.push_back("int8 weights: the int4 form is refused (" + int4 +
                           ")");
      }
    }
    if (why.empty()) why = DroppedConstantNeeded(i, plan);
    if (why.empty()) why = FloatIsland(i, plan);
    if (!why.empty()) {
      op.precision = Precision::kFloat;
      op.reason = why;
      op.notes.clear();
      op.inputs.clear();
      op.outputs.clear();
      continue;
    }
    const ir::Operator& src = sg_.operators[i];
    for (size_t k = 0; k < src.outputs.size(); ++k) {
      available_[src.outputs[k]] = op.outputs[k];
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<QuantPlan> Planner::Build() {
  QuantPlan plan;
  Request(plan);
  // Integer model inputs: the input tensor itself becomes integer.
  const ir::DataType in_type = options_.input_type;
  if (in_type == ir::DataType::kInt8 || in_type == ir::DataType::kInt16) {
    const Precision p =
        in_type == ir::DataType::kInt16 ? Precision::kInt16 : Precision::kInt8;
    for (int32_t in : sg_.inputs) {
      if (T(in).type != ir::DataType::kFloat32 || !HasStats(in) ||
          !InsaneRange(in).empty()) {
        continue;
      }
      plan.integer_inputs[in] = ParamsOf(in, p, StatsRange(in, p));
    }
  }
  // Ops turned float by a rule may change what their producers should do
  // (a constant dropped from an integer ADD matters to a float reader):
  // plan again until no op changes its form.
  for (int pass = 0; pass < 8; ++pass) {
    std::vector<Precision> before;
    for (const OpPlan& op : plan.ops) before.push_back(op.precision);
    RETURN_IF_ERROR(Plan(plan));
    bool changed = false;
    for (size_t i = 0; i < plan.ops.size(); ++i) {
      changed |= plan.ops[i].precision != before[i];
    }
    if (!changed) break;
  }
  return plan;
}

}  // namespace plan_internal

absl::StatusOr<QuantPlan> BuildPlan(
    const ir::Model& model, const calibration::StatsFile& stats,
    const QuantizeOptions& options,
    const std::vector<std::optional<UserRequest>>& requests) {
  if (model.subgraphs.empty()) {
    return absl::InvalidArgumentError("model has no subgraph");
  }
  plan_internal::Planner planner(model, stats, options, requests);
  return planner.Build();
}

}  // namespace qforge::quantizer
