// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The runtime's rules for quantized op forms: what LiteRT (TFLite's builtin
// kernels plus its XNNPACK delegate) refuses to load, aborts on, or runs
// into garbage (int32 wrap-around, unclamped bounds). The quantizer checks
// every form it plans against them and never writes one that breaks a rule;
// the interpreter checks every quantized op before it runs, so `qforge run`
// and `qforge report` refuse what LiteRT would not run faithfully.
//
// Rules are per op, named by the RULES column of the op table
// (ir/ops.def), and cite the TFLite / XNNPACK source they come from. Scale
// arithmetic follows those sources exactly: float where they compute in
// float (a product that overflows float is an abort there), double where
// they use double. docs/legality.md lists every rule.
#ifndef QFORGE_RUNTIME_LEGALITY_H_
#define QFORGE_RUNTIME_LEGALITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.h"

namespace qforge::runtime::legality {

// One tensor of an op form: its type, quantization parameters and shape.
struct TensorForm {
  ir::DataType type = ir::DataType::kFloat32;
  std::vector<float> scales;  // empty: not quantized
  std::vector<int64_t> zero_points;
  int32_t axis = 0;            // quantized_dimension of per-channel tensors
  std::vector<int32_t> shape;  // static shape; may be empty when unknown
  bool constant = false;
  std::string name;
  // The values of a constant int32 / int64 tensor (biases), for rules that
  // bound accumulators; empty otherwise.
  std::vector<int64_t> int_data;

  bool quantized() const { return !scales.empty(); }
  bool integer() const {
    return quantized() &&
           (type == ir::DataType::kInt8 || type == ir::DataType::kUInt8 ||
            type == ir::DataType::kInt16);
  }
  float scale() const { return scales.empty() ? 0.0f : scales[0]; }
  int64_t zero_point() const {
    return zero_points.empty() ? 0 : zero_points[0];
  }
};

// An op in one quantized form.
struct OpForm {
  ir::OpKind kind = ir::OpKind::kOtherBuiltin;
  std::string op_name;  // "ADD", or the custom code
  ir::Options options;
  std::vector<std::optional<TensorForm>> inputs;  // nullopt: absent input
  std::vector<TensorForm> outputs;

  // Input i, or nullptr when absent.
  const TensorForm* in(size_t i) const {
    return i < inputs.size() && inputs[i].has_value() ? &*inputs[i] : nullptr;
  }
  const TensorForm* out(size_t i) const {
    return i < outputs.size() ? &outputs[i] : nullptr;
  }
};

enum class Severity : uint8_t {
  kRefused,     // LiteRT fails to load it, aborts, or fails to run it
  kUnreliable,  // LiteRT runs it, but what it computes is not the op
};

struct Violation {
  Severity severity = Severity::kRefused;
  std::string rule;  // one line: the quantities, the limit, the source
  // Whose rule it is: LiteRT's, or a runtime profile's (runtime/profile.h),
  // so that a message names the runtime that refuses the form.
  std::string runtime = "LiteRT";
};

// The rules `form` breaks: the rules every quantized op shares (normal
// scales, zero points in range) and the op's own (the RULES column). Empty
// for a form LiteRT runs faithfully, and for float forms.
std::vector<Violation> CheckForm(const OpForm& form);

// The form of `op` as written in a model: every tensor's type and
// quantization parameters; constants are tensors with data.
OpForm FormOf(const ir::Model& model, const ir::Subgraph& sg,
              const ir::Operator& op);

// "LiteRT refuses this form: ..." / "... computes garbage for this form:
// ...", naming the violation's runtime, for messages.
std::string Describe(const Violation& v);

// Collects the violations of one op form; the rule functions of the RULES
// column write into it.
class Findings {
 public:
  explicit Findings(const OpForm& form) : form_(form) {}
  const OpForm& form() const { return form_; }
  // LiteRT refuses / aborts: `rule` says which check and where it lives.
  void Refused(std::string rule);
  // LiteRT runs it but computes garbage.
  void Unreliable(std::string rule);
  std::vector<Violation> Take() { return std::move(found_); }

 private:
  const OpForm& form_;
  std::vector<Violation> found_;
};

using RuleFn = void (*)(Findings&);

}  // namespace qforge::runtime::legality

#endif  // QFORGE_RUNTIME_LEGALITY_H_
