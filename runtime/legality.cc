// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/legality.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "ir/clamp.h"
#include "runtime/legality_rules.h"

namespace qforge::runtime::legality {
namespace {

#define RULES(fn) &fn
#define NO_RULES nullptr
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, q, ver, batch, rules, \
              ...)                                                          \
  rules,
const RuleFn kRules[] = {
#include "ir/ops.def"
    nullptr,  // kOtherBuiltin
    nullptr,  // kCustom
};
#undef QF_OP
#undef RULES
#undef NO_RULES
static_assert(sizeof(kRules) / sizeof(kRules[0]) == ir::kNumOpKinds);

bool IsIntegerType(ir::DataType t) {
  return t == ir::DataType::kInt8 || t == ir::DataType::kUInt8 ||
         t == ir::DataType::kInt16;
}

// The parameter rules of every quantized tensor. Activations (non-constant
// tensors) are checked at partition or prepare time: XNNPACK's
// GetXNNPackDatatype / CheckAffineQuantization (xnnpack_delegate.cc) reject
// a scale that is not a normal positive float or a zero point outside the
// type, which fails the whole model once the delegate took the node, and
// TFLite's int16 kernels require zero points 0 (TF_LITE_ENSURE_EQ in each
// Prepare). Constants (weights, biases) with such scales make the delegate
// leave the node to TFLite, whose arithmetic then runs on them: garbage.
void TensorRules(Findings& f, const TensorForm& t) {
  if (!t.quantized() || !IsIntegerType(t.type)) return;
  const bool activation = !t.constant;
  for (float s : t.scales) {
    if (!IsNormalScale(s)) {
      const std::string rule =
          absl::StrCat("scale ", Num(s), " of '", t.name,
                       "' is not a normal positive float (XNNPACK "
                       "CheckAffineQuantization, TFLite QuantizeMultiplier)");
      activation ? f.Refused(rule) : f.Unreliable(rule);
      break;
    }
  }
  if (activation && t.scales.size() != 1) {
    f.Refused(absl::StrCat("activation '", t.name, "' has ", t.scales.size(),
                           " scales; LiteRT quantizes activations per tensor"));
  }
  const int64_t lo = t.type == ir::DataType::kUInt8  ? 0
                     : t.type == ir::DataType::kInt8 ? -128
                                                     : -32768;
  const int64_t hi = t.type == ir::DataType::kUInt8  ? 255
                     : t.type == ir::DataType::kInt8 ? 127
                                                     : 32767;
  for (int64_t z : t.zero_points) {
    if (z < lo || z > hi) {
      f.Refused(absl::StrCat("zero point ", z, " of '", t.name, "' is outside ",
                             ir::DataTypeName(t.type)));
      break;
    }
  }
}

// int16 activations are symmetric: every int16 kernel that rescales checks
// zero points 0 in Prepare (conv.cc, fully_connected.cc, add.cc, sub.cc,
// activations.cc, ..., TF_LITE_ENSURE_EQ(zero_point, 0)). QUANTIZE is the
// exception: int16 -> int8 takes any zero points (quantize.cc).
void Int16ZeroPointRule(Findings& f, const TensorForm& t) {
  if (t.constant || !t.quantized() || t.type != ir::DataType::kInt16) return;
  if (t.zero_point() != 0) {
    f.Refused(absl::StrCat("int16 activation '", t.name, "' has zero point ",
                           t.zero_point(),
                           "; TFLite's int16 kernels require 0"));
  }
}

}  // namespace

bool IsNormalScale(float s) { return std::isnormal(s) && s > 0.0f; }

