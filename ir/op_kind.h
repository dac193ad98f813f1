// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// OpKind: the ops of ir/ops.def, plus kOtherBuiltin (a builtin op the project
// carries but does not know) and kCustom. Switch over it without `default`:
// the build (-Werror=switch) then lists every place a new row is missing.
#ifndef QFORGE_IR_OP_KIND_H_
#define QFORGE_IR_OP_KIND_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace qforge::ir {

enum class OpKind : uint16_t {
#define QF_OP(kind, name, code, min_in, max_in, min_out, max_out, opts) k##kind,
#include "ir/ops.def"
#undef QF_OP
  kOtherBuiltin,
  kCustom,
};

struct OpInfo {
  OpKind kind;
  absl::string_view name;  // TFLite's builtin name, e.g. "CONV_2D"
  int32_t builtin_code;    // -1 for kOtherBuiltin / kCustom
  int min_inputs, max_inputs, min_outputs, max_outputs;  // -1: unbounded
};

// The row of `kind`.
const OpInfo& GetOpInfo(OpKind kind);

// The kind of a builtin code; kOtherBuiltin when the project does not know it.
OpKind OpKindFromBuiltinCode(int32_t builtin_code);

// TFLite's builtin code of CUSTOM.
inline constexpr int32_t kBuiltinCustom = 32;

}  // namespace qforge::ir

#endif  // QFORGE_IR_OP_KIND_H_
