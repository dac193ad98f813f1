// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vector path of the integer CONV_2D and DEPTHWISE_CONV_2D kernels
// (conv2d_int.cc) on the integer GEMM and depthwise rows (gemm_simd.h) and
// the output stage (common/output_stage_simd.h). Their prepare builds a
// plan when the op's Isa allows and the op fits (no groups, depth
// multiplier 1, exact int32 accumulation); their eval then runs it instead
// of the scalar loops, which stay the reference: every plan computes
// exactly what the scalar kernel computes
// (tests/runtime/kernels/integer_fast_test.cc compares them on random ops).
#ifndef QFORGE_RUNTIME_KERNELS_CONV_CONV2D_SIMD_H_
#define QFORGE_RUNTIME_KERNELS_CONV_CONV2D_SIMD_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/kernel.h"
#include "runtime/kernels/common/output_stage_simd.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/conv/gemm_simd.h"

namespace qforge::runtime::integer {

// What the scalar kernels' prepare worked out about a convolution: its
// dims (filter_in_c unused) and requantization (weights_zp: the filter's).
struct ConvDesc : ConvDims, GemmRequant {
  bool depthwise = false;
};

// rows: the input as int16 rows, + a zero row.
struct FastConvPlan : GemmPlanBase {
  ConvDesc d;
  int64_t kc = 0;  // int16 per input pixel row (conv: even; dw: cpad)
  DepthwiseWeights dw;
  DepthwiseGeometry geom;
  std::vector<int32_t> indirection;  // [out pixel][tap]
  bool pointwise = false;            // no indirection needed
  // Depthwise on 8-bit activations with AVX-512: the input read in place
  // (DepthwiseRowBytes), no int16 rows.
  bool dw_bytes = false;
  // dot4: per image the input's rows as unsigned (FlipRows) and a row of
  // input zero points (as unsigned) for the padded taps; each output
  // pixel's taps as byte offsets into an image's block.
  std::vector<uint8_t> flipped;
  std::vector<int32_t> offsets;
};

// The plan for input 1 (filter) and 2 (bias) of ctx; nullptr when the op
// takes the scalar path.
std::unique_ptr<FastConvPlan> PrepareFastConv(const OpContext& ctx,
                                              const ConvDesc& d);
void RunFastConv(const OpContext& ctx, FastConvPlan& plan);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_CONV_CONV2D_SIMD_H_
