// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vector path of the integer FULLY_CONNECTED kernel
// (fully_connected_int.cc): one integer GEMM (gemm_simd.h) of the input
// rows by the packed weights, requantized by the output stage
// (common/output_stage_simd.h). Its prepare builds the plan when the op's
// Isa allows and the accumulation is exact in int32; eval then runs it
// instead of the scalar loops, which stay the reference
// (tests/runtime/kernels/integer_fast_test.cc compares them).
#ifndef QFORGE_RUNTIME_KERNELS_CONV_FULLY_CONNECTED_SIMD_H_
#define QFORGE_RUNTIME_KERNELS_CONV_FULLY_CONNECTED_SIMD_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/kernel.h"
#include "runtime/kernels/common/output_stage_simd.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/conv/gemm_simd.h"

namespace qforge::runtime::integer {

// What the scalar FULLY_CONNECTED prepare worked out.
struct FcDesc : GemmRequant {
  int64_t batch = 0, depth = 0, units = 0;
  bool acc64 = false;  // the reference accumulates in int64
};

// rows8: dot4 with a depth that is not a multiple of 4.
struct FastFcPlan : GemmPlanBase {
  FcDesc d;
};

// The plan for input 1 (weights) and 2 (bias) of ctx; nullptr when the op
// takes the scalar path.
std::unique_ptr<FastFcPlan> PrepareFastFc(const OpContext& ctx,
                                          const FcDesc& d);
void RunFastFc(const OpContext& ctx, FastFcPlan& plan);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_CONV_FULLY_CONNECTED_SIMD_H_
