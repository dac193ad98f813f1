// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: conv (named by the op table, ir/ops.def).
// Convolutions, matrix products and 2-D pooling, float32, NHWC:
//   CONV_2D, DEPTHWISE_CONV_2D   conv_conv2d.cc, conv_depthwise.cc
//   FULLY_CONNECTED, BATCH_MATMUL  conv_fully_connected.cc,
//                                  conv_batch_matmul.cc
//   TRANSPOSE_CONV               conv_transpose.cc
//   AVERAGE_POOL_2D, MAX_POOL_2D conv_pool.cc
// Shared GEMM, window arithmetic and activations: conv_internal.h.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_H_
#define QFORGE_RUNTIME_KERNELS_CONV_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

absl::Status PrepareConv2D(OpContext& ctx);
absl::Status EvalConv2D(OpContext& ctx);
absl::Status PrepareDepthwiseConv2D(OpContext& ctx);
absl::Status EvalDepthwiseConv2D(OpContext& ctx);
absl::Status PrepareFullyConnected(OpContext& ctx);
absl::Status EvalFullyConnected(OpContext& ctx);
absl::Status PrepareBatchMatMul(OpContext& ctx);
absl::Status EvalBatchMatMul(OpContext& ctx);
absl::Status PrepareTransposeConv(OpContext& ctx);
absl::Status EvalTransposeConv(OpContext& ctx);
absl::Status PrepareAveragePool2D(OpContext& ctx);
absl::Status EvalAveragePool2D(OpContext& ctx);
absl::Status PrepareMaxPool2D(OpContext& ctx);
absl::Status EvalMaxPool2D(OpContext& ctx);
// conv_conv3d.cc: CONV_3D, direct loops (NDHWC input, DHWIO filter).
absl::Status PrepareConv3D(OpContext& ctx);
absl::Status EvalConv3D(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CONV_H_
