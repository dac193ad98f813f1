// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Batch splitting: a batched run of a model whose samples never interact
// is computed one sample at a time (each sample's activations stay in the
// core's cache instead of streaming the whole batch through memory layer
// after layer), and with several threads, different samples run on
// different cores.
//
// A subgraph qualifies when it declares batch 1 (dim 0 of every activation
// is 1) and every op is in the per-sample table below with its conditions
// met: then sample b of a batch-B run is exactly the batch-1 run of sample
// b, bit for bit, because the kernels compute every output element the
// same way whatever the batch size.
#ifndef QFORGE_RUNTIME_INTERPRETER_BATCH_H_
#define QFORGE_RUNTIME_INTERPRETER_BATCH_H_

#include "ir/model.h"

namespace qforge::runtime {

// True when the samples of `subgraph` are independent (see above).
bool SamplesAreIndependent(const ir::Model& model, int subgraph);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_INTERPRETER_BATCH_H_
