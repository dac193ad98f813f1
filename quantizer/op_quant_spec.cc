// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/op_quant_spec.h"

#include <algorithm>

#include "quantizer/op_version.h"

namespace qforge::quantizer {
namespace {

struct Row {
  std::optional<OpQuantSpec> spec;
  const char* kernel_only = nullptr;  // why an integer kernel has no spec
  std::optional<HybridSpec> hybrid;
  int (*version)(const ir::Subgraph&, const ir::Operator&, OpForm) = nullptr;
};

OpQuantSpec Spec(OutputRule output, std::initializer_list<Role> roles,
                 int weight_axis, int v8, int v16) {
  OpQuantSpec s;
  s.int8 = true;
  s.int16 = v16 > 0;
  s.version_int8 = v8;
  s.version_int16 = v16;
  s.num_roles = 0;
  for (Role r : roles) s.roles[s.num_roles++] = r;
  s.output = output;
  s.weight_axis = weight_axis;
  return s;
}

// Fixed output ranges of the TFLite spec: LOGISTIC and SOFTMAX [0, 1) as
// 1/256 with zero point -128 (int8) or 1/32768, 0 (int16); TANH [-1, 1) as
// 1/128, 0 (int8) or 1/32768, 0 (int16).
OpQuantSpec Fixed(float scale8, int zp8, float scale16, int v8, int v16) {
  OpQuantSpec s = Spec(OutputRule::kFixed, {Role::kActivation}, -1, v8, v16);
  s.fixed_int8 = {scale8, zp8};
  s.fixed_int16 = {scale16, 0};
  return s;
}

// Names of the QUANT column.
constexpr Role Act = Role::kActivation;
constexpr Role Weight = Role::kWeight;
constexpr Role Bias = Role::kBias;
constexpr Role NotReal = Role::kNotReal;
constexpr OutputRule Own = OutputRule::kOwnRange;
constexpr OutputRule Same = OutputRule::kSameAsInput;
constexpr OutputRule Shared = OutputRule::kSharedInputs;

#define ROLES(...) \
  { __VA_ARGS__ }
#define Q(output, roles, axis, v8, v16) \
  Spec(output, roles, axis, v8, v16), nullptr
#define Q_FIXED(s8, zp8, s16, v8, v16) Fixed(s8, zp8, s16, v8, v16), nullptr
#define KERNEL_ONLY(reason) std::nullopt, reason
#define NO_Q std::nullopt, nullptr
#define HK(prepare, eval, weight, axis, v_tensor, v_channel) \
  HybridSpec { weight, axis, v_tensor, v_channel }
#define NO_HK std::nullopt
#define VER(fn) &fn
#define NO_VER nullptr
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, q, ver, ...) \
  Row{q, hk, ver},
const Row kRows[] = {
#include "ir/ops.def"
    Row{},  // kOtherBuiltin
    Row{},  // kCustom
};
#undef QF_OP
#undef ROLES
#undef Q
#undef Q_FIXED
#undef NO_Q
#undef KERNEL_ONLY
#undef HK
#undef NO_HK
#undef VER
#undef NO_VER

const Row& RowOf(ir::OpKind kind) {
  static_assert(sizeof(kRows) / sizeof(kRows[0]) == ir::kNumOpKinds);
  return kRows[static_cast<size_t>(kind)];
}

}  // namespace

std::optional<OpQuantSpec> GetOpQuantSpec(ir::OpKind kind) {
  return RowOf(kind).spec;
}

std::optional<HybridSpec> GetHybridSpec(ir::OpKind kind) {
  return RowOf(kind).hybrid;
}

std::string NoIntegerFormReason(ir::OpKind kind) {
  if (const char* why = RowOf(kind).kernel_only) {
    return std::string(
               "qforge runs its integer form but does not quantize "
               "it: ") +
           why;
  }
  return "no integer form in qforge";
}

int OptionVersion(const ir::Subgraph& sg, const ir::Operator& op, OpForm form) {
  const Row& row = RowOf(op.kind);
  return row.version != nullptr ? row.version(sg, op, form) : 1;
}

bool WeightsPerTensor(ir::OpKind kind, bool fc_per_tensor) {
  return fc_per_tensor && kind == ir::OpKind::kFullyConnected;
}

}  // namespace qforge::quantizer
