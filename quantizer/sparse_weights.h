// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Sparse weights (a sparse constant behind DENSIFY, and a DEQUANTIZE when
// it is float16: MediaPipe's *_sparse models) for the ops that stay float.
// The quantizer folds them into dense float32 constants first
// (folded_model.h); an op kept float then gets its original chain back, so
// that LiteRT's XNNPACK delegate still unpacks the weights at init and
// runs the op with its sparse float kernels (runtime/latency.h), and the
// file keeps the sparse bytes.
#ifndef QFORGE_QUANTIZER_SPARSE_WEIGHTS_H_
#define QFORGE_QUANTIZER_SPARSE_WEIGHTS_H_

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "ir/model.h"

namespace qforge::quantizer {

// The chains of subgraph 0, by the dense tensor they end in (the tensor the
// weighted op reads; folding keeps tensor indices): the ops that decode it,
// in order, and the tensors they write.
struct SparseChain {
  std::vector<ir::Operator> ops;
  std::vector<int32_t> written;
};
using SparseChains = std::map<int32_t, SparseChain>;

// Found on the model before folding.
SparseChains FindSparseChains(const ir::Model& model);

// For each chain whose dense tensor an op of the rewritten `model` still
// reads (a float op: integer ops read their own quantized weights): the
// tensors the chain writes lose the values folding gave them and the chain
// runs again, placed before the first reader. Restored tensors are erased
// from `from_half` (they are no longer constants to store as float16).
void RestoreSparseWeights(ir::Model& model, const SparseChains& chains,
                          std::set<int32_t>& from_half);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_SPARSE_WEIGHTS_H_
