// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: reduce (named by the op table, ir/ops.def).
//   reduce_axes.cc:     MEAN, SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN
//   reduce_arg.cc:      ARG_MAX, ARG_MIN, TOPK_V2
//   reduce_softmax.cc:  SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION
//
// Summation order (float sums are order-sensitive): every output element is
// accumulated by one task, visiting its input elements in increasing flat
// input index (row-major) order, starting from the reducer's neutral value.
// That is the order of TFLite's reference kernels (reference_ops::Reduce /
// Mean) and of its optimized ReduceGeneric, so results do not depend on the
// thread count. TFLite's optimized MEAN over the last axis uses an Eigen
// vectorized column sum instead; its result differs from ours only by
// float rounding.
#ifndef QFORGE_RUNTIME_KERNELS_REDUCE_H_
#define QFORGE_RUNTIME_KERNELS_REDUCE_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

// Reductions over the axes of input 1 (int32 or int64). float32, int32 and
// int64 data.
absl::Status PrepareMean(OpContext& ctx);
absl::Status EvalMean(OpContext& ctx);
absl::Status PrepareSum(OpContext& ctx);
absl::Status EvalSum(OpContext& ctx);
absl::Status PrepareReduceProd(OpContext& ctx);
absl::Status EvalReduceProd(OpContext& ctx);
absl::Status PrepareReduceMax(OpContext& ctx);
absl::Status EvalReduceMax(OpContext& ctx);
absl::Status PrepareReduceMin(OpContext& ctx);
absl::Status EvalReduceMin(OpContext& ctx);

// Index of the largest/smallest element along one axis (first on ties).
absl::Status PrepareArgMax(OpContext& ctx);
absl::Status EvalArgMax(OpContext& ctx);
absl::Status PrepareArgMin(OpContext& ctx);
absl::Status EvalArgMin(OpContext& ctx);

// The k largest elements of the last axis, sorted, and their indices.
absl::Status PrepareTopKV2(OpContext& ctx);
absl::Status EvalTopKV2(OpContext& ctx);

// Normalizations along the last axis (float32).
absl::Status PrepareSoftmax(OpContext& ctx);
absl::Status EvalSoftmax(OpContext& ctx);
absl::Status PrepareLogSoftmax(OpContext& ctx);
absl::Status EvalLogSoftmax(OpContext& ctx);
absl::Status PrepareL2Normalization(OpContext& ctx);
absl::Status EvalL2Normalization(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_REDUCE_H_
