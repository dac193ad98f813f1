// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/profile.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ir/clamp.h"
#include "runtime/profile_rules.h"

namespace qforge::runtime {
namespace {

using legality::Findings;
using legality::OpForm;
using legality::RuleFn;
using legality::TensorForm;
using legality::Violation;

struct KernelRow {
  bool present = false;  // the runtime has a kernel for the op
  uint8_t types = 0;     // kernel_types
  RuleFn rules = nullptr;
};

struct Rows {
  KernelRow tflm, armnn;
};

// The TFLM and ARMNN traits of every row (ir/ops.def).
const Rows kRows[] = {
#define XNN(fn) (void)0
#define XNN_NEVER(why) (void)0
#define TFLM(t) r.tflm.present = true, r.tflm.types = (t)
#define TFLM_RULES(fn) r.tflm.rules = &profile_rules::fn
#define ARMNN(t) r.armnn.present = true, r.armnn.types = (t)
#define ARMNN_RULES(fn) r.armnn.rules = &profile_rules::fn
#define CLAMP(lo, hi) (void)0
#define WEIGHTS(input, layout) (void)0
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, q, ver, batch, rules, \
              flags, ...)                                                   \
  [] {                                                                      \
    using namespace kernel_types; /* NOLINT: the traits' type names */      \
    Rows r;                                                                 \
    __VA_ARGS__;                                                            \
    return r;                                                               \
  }(),
#include "ir/ops.def"
#undef QF_OP
#undef XNN
#undef XNN_NEVER
#undef TFLM
#undef TFLM_RULES
#undef ARMNN
#undef ARMNN_RULES
#undef CLAMP
#undef WEIGHTS
    Rows{},  // kOtherBuiltin
    Rows{},  // kCustom
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == ir::kNumOpKinds);

const KernelRow& RowOf(Runtime runtime, ir::OpKind kind) {
  const Rows& r = kRows[static_cast<size_t>(kind)];
  return runtime == Runtime::kTflm ? r.tflm : r.armnn;
}

const char* Who(Runtime runtime) {
  return runtime == Runtime::kTflm ? "TFLite Micro" : "Arm NN 20.08";
}

uint8_t TypeBit(const TensorForm& t) {
  switch (t.type) {
    case ir::DataType::kInt8:
      return kernel_types::I8;
    case ir::DataType::kUInt8:
      return kernel_types::U8;
    case ir::DataType::kInt16:
      return kernel_types::I16;
    case ir::DataType::kFloat32:
      return kernel_types::F32;
    default:
      return 0;  // read by the op's rules, not its type list
  }
}

const char* TypeName(uint8_t bit) {
  switch (bit) {
    case kernel_types::I8:
      return "int8";
    case kernel_types::U8:
      return "uint8";
    case kernel_types::I16:
      return "int16";
    default:
      return "float32";
  }
}

// The activation types of `form` (outputs and non-constant inputs).
uint8_t ActivationTypes(const OpForm& form) {
  uint8_t bits = 0;
  for (const std::optional<TensorForm>& t : form.inputs) {
    if (t.has_value() && !t->constant) bits |= TypeBit(*t);
  }
  for (const TensorForm& t : form.outputs) bits |= TypeBit(t);
  return bits;
}

// Rules of a runtime over every op, whatever its row.
void CommonRules(Runtime runtime, Findings& f) {
  const OpForm& op = f.form();
  auto each = [&](auto&& fn) {
    for (const std::optional<TensorForm>& t : op.inputs) {
      if (t.has_value()) fn(*t);
    }
    for (const TensorForm& t : op.outputs) fn(t);
  };
  if (runtime == Runtime::kTflm) {
    each([&](const TensorForm& t) {
      if (t.type == ir::DataType::kFloat16) {
        f.Refused(absl::StrCat("float16 '", t.name,
                               "': TFLite Micro has no float16 kernels "
                               "(dequantize_common.cc)"));
      }
    });
    return;
  }
  each([&](const TensorForm& t) {
    if (t.type == ir::DataType::kFloat16 || t.type == ir::DataType::kInt4 ||
        t.type == ir::DataType::kBool ||
        (t.type == ir::DataType::kInt64 && t.quantized())) {
      f.Refused(absl::StrCat(ir::DataTypeName(t.type), " '", t.name,
                             "': Arm NN's parser has no such tensor type "
                             "(TfLiteParser.cpp ToTensorInfo)"));
    }
  });
  const ir::Activation act = ir::FusedActivationOf(op.options);
  if (act == ir::Activation::kReluN1To1 || act == ir::Activation::kSignBit) {
    f.Refused(
        "fused RELU_N1_TO_1 / SIGN_BIT: Arm NN's parser takes NONE, RELU, "
        "RELU6 and TANH (TfLiteParser.cpp AddFusedActivationLayer)");
  }
}

// The profile's rules over the form `f` holds: the op's kernel row (its
// activation types) and the rules the row names.
void ApplyProfileRules(Runtime runtime, Findings& f) {
  CommonRules(runtime, f);
  const OpForm& form = f.form();
  const KernelRow& row = RowOf(runtime, form.kind);
  if (!row.present) {
    f.Refused(absl::StrCat(Who(runtime), " has no ", form.op_name, " kernel"));
    return;
  }
  const uint8_t types = ActivationTypes(form);
  for (uint8_t bit : {kernel_types::F32, kernel_types::I8, kernel_types::U8,
                      kernel_types::I16}) {
    if ((types & bit) != 0 && (row.types & bit) == 0) {
      f.Refused(absl::StrCat(Who(runtime), "'s ", form.op_name,
                             " kernel has no ", TypeName(bit), " form"));
    }
  }
  if (row.rules != nullptr) row.rules(f);
}

}  // namespace

