// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Cuts a run of consecutive ops out of subgraph 0 into a model of its own:
// the tensors the ops read but neither hold as constants nor compute become
// its inputs, the tensors they compute that the rest of the graph (or the
// model's outputs) uses become its outputs. Used to look at one layer alone:
// feed it the values another runtime computed upstream and compare.
#ifndef QFORGE_IR_EXTRACT_H_
#define QFORGE_IR_EXTRACT_H_

#include "absl/status/statusor.h"
#include "ir/model.h"

namespace qforge::ir {

// Ops [first, last] of subgraph 0 (execution order). Other subgraphs (called
// by control-flow ops) are kept; signatures are dropped, since they name
// tensors of the whole graph.
absl::StatusOr<Model> ExtractOps(const Model& model, int32_t first,
                                 int32_t last);

}  // namespace qforge::ir

#endif  // QFORGE_IR_EXTRACT_H_
