// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// This core's arithmetic peaks, one thread: int8 multiply-adds through
// AVX-512 VNNI (vpdpbusd on zmm: 64 u8 x s8 products summed into 16 int32
// lanes, 128 ops) and fp32 FMA (vfmadd on zmm: 16 lanes, 32 flops). Twelve
// independent accumulators hide the latency (held in registers: no
// barrier in the loop, which would spill them; the chains cannot be folded);
// the best of 7 runs of about 50 ms each, on zmm or on ymm (whichever is
// faster), is the peak. bench/speed/ort.mjs divides each model's GOP/s by
// these. Prints one JSON line: {"vnni_int8_gops": G, "fma_fp32_gflops": F} (0
// for an instruction set the build lacks).
//   build/bench/peak_bench
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

constexpr int64_t kIterations = 1 << 20;

template <typename Body>
double BestSeconds(Body body) {
  double best = 1e30;
  for (int run = 0; run < 7; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double> dt =
        std::chrono::steady_clock::now() - t0;
    best = std::min(best, dt.count());
  }
  return best;
}

// Twelve chains of `step` in registers, chain k from init(k) (distinct, or
// the compiler computes one chain for all); GOP/s given the ops one step
// does. The lanes are summed and printed so nothing is dead code.
template <typename Vec, typename Lane, typename Init, typename Step>
double Peak(Init init, Step step, double ops_per_step) {
  Lane sink = 0;
  const double s = BestSeconds([&] {
    Vec acc[12];
    for (int k = 0; k < 12; ++k) acc[k] = init(k);
    for (int64_t i = 0; i < kIterations; ++i) {
      for (Vec& x : acc) x = step(x);
    }
    for (const Vec& x : acc) {
      Lane lanes[sizeof(Vec) / sizeof(Lane)];
      std::memcpy(lanes, &x, sizeof(x));
      for (Lane v : lanes) sink += v;
    }
  });
  std::fprintf(stderr, "%d\n", sink == Lane(1) ? 1 : 0);
  return 12.0 * ops_per_step * static_cast<double>(kIterations) / s / 1e9;
}

// zmm, and ymm: a core with one 512-bit unit but two 256-bit ports peaks
// there.
#if defined(__AVX512VNNI__) && defined(__AVX512F__)
double VnniGops() {
  const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
  const __m256i c = _mm256_set1_epi8(3), d = _mm256_set1_epi8(-2);
  return std::max(
      Peak<__m512i, int32_t>(
          [](int k) { return _mm512_set1_epi32(k); },
          [&](__m512i x) { return _mm512_dpbusd_epi32(x, a, b); }, 128.0),
      Peak<__m256i, int32_t>(
          [](int k) { return _mm256_set1_epi32(k); },
          [&](__m256i x) { return _mm256_dpbusd_epi32(x, c, d); }, 64.0));
}
#else
double VnniGops() { return 0; }
#endif

#if defined(__AVX512F__)
double FmaGflops() {
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(1e-7f);
  const __m256 c = _mm256_set1_ps(0.999f), d = _mm256_set1_ps(1e-7f);
  return std::max(
      Peak<__m512, float>([](int k) { return _mm512_set1_ps(1.0f + k); },
                          [&](__m512 x) { return _mm512_fmadd_ps(x, a, b); },
                          32.0),
      Peak<__m256, float>([](int k) { return _mm256_set1_ps(1.0f + k); },
                          [&](__m256 x) { return _mm256_fmadd_ps(x, c, d); },
                          16.0));
}
#else
double FmaGflops() { return 0; }
#endif

}  // namespace

int main() {
  const double vnni = VnniGops();
  const double fma = FmaGflops();
  std::printf("{\"vnni_int8_gops\": %.1f, \"fma_fp32_gflops\": %.1f}\n", vnni,
              fma);
  return 0;
}
