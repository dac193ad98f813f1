// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The computation of a transposed convolution (float32, NHWC), shared by
// TRANSPOSE_CONV and MediaPipe's Convolution2DTransposeBias, which differ
// only in how they find the output size and padding. Input pixel (y, x)
// spreads input * filter over output (y * stride - pad + ky,
// x * stride - pad + kx); then bias and the activation clamp.
//
// Computed as a GEMM, col = input[N*H*W, C] x filter^T[C, KH*KW*O], then a
// gather per output row (each output element sums the col entries that land
// on it in a fixed order), so tasks never write the same element.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_TRANSPOSE_CONV_H_
#define QFORGE_RUNTIME_KERNELS_CONV_TRANSPOSE_CONV_H_

#include <cstdint>
#include <vector>

#include "runtime/kernels/conv/gemm.h"
#include "runtime/thread_pool.h"

namespace qforge::runtime::conv_internal {

struct TransposeGeometry {
  int64_t batches = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t out_h = 0, out_w = 0, out_c = 0, kh = 0, kw = 0;
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  ActRange act;
};

// Sets the sizes of input [N, H, W, C] and weights [O, KH, KW, C] in `g`.
void SetTransposeSizes(const RtTensor& input, const RtTensor& weights,
                       TransposeGeometry* g);

class TransposeConvCore {
 public:
  // Input and filter dims (everything but out_h/out_w/pad) are known:
  // sizes the GEMM and its buffers.
  void PlanGemm(const TransposeGeometry& g);
  // Output size and padding are known too: cuts the gather into tasks.
  void PlanOutput(const TransposeGeometry& g);
  // weights [O, KH, KW, C].
  void PackWeights(const float* weights);
  // bias: out_c floats or nullptr.
  void Run(ThreadPool& pool, const float* in, const float* bias, float* out);
  const TransposeGeometry& geometry() const { return g_; }

 private:
  TransposeGeometry g_;
  GemmPlan plan_;
  std::vector<float> packed_, col_, zero_bias_;
  int64_t rows_per_task_ = 1, tasks_ = 1;
};

}  // namespace qforge::runtime::conv_internal

#endif  // QFORGE_RUNTIME_KERNELS_CONV_TRANSPOSE_CONV_H_
