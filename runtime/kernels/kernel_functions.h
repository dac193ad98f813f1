// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Declares every kernel function the op table names: the prepare and eval
// functions of the FK / FK_ANY / IK / HK columns of ir/ops.def and of
// runtime/kernels/custom/custom.def, each `absl::Status fn(OpContext& ctx)`.
// The table is the one list of them, so adding an op needs no declaration
// elsewhere; what each kernel computes is said in its family header and
// its .cc file. (A function several rows name is declared once per row;
// C++ allows the repeats.)
#ifndef QFORGE_RUNTIME_KERNELS_KERNEL_FUNCTIONS_H_
#define QFORGE_RUNTIME_KERNELS_KERNEL_FUNCTIONS_H_

#include "absl/status/status.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

#define QF_DECLARE_KERNEL(prepare, eval) \
  absl::Status prepare(OpContext& ctx);  \
  absl::Status eval(OpContext& ctx);
#define FK(prepare, eval) QF_DECLARE_KERNEL(prepare, eval)
#define FK_ANY(prepare, eval) QF_DECLARE_KERNEL(prepare, eval)
#define NO_FK
#define IK(prepare, eval) QF_DECLARE_KERNEL(prepare, eval)
#define NO_IK
#define HK(prepare, eval, weight, axis, v_tensor, v_channel) \
  QF_DECLARE_KERNEL(prepare, eval)
#define NO_HK
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, ...) fk ik hk
#include "ir/ops.def"
#undef QF_OP
#define QF_CUSTOM_KERNEL(code, prepare, eval) QF_DECLARE_KERNEL(prepare, eval)
#include "runtime/kernels/custom/custom.def"
#undef QF_CUSTOM_KERNEL
#undef FK
#undef FK_ANY
#undef NO_FK
#undef IK
#undef NO_IK
#undef HK
#undef NO_HK
#undef QF_DECLARE_KERNEL

// Defines kernel function `fn` as `expr`, a call of the family's function
// shared by several ops with this op's parameters:
//   QF_KERNEL_AS(PrepareSum, PrepareReduce(ctx, ReduceKind::kSum))
//   QF_KERNEL_AS(EvalSum, EvalReduce<ReduceKind::kSum>(ctx))
#define QF_KERNEL_AS(fn, ...) \
  absl::Status fn(OpContext& ctx) { return __VA_ARGS__; }

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_KERNEL_FUNCTIONS_H_