int MultiplierShift(double m) {
  int shift = 0;
  std::frexp(m, &shift);
  return shift;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

bool IsInt16(const TensorForm& t) {
  return t.quantized() && t.type == ir::DataType::kInt16;
}

bool ActivationBoundsFit(ir::Activation act, float output_scale) {
  const std::optional<ir::ClampRange> clamp = ir::FusedActivationClamp(act);
  if (!clamp.has_value()) return true;  // TANH, SIGN_BIT: no bounds
  // TFLite: TfLiteRound(f / scale) in float, then a range check against
  // (float)INT32_MIN / (float)INT32_MAX, which is 2^31. An unbounded side
  // has no such value; a bound of 0 is the zero point, which always fits.
  constexpr float kLimit = 2147483648.0f;
  for (float v : {clamp->lo, clamp->hi}) {
    if (std::isinf(v) || v == 0.0f) continue;
    const float q = std::round(v / output_scale);
    if (!(q >= -kLimit && q <= kLimit)) return false;
  }
  return true;
}

void ActivationBoundsRule(Findings& f, ir::Activation act, float output_scale) {
  if (ActivationBoundsFit(act, output_scale)) return;
  f.Refused(
      absl::StrCat("the fused activation's bounds divided by the output scale ",
                   Num(output_scale),
                   " leave int32 (TFLite CalculateActivationRangeQuantized)"));
}

Binary IntegerBinary(const OpForm& op) {
  const TensorForm* a = op.in(0);
  const TensorForm* b = op.in(1);
  const TensorForm* out = op.out(0);
  if (a == nullptr || b == nullptr || out == nullptr || !a->integer() ||
      !b->integer() || !out->integer()) {
    return {};
  }
  return {a, b, out};
}

void Findings::Refused(std::string rule) {
  found_.push_back(
      {Severity::kRefused, absl::StrCat(form_.op_name, ": ", rule)});
}

void Findings::Unreliable(std::string rule) {
  found_.push_back(
      {Severity::kUnreliable, absl::StrCat(form_.op_name, ": ", rule)});
}

std::string Describe(const Violation& v) {
  return absl::StrCat(v.runtime,
                      v.severity == Severity::kRefused
                          ? " refuses this form: "
                          : " computes garbage for this form: ",
                      v.rule);
}

std::vector<Violation> CheckForm(const OpForm& form) {
  bool quantized = false;
  for (const std::optional<TensorForm>& t : form.inputs) {
    quantized |= t.has_value() && t->integer();
  }
  for (const TensorForm& t : form.outputs) quantized |= t.integer();
  if (!quantized) return {};
  Findings f(form);
  const RuleFn rules = kRules[static_cast<size_t>(form.kind)];
  // Ops with rules are the ones qforge knows LiteRT's int16 forms of; the
  // others (LSTM, SVDF, custom ops) carry int16 tensors of other kinds, and
  // a converter's other side may be of any scheme (QuantizeRules).
  const bool int16_zero_points =
      rules != nullptr &&
      !ir::GetOpInfo(form.kind).Has(ir::op_flags::kConverter);
  for (const std::optional<TensorForm>& t : form.inputs) {
    if (!t.has_value()) continue;
    TensorRules(f, *t);
    if (int16_zero_points) Int16ZeroPointRule(f, *t);
  }
  // An int16 output of an int8 op (SOFTMAX int8 -> int16, as TFLite Micro
  // writes it with zero point -32768) is not an int16x8 form: TFLite's
  // SoftmaxPrepare takes its zero point as given.
  bool int16_inputs = false;
  for (const std::optional<TensorForm>& t : form.inputs) {
    int16_inputs |= t.has_value() && !t->constant && IsInt16(*t);
  }
  for (const TensorForm& t : form.outputs) {
    TensorRules(f, t);
    if (int16_zero_points && int16_inputs) Int16ZeroPointRule(f, t);
  }
  if (rules != nullptr) rules(f);
  return f.Take();
}

OpForm FormOf(const ir::Model& model, const ir::Subgraph& sg,
              const ir::Operator& op) {
  OpForm form;
  form.kind = op.kind;
  form.op_name = op.DisplayName();
  form.options = op.options;
  const auto valid = [&](int32_t i) {
    return i >= 0 && static_cast<size_t>(i) < sg.tensors.size();
  };
  // Only quantized forms have rules that read constant values (biases); a
  // float op's int32 constants (shapes, indices) are not copied.
  bool quantized = false;
  for (const std::vector<int32_t>* list : {&op.inputs, &op.outputs}) {
    for (int32_t i : *list) {
      if (!valid(i)) continue;
      const ir::Tensor& src = sg.tensors[static_cast<size_t>(i)];
      quantized |= src.quantization.has_value() && src.quantization->HasScale();
    }
  }
  auto tensor = [&](int32_t index) {
    TensorForm t;
    const ir::Tensor& src = sg.tensors[static_cast<size_t>(index)];
    t.type = src.type;
    t.name = src.name.empty() ? absl::StrCat("#", index) : src.name;
    t.shape = src.shape;
    t.constant = !src.is_variable && src.buffer != 0 &&
                 src.buffer < model.buffers.size() &&
                 !model.buffers[src.buffer].data.empty();
    if (quantized && t.constant &&
        (src.type == ir::DataType::kInt32 ||
         src.type == ir::DataType::kInt64)) {
      const ir::Bytes& bytes = model.buffers[src.buffer].data;
      const size_t width = src.type == ir::DataType::kInt32 ? 4 : 8;
      constexpr size_t kMaxValues = 1 << 20;
      for (size_t i = 0; i + width <= bytes.size() && i / width < kMaxValues;
           i += width) {
        if (width == 4) {
          int32_t v;
          std::memcpy(&v, bytes.data() + i, 4);
          t.int_data.push_back(v);
        } else {
          int64_t v;
          std::memcpy(&v, bytes.data() + i, 8);
          t.int_data.push_back(v);
        }
      }
    }
    if (src.quantization.has_value() && src.quantization->HasScale()) {
      t.scales = src.quantization->scale;
      t.zero_points = src.quantization->zero_point;
      t.axis = src.quantization->quantized_dimension;
    }
    return t;
  };
  for (int32_t i : op.inputs) {
    form.inputs.push_back(valid(i) ? std::optional<TensorForm>(tensor(i))
                                   : std::nullopt);
  }
  for (int32_t o : op.outputs) {
    if (valid(o)) form.outputs.push_back(tensor(o));
  }
  // ADD, SUB, MUL: TFLite's Prepare gives the output the inputs' type, so
  // a float32 output with quantization parameters is computed as integer.
  if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kOutputTypeFromInputs) &&
      form.in(0) != nullptr && form.in(0)->integer()) {
    for (TensorForm& t : form.outputs) {
      if (t.type == ir::DataType::kFloat32 && t.quantized()) {
        t.type = form.in(0)->type;
      }
    }
  }
  return form;
}

}  // namespace qforge::runtime::legality
