// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "calibration/range.h"
#include "ir/graph.h"
#include "quantizer/graph_edit.h"
#include "quantizer/largest_values.h"
#include "runtime/legality.h"
#include "runtime/profile.h"

namespace qforge::quantizer {
namespace {

using numerics::QuantParams;
// The legality rules' op form (not quantizer::OpForm, the op's precision).
using LegalityForm = runtime::legality::OpForm;
using runtime::legality::TensorForm;

// Calibrated values beyond this are sentinels (float lowest(), -1e38 masks)
// or overflow, never data a scale should cover.
constexpr float kSaneMagnitude = 1e30f;

std::string Short(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

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

namespace {

class Planner {
 public:
  Planner(const ir::Model& model, const calibration::StatsFile& stats,
          const QuantizeOptions& options,
          const std::vector<std::optional<UserRequest>>& requests)
      : model_(model),
        sg_(model.subgraphs[0]),
        options_(options),
        requests_(requests),
        graph_(sg_) {
    for (const calibration::TensorStats& t : stats.tensors) {
      if (t.subgraph == 0) stats_[t.tensor] = &t;
    }
    default_ = options.scheme == Scheme::kInt16x8 ? Precision::kInt16
                                                  : Precision::kInt8;
  }

  absl::StatusOr<QuantPlan> Build();

 private:
  using Override = std::map<std::pair<int, int>, calibration::Range>;

  bool Constant(int32_t t) const {
    return IsConstant(model_, sg_.tensors[static_cast<size_t>(t)]);
  }
  const ir::Tensor& T(int32_t t) const {
    return sg_.tensors[static_cast<size_t>(t)];
  }
  bool HasStats(int32_t t) const {
    auto it = stats_.find(t);
    return it != stats_.end() && !it->second->empty();
  }
  // The range of `t` for a tensor of precision `p`: range methods that
  // trade clipping for resolution (mse, kl) choose for that many levels.
  calibration::Range StatsRange(int32_t t, Precision p) const {
    auto it = repaired_.find(t);
    if (it != repaired_.end()) return it->second;
    calibration::RangeSpec spec = options_.range;
    if (!options_.range_overrides.empty()) {
      auto o = options_.range_overrides.find(sg_.tensors[t].name);
      if (o != options_.range_overrides.end()) spec = o->second;
    }
    // Over any override: --method auto, which chooses on the
    // calibration samples, cannot see the clipping this avoids.
    const bool largest = ReadForLargest(sg_, graph_, t);
    if (largest) spec.method = calibration::RangeMethod::kMinMax;
    spec.num_bits = p == Precision::kInt16 ? 16 : 8;
    calibration::Range r = calibration::ComputeRange(*stats_.at(t), spec);
    // int16 ranges get int16_headroom below instead.
    if (largest && p != Precision::kInt16) r = WidenedForLargest(r);
    if (p == Precision::kInt16) {
      // int16 has resolution to spare, and a range fitted to a few
      // calibration samples clips on the next ones (see int16_headroom).
      r.min *= options_.int16_headroom;
      r.max *= options_.int16_headroom;
    }
    return r;
  }
  // "" when the calibrated range of `t` can become a scale, else why not.
  std::string InsaneRange(int32_t t) const;
  QuantParams ForRange(float lo, float hi, Precision p) const;
  ActParams ParamsOf(int32_t t, Precision p, const calibration::Range& r) const;

  // Pass A: the form each op asks for, and structural reasons to stay float.
  void Request(QuantPlan& plan);
  std::string Structural(size_t i, const OpQuantSpec& spec) const;
  // A sentinel-masked ADD feeding SOFTMAX: clamps the mask's range so the
  // op is legal and its softmax result unchanged. True when applied.
  bool ClampMask(size_t i, OpPlan& op);

  // Pass B: parameters and legality, in op order.
  absl::Status Plan(QuantPlan& plan);
  absl::Status PlanOp(size_t i, const OpQuantSpec& spec, OpPlan& op);
  std::string Illegal(size_t i, const OpQuantSpec& spec, const OpPlan& op);
  // Why op i must stay float because a constant its integer form drops is
  // read by a float consumer; "" otherwise.
  std::string DroppedConstantNeeded(size_t i, const QuantPlan& plan);
  // Why op i, weightless and fed and read by float only, stays float.
  std::string FloatIsland(size_t i, const QuantPlan& plan) const;
  TensorForm FormOfTensor(int32_t t) const;
  // The integer form of `t` available before op i runs, if any.
  std::optional<ActParams> Available(int32_t t) const {
    auto it = available_.find(t);
    if (it == available_.end()) return std::nullopt;
    return it->second;
  }

  const ir::Model& model_;
  const ir::Subgraph& sg_;
  const QuantizeOptions& options_;
  const std::vector<std::optional<UserRequest>>& requests_;
  const ir::Graph graph_;
  std::map<int32_t, const calibration::TensorStats*> stats_;
  Precision default_ = Precision::kInt8;
  std::vector<Precision> requested_;
  std::vector<int> weight_bits_;  // PlannedWeightBits: 4 or 8 per op
  std::vector<std::string> requested_reason_;
  Override input_range_, output_range_;  // (op, index) -> range
  // Tensors whose range a repair replaced (a clamped mask's sum): their
  // consumers see the repaired range, not the sentinel.
  std::map<int32_t, calibration::Range> repaired_;
  std::vector<std::vector<std::string>> range_notes_;
  std::map<int32_t, ActParams> available_;
};

std::string Planner::InsaneRange(int32_t t) const {
  if (repaired_.count(t)) return "";
  const calibration::TensorStats& s = *stats_.at(t);
  if (s.pos_inf > 0 || s.neg_inf > 0) {
    return absl::StrCat("calibrated values of '", T(t).name,
                        "' include infinities; not turned into a scale");
  }
  const float m = std::max(std::fabs(s.min), std::fabs(s.max));
  if (!(m <= kSaneMagnitude)) {
    return absl::StrCat(
        "calibrated range of '", T(t).name, "' reaches ",
        Short(std::fabs(s.min) > std::fabs(s.max) ? s.min : s.max),
        " (a sentinel or an overflow); not turned into a "
        "scale");
  }
  return "";
}

QuantParams Planner::ForRange(float lo, float hi, Precision p) const {
  if (p == Precision::kInt16) {
    return numerics::ChooseSymmetric(std::max(std::fabs(lo), std::fabs(hi)),
                                     32767);
  }
  return numerics::ChooseAsymmetric(lo, hi, -128, 127);
}

ActParams Planner::ParamsOf(int32_t, Precision p,
                            const calibration::Range& r) const {
  return ActParams{ActivationType(p), ForRange(r.min, r.max, p)};
}

std::string Planner::Structural(size_t i, const OpQuantSpec& spec) const {
  const ir::Operator& op = sg_.operators[i];
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t < 0) continue;
    const Role role = RoleOf(spec, k);
    if (role == Role::kNotReal) continue;
    const ir::Tensor& tensor = T(t);
    if (tensor.type != ir::DataType::kFloat32) {
      return absl::StrCat("input ", k, " '", tensor.name, "' is ",
                          ir::DataTypeName(tensor.type), ", not float32");
    }
    const bool constant = Constant(t);
    if ((role == Role::kWeight || role == Role::kBias) && !constant) {
      return absl::StrCat("input ", k, " '", tensor.name,
                          "' (weights) is not a constant");
    }
    if (role == Role::kActivation && !constant) {
      if (!HasStats(t)) {
        return absl::StrCat("no calibration statistics for input '",
                            tensor.name, "'");
      }
      if (!input_range_.count({static_cast<int>(i), static_cast<int>(k)})) {
        const std::string why = InsaneRange(t);
        if (!why.empty()) return why;
      }
    }
  }
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    const int32_t o = op.outputs[k];
    if (T(o).type != ir::DataType::kFloat32) {
      return absl::StrCat("output '", T(o).name, "' is not float32");
    }
    // kSameAsInput takes the output's own range when no input is an
    // activation (a statistics file may lack any tensor).
    bool activation_input = false;
    for (size_t j = 0; j < op.inputs.size(); ++j) {
      activation_input |=
          op.inputs[j] >= 0 && RoleOf(spec, j) == Role::kActivation;
    }
    const bool own =
        spec.output == OutputRule::kOwnRange ||
        spec.output == OutputRule::kSharedInputs ||
        (spec.output == OutputRule::kSameAsInput && !activation_input);
    if (own && !HasStats(o)) {
      return absl::StrCat("no calibration statistics for output '", T(o).name,
                          "'");
    }
    if (own &&
        !output_range_.count({static_cast<int>(i), static_cast<int>(k)})) {
      const std::string why = InsaneRange(o);
      if (!why.empty()) return why;
    }
  }
  return "";
}

bool Planner::ClampMask(size_t i, OpPlan& op) {
  const ir::Operator& add = sg_.operators[i];
  if (add.kind != ir::OpKind::kAdd || add.inputs.size() != 2 ||
      add.outputs.size() != 1) {
    return false;
  }
  const int32_t out = add.outputs[0];
  if (graph_.consumers(out).empty()) return false;
  // Every consumer is a SOFTMAX over the masked scores.
  float beta = std::numeric_limits<float>::infinity();
  Precision softmax = Precision::kInt16;
  for (int c : graph_.consumers(out)) {
    const ir::Operator& sm = sg_.operators[static_cast<size_t>(c)];
    if (sm.kind != ir::OpKind::kSoftmax) return false;
    float b = ir::OptionsOr<ir::SoftmaxOptions>(sm.options).beta;
    if (!(b > 0.0f)) b = 1.0f;
    beta = std::min(beta, b);
    if (requested_[static_cast<size_t>(c)] == Precision::kInt8) {
      softmax = Precision::kInt8;
    }
  }
  for (int m = 0; m < 2; ++m) {
    const int32_t mask = add.inputs[static_cast<size_t>(m)];
    const int32_t other = add.inputs[static_cast<size_t>(1 - m)];
    if (mask < 0 || other < 0 || Constant(mask) || Constant(other) ||
        !HasStats(mask) || !HasStats(other) || !HasStats(out) ||
        !InsaneRange(other).empty()) {
      continue;
    }
    const calibration::TensorStats& ms = *stats_.at(mask);
    if (ms.pos_inf > 0 || !(std::fabs(ms.max) <= kSaneMagnitude)) continue;
    const calibration::Range x = StatsRange(other, requested_[i]);
    const float hi = ms.max;
    // A masked score must sit below every unmasked one by a gap whose
    // softmax weight rounds to 0 at the softmax's output step
    // (exp(-beta * gap) < half a step), with one nat to spare.
    const double levels = softmax == Precision::kInt8 ? 256.0 : 32768.0;
    const double gap = (std::log(2.0 * levels) + 1.0) / beta;
    const double span = static_cast<double>(x.max) - x.min + gap;
    const float lo = static_cast<float>(hi - span);
    // Only where the calibrated mask reaches well below what is needed.
    if (!(ms.min < lo) || !std::isfinite(lo)) continue;
    input_range_[{static_cast<int>(i), m}] = {lo, hi};
    const calibration::Range sum{static_cast<float>(x.min + lo),
                                 static_cast<float>(x.max + hi)};
    output_range_[{static_cast<int>(i), 0}] = sum;
    repaired_[out] = sum;
    op.notes.push_back(absl::StrCat(
        "mask '", T(mask).name, "' range [", Short(ms.min), ", ", Short(hi),
        "] clamped to [", Short(lo), ", ", Short(hi),
        "]: the SOFTMAX it feeds gives masked positions 0 either way"));
    return true;
  }
  return false;
}

void Planner::Request(QuantPlan& plan) {
  const size_t n = sg_.operators.size();
  plan.ops.assign(n, OpPlan{});
  requested_.assign(n, default_);
  weight_bits_ = PlannedWeightBits(sg_, options_, requests_);
  requested_reason_.assign(n, "");
  range_notes_.assign(n, {});
  // What each op asks for, before anything is checked: the consumers'
  // wishes decide the mask repair below.
  for (size_t i = 0; i < n; ++i) {
    const ir::Operator& op = sg_.operators[i];
    const std::optional<OpQuantSpec> spec = GetOpQuantSpec(op.kind);
    std::string why;
    Precision want = default_;
    const std::optional<UserRequest>& asked = requests_[i];
    if (asked.has_value()) want = asked->precision;
    if (want == Precision::kFloat) {
      why = asked->origin == "--exclude-op"
                ? "excluded (--exclude-op)"
                : absl::StrCat("kept float (", asked->origin, ")");
    } else if (!spec.has_value()) {
      why = NoIntegerFormReason(op.kind);
    } else if (want == Precision::kInt16 && !spec->int16) {
      // As in the int16x8 scheme: no int16 form, so float (int8 would be
      // the noisier choice the user asked to avoid).
      why = asked.has_value() && default_ == Precision::kInt8
                ? absl::StrCat("no int16x8 form (", asked->origin, ")")
                : "no int16x8 form";
    }
    requested_[i] = want;
    if (!why.empty()) {
      requested_[i] = Precision::kFloat;
      requested_reason_[i] = why;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    OpPlan& op = plan.ops[i];
    op.precision = requested_[i];
    op.reason = requested_reason_[i];
    if (op.precision == Precision::kFloat) continue;
    op.notes = range_notes_[i];
    ClampMask(i, op);
    range_notes_[i] = op.notes;
    const std::string why =
        Structural(i, *GetOpQuantSpec(sg_.operators[i].kind));
    if (!why.empty()) {
      op.precision = Precision::kFloat;
      op.reason = why;
      op.notes.clear();
    }
  }
}

TensorForm Planner::FormOfTensor(int32_t t) const {
  TensorForm f;
  const ir::Tensor& tensor = T(t);
  f.type = tensor.type;
  f.name = tensor.name;
  f.shape = tensor.shape;
  f.constant = Constant(t);
  return f;
}

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
        auto r = output_range_.find({static_cast<int>(i), static_cast<int>(k)});
        out = ParamsOf(
            o, precision,
            r != output_range_.end() ? r->second : StatsRange(o, precision));
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

std::string Planner::DroppedConstantNeeded(size_t i, const QuantPlan& plan) {
  const OpPlan& op = plan.ops[i];
  const ir::Operator& src = sg_.operators[i];
  bool dropped = false;
  for (const std::string& note : op.notes) {
    dropped |= note.find("it adds 0") != std::string::npos;
  }
  if (!dropped) return "";
  for (int32_t o : src.outputs) {
    for (int c : graph_.consumers(o)) {
      const OpPlan& consumer = plan.ops[static_cast<size_t>(c)];
      if (consumer.precision == Precision::kFloat) {
        return absl::StrCat(
            "its small constant operand vanishes in an integer ",
            src.DisplayName(), ", and float op ", c, " (",
            sg_.operators[static_cast<size_t>(c)].DisplayName(),
            ") reads the result: kept float so that it still sees it");
      }
    }
  }
  return "";
}

// An op between float neighbours gains nothing from an integer form: it
// would be wrapped in a QUANTIZE and a DEQUANTIZE and only lose precision.
// Seen in audio front ends: x * x feeding log(x * x + eps), where int8
// squares lose all small values. Ops with weights still quantize (their
// weights shrink), and an op whose output is a model output or unread is
// not an island: a user quantizing a single-op model gets its integer form.
std::string Planner::FloatIsland(size_t i, const QuantPlan& plan) const {
  const ir::Operator& src = sg_.operators[i];
  const OpQuantSpec spec = *GetOpQuantSpec(src.kind);
  bool reads_activation = false;
  for (size_t k = 0; k < src.inputs.size(); ++k) {
    const int32_t t = src.inputs[k];
    if (t < 0) continue;
    if (Constant(t)) {
      if (RoleOf(spec, k) == Role::kWeight) return "";
      continue;
    }
    reads_activation = true;
    if (plan.integer_inputs.count(t)) return "";
    const int p = graph_.producer(t);
    if (p >= 0 &&
        plan.ops[static_cast<size_t>(p)].precision != Precision::kFloat) {
      return "";
    }
  }
  if (!reads_activation) return "";
  int reader = -1;
  for (int32_t o : src.outputs) {
    if (std::find(sg_.outputs.begin(), sg_.outputs.end(), o) !=
            sg_.outputs.end() ||
        graph_.consumers(o).empty()) {
      return "";
    }
    for (int c : graph_.consumers(o)) {
      if (plan.ops[static_cast<size_t>(c)].precision != Precision::kFloat) {
        return "";
      }
      reader = c;
    }
  }
  return absl::StrCat(
      "between float ops (its inputs are float and op ", reader, " (",
      sg_.operators[static_cast<size_t>(reader)].DisplayName(),
      ") reads it as float): an integer form would add a QUANTIZE and a "
      "DEQUANTIZE and only lose precision");
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

}  // namespace

absl::StatusOr<QuantPlan> BuildPlan(
    const ir::Model& model, const calibration::StatsFile& stats,
    const QuantizeOptions& options,
    const std::vector<std::optional<UserRequest>>& requests) {
  if (model.subgraphs.empty()) {
    return absl::InvalidArgumentError("model has no subgraph");
  }
  Planner planner(model, stats, options, requests);
  return planner.Build();
}

}  // namespace qforge::quantizer
