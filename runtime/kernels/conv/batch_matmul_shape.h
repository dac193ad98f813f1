// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL's shape logic, shared by the float (batch_matmul.cc)
// and integer (batch_matmul_int.cc) kernels: lhs [..., M, K] (adj_x:
// [..., K, M]) times rhs [..., K, N] (adj_y: [..., N, K]); the batch
// dimensions broadcast NumPy style (missing leading ones count as 1), as in
// TFLite's batch_matmul.cc. Output [broadcast batch..., M, N].
#ifndef QFORGE_RUNTIME_KERNELS_CONV_BATCH_MATMUL_SHAPE_H_
#define QFORGE_RUNTIME_KERNELS_CONV_BATCH_MATMUL_SHAPE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

struct BatchMatMulShape {
  int64_t m = 0, n = 0, k = 0;
  bool adj_x = false, adj_y = false;
  int64_t lhs_batches = 0, rhs_batches = 0;  // batches each input holds
  // For each output batch (row-major over the broadcast batch shape): the
  // index of the lhs and of the rhs batch it multiplies.
  std::vector<int64_t> lhs_index, rhs_index;
  Dims output_shape;
};

// Reads both inputs' shapes and the op's BatchMatMulOptions; errors (naming
// the tensors) when an input has rank < 2, the inner dimensions differ or
// the batch dimensions do not broadcast.
absl::Status ComputeBatchMatMulShape(const OpContext& ctx, const RtTensor& lhs,
                                     const RtTensor& rhs,
                                     BatchMatMulShape* shape);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CONV_BATCH_MATMUL_SHAPE_H_
