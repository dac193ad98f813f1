// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernel columns of the op table (ir/ops.def), indexed by ir::OpKind,
// and the custom-op kernels by custom code (runtime/kernels/custom/custom.def).
#include <array>

#include "runtime/kernel.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct Row {
  KernelDef float_kernel;
  bool float_any_type;
  KernelDef int_kernel;
  KernelDef hybrid_kernel;
};

#define FK(prepare, eval) {&prepare, &eval}, false
#define FK_ANY(prepare, eval) {&prepare, &eval}, true
#define NO_FK {}, false
#define IK(prepare, eval) \
  { &prepare, &eval }
#define NO_IK \
  {}
#define HK(prepare, eval, weight, axis, v_tensor, v_channel) \
  { &prepare, &eval }
#define NO_HK \
  {}
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, ...) {fk, ik, hk},
const Row kRows[] = {
#include "ir/ops.def"
    {{}, false, {}, {}},  // kOtherBuiltin
    {{}, false, {}, {}},  // kCustom: by custom code, below
};
#undef QF_OP
#undef FK
#undef FK_ANY
#undef NO_FK
#undef IK
#undef NO_IK
#undef HK
#undef NO_HK
static_assert(sizeof(kRows) / sizeof(kRows[0]) == ir::kNumOpKinds);

const KernelDef* OrNull(const KernelDef& k) {
  return k.eval != nullptr ? &k : nullptr;
}

const Row& RowOf(ir::OpKind kind) { return kRows[static_cast<size_t>(kind)]; }

}  // namespace

const KernelDef* FindFloatKernel(ir::OpKind kind) {
  return OrNull(RowOf(kind).float_kernel);
}

bool FloatKernelTakesAnyType(ir::OpKind kind) {
  return RowOf(kind).float_any_type;
}

const KernelDef* FindIntegerKernel(ir::OpKind kind) {
  return OrNull(RowOf(kind).int_kernel);
}

const KernelDef* FindHybridKernel(ir::OpKind kind) {
  return OrNull(RowOf(kind).hybrid_kernel);
}

// Custom ops TFLite ships with its builtin kernels, by custom code.
struct CustomRow {
  const char* code;
  KernelDef def;
};
#define QF_CUSTOM_KERNEL(code, prepare, eval) {code, {&prepare, &eval}},
const CustomRow kCustomRows[] = {
#include "runtime/kernels/custom/custom.def"
};
#undef QF_CUSTOM_KERNEL

const KernelDef* FindCustomKernel(absl::string_view custom_code) {
  for (const CustomRow& row : kCustomRows) {
    if (custom_code == row.code) return &row.def;
  }
  return nullptr;
}

std::vector<std::string> CustomKernelCodes() {
  std::vector<std::string> codes;
  for (const CustomRow& row : kCustomRows) codes.emplace_back(row.code);
  return codes;
}

}  // namespace qforge::runtime
