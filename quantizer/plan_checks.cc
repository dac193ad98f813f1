// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What keeps a tensor or an op float, or repairs it, before its form is
// chosen (planner.h).

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
#include "quantizer/planner.h"
#include "runtime/legality.h"
#include "runtime/profile.h"

namespace qforge::quantizer::plan_internal {

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
    // A float SOFTMAX (LiteRT's fast path) feeds the scheme's
    // activations: their step bounds what a masked weight may leak.
    const Precision asked = requested_[static_cast<size_t>(c)];
    if (asked == Precision::kInt8 ||
        (asked == Precision::kFloat && default_ == Precision::kInt8)) {
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
    // The sum needs the unmasked scores, x + hi, and one gap below them:
    // a masked score (x + lo <= x.min + hi - gap) saturates at the bottom
    // of the grid, still a gap below every unmasked one. Down to x.min +
    // lo the grid would be twice as coarse for the scores, to represent
    // masked values the softmax zeroes anyway.
    const calibration::Range sum{static_cast<float>(x.min + hi - gap),
                                 static_cast<float>(x.max + hi)};
    output_range_[{static_cast<int>(i), 0}] = sum;
    repaired_[out] = sum;
    op.notes.push_back(absl::StrCat(
        "mask '", T(mask).name, "' range [", Short(ms.min), ", ", Short(hi),
        "] clamped to [", Short(lo), ", ", Short(hi),
        "]: the SOFTMAX it feeds gives masked positions 0 either way"));
    op.mask_clamped = true;
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

}  // namespace qforge::quantizer::plan_internal
