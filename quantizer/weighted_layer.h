// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The weighted layers the accuracy-recovery passes work on (cross-layer
// equalization, bias correction, AdaRound): ops of subgraph 0 whose
// weights (ops.def WEIGHTS trait) have one of the three layouts below,
// input 0 being the activation and the weights constant, dense float32
// (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED). Each is seen as rows, one
// per output channel, over `k` inputs:
//   CONV_2D   weights [O, Kh, Kw, I]   row o = W[o, :, :, :]  (k = Kh*Kw*I)
//   DEPTHWISE weights [1, Kh, Kw, C*M] row c = W[0, :, :, c]  (k = Kh*Kw)
//   FC        weights [O, I]           row o = W[o, :]        (k = I)
// A depthwise row c reads input channel c / M.
#ifndef QFORGE_QUANTIZER_WEIGHTED_LAYER_H_
#define QFORGE_QUANTIZER_WEIGHTED_LAYER_H_

#include <cstdint>
#include <vector>

#include "ir/model.h"
#include "ir/options.h"

namespace qforge::quantizer {

struct WeightedLayer {
  int op_index = -1;
  ir::OpKind kind = ir::OpKind::kConv2D;
  ir::WeightLayout layout = ir::WeightLayout::kConv;
  int32_t input = -1, weights = -1, bias = -1, output = -1;  // tensors
  int64_t rows = 0, k = 0;
  int64_t in_channels = 0, multiplier = 1;  // multiplier: depthwise only
  int64_t kh = 1, kw = 1;                   // 1 x 1 for FC
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  ir::Padding padding = ir::Padding::kValid;
  ir::Activation activation = ir::Activation::kNone;

  // Flat index in the weight buffer of row `r`, element `j` in [0, k).
  int64_t WeightIndex(int64_t r, int64_t j) const {
    return layout == ir::WeightLayout::kDepthwise ? j * rows + r : r * k + j;
  }
  // The input channel element `j` of a row reads (the patch layout is
  // [kh, kw, channel] for CONV_2D, [kh, kw] for depthwise).
  int64_t InputChannel(int64_t r, int64_t j) const {
    if (layout == ir::WeightLayout::kDepthwise) return r / multiplier;
    return j % in_channels;
  }
};

// Every weighted layer of subgraph 0 whose weights are constant dense
// float32 with shapes the op's kernel accepts; others are left out.
std::vector<WeightedLayer> FindWeightedLayers(const ir::Model& model);

// Models that store weights as float16 behind DEQUANTIZE (MediaPipe's):
// gives each op of subgraph 0 with a weighted layer's layout
// not in `skip` (by op index) its own float32 constant copy of a float16
// weight or bias, so that FindWeightedLayers sees it and recovery can
// change it. The DEQUANTIZE ops stay, so op indices do not move; the
// quantizer folds them and drops the tensors nothing reads any more.
// Returns the number of tensors copied.
int WidenHalfWeights(ir::Model& model, const std::vector<bool>& skip);

// The weights' float values, and a copy put into a fresh buffer (so that
// a tensor sharing the old buffer keeps its values).
std::vector<float> LayerWeights(const ir::Model& model, int32_t tensor);
void SetTensorValues(ir::Model& model, int32_t tensor,
                     const std::vector<float>& values);

// Per-row symmetric weight scales as the quantizer picks them (per
// channel; one for all rows when `per_tensor`), for integers in
// [-qmax, qmax].
std::vector<float> RowScales(const WeightedLayer& layer,
                             const std::vector<float>& weights, int qmax,
                             bool per_tensor);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_WEIGHTED_LAYER_H_
