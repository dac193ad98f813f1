// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The vector DEPTHWISE_CONV_2D of gemm_simd.h.
#include <algorithm>
#include <cstring>

#include "runtime/kernels/common/simd_target.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/conv/gemm_simd.h"

namespace qforge::runtime::integer {
namespace {

constexpr int64_t kChannelPad = 16;

// Output pixels per step: they share each tap's weight vector.
constexpr int kPixels = 4;

// The lanes of a channel block of `count` channels (all 16 from 16 up).
__mmask16 ChannelBlockMask(int64_t count) {
  return count >= 16
             ? static_cast<__mmask16>(0xFFFF)
             : static_cast<__mmask16>((1u << static_cast<int>(count)) - 1);
}

// Taps of output column ox that fall inside the image (padded taps add
// nothing, as in the reference), as input pixel offsets and tap indices.
struct Taps {
  int n = 0;
  int64_t pixel[64];
  int64_t tap[64];
};

bool CollectTaps(const DepthwiseGeometry& g, int64_t oy, int64_t ox, Taps* t) {
  if (g.k_h * g.k_w > 64) return false;
  t->n = 0;
  const int64_t iy0 = oy * g.stride_h - g.pad_top;
  const int64_t ix0 = ox * g.stride_w - g.pad_left;
  ForEachTapInside(g, iy0, ix0,
                   [&](int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
                     t->pixel[t->n] = iy * g.in_w + ix;
                     t->tap[t->n] = ky * g.k_w + kx;
                     ++t->n;
                   });
  return true;
}

// The interior of the image: output columns [lo, hi) whose window lies
// inside in x, and whether row oy's does in y; the window's input pixel
// offsets from its top-left tap.
struct Interior {
  bool row = false;
  int64_t lo = 0, hi = 0;
  int64_t offset[64];
};

void FindInterior(const DepthwiseGeometry& g, int64_t oy, Interior* in) {
  const int64_t iy0 = oy * g.stride_h - g.pad_top;
  in->row = iy0 >= 0 && iy0 + (g.k_h - 1) * g.dil_h < g.in_h;
  // ox * stride_w - pad_left >= 0 and ... + (k_w - 1) * dil_w < in_w.
  in->lo = g.pad_left <= 0 ? 0 : (g.pad_left + g.stride_w - 1) / g.stride_w;
  const int64_t last = g.in_w - 1 - (g.k_w - 1) * g.dil_w + g.pad_left;
  in->hi = last < 0 ? 0 : std::min(g.out_w, last / g.stride_w + 1);
  for (int64_t ky = 0; ky < g.k_h; ++ky) {
    for (int64_t kx = 0; kx < g.k_w; ++kx) {
      in->offset[ky * g.k_w + kx] = ky * g.dil_h * g.in_w + kx * g.dil_w;
    }
  }
}

QF_TARGET_AVX512 void Row512(const DepthwiseWeights& w,
                             const DepthwiseGeometry& g, const int16_t* x,
                             int64_t oy, const OutputStage& os, void* out) {
  const int64_t C = w.channels, cpad = w.cpad;
  const size_t es = os.out_bytes();
  alignas(64) int32_t buf[kPixels][16];
  Taps taps[kPixels];
  Interior in;
  FindInterior(g, oy, &in);
  const int64_t iy0 = oy * g.stride_h - g.pad_top;
  for (int64_t ox0 = 0; ox0 < g.out_w; ox0 += kPixels) {
    const int np = static_cast<int>(std::min<int64_t>(kPixels, g.out_w - ox0));
    // Interior pixels see every tap at fixed offsets: they share the
    // weight loads, without per-tap bounds checks.
    if (in.row && np == kPixels && ox0 >= in.lo && ox0 + kPixels <= in.hi) {
      const int16_t* base[kPixels];
      for (int p = 0; p < kPixels; ++p) {
        base[p] =
            x + (iy0 * g.in_w + (ox0 + p) * g.stride_w - g.pad_left) * cpad;
      }
      for (int64_t cb = 0; cb < C; cb += 16) {
        const int64_t count = std::min<int64_t>(16, C - cb);
        __m512i acc[kPixels];
        for (int p = 0; p < kPixels; ++p) acc[p] = _mm512_setzero_si512();
        for (int64_t k = 0; k < w.taps; ++k) {
          const __m512i wv = _mm512_loadu_si512(w.data.data() + k * cpad + cb);
          const int64_t off = in.offset[k] * cpad + cb;
          for (int p = 0; p < kPixels; ++p) {
            const __m512i xv = _mm512_cvtepi16_epi32(_mm256_loadu_si256(
                reinterpret_cast<const __m256i*>(base[p] + off)));
            acc[p] = _mm512_add_epi32(acc[p], _mm512_madd_epi16(xv, wv));
          }
        }
        for (int p = 0; p < kPixels; ++p) _mm512_store_si512(buf[p], acc[p]);
        os.RunRows(buf[0], 16, kPixels, cb, count,
                   static_cast<uint8_t*>(out) + (ox0 * C + cb) * es,
                   C * static_cast<int64_t>(es));
      }
      continue;
    }
    for (int p = 0; p < np; ++p) CollectTaps(g, oy, ox0 + p, &taps[p]);
    for (int64_t cb = 0; cb < C; cb += 16) {
      const int64_t count = std::min<int64_t>(16, C - cb);
      for (int p = 0; p < np; ++p) {
        __m512i acc = _mm512_setzero_si512();
        for (int k = 0; k < taps[p].n; ++k) {
          const __m512i wv =
              _mm512_loadu_si512(w.data.data() + taps[p].tap[k] * cpad + cb);
          const __m512i xv = _mm512_cvtepi16_epi32(
              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(
                  x + taps[p].pixel[k] * cpad + cb)));
          acc = _mm512_add_epi32(acc, _mm512_madd_epi16(xv, wv));
        }
        _mm512_store_si512(buf[p], acc);
      }
      os.RunRows(buf[0], 16, np, cb, count,
                 static_cast<uint8_t*>(out) + (ox0 * C + cb) * es,
                 C * static_cast<int64_t>(es));
    }
  }
}

// The 8-bit form: the input's bytes read in place (`C` channels per
// pixel), no int16 copy. Interior pixels accumulate sum x * w over every
// tap and border pixels take the zero point for a padded tap, so each
// accumulator is sum (x - zp) * w + zp * sum w; the output stage's bias
// carries -zp * sum w (DepthwiseInputCorrection), which makes it the
// reference's sum over the valid taps. Every product (vpdpwssd of (x,
// sign) with (w, 0)) and sum is exact in int32.
//
// Channel blocks outer, pixels inner: a block's accumulators for the
// whole row (up to kRowChunk pixels) go through the output stage in one
// call, which loads the block's requantization constants once.
constexpr int64_t kRowChunk = 64;
static_assert(kPixels == 4, "InteriorBlock unrolls four pixels");

template <bool kSigned>
QF_TARGET_AVX512 inline __m512i LoadBytes16(__mmask16 k, const uint8_t* p) {
  const __m128i b = _mm_maskz_loadu_epi8(k, p);
  return kSigned ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}

// kPixels interior pixels (every tap inside), base[p] their top-left taps.
template <bool kSigned>
QF_TARGET_AVX512 inline void InteriorBlock(const int32_t* wb, int64_t cpad,
                                           int64_t taps, const int64_t* off,
                                           const uint8_t* const* base,
                                           __mmask16 k, int32_t* acc_out) {
  // Even and odd taps in separate accumulators: eight independent chains
  // hide vpdpwssd's latency.
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
  __m512i b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  int64_t t = 0;
  for (; t + 2 <= taps; t += 2) {
    const __m512i wv = _mm512_loadu_si512(wb + t * cpad);
    const __m512i wu = _mm512_loadu_si512(wb + (t + 1) * cpad);
    const int64_t o = off[t], u = off[t + 1];
    a0 = _mm512_dpwssd_epi32(a0, LoadBytes16<kSigned>(k, base[0] + o), wv);
    a1 = _mm512_dpwssd_epi32(a1, LoadBytes16<kSigned>(k, base[1] + o), wv);
    a2 = _mm512_dpwssd_epi32(a2, LoadBytes16<kSigned>(k, base[2] + o), wv);
    a3 = _mm512_dpwssd_epi32(a3, LoadBytes16<kSigned>(k, base[3] + o), wv);
    b0 = _mm512_dpwssd_epi32(b0, LoadBytes16<kSigned>(k, base[0] + u), wu);
    b1 = _mm512_dpwssd_epi32(b1, LoadBytes16<kSigned>(k, base[1] + u), wu);
    b2 = _mm512_dpwssd_epi32(b2, LoadBytes16<kSigned>(k, base[2] + u), wu);
    b3 = _mm512_dpwssd_epi32(b3, LoadBytes16<kSigned>(k, base[3] + u), wu);
  }
  if (t < taps) {
    const __m512i wv = _mm512_loadu_si512(wb + t * cpad);
    const int64_t o = off[t];
    a0 = _mm512_dpwssd_epi32(a0, LoadBytes16<kSigned>(k, base[0] + o), wv);
    a1 = _mm512_dpwssd_epi32(a1, LoadBytes16<kSigned>(k, base[1] + o), wv);
    a2 = _mm512_dpwssd_epi32(a2, LoadBytes16<kSigned>(k, base[2] + o), wv);
    a3 = _mm512_dpwssd_epi32(a3, LoadBytes16<kSigned>(k, base[3] + o), wv);
  }
  // Integer sums: exact in any order (int32 wrap-around).
  _mm512_store_si512(acc_out, _mm512_add_epi32(a0, b0));
  _mm512_store_si512(acc_out + 16, _mm512_add_epi32(a1, b1));
  _mm512_store_si512(acc_out + 32, _mm512_add_epi32(a2, b2));
  _mm512_store_si512(acc_out + 48, _mm512_add_epi32(a3, b3));
}

// kSlide interior pixels of a layer with x dilation 1, x stride kS and
// kW taps per row, base their top-left taps: each row of taps reads the
// kS * (kSlide - 1) + kW input vectors the pixels share once (pixel p's
// tap kx is input kS * p + kx), where InteriorBlock reads kW per pixel.
constexpr int kSlide = 8;

template <bool kSigned, int kS, int kW>
QF_TARGET_AVX512 inline void SlideBlock(const int32_t* wb, int64_t cpad,
                                        int64_t k_h, int64_t row_step,
                                        int64_t C, const uint8_t* base,
                                        __mmask16 k, int32_t* acc_out) {
  constexpr int kIn = kS * (kSlide - 1) + kW;
  __m512i a[kSlide];
#pragma GCC unroll 16
  for (int p = 0; p < kSlide; ++p) a[p] = _mm512_setzero_si512();
  for (int64_t ky = 0; ky < k_h; ++ky) {
    const uint8_t* r = base + ky * row_step;
    __m512i x[kIn];
#pragma GCC unroll 32
    for (int i = 0; i < kIn; ++i) x[i] = LoadBytes16<kSigned>(k, r + i * C);
#pragma GCC unroll 8
    for (int kx = 0; kx < kW; ++kx) {
      const __m512i wv = _mm512_loadu_si512(wb + (ky * kW + kx) * cpad);
#pragma GCC unroll 16
      for (int p = 0; p < kSlide; ++p) {
        a[p] = _mm512_dpwssd_epi32(a[p], x[kS * p + kx], wv);
      }
    }
  }
#pragma GCC unroll 16
  for (int p = 0; p < kSlide; ++p) _mm512_store_si512(acc_out + 16 * p, a[p]);
}

// SlideBlock's form for this layer: kS * 4 + kW (0: none).
int SlideForm(const DepthwiseGeometry& g) {
  if (g.dil_w != 1 || (g.stride_w != 1 && g.stride_w != 2) ||
      (g.k_w != 3 && g.k_w != 5)) {
    return 0;
  }
  return static_cast<int>(g.stride_w * 4 + g.k_w);
}

// SlideBlock on pixels ox, ox + kSlide, ... while they are interior;
// returns the first pixel not done.
template <bool kSigned>
QF_TARGET_AVX512 inline int64_t SlideRun(int form, const int32_t* wb,
                                         int64_t cpad,
                                         const DepthwiseGeometry& g,
                                         const uint8_t* row, int64_t C,
                                         int64_t ox, int64_t end, __mmask16 k,
                                         int32_t* acc) {
  const int64_t row_step = g.dil_h * g.in_w * C;
  for (; ox + kSlide <= end; ox += kSlide, acc += 16 * kSlide) {
    const uint8_t* base = row + (ox * g.stride_w - g.pad_left) * C;
    switch (form) {
      case 7:
        SlideBlock<kSigned, 1, 3>(wb, cpad, g.k_h, row_step, C, base, k, acc);
        break;
      case 9:
        SlideBlock<kSigned, 1, 5>(wb, cpad, g.k_h, row_step, C, base, k, acc);
        break;
      case 11:
        SlideBlock<kSigned, 2, 3>(wb, cpad, g.k_h, row_step, C, base, k, acc);
        break;
      case 13:
        SlideBlock<kSigned, 2, 5>(wb, cpad, g.k_h, row_step, C, base, k, acc);
        break;
      default:
        return ox;
    }
  }
  return ox;
}

// One pixel near the border: padded taps read the zero point.
template <bool kSigned>
QF_TARGET_AVX512 inline void BorderPixel(const int32_t* wb, int64_t cpad,
                                         const DepthwiseGeometry& g,
                                         const uint8_t* x, int64_t C,
                                         int64_t iy0, int64_t ix0, __m512i zp,
                                         __mmask16 k, int32_t* acc_out) {
  __m512i acc = _mm512_setzero_si512();
  for (int64_t ky = 0; ky < g.k_h; ++ky) {
    const int64_t iy = iy0 + ky * g.dil_h;
    const bool row_in = iy >= 0 && iy < g.in_h;
    for (int64_t kx = 0; kx < g.k_w; ++kx) {
      const int64_t ix = ix0 + kx * g.dil_w;
      const __m512i wv = _mm512_loadu_si512(wb + (ky * g.k_w + kx) * cpad);
      const __m512i xv =
          row_in && ix >= 0 && ix < g.in_w
              ? LoadBytes16<kSigned>(k, x + (iy * g.in_w + ix) * C)
              : zp;
      acc = _mm512_dpwssd_epi32(acc, xv, wv);
    }
  }
  _mm512_store_si512(acc_out, acc);
}

// kPixels pixels near the border, each tap read through a table of
// input pointers (tab[p * taps + t]; a padded tap points at a row of zero
// point bytes): four independent accumulator chains, like InteriorBlock.
template <bool kSigned>
QF_TARGET_AVX512 inline void TableBlock(const int32_t* wb, int64_t cpad,
                                        int64_t taps, const uint8_t* const* tab,
                                        int64_t cb, __mmask16 k,
                                        int32_t* const* acc_out) {
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
  const uint8_t* const* t0 = tab;
  const uint8_t* const* t1 = tab + taps;
  const uint8_t* const* t2 = tab + 2 * taps;
  const uint8_t* const* t3 = tab + 3 * taps;
  __m512i b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  int64_t t = 0;
  for (; t + 2 <= taps; t += 2) {
    const __m512i wv = _mm512_loadu_si512(wb + t * cpad);
    const __m512i wu = _mm512_loadu_si512(wb + (t + 1) * cpad);
    a0 = _mm512_dpwssd_epi32(a0, LoadBytes16<kSigned>(k, t0[t] + cb), wv);
    a1 = _mm512_dpwssd_epi32(a1, LoadBytes16<kSigned>(k, t1[t] + cb), wv);
    a2 = _mm512_dpwssd_epi32(a2, LoadBytes16<kSigned>(k, t2[t] + cb), wv);
    a3 = _mm512_dpwssd_epi32(a3, LoadBytes16<kSigned>(k, t3[t] + cb), wv);
    b0 = _mm512_dpwssd_epi32(b0, LoadBytes16<kSigned>(k, t0[t + 1] + cb), wu);
    b1 = _mm512_dpwssd_epi32(b1, LoadBytes16<kSigned>(k, t1[t + 1] + cb), wu);
    b2 = _mm512_dpwssd_epi32(b2, LoadBytes16<kSigned>(k, t2[t + 1] + cb), wu);
    b3 = _mm512_dpwssd_epi32(b3, LoadBytes16<kSigned>(k, t3[t + 1] + cb), wu);
  }
  if (t < taps) {
    const __m512i wv = _mm512_loadu_si512(wb + t * cpad);
    a0 = _mm512_dpwssd_epi32(a0, LoadBytes16<kSigned>(k, t0[t] + cb), wv);
    a1 = _mm512_dpwssd_epi32(a1, LoadBytes16<kSigned>(k, t1[t] + cb), wv);
    a2 = _mm512_dpwssd_epi32(a2, LoadBytes16<kSigned>(k, t2[t] + cb), wv);
    a3 = _mm512_dpwssd_epi32(a3, LoadBytes16<kSigned>(k, t3[t] + cb), wv);
  }
  _mm512_store_si512(acc_out[0], _mm512_add_epi32(a0, b0));
  _mm512_store_si512(acc_out[1], _mm512_add_epi32(a1, b1));
  _mm512_store_si512(acc_out[2], _mm512_add_epi32(a2, b2));
  _mm512_store_si512(acc_out[3], _mm512_add_epi32(a3, b3));
}

// Limits of Row512Bytes' tables on the stack; larger layers take
// BorderPixel.
constexpr int64_t kTableTaps = 25;
constexpr int64_t kZeroRowBytes = 1024;

// An 8-channel layer with x stride and dilation 1 (DepthwiseWeights::
// pairs8): output pixels ox and ox + 1 share a 16-lane vector, whose 16
// input bytes per tap are adjacent in memory for interior pairs; a pair
// near the border reads its two 8-byte halves from a copy (zero point
// bytes for padded taps). The weights and the output stage's constants
// are repeated in lanes 8-15.
template <bool kSigned>
QF_TARGET_AVX512 void RowPairs8(const DepthwiseWeights& w,
                                const DepthwiseGeometry& g, const uint8_t* x,
                                int32_t zero_point, int64_t oy,
                                const OutputStage& os, void* out) {
  constexpr int64_t C = 8;
  constexpr int64_t kPairs = kRowChunk / 2;
  const int64_t taps = w.taps;
  const size_t es = os.out_bytes();
  Interior in;
  FindInterior(g, oy, &in);
  int64_t off[64];
  for (int64_t t = 0; t < taps; ++t) off[t] = in.offset[t] * C;
  const int64_t iy0 = oy * g.stride_h - g.pad_top;
  alignas(64) int32_t wdup[kTableTaps * 16];
  for (int64_t t = 0; t < taps; ++t) {
    std::copy_n(w.data.data() + t * w.cpad, C, wdup + t * 16);
    std::copy_n(w.data.data() + t * w.cpad, C, wdup + t * 16 + C);
  }
  uint8_t zero_row[C];
  std::memset(zero_row, static_cast<uint8_t>(zero_point), C);
  alignas(64) int32_t buf[kPairs][16];
  alignas(64) int32_t spill[16];
  alignas(16) uint8_t halves[(kPairs + kPixels) * kTableTaps][16];
  const uint8_t* tab[(kPairs + kPixels) * kTableTaps];
  int64_t border[kPairs];
  // Input pixel of output pixel ox's tap (ky, kx), nullptr when padded.
  auto pixel = [&](int64_t ox, int64_t ky, int64_t kx) -> const uint8_t* {
    const int64_t iy = iy0 + ky * g.dil_h;
    const int64_t ix = ox - g.pad_left + kx;
    return iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w
               ? x + (iy * g.in_w + ix) * C
               : nullptr;
  };
  for (int64_t x0 = 0; x0 < g.out_w; x0 += kRowChunk) {
    const int64_t x1 = std::min(g.out_w, x0 + kRowChunk);
    const int64_t pairs = (x1 - x0 + 1) / 2;
    // Interior groups of four pairs at [first, last), the rest border.
    int64_t first = pairs, last = pairs, nb = 0;
    for (int64_t j = 0; j < pairs;) {
      const int64_t ox = x0 + 2 * j;
      if (in.row && ox >= in.lo && ox + 2 * kPixels <= in.hi &&
          ox + 2 * kPixels <= x1) {
        if (first == pairs) first = j;
        j += kPixels;
        last = j;
        continue;
      }
      const uint8_t** tp = tab + nb * taps;
      for (int64_t ky = 0; ky < g.k_h; ++ky) {
        for (int64_t kx = 0; kx < g.k_w; ++kx) {
          const uint8_t* a = pixel(ox, ky, kx);
          const uint8_t* b = ox + 1 < x1 ? pixel(ox + 1, ky, kx) : nullptr;
          if (a != nullptr && b == a + C) {
            *tp++ = a;
          } else {
            uint8_t* h = halves[tp - tab];
            std::memcpy(h, a != nullptr ? a : zero_row, C);
            std::memcpy(h + C, b != nullptr ? b : zero_row, C);
            *tp++ = h;
          }
        }
      }
      border[nb++] = j++;
    }
    for (int64_t j = nb; j % kPixels != 0; ++j) {
      std::copy_n(tab + (nb - 1) * taps, taps, tab + j * taps);
    }
    for (int64_t j = first; j < last; j += kPixels) {
      const uint8_t* base[kPixels];
      for (int p = 0; p < kPixels; ++p) {
        base[p] = x + (iy0 * g.in_w + x0 + 2 * (j + p) - g.pad_left) * C;
      }
      InteriorBlock<kSigned>(wdup, 16, taps, off, base,
                             static_cast<__mmask16>(0xFFFF), buf[j]);
    }
    for (int64_t j = 0; j < nb; j += kPixels) {
      int32_t* dst[kPixels];
      for (int p = 0; p < kPixels; ++p) {
        dst[p] = j + p < nb ? buf[border[j + p]] : spill;
      }
      TableBlock<kSigned>(wdup, 16, taps, tab + j * taps, 0,
                          static_cast<__mmask16>(0xFFFF), dst);
    }
    uint8_t* o = static_cast<uint8_t*>(out) + x0 * C * es;
    const int64_t full = (x1 - x0) / 2;
    if (full > 0) {
      os.RunRows(buf[0], 16, static_cast<int>(full), 0, 16, o,
                 2 * C * static_cast<int64_t>(es));
    }
    if (full < pairs) {
      os.RunRows(buf[full], 16, 1, 0, C, o + full * 2 * C * es,
                 2 * C * static_cast<int64_t>(es));
    }
  }
}

template <bool kSigned>
QF_TARGET_AVX512 void Row512Bytes(const DepthwiseWeights& w,
                                  const DepthwiseGeometry& g, const uint8_t* x,
                                  int32_t zero_point, int64_t oy,
                                  const OutputStage& os, void* out) {
  if (w.pairs8) {
    RowPairs8<kSigned>(w, g, x, zero_point, oy, os, out);
    return;
  }
  const int64_t C = w.channels, cpad = w.cpad;
  const size_t es = os.out_bytes();
  alignas(64) int32_t buf[kRowChunk][16];
  Interior in;
  FindInterior(g, oy, &in);
  int64_t off[64];
  for (int64_t t = 0; t < w.taps; ++t) off[t] = in.offset[t] * C;
  const int64_t iy0 = oy * g.stride_h - g.pad_top;
  const __m512i zp = _mm512_set1_epi32(zero_point);
  const bool tables = w.taps <= kTableTaps && C <= kZeroRowBytes;
  const int slide = SlideForm(g);
  alignas(64) uint8_t zero_row[kZeroRowBytes];
  if (tables) {
    std::memset(zero_row, static_cast<uint8_t>(zero_point),
                static_cast<size_t>(C));
  }
  const uint8_t* tab[(kRowChunk + kPixels) * kTableTaps];
  int64_t border[kRowChunk];
  alignas(64) int32_t spill[16];
  for (int64_t x0 = 0; x0 < g.out_w; x0 += kRowChunk) {
    const int64_t x1 = std::min(g.out_w, x0 + kRowChunk);
    if (tables) {
      // The border pixels of the chunk and their taps' input pixels, then
      // per channel block the interior in fours and the border in fours.
      int64_t nb = 0;
      for (int64_t ox = x0; ox < x1;) {
        if (in.row && ox >= in.lo && ox + kPixels <= in.hi &&
            ox + kPixels <= x1) {
          ox += kPixels;
          continue;
        }
        const uint8_t** tp = tab + nb * w.taps;
        const int64_t ix0 = ox * g.stride_w - g.pad_left;
        for (int64_t ky = 0; ky < g.k_h; ++ky) {
          const int64_t iy = iy0 + ky * g.dil_h;
          const bool row_in = iy >= 0 && iy < g.in_h;
          for (int64_t kx = 0; kx < g.k_w; ++kx) {
            const int64_t ix = ix0 + kx * g.dil_w;
            *tp++ = row_in && ix >= 0 && ix < g.in_w
                        ? x + (iy * g.in_w + ix) * C
                        : zero_row;
          }
        }
        border[nb++] = ox++;
      }
      // A last group of fewer than four repeats its last pixel.
      for (int64_t j = nb; j % kPixels != 0; ++j) {
        std::copy_n(tab + (nb - 1) * w.taps, w.taps, tab + j * w.taps);
      }
      for (int64_t cb = 0; cb < C; cb += 16) {
        const int64_t count = std::min<int64_t>(16, C - cb);
        const __mmask16 k = ChannelBlockMask(count);
        const int32_t* wb = w.data.data() + cb;
        const uint8_t* xc = x + cb;
        if (in.row) {
          int64_t ox = std::max(x0, in.lo);
          if (slide != 0) {
            ox = SlideRun<kSigned>(slide, wb, cpad, g, xc + iy0 * g.in_w * C, C,
                                   ox, std::min(in.hi, x1), k, buf[ox - x0]);
          }
          for (; ox + kPixels <= in.hi && ox + kPixels <= x1; ox += kPixels) {
            const uint8_t* base[kPixels];
            for (int p = 0; p < kPixels; ++p) {
              base[p] =
                  xc + (iy0 * g.in_w + (ox + p) * g.stride_w - g.pad_left) * C;
            }
            InteriorBlock<kSigned>(wb, cpad, w.taps, off, base, k,
                                   buf[ox - x0]);
          }
        }
        for (int64_t j = 0; j < nb; j += kPixels) {
          int32_t* dst[kPixels];
          for (int p = 0; p < kPixels; ++p) {
            dst[p] = j + p < nb ? buf[border[j + p] - x0] : spill;
          }
          TableBlock<kSigned>(wb, cpad, w.taps, tab + j * w.taps, cb, k, dst);
        }
        os.RunRows(buf[0], 16, static_cast<int>(x1 - x0), cb, count,
                   static_cast<uint8_t*>(out) + (x0 * C + cb) * es,
                   C * static_cast<int64_t>(es));
      }
      continue;
    }
    for (int64_t cb = 0; cb < C; cb += 16) {
      const int64_t count = std::min<int64_t>(16, C - cb);
      const __mmask16 k = ChannelBlockMask(count);
      const int32_t* wb = w.data.data() + cb;
      const uint8_t* xc = x + cb;
      for (int64_t ox = x0; ox < x1;) {
        if (in.row && ox >= in.lo && ox + kPixels <= in.hi &&
            ox + kPixels <= x1) {
          const uint8_t* base[kPixels];
          for (int p = 0; p < kPixels; ++p) {
            base[p] =
                xc + (iy0 * g.in_w + (ox + p) * g.stride_w - g.pad_left) * C;
          }
          InteriorBlock<kSigned>(wb, cpad, w.taps, off, base, k, buf[ox - x0]);
          ox += kPixels;
        } else {
          BorderPixel<kSigned>(wb, cpad, g, xc, C, iy0,
                               ox * g.stride_w - g.pad_left, zp, k,
                               buf[ox - x0]);
          ++ox;
        }
      }
      os.RunRows(buf[0], 16, static_cast<int>(x1 - x0), cb, count,
                 static_cast<uint8_t*>(out) + (x0 * C + cb) * es,
                 C * static_cast<int64_t>(es));
    }
  }
}

QF_TARGET_AVX2 void Row256(const DepthwiseWeights& w,
                           const DepthwiseGeometry& g, const int16_t* x,
                           int64_t oy, const OutputStage& os, void* out) {
  const int64_t C = w.channels, cpad = w.cpad;
  const size_t es = os.out_bytes();
  alignas(32) int32_t buf[8];
  Taps taps;
  for (int64_t ox = 0; ox < g.out_w; ++ox) {
    CollectTaps(g, oy, ox, &taps);
    for (int64_t cb = 0; cb < C; cb += 8) {
      __m256i acc = _mm256_setzero_si256();
      for (int k = 0; k < taps.n; ++k) {
        const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(
            w.data.data() + taps.tap[k] * cpad + cb));
        const __m256i xv = _mm256_cvtepi16_epi32(_mm_loadu_si128(
            reinterpret_cast<const __m128i*>(x + taps.pixel[k] * cpad + cb)));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(xv, wv));
      }
      _mm256_store_si256(reinterpret_cast<__m256i*>(buf), acc);
      os.Run(buf, cb, std::min<int64_t>(8, C - cb),
             static_cast<uint8_t*>(out) + (ox * C + cb) * es);
    }
  }
}

}  // namespace

