// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The float model as the int8, int16x8 and dynamic schemes see it: weights
// stored compressed (ir/compressed_weights.h) folded into plain float32
// constants, the ops that decompressed them gone. Rules, recipes, op
// choices and the quantize summary number ops of this model; weight
// recovery and the float model's file number ops of the original. A
// FoldedModel holds both numberings, so that no caller maps indices by
// hand.
#ifndef QFORGE_QUANTIZER_FOLDED_MODEL_H_
#define QFORGE_QUANTIZER_FOLDED_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"

namespace qforge::quantizer {

class FoldedModel {
 public:
  // Folds `file_model` (a copy; the original is not changed).
  static absl::StatusOr<FoldedModel> Fold(const ir::Model& file_model);

  // The folded model.
  const ir::Model& model() const { return model_; }
  // Ops of the folded model's subgraph 0.
  size_t num_ops() const { return file_op_.size(); }
  // The index in the file's subgraph 0 of folded op `folded_op`.
  int FileOp(int folded_op) const {
    return file_op_[static_cast<size_t>(folded_op)];
  }
  // The folded index of the file's op `file_op`; -1 when it was folded away.
  int FoldedOp(int file_op) const {
    return folded_op_[static_cast<size_t>(file_op)];
  }

 private:
  ir::Model model_;
  std::vector<int> file_op_;    // folded -> file
  std::vector<int> folded_op_;  // file -> folded, -1 folded away
};

// Folds the compressed weights of every subgraph of `model` in place (the
// decompressing ops are removed). `from_half` gets subgraph 0's constants
// that were widened from float16, so that the ops kept float can store them
// as float16 again. Sparse constants are decoded by qforge's DENSIFY kernel.
absl::Status FoldCompressedWeights(ir::Model& model,
                                   std::set<int32_t>& from_half);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_FOLDED_MODEL_H_
