// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: control_flow (named by the op table, ir/ops.def).
//   control_flow_subgraph.cc:  WHILE, IF, CALL_ONCE, STABLEHLO_COMPOSITE (run
//                              other subgraphs through
//                              OpContext::InvokeSubgraph)
//   control_flow_variables.cc: VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE
//
// Resource variables live in the interpreter's per-run resource map
// (OpContext::Resource), so every Run starts without variables and
// CALL_ONCE initializes them again: a run is one sample. (TFLite keeps
// variables, and runs CALL_ONCE's subgraph once, per interpreter.)
#ifndef QFORGE_RUNTIME_KERNELS_CONTROL_FLOW_H_
#define QFORGE_RUNTIME_KERNELS_CONTROL_FLOW_H_

#include <cstdint>
#include <optional>

#include "runtime/kernel.h"

namespace qforge::runtime {

// Loop: while cond(vars) { vars = body(vars) }; outputs = vars.
absl::Status PrepareWhile(OpContext& ctx);
absl::Status EvalWhile(OpContext& ctx);
// outputs = (input 0 ? then : else)(inputs 1..).
absl::Status PrepareIf(OpContext& ctx);
absl::Status EvalIf(OpContext& ctx);
// Runs the init subgraph the first time it is reached in a run.
absl::Status PrepareCallOnce(OpContext& ctx);
absl::Status EvalCallOnce(OpContext& ctx);
// outputs = decomposition subgraph(inputs).
absl::Status PrepareStablehloComposite(OpContext& ctx);
absl::Status EvalStablehloComposite(OpContext& ctx);
// The decomposition subgraph a STABLEHLO_COMPOSITE op names in its
// builtin_options_2; nullopt when the table is absent or malformed.
std::optional<int32_t> CompositeDecompositionSubgraph(const ir::Operator& op);

// A resource tensor holds one int32 resource id per element, as in TFLite.
absl::Status PrepareVarHandle(OpContext& ctx);
absl::Status EvalVarHandle(OpContext& ctx);
absl::Status PrepareReadVariable(OpContext& ctx);
absl::Status EvalReadVariable(OpContext& ctx);
absl::Status PrepareAssignVariable(OpContext& ctx);
absl::Status EvalAssignVariable(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CONTROL_FLOW_H_
