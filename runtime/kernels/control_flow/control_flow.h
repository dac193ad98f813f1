// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: control_flow (named by the op table, ir/ops.def; the
// functions are declared from it, kernel_functions.h).
//   subgraph.cc:   run other subgraphs through OpContext::InvokeSubgraph:
//                  WHILE (while cond(vars) { vars = body(vars) }; outputs =
//                  vars), IF (outputs = (input 0 ? then : else)(inputs
//                  1..)), CALL_ONCE (runs the init subgraph the first time
//                  it is reached in a run), STABLEHLO_COMPOSITE (outputs =
//                  decomposition subgraph(inputs))
//   variables.cc:  VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE; a resource
//                  tensor holds one int32 resource id per element, as in
//                  TFLite
//
// Resource variables live in the interpreter's per-run resource map
// (OpContext::Resource), so every Run starts without variables and
// CALL_ONCE initializes them again: a run is one sample. (TFLite keeps
// variables, and runs CALL_ONCE's subgraph once, per interpreter.)
#ifndef QFORGE_RUNTIME_KERNELS_CONTROL_FLOW_CONTROL_FLOW_H_
#define QFORGE_RUNTIME_KERNELS_CONTROL_FLOW_CONTROL_FLOW_H_

#include <cstdint>
#include <optional>

#include "runtime/kernel.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {

// The decomposition subgraph a STABLEHLO_COMPOSITE op names in its
// builtin_options_2; nullopt when the table is absent or malformed.
std::optional<int32_t> CompositeDecompositionSubgraph(const ir::Operator& op);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CONTROL_FLOW_CONTROL_FLOW_H_
