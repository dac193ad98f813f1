// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernel table, assembled from every family's .def file.
#include <array>

#include "runtime/kernel.h"
#include "runtime/kernels/families.h"

namespace qforge::runtime {
namespace {

struct Row {
  ir::OpKind kind;
  KernelDef def;
};

#define QF_FLOAT_KERNEL(kind, prepare, eval) \
  {ir::OpKind::k##kind, {&prepare, &eval}},
const Row kRows[] = {
#include "runtime/kernels/control_flow.def"
#include "runtime/kernels/conv.def"
#include "runtime/kernels/elementwise.def"
#include "runtime/kernels/reduce.def"
#include "runtime/kernels/sequence.def"
#include "runtime/kernels/shape_ops.def"
#include "runtime/kernels/spectral.def"
    {ir::OpKind::kCustom, {}},  // sentinel: custom ops have no kernel
};
#undef QF_FLOAT_KERNEL
#undef QF_INT_KERNEL
#undef QF_HYBRID_KERNEL

// Integer kernels (int8 / int16x8 / uint8 activations) and hybrid kernels
// (float activations, int8 weights: dynamic-range models).
#define QF_FLOAT_KERNEL(kind, prepare, eval)
#define QF_INT_KERNEL(kind, prepare, eval) \
  {ir::OpKind::k##kind, {&prepare, &eval}},
#define QF_HYBRID_KERNEL(kind, prepare, eval)
const Row kIntRows[] = {
#include "runtime/kernels/integer.def"
    {ir::OpKind::kCustom, {}},
};
#undef QF_INT_KERNEL
#define QF_INT_KERNEL(kind, prepare, eval)
#undef QF_HYBRID_KERNEL
#define QF_HYBRID_KERNEL(kind, prepare, eval) \
  {ir::OpKind::k##kind, {&prepare, &eval}},
const Row kHybridRows[] = {
#include "runtime/kernels/integer.def"
    {ir::OpKind::kCustom, {}},
};
#undef QF_FLOAT_KERNEL
#undef QF_INT_KERNEL
#undef QF_HYBRID_KERNEL

constexpr size_t kNumKinds = static_cast<size_t>(ir::OpKind::kCustom) + 1;

using Table = std::array<const KernelDef*, kNumKinds>;

template <size_t N>
Table MakeTable(const Row (&rows)[N]) {
  Table t{};
  for (const Row& row : rows) {
    if (row.def.eval != nullptr) t[static_cast<size_t>(row.kind)] = &row.def;
  }
  return t;
}

}  // namespace

const KernelDef* FindFloatKernel(ir::OpKind kind) {
  static const Table table = MakeTable(kRows);
  return table[static_cast<size_t>(kind)];
}

const KernelDef* FindIntegerKernel(ir::OpKind kind) {
  static const Table table = MakeTable(kIntRows);
  return table[static_cast<size_t>(kind)];
}

const KernelDef* FindHybridKernel(ir::OpKind kind) {
  static const Table table = MakeTable(kHybridRows);
  return table[static_cast<size_t>(kind)];
}

// Custom ops TFLite ships with its builtin kernels, by custom code.
struct CustomRow {
  const char* code;
  KernelDef def;
};
#define QF_CUSTOM_KERNEL(code, prepare, eval) {code, {&prepare, &eval}},
const CustomRow kCustomRows[] = {
#include "runtime/kernels/custom.def"
};
#undef QF_CUSTOM_KERNEL

const KernelDef* FindCustomKernel(absl::string_view custom_code) {
  for (const CustomRow& row : kCustomRows) {
    if (custom_code == row.code) return &row.def;
  }
  return nullptr;
}

// For the registry test: how many rows name each kind.
std::array<int, kNumKinds> KernelRowCounts() {
  std::array<int, kNumKinds> counts{};
  for (const Row& row : kRows) {
    if (row.def.eval != nullptr) ++counts[static_cast<size_t>(row.kind)];
  }
  return counts;
}

}  // namespace qforge::runtime
