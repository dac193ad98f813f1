// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: integer (quantized) and hybrid kernels (named by the op
// table, ir/ops.def; the functions are declared from it,
// kernel_functions.h).
// Integer kernels take int8 / uint8 / int16 activations with their scale and
// zero point (per tensor) and reproduce TFLite's integer arithmetic bit for
// bit (numerics/fixed_point.h); hybrid kernels take float activations and
// int8 constant weights and compute as TFLite's hybrid kernels do.
// Data-movement ops (RESHAPE, SQUEEZE, PAD, STRIDED_SLICE, ...) have no
// integer rows: the shape_ops kernels move bytes of any type (PAD fills
// with the output zero point).
//
//   integer_conv.cc             CONV_2D, DEPTHWISE_CONV_2D
//   integer_fully_connected.cc  FULLY_CONNECTED (integer and hybrid)
//   integer_hybrid_conv.cc      hybrid CONV_2D, DEPTHWISE_CONV_2D (float
//                               activations, int8 weights)
//   integer_transpose_conv.cc   TRANSPOSE_CONV
//   integer_binary.cc           ADD, SUB, MUL
//   integer_pool.cc             AVERAGE_POOL_2D, MAX_POOL_2D, MEAN
//   integer_softmax.cc          SOFTMAX
//   integer_activation.cc       RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1,
//                               LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH
//   integer_quantize.cc         QUANTIZE, DEQUANTIZE
//   integer_concat.cc           CONCATENATION
//   integer_minmax.cc           MAXIMUM, MINIMUM
//   integer_prelu.cc            PRELU
//   integer_rsqrt.cc            RSQRT
//   integer_resize.cc           RESIZE_BILINEAR
//   integer_batch_matmul.cc     BATCH_MATMUL
//   integer_svdf.cc             SVDF (int8 input and output, int16 state and
//                               time weights)
//   integer_lstm_prepare.cc, integer_lstm.cc: UNIDIRECTIONAL_SEQUENCE_LSTM
//     and LSTM, TFLite's fully quantized LSTM (8x8_16: int8 input / output /
//     weights, int16 cell state, int16 layer-norm and peephole weights, five
//     intermediate tensors)
#ifndef QFORGE_RUNTIME_KERNELS_INTEGER_H_
#define QFORGE_RUNTIME_KERNELS_INTEGER_H_

#include "runtime/kernels/kernel_functions.h"

#endif  // QFORGE_RUNTIME_KERNELS_INTEGER_H_
