// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The x86 instruction sets the integer kernels have paths for, detected at
// run time (the build may target an older CPU than the one it runs on).
// Every fast path computes exactly what the scalar reference kernel does;
// an interpreter may be limited to a lower level (InterpreterOptions::isa)
// so that tests can compare each path with the scalar one.
#ifndef QFORGE_RUNTIME_CPU_ISA_H_
#define QFORGE_RUNTIME_CPU_ISA_H_

#include <cstdint>

namespace qforge::runtime {

// Ordered: each level includes the ones before it.
enum class Isa : uint8_t {
  kScalar,      // the reference kernels
  kAvx2,        // AVX2 (+FMA): 8 int32 lanes, vpmaddwd
  kAvx512Vnni,  // AVX-512 F/BW/DQ/VL + VNNI: 16 lanes, vpdpwssd / vpdpbusd
};

// The best level this CPU supports, capped by the environment variable
// QFORGE_ISA (scalar, avx2 or avx512-vnni) when it is set.
Isa DetectIsa();
// min(requested, DetectIsa()).
Isa ResolveIsa(Isa requested);
const char* IsaName(Isa isa);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_CPU_ISA_H_
