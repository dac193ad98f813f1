// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: reduce (named by the op table, ir/ops.def; the functions
// are declared from it, kernel_functions.h). An op's float kernel is in
// <stem>.cc, its integer kernel in <stem>_int.cc:
//   reductions.cc:      MEAN, SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN:
//                       reductions over the axes of input 1 (int32 or
//                       int64); float32, int32 and int64 data
//   arg_topk.cc:        ARG_MAX, ARG_MIN (index of the largest / smallest
//                       element along one axis, first on ties), TOPK_V2
//                       (the k largest elements of the last axis, sorted,
//                       and their indices)
//   softmax.cc:         SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION (along the
//                       last axis, float32)
//   softmax_int.cc:     integer SOFTMAX
//   mean_int.cc:        integer MEAN
//
// Summation order (float sums are order-sensitive): every output element is
// accumulated by one task, visiting its input elements in increasing flat
// input index (row-major) order, starting from the reducer's neutral value.
// That is the order of TFLite's reference kernels (reference_ops::Reduce /
// Mean) and of its optimized ReduceGeneric, so results do not depend on the
// thread count. TFLite's optimized MEAN over the last axis uses an Eigen
// vectorized column sum instead; its result differs from ours only by
// float rounding.
#ifndef QFORGE_RUNTIME_KERNELS_REDUCE_REDUCE_H_
#define QFORGE_RUNTIME_KERNELS_REDUCE_REDUCE_H_

#include "runtime/kernels/kernel_functions.h"

#endif  // QFORGE_RUNTIME_KERNELS_REDUCE_REDUCE_H_
