// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: integer (quantized) and hybrid kernels (named by the op
// table, ir/ops.def).
// Integer kernels take int8 / uint8 / int16 activations with their scale and
// zero point (per tensor) and reproduce TFLite's integer arithmetic bit for
// bit (numerics/fixed_point.h); hybrid kernels take float activations and
// int8 constant weights and compute as TFLite's hybrid kernels do.
// Data-movement ops (RESHAPE, SQUEEZE, PAD, STRIDED_SLICE, ...) have no
// integer rows: the shape_ops kernels move bytes of any type (PAD fills
// with the output zero point).
#ifndef QFORGE_RUNTIME_KERNELS_INTEGER_H_
#define QFORGE_RUNTIME_KERNELS_INTEGER_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

// integer_conv.cc
absl::Status PrepareIntConv2D(OpContext& ctx);
absl::Status EvalIntConv2D(OpContext& ctx);
absl::Status PrepareIntDepthwiseConv2D(OpContext& ctx);
absl::Status EvalIntDepthwiseConv2D(OpContext& ctx);

// integer_fully_connected.cc
absl::Status PrepareIntFullyConnected(OpContext& ctx);
absl::Status EvalIntFullyConnected(OpContext& ctx);
absl::Status PrepareHybridFullyConnected(OpContext& ctx);
absl::Status EvalHybridFullyConnected(OpContext& ctx);

// integer_hybrid_conv.cc (float activations, int8 weights)
absl::Status PrepareHybridConv2D(OpContext& ctx);
absl::Status EvalHybridConv2D(OpContext& ctx);
absl::Status PrepareHybridDepthwiseConv2D(OpContext& ctx);
absl::Status EvalHybridDepthwiseConv2D(OpContext& ctx);

// integer_transpose_conv.cc
absl::Status PrepareIntTransposeConv(OpContext& ctx);
absl::Status EvalIntTransposeConv(OpContext& ctx);

// integer_binary.cc
absl::Status PrepareIntAdd(OpContext& ctx);
absl::Status EvalIntAdd(OpContext& ctx);
absl::Status PrepareIntSub(OpContext& ctx);
absl::Status EvalIntSub(OpContext& ctx);
absl::Status PrepareIntMul(OpContext& ctx);
absl::Status EvalIntMul(OpContext& ctx);

// integer_pool.cc
absl::Status PrepareIntAveragePool2D(OpContext& ctx);
absl::Status EvalIntAveragePool2D(OpContext& ctx);
absl::Status PrepareIntMaxPool2D(OpContext& ctx);
absl::Status EvalIntMaxPool2D(OpContext& ctx);
absl::Status PrepareIntMean(OpContext& ctx);
absl::Status EvalIntMean(OpContext& ctx);

// integer_softmax.cc
absl::Status PrepareIntSoftmax(OpContext& ctx);
absl::Status EvalIntSoftmax(OpContext& ctx);

// integer_activation.cc
absl::Status PrepareIntRelu(OpContext& ctx);  // RELU, RELU6, RELU_N1_TO_1,
absl::Status EvalIntRelu(OpContext& ctx);     // RELU_0_TO_1
absl::Status PrepareIntLeakyRelu(OpContext& ctx);
absl::Status EvalIntLeakyRelu(OpContext& ctx);
absl::Status PrepareIntHardSwish(OpContext& ctx);
absl::Status EvalIntHardSwish(OpContext& ctx);
absl::Status PrepareIntLogistic(OpContext& ctx);
absl::Status PrepareIntTanh(OpContext& ctx);
absl::Status EvalIntLutOrInt16Sigmoid(OpContext& ctx);  // LOGISTIC, TANH

// integer_quantize.cc
absl::Status PrepareIntQuantize(OpContext& ctx);
absl::Status EvalIntQuantize(OpContext& ctx);
absl::Status PrepareIntDequantize(OpContext& ctx);
absl::Status EvalIntDequantize(OpContext& ctx);

// integer_concat.cc
absl::Status PrepareIntConcatenation(OpContext& ctx);
absl::Status EvalIntConcatenation(OpContext& ctx);

// integer_minmax.cc
absl::Status PrepareIntMaximum(OpContext& ctx);
absl::Status PrepareIntMinimum(OpContext& ctx);
absl::Status EvalIntMinMax(OpContext& ctx);  // MAXIMUM, MINIMUM

// integer_prelu.cc
absl::Status PrepareIntPrelu(OpContext& ctx);
absl::Status EvalIntPrelu(OpContext& ctx);

// integer_rsqrt.cc
absl::Status PrepareIntRsqrt(OpContext& ctx);
absl::Status EvalIntRsqrt(OpContext& ctx);

// integer_resize.cc
absl::Status PrepareIntResizeBilinear(OpContext& ctx);
absl::Status EvalIntResizeBilinear(OpContext& ctx);

// integer_batch_matmul.cc
absl::Status PrepareIntBatchMatMul(OpContext& ctx);
absl::Status EvalIntBatchMatMul(OpContext& ctx);

// integer_svdf.cc (int8 input and output, int16 state and time weights)
absl::Status PrepareIntSvdf(OpContext& ctx);
absl::Status EvalIntSvdf(OpContext& ctx);

// integer_lstm_prepare.cc, integer_lstm.cc: TFLite's fully quantized LSTM
// (8x8_16: int8 input / output / weights, int16 cell state, int16 layer-norm
// and peephole weights, five intermediate tensors).
absl::Status PrepareIntUnidirectionalSequenceLstm(OpContext& ctx);
absl::Status PrepareIntLstm(OpContext& ctx);
absl::Status EvalIntLstm(OpContext& ctx);  // both

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_INTEGER_H_