absl::StatusOr<Runtime> ParseRuntime(const std::string& text) {
  if (text == "litert") return Runtime::kLitert;
  if (text == "tflm") return Runtime::kTflm;
  if (text == "armnn") return Runtime::kArmnn;
  return absl::InvalidArgumentError(
      absl::StrCat("--runtime ", text, ": expected litert, tflm or armnn"));
}

const char* RuntimeName(Runtime runtime) {
  switch (runtime) {
    case Runtime::kLitert:
      return "litert";
    case Runtime::kTflm:
      return "tflm";
    case Runtime::kArmnn:
      return "armnn";
  }
  return "litert";
}

std::vector<std::string> PrecisionLadder(Runtime runtime) {
  switch (runtime) {
    case Runtime::kLitert:
      return {"int8", "float16", "float32"};
    case Runtime::kTflm:
      return {"int8", "int16"};
    case Runtime::kArmnn:
      return {"int8", "float32"};
  }
  return {};
}

bool RunsFloatOps(Runtime runtime) { return runtime != Runtime::kTflm; }

bool NeedsBias(Runtime runtime, ir::OpKind kind) {
  const ir::OpInfo& info = ir::GetOpInfo(kind);
  if (info.Has(ir::op_flags::kIntNeedsBias)) return true;
  return runtime == Runtime::kArmnn && info.weight_input >= 0 &&
         info.weight_layout != ir::WeightLayout::kTransposeConv;
}

bool HasKernel(Runtime runtime, ir::OpKind kind, ir::DataType activation) {
  if (runtime == Runtime::kLitert) return true;
  const KernelRow& row = RowOf(runtime, kind);
  TensorForm t;
  t.type = activation;
  return row.present && (row.types & TypeBit(t)) != 0;
}

bool TakesFloat16Weights(Runtime runtime) {
  return runtime == Runtime::kLitert;
}

std::vector<Violation> ProfileViolations(Runtime runtime, const OpForm& form) {
  if (runtime == Runtime::kLitert) return {};
  Findings f(form);
  ApplyProfileRules(runtime, f);
  std::vector<Violation> found = f.Take();
  // The profile's rules, not LiteRT's: messages name the runtime.
  for (Violation& v : found) v.runtime = Who(runtime);
  return found;
}

std::vector<Violation> CheckForm(Runtime runtime, const OpForm& form) {
  std::vector<Violation> found = legality::CheckForm(form);
  for (Violation& v : ProfileViolations(runtime, form)) {
    found.push_back(std::move(v));
  }
  return found;
}

std::vector<UnsupportedOp> FindUnsupportedOps(Runtime runtime,
                                              const ir::Model& model) {
  std::vector<UnsupportedOp> out;
  if (runtime == Runtime::kLitert || model.subgraphs.empty()) return out;
  if (runtime == Runtime::kArmnn && model.subgraphs.size() > 1) {
    out.push_back({-1, "",
                   absl::StrCat("the model has ", model.subgraphs.size(),
                                " subgraphs; Arm NN's parser reads one "
                                "(TfLiteParser.cpp)")});
  }
  const ir::Subgraph& sg = model.subgraphs[0];
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    const OpForm form = legality::FormOf(model, sg, op);
    for (Violation& v : ProfileViolations(runtime, form)) {
      out.push_back({static_cast<int>(i), op.DisplayName(), std::move(v.rule)});
    }
  }
  return out;
}

std::vector<std::string> UnsupportedOps(Runtime runtime,
                                        const ir::Model& model) {
  std::vector<std::string> out;
  for (const UnsupportedOp& u : FindUnsupportedOps(runtime, model)) {
    out.push_back(u.op_index < 0 ? u.reason
                                 : absl::StrCat("op ", u.op_index, " ", u.op,
                                                ": ", u.reason));
  }
  return out;
}

}  // namespace qforge::runtime
