// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Semantic checks of a model: what the FlatBuffers verifier cannot see.
// Run by the reader on every file and after every graph rewrite. The first
// broken rule is returned as InvalidArgument with a one-line message naming
// the subgraph, op (index and name) or tensor (index and name) and the rule.
#ifndef QFORGE_IR_VALIDATE_H_
#define QFORGE_IR_VALIDATE_H_

#include "absl/status/status.h"
#include "ir/model.h"

namespace qforge::ir {

absl::Status ValidateModel(const Model& model);

}  // namespace qforge::ir

#endif  // QFORGE_IR_VALIDATE_H_
