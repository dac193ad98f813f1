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

#if defined(__AVX512VNNI__) && defined(__AVX512F__)
double VnniGops() {
  int32_t sink = 0;
  const double s = BestSeconds([&] {
    const __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
    __m512i acc[12];
    for (__m512i& x : acc) x = _mm512_setzero_si512();
    for (int64_t i = 0; i < kIterations; ++i) {
      for (__m512i& x : acc) x = _mm512_dpbusd_epi32(x, a, b);
    }
    alignas(64) int32_t lanes[16];
    for (const __m512i& x : acc) {
      _mm512_store_si512(lanes, x);
      for (int32_t v : lanes) sink += v;
    }
  });
  std::fprintf(stderr, "%d\n", sink == 1 ? 1 : 0);  // the result is used
  return 12.0 * 128.0 * static_cast<double>(kIterations) / s / 1e9;
}
// The same on ymm: a core with one 512-bit unit but two 256-bit ports
// peaks there.
double VnniGopsYmm() {
  int32_t sink = 0;
  const double s = BestSeconds([&] {
    const __m256i a = _mm256_set1_epi8(3), b = _mm256_set1_epi8(-2);
    __m256i acc[12];
    for (__m256i& x : acc) x = _mm256_setzero_si256();
    for (int64_t i = 0; i < kIterations; ++i) {
      for (__m256i& x : acc) x = _mm256_dpbusd_epi32(x, a, b);
    }
    alignas(32) int32_t lanes[8];
    for (const __m256i& x : acc) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), x);
      for (int32_t v : lanes) sink += v;
    }
  });
  std::fprintf(stderr, "%d\n", sink == 1 ? 1 : 0);
  return 12.0 * 64.0 * static_cast<double>(kIterations) / s / 1e9;
}
#else
double VnniGops() { return 0; }
double VnniGopsYmm() { return 0; }
#endif

#if defined(__AVX512F__)
double FmaGflops() {
  float sink = 0;
  const double s = BestSeconds([&] {
    const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(1e-7f);
    __m512 acc[12];
    for (__m512& x : acc) x = _mm512_set1_ps(1.0f);
    for (int64_t i = 0; i < kIterations; ++i) {
      for (__m512& x : acc) x = _mm512_fmadd_ps(x, a, b);
    }
    alignas(64) float lanes[16];
    for (const __m512& x : acc) {
      _mm512_store_ps(lanes, x);
      for (float v : lanes) sink += v;
    }
  });
  std::fprintf(stderr, "%d\n", sink == 1.5f ? 1 : 0);
  return 12.0 * 32.0 * static_cast<double>(kIterations) / s / 1e9;
}
double FmaGflopsYmm() {
  float sink = 0;
  const double s = BestSeconds([&] {
    const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(1e-7f);
    __m256 acc[12];
    for (__m256& x : acc) x = _mm256_set1_ps(1.0f);
    for (int64_t i = 0; i < kIterations; ++i) {
      for (__m256& x : acc) x = _mm256_fmadd_ps(x, a, b);
    }
    alignas(32) float lanes[8];
    for (const __m256& x : acc) {
      _mm256_store_ps(lanes, x);
      for (float v : lanes) sink += v;
    }
  });
  std::fprintf(stderr, "%d\n", sink == 1.5f ? 1 : 0);
  return 12.0 * 16.0 * static_cast<double>(kIterations) / s / 1e9;
}
#else
double FmaGflops() { return 0; }
double FmaGflopsYmm() { return 0; }
#endif

}  // namespace

int main() {
  const double vnni = std::max(VnniGops(), VnniGopsYmm());
  const double fma = std::max(FmaGflops(), FmaGflopsYmm());
  std::printf("{\"vnni_int8_gops\": %.1f, \"fma_fp32_gflops\": %.1f}\n", vnni,
              fma);
  return 0;
}
