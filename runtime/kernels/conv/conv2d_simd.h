// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vector paths of the integer CONV_2D, DEPTHWISE_CONV_2D and
// FULLY_CONNECTED kernels (gemm_simd.h, common/output_stage_simd.h). Their
// prepare builds a plan when the op's Isa allows and the op fits (no
// groups, depth multiplier 1, exact int32 accumulation); their eval then
// runs it instead of the scalar loops, which stay the reference: every
// plan computes exactly what the scalar kernel computes
// (tests/runtime/kernels/integer_fast_test.cc compares them on random ops).
#ifndef QFORGE_RUNTIME_KERNELS_CONV_CONV2D_SIMD_H_
#define QFORGE_RUNTIME_KERNELS_CONV_CONV2D_SIMD_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "ir/types.h"
#include "numerics/fixed_point.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/output_stage_simd.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/conv/gemm_simd.h"

namespace qforge::runtime::integer {

// What the scalar kernels' prepare worked out about a convolution.
struct ConvDesc {
  bool depthwise = false;
  ir::DataType type = ir::DataType::kInt8;  // activations
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t out_h = 0, out_w = 0, out_c = 0;
  int64_t k_h = 0, k_w = 0, groups = 1, depth_mult = 1;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int32_t input_zp = 0, filter_zp = 0, output_zp = 0;
  int32_t act_min = 0, act_max = 0;
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  const std::vector<int32_t>* multiplier = nullptr;
  const std::vector<int>* shift = nullptr;
  const std::vector<float>* xnn_scale = nullptr;  // empty: fixed point
};

struct FastConvPlan;
struct FastConvPlanDeleter {
  void operator()(FastConvPlan* p) const;
};
using FastConvPlanPtr = std::unique_ptr<FastConvPlan, FastConvPlanDeleter>;

// The plan for input 1 (filter) and 2 (bias) of ctx; nullptr when the op
// takes the scalar path.
FastConvPlanPtr PrepareFastConv(const OpContext& ctx, const ConvDesc& d);
void RunFastConv(const OpContext& ctx, FastConvPlan& plan);

// What the scalar FULLY_CONNECTED prepare worked out.
struct FcDesc {
  ir::DataType type = ir::DataType::kInt8;
  int64_t batch = 0, depth = 0, units = 0;
  int32_t input_zp = 0, weights_zp = 0, output_zp = 0;
  int32_t act_min = 0, act_max = 0;
  bool acc64 = false;  // the reference accumulates in int64
  OutputStage::Scheme scheme = OutputStage::Scheme::kFixed;
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  const std::vector<int32_t>* multiplier = nullptr;
  const std::vector<int>* shift = nullptr;
  const std::vector<float>* xnn_scale = nullptr;
  const std::vector<double>* real_scale = nullptr;
};

struct FastFcPlan;
struct FastFcPlanDeleter {
  void operator()(FastFcPlan* p) const;
};
using FastFcPlanPtr = std::unique_ptr<FastFcPlan, FastFcPlanDeleter>;

FastFcPlanPtr PrepareFastFc(const OpContext& ctx, const FcDesc& d);
void RunFastFc(const OpContext& ctx, FastFcPlan& plan);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_CONV_CONV2D_SIMD_H_