int64_t DepthwiseChannelsPadded(int64_t channels) {
  return (channels + kChannelPad - 1) / kChannelPad * kChannelPad;
}

template <typename T>
void PackDepthwiseWeights(const T* w, int32_t zero_point, int64_t taps,
                          int64_t channels, Isa isa, DepthwiseWeights* out) {
  out->isa = isa;
  out->channels = channels;
  out->cpad = DepthwiseChannelsPadded(channels);
  out->taps = taps;
  out->data.assign(static_cast<size_t>(taps * out->cpad), 0);
  for (int64_t t = 0; t < taps; ++t) {
    for (int64_t c = 0; c < channels; ++c) {
      const int32_t v = static_cast<int32_t>(w[t * channels + c]) - zero_point;
      // (w, 0) as an int16 pair: vpmaddwd with (x, sign of x) gives x * w.
      out->data[static_cast<size_t>(t * out->cpad + c)] =
          static_cast<int32_t>(static_cast<uint16_t>(static_cast<int16_t>(v)));
    }
  }
}

void DepthwiseRow(const DepthwiseWeights& w, const DepthwiseGeometry& g,
                  const int16_t* x, int64_t oy, const OutputStage& os,
                  void* out) {
  if (w.isa == Isa::kAvx512Vnni) {
    Row512(w, g, x, oy, os, out);
  } else {
    Row256(w, g, x, oy, os, out);
  }
}

