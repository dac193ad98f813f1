// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vector path of QUANTIZE float32 -> integer, per tensor
// (quantize_int.cc): the same values as the scalar kernel, 4 at a time.
#ifndef QFORGE_RUNTIME_KERNELS_ELEMENTWISE_QUANTIZE_SIMD_H_
#define QFORGE_RUNTIME_KERNELS_ELEMENTWISE_QUANTIZE_SIMD_H_

#include <cstdint>

namespace qforge::runtime::integer {

// y[i] = clamp(round_half_away(double(x[i]) / scale) + zp, lo, hi), NaN ->
// lo, for i in [0, n). Needs AVX2 (runtime/cpu_isa.h).
void QuantizeFloatAvx2(const float* x, int64_t n, double scale, double zp,
                       double lo, double hi, int32_t* y);
// The same with AVX-512 (8 lanes per division).
void QuantizeFloatAvx512(const float* x, int64_t n, double scale, double zp,
                         double lo, double hi, int32_t* y);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_ELEMENTWISE_QUANTIZE_SIMD_H_
