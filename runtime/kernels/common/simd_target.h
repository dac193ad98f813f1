// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Function attributes for the integer kernels' vector paths. The build may
// target an older CPU than the one it runs on (-DQFORGE_NATIVE=OFF), so
// each vector function names the instruction set it uses and is only
// called after runtime/cpu_isa.h found that set on this CPU.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_SIMD_TARGET_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_SIMD_TARGET_H_

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#define QF_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define QF_TARGET_AVX512 \
  __attribute__((        \
      target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

namespace qforge::runtime::integer {

// An unaligned 4-byte load (two int16 or four int8 values) as one int32.
inline int32_t Load32(const void* p) {
  int32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_SIMD_TARGET_H_
