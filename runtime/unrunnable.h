// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The part of a graph qforge cannot run: ops without a kernel (another
// vendor's custom op, a builtin qforge lacks), and every op downstream of
// one. Calibration runs the rest (InterpreterOptions::skip_unrunnable), so
// a model is not lost to quantization because of one op near its end.
#ifndef QFORGE_RUNTIME_UNRUNNABLE_H_
#define QFORGE_RUNTIME_UNRUNNABLE_H_

#include <string>
#include <vector>

#include "ir/model.h"

namespace qforge::runtime {

struct SkippedOp {
  int op_index = 0;
  std::string op_name;  // DisplayName(): "CONV_2D" or the custom code
  // The op without a kernel this one depends on (itself for such an op;
  // the first in op order when several feed it).
  int root = 0;
  std::string root_name;
};

// Ops of `subgraph` that cannot run, in op order: those without a kernel,
// those that call a subgraph holding one (WHILE, IF, ...), and those that
// read a tensor any of these produce. Empty when the whole subgraph runs.
std::vector<SkippedOp> UnrunnableOps(const ir::Model& model, int subgraph);

// Subgraphs an op runs (control flow bodies, composite decompositions).
std::vector<int> CalledSubgraphs(const ir::Operator& op);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_UNRUNNABLE_H_