void EnableDepthwisePairs(const DepthwiseGeometry& g, DepthwiseWeights* w,
                          OutputStage* os) {
  if (w->isa != Isa::kAvx512Vnni || w->channels != 8 || g.stride_w != 1 ||
      g.dil_w != 1 || w->taps > kTableTaps || g.k_h * g.k_w != w->taps) {
    return;
  }
  os->MirrorEightChannels();
  w->pairs8 = true;
}

std::vector<int32_t> DepthwiseInputCorrection(const DepthwiseWeights& w,
                                              int32_t input_zero_point) {
  std::vector<int32_t> out(static_cast<size_t>(w.channels));
  for (int64_t c = 0; c < w.channels; ++c) {
    int64_t sum = 0;
    for (int64_t t = 0; t < w.taps; ++t) {
      sum += static_cast<int16_t>(w.data[static_cast<size_t>(t * w.cpad + c)]);
    }
    out[static_cast<size_t>(c)] = static_cast<int32_t>(-sum * input_zero_point);
  }
  return out;
}

void DepthwiseRowBytes(const DepthwiseWeights& w, const DepthwiseGeometry& g,
                       const void* x, bool is_signed, int32_t zero_point,
                       int64_t oy, const OutputStage& os, void* out) {
  const uint8_t* b = static_cast<const uint8_t*>(x);
  if (is_signed) {
    Row512Bytes<true>(w, g, b, zero_point, oy, os, out);
  } else {
    Row512Bytes<false>(w, g, b, zero_point, oy, os, out);
  }
}

template void PackDepthwiseWeights<int8_t>(const int8_t*, int32_t, int64_t,
                                           int64_t, Isa, DepthwiseWeights*);
template void PackDepthwiseWeights<uint8_t>(const uint8_t*, int32_t, int64_t,
                                            int64_t, Isa, DepthwiseWeights*);

}  // namespace qforge::runtime::integer
