// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: conv (named by the op table, ir/ops.def; the functions are
// declared from it, kernel_functions.h).
// Convolutions, matrix products and 2-D pooling, float32, NHWC:
//   CONV_2D, DEPTHWISE_CONV_2D   conv_conv2d.cc, conv_depthwise.cc
//   FULLY_CONNECTED, BATCH_MATMUL  conv_fully_connected.cc,
//                                  conv_batch_matmul.cc
//   TRANSPOSE_CONV               conv_transpose.cc
//   AVERAGE_POOL_2D, MAX_POOL_2D conv_pool.cc
//   CONV_3D                      conv_conv3d.cc, direct loops (NDHWC input,
//                                DHWIO filter)
// Shared GEMM, window arithmetic and activations: conv_internal.h.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_H_
#define QFORGE_RUNTIME_KERNELS_CONV_H_

#include "runtime/kernels/kernel_functions.h"

#endif  // QFORGE_RUNTIME_KERNELS_CONV_H_
