// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/cpu_isa.h"

#include <cstdlib>
#include <cstring>

namespace qforge::runtime {
namespace {

Isa DetectHardwareIsa() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  // AVX-512 without VNNI (Skylake-X) takes the AVX2 paths.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512vnni")) {
    return Isa::kAvx512Vnni;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return Isa::kAvx2;
  }
#endif
  return Isa::kScalar;
}

// QFORGE_ISA caps the level for the whole process (every level gives the
// same results; this is for comparing and timing them from the CLI, as
// the vendors' OPENBLAS_CORETYPE or MKL_ENABLE_INSTRUCTIONS do). Unknown
// values are ignored.
Isa CapFromEnvironment(Isa have) {
  const char* env = std::getenv("QFORGE_ISA");
  if (env == nullptr) return have;
  Isa want = have;
  if (std::strcmp(env, "scalar") == 0) {
    want = Isa::kScalar;
  } else if (std::strcmp(env, "avx2") == 0) {
    want = Isa::kAvx2;
  } else if (std::strcmp(env, "avx512-vnni") == 0) {
    want = Isa::kAvx512Vnni;
  }
  return want < have ? want : have;
}

}  // namespace

Isa DetectIsa() {
  static const Isa isa = CapFromEnvironment(DetectHardwareIsa());
  return isa;
}

Isa ResolveIsa(Isa requested) {
  const Isa have = DetectIsa();
  return requested < have ? requested : have;
}

const char* IsaName(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512Vnni:
      return "avx512-vnni";
  }
  return "?";
}

}  // namespace qforge::runtime
