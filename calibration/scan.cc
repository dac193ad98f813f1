// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/scan.h"

// GCC 12 reports a false -Wmaybe-uninitialized inside the AVX-512
// intrinsics (they start from _mm512_undefined_*); silence it for the
// header only.
#if defined(__AVX512F__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#elif defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>

#include "calibration/histogram.h"

namespace qforge::calibration {
namespace {

constexpr uint32_t kExponentBits = 0x7f800000u;
// Keys (histogram.h) with exponent 255 (NaN, infinities): 8 exponent bits
// set above the 5 mantissa bits; the sign is bit 13.
constexpr uint32_t kSpecialKey = 0xffu << 5;
static_assert(kBucketShift == 18, "keys of 14 bits: sign, exponent, 5 bits");
// Gather offsets (first + 15 * stride) stay far inside int32.
constexpr int64_t kMaxVectorStride = int64_t{1} << 24;

uint32_t BitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

// Exact statistics of data[0, n), one value at a time.
void AddScalar(const float* data, int64_t n, ChunkScan& r) {
  for (int64_t k = 0; k < n; ++k) {
    const float v = data[k];
    if (v != v) {
      ++r.nan;
    } else if (std::isinf(v)) {
      (v > 0 ? r.pos_inf : r.neg_inf)++;
    } else {
      ++r.finite;
      r.lo = MinOf(r.lo, v);
      r.hi = MaxOf(r.hi, v);
    }
  }
}

// Histogram of the finite values at first, first + stride, ... < n.
void CountScalar(const float* data, int64_t n, int64_t first, int64_t stride,
                 uint32_t* counts) {
  for (int64_t i = first; i < n; i += stride) {
    const uint32_t bits = BitsOf(data[i]);
    if ((bits & kExponentBits) != kExponentBits) ++counts[bits >> kBucketShift];
  }
}

#if defined(__AVX512F__)
// Adds the buffered bucket keys to the counts.
void CountKeys(const uint32_t* keys, int n, uint32_t* counts) {
  for (int j = 0; j < n; ++j) ++counts[keys[j]];
}
#endif

}  // namespace

float MinOf(float a, float b) {
  if (a == b) return std::signbit(a) ? a : b;
  return b < a ? b : a;
}

float MaxOf(float a, float b) {
  if (a == b) return std::signbit(a) ? b : a;
  return b > a ? b : a;
}

void ChunkScan::Merge(const ChunkScan& other) {
  lo = MinOf(lo, other.lo);
  hi = MaxOf(hi, other.hi);
  finite += other.finite;
  nan += other.nan;
  pos_inf += other.pos_inf;
  neg_inf += other.neg_inf;
}

int64_t ChunkSize(int64_t stride) {
  // ~16K values (64 KB), whole blocks of 16 histogram positions: large
  // enough that a chunk's fixed costs vanish,
  // small enough to share a big tensor out over threads.
  const int64_t block = 16 * stride;
  return std::max<int64_t>(1, (16384 + block - 1) / block) * block;
}

ChunkScan ScanChunk(const float* data, int64_t n, int64_t first, int64_t stride,
                    uint32_t* counts) {
  ChunkScan r;
  int64_t i = 0;  // statistics done for [0, i)
  int64_t h = 0;  // histogram done for [0, h), h a multiple of the stride
#if defined(__AVX512F__)
  // Blocks of 16 * stride values: `stride` vectors for min/max/NaN, and
  // the block's 16 histogram positions gathered from the lines just loaded
  // (measured faster than moving them into place with masked permutes).
  // Keys of exact zeros (and of the tiniest denormals: bucket 0), the bulk
  // of ReLU outputs, are counted in a register; the other keys are
  // compressed into a buffer and counted from there. NaN and infinities
  // are not filtered per value: their keys fall in buckets of exponent 255,
  // which no finite value has, and are cleared from there when the chunk
  // had any.
  __m512 mn0 = _mm512_set1_ps(r.lo), mx0 = _mm512_set1_ps(r.hi);
  __m512 mn1 = mn0, mx1 = mx0;
  __mmask16 unordered = 0;
  // Two vectors: one accumulator pair each (half the latency chain), one
  // compare for NaN in either.
  auto minmax2 = [&](const __m512 a, const __m512 b) {
    mn0 = _mm512_min_ps(a, mn0);  // a NaN value keeps the accumulator
    mx0 = _mm512_max_ps(a, mx0);
    mn1 = _mm512_min_ps(b, mn1);
    mx1 = _mm512_max_ps(b, mx1);
    unordered = _kor_mask16(unordered, _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q));
  };
  auto minmax1 = [&](const __m512 a) { minmax2(a, a); };
  const int64_t block = 16 * stride;
  bool counted_specials = false;
  if (n >= block && stride <= kMaxVectorStride) {
    const __m512i positions = _mm512_add_epi32(
        _mm512_set1_epi32(static_cast<int>(first)),
        _mm512_mullo_epi32(_mm512_set1_epi32(static_cast<int>(stride)),
                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                             11, 12, 13, 14, 15)));
    uint64_t zeros = 0;
    constexpr int kBuffer = 512;
    alignas(64) uint32_t keys[kBuffer + 16];
    int buffered = 0;
    for (; i + block <= n; i += block) {
      const float* p = data + i;
      int64_t k = 0;
      for (; k + 2 <= stride; k += 2) {
        minmax2(_mm512_loadu_ps(p + 16 * k), _mm512_loadu_ps(p + 16 * k + 16));
      }
      if (k < stride) minmax1(_mm512_loadu_ps(p + 16 * k));
      const __m512i bits =
          stride == 1 ? _mm512_loadu_si512(p)
                      : _mm512_i32gather_epi32(positions, p, sizeof(float));
      const __m512i key = _mm512_srli_epi32(bits, kBucketShift);
      const __mmask16 nonzero = _mm512_test_epi32_mask(key, key);
      zeros += static_cast<uint64_t>(16 - __builtin_popcount(nonzero));
      _mm512_storeu_si512(keys + buffered,
                          _mm512_maskz_compress_epi32(nonzero, key));
      buffered += __builtin_popcount(nonzero);
      if (buffered >= kBuffer) {
        CountKeys(keys, buffered, counts);
        buffered = 0;
      }
    }
    CountKeys(keys, buffered, counts);
    counts[0] += static_cast<uint32_t>(zeros);
    h = i;
    counted_specials = true;
  }
  for (; i + 32 <= n; i += 32) {
    minmax2(_mm512_loadu_ps(data + i), _mm512_loadu_ps(data + i + 16));
  }
  for (; i + 16 <= n; i += 16) minmax1(_mm512_loadu_ps(data + i));
  if (i > 0) {
    const __m512 mn = _mm512_min_ps(mn0, mn1), mx = _mm512_max_ps(mx0, mx1);
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, mn);
    for (float x : lanes) r.lo = MinOf(r.lo, x);
    _mm512_store_ps(lanes, mx);
    for (float x : lanes) r.hi = MaxOf(r.hi, x);
    if (unordered != 0 || std::isinf(r.lo) || std::isinf(r.hi)) {
      // NaN or infinities (rare): recount them exactly, and take their
      // keys out of the histogram.
      r = ChunkScan{};
      AddScalar(data, i, r);
      if (counted_specials) {
        for (uint32_t sign : {0u, kSignKey}) {
          for (uint32_t m = 0; m < 32; ++m) {
            counts[sign | kSpecialKey | m] = 0;
          }
        }
      }
    } else {
      r.finite = static_cast<uint64_t>(i);
    }
  }
#endif
  AddScalar(data + i, n - i, r);
  CountScalar(data + h, n - h, first, stride, counts);
  return r;
}

}  // namespace qforge::calibration
