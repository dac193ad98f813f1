// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Drops tensors of a subgraph that no op, subgraph input/output, signature
// or variable refers to, and renumbers the rest (order kept). Rewrites leave
// such orphans behind (a float weight replaced by its int8 twin).
#ifndef QFORGE_IR_COMPACT_H_
#define QFORGE_IR_COMPACT_H_

#include "ir/model.h"

namespace qforge::ir {

void CompactTensors(Model& model);

}  // namespace qforge::ir

#endif  // QFORGE_IR_COMPACT_H_
