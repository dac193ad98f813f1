// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/conv/gemm_simd.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "runtime/kernels/common/simd_target.h"

namespace qforge::runtime::integer {
namespace {

// Rows per microkernel call and the most panels one call covers: 6 x 4
// panels is 24 of AVX-512's 32 registers; 4 x 2 is 8 of AVX2's 16.
constexpr int kMr512 = 6, kMaxNb512 = 4;
constexpr int kMr256 = 4, kMaxNb256 = 2;
constexpr int kMaxMr = 6;
constexpr int kMaxTileInts = kMaxMr * 64;

// ------------------------------------------------------------- kernels
//
// acc[r][j] (lanes of panel j, row r) += sum over taps and k-pairs of the
// broadcast pair A(r, t)[2k, 2k + 1] times the pair-interleaved panel.

template <int MR, int NB>
QF_TARGET_AVX512 void Kernel512(int64_t taps, int64_t kc2,
                                const void* const* rows, const void* bp,
                                int64_t pstride, int32_t* c) {
  const int16_t* b = static_cast<const int16_t*>(bp);
  __m512i acc[MR][NB];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_setzero_si512();
  }
  for (int64_t t = 0; t < taps; ++t) {
    const int16_t* a[MR];
    for (int r = 0; r < MR; ++r) {
      a[r] = static_cast<const int16_t*>(rows[r * taps + t]);
    }
    const int16_t* bt = b + t * kc2 * 32;
    for (int64_t k = 0; k < kc2; ++k) {
      __m512i bv[NB];
      for (int j = 0; j < NB; ++j) {
        bv[j] = _mm512_loadu_si512(bt + j * pstride + k * 32);
      }
      for (int r = 0; r < MR; ++r) {
        const __m512i av = _mm512_set1_epi32(Load32(a[r] + 2 * k));
        for (int j = 0; j < NB; ++j) {
          acc[r][j] = _mm512_dpwssd_epi32(acc[r][j], av, bv[j]);
        }
      }
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) {
      _mm512_storeu_si512(c + r * NB * 16 + j * 16, acc[r][j]);
    }
  }
}

template <int MR, int NB>
QF_TARGET_AVX2 void Kernel256(int64_t taps, int64_t kc2,
                              const void* const* rows, const void* bp,
                              int64_t pstride, int32_t* c) {
  const int16_t* b = static_cast<const int16_t*>(bp);
  __m256i acc[MR][NB];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) acc[r][j] = _mm256_setzero_si256();
  }
  for (int64_t t = 0; t < taps; ++t) {
    const int16_t* a[MR];
    for (int r = 0; r < MR; ++r) {
      a[r] = static_cast<const int16_t*>(rows[r * taps + t]);
    }
    const int16_t* bt = b + t * kc2 * 16;
    for (int64_t k = 0; k < kc2; ++k) {
      __m256i bv[NB];
      for (int j = 0; j < NB; ++j) {
        bv[j] = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(bt + j * pstride + k * 16));
      }
      for (int r = 0; r < MR; ++r) {
        const __m256i av = _mm256_set1_epi32(Load32(a[r] + 2 * k));
        for (int j = 0; j < NB; ++j) {
          acc[r][j] = _mm256_add_epi32(acc[r][j], _mm256_madd_epi16(av, bv[j]));
        }
      }
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * NB * 8 + j * 8),
                          acc[r][j]);
    }
  }
}

// dot4: acc[r][j] += sum over taps and k-quads of the broadcast quad
// A(r, t)[4k .. 4k + 3] ^ 0x80 (int8 -> u8 + 128) times the panel's quads.
template <int MR, int NB>
QF_TARGET_AVX512 void KernelDot4(int64_t taps, int64_t kc4,
                                 const void* const* rows, const void* bp,
                                 int64_t pstride, int32_t* c) {
  const int8_t* b = static_cast<const int8_t*>(bp);
  const __m512i flip = _mm512_set1_epi32(static_cast<int32_t>(0x80808080u));
  __m512i acc[MR][NB];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_setzero_si512();
  }
  for (int64_t t = 0; t < taps; ++t) {
    const int8_t* a[MR];
    for (int r = 0; r < MR; ++r) {
      a[r] = static_cast<const int8_t*>(rows[r * taps + t]);
    }
    const int8_t* bt = b + t * kc4 * 64;
    for (int64_t k = 0; k < kc4; ++k) {
      __m512i bv[NB];
      for (int j = 0; j < NB; ++j) {
        bv[j] = _mm512_loadu_si512(bt + j * pstride + k * 64);
      }
      for (int r = 0; r < MR; ++r) {
        const __m512i av =
            _mm512_xor_si512(_mm512_set1_epi32(Load32(a[r] + 4 * k)), flip);
        for (int j = 0; j < NB; ++j) {
          acc[r][j] = _mm512_dpbusd_epi32(acc[r][j], av, bv[j]);
        }
      }
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) {
      _mm512_storeu_si512(c + r * NB * 16 + j * 16, acc[r][j]);
    }
  }
}

// dot4 on rows already flipped to unsigned (GemmA::offsets): row r's tap
// t is base + off[r * taps + t].
template <int MR, int NB>
QF_TARGET_AVX512 void KernelDot4U(int64_t taps, int64_t kc4,
                                  const uint8_t* base, const int32_t* off,
                                  const void* bp, int64_t pstride, int32_t* c) {
  const int8_t* b = static_cast<const int8_t*>(bp);
  __m512i acc[MR][NB];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_setzero_si512();
  }
  for (int64_t t = 0; t < taps; ++t) {
    const uint8_t* a[MR];
    for (int r = 0; r < MR; ++r) a[r] = base + off[r * taps + t];
    const int8_t* bt = b + t * kc4 * 64;
    for (int64_t k = 0; k < kc4; ++k) {
      __m512i bv[NB];
      for (int j = 0; j < NB; ++j) {
        bv[j] = _mm512_loadu_si512(bt + j * pstride + k * 64);
      }
      for (int r = 0; r < MR; ++r) {
        const __m512i av = _mm512_set1_epi32(Load32(a[r] + 4 * k));
        for (int j = 0; j < NB; ++j) {
          acc[r][j] = _mm512_dpbusd_epi32(acc[r][j], av, bv[j]);
        }
      }
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < NB; ++j) {
      _mm512_storeu_si512(c + r * NB * 16 + j * 16, acc[r][j]);
    }
  }
}

using KernelFn = void (*)(int64_t, int64_t, const void* const*, const void*,
                          int64_t, int32_t*);
using KernelUFn = void (*)(int64_t, int64_t, const uint8_t*, const int32_t*,
                           const void*, int64_t, int32_t*);

template <int... I>
KernelUFn PickDot4U(int mr, int nb, std::integer_sequence<int, I...>) {
  static constexpr KernelUFn kNb1[] = {KernelDot4U<I + 1, 1>...};
  static constexpr KernelUFn kNb2[] = {KernelDot4U<I + 1, 2>...};
  static constexpr KernelUFn kNb4[] = {KernelDot4U<I + 1, 4>...};
  const int m = mr >= 1 && mr < kMr512 ? mr - 1 : kMr512 - 1;
  return nb == 4 ? kNb4[m] : nb == 2 ? kNb2[m] : kNb1[m];
}

// The microkernel of family F (F::kFn<MR, NB>) for mr rows, up to kMaxMr
// (any other mr takes kMaxMr), and nb panels: 1, 2 or up to kMaxNb.
template <typename F, int kMaxMr, int kMaxNb, int... I>
KernelFn PickFrom(int mr, int nb, std::integer_sequence<int, I...>) {
  static constexpr KernelFn kNb1[] = {F::template kFn<I + 1, 1>...};
  static constexpr KernelFn kNb2[] = {F::template kFn<I + 1, 2>...};
  const int m = mr >= 1 && mr < kMaxMr ? mr - 1 : kMaxMr - 1;
  if constexpr (kMaxNb == 4) {
    static constexpr KernelFn kNb4[] = {F::template kFn<I + 1, 4>...};
    if (nb == 4) return kNb4[m];
  }
  return nb == 2 ? kNb2[m] : kNb1[m];
}

struct Dot4Kernels {
  template <int MR, int NB>
  static constexpr KernelFn kFn = KernelDot4<MR, NB>;
};
struct Avx512Kernels {
  template <int MR, int NB>
  static constexpr KernelFn kFn = Kernel512<MR, NB>;
};
struct Avx2Kernels {
  template <int MR, int NB>
  static constexpr KernelFn kFn = Kernel256<MR, NB>;
};

KernelFn PickKernel(Isa isa, bool dot4, int mr, int nb) {
  if (dot4) {
    return PickFrom<Dot4Kernels, kMr512, kMaxNb512>(
        mr, nb, std::make_integer_sequence<int, kMr512>{});
  }
  if (isa == Isa::kAvx512Vnni) {
    return PickFrom<Avx512Kernels, kMr512, kMaxNb512>(
        mr, nb, std::make_integer_sequence<int, kMr512>{});
  }
  return PickFrom<Avx2Kernels, kMr256, kMaxNb256>(
      mr, nb, std::make_integer_sequence<int, kMr256>{});
}

int MaxNb(Isa isa) { return isa == Isa::kAvx512Vnni ? kMaxNb512 : kMaxNb256; }

}  // namespace

int Lanes(Isa isa) { return isa == Isa::kAvx512Vnni ? 16 : 8; }

int GemmTileRows(Isa isa) { return isa == Isa::kAvx512Vnni ? kMr512 : kMr256; }

int64_t PackedGemmWeights::panel_stride() const {
  return taps * kc * Lanes(isa);
}

template <typename T>
void PackGemmWeights(const T* w, int32_t zero_point, int64_t n, int64_t taps,
                     int64_t depth, Isa isa, PackedGemmWeights* out) {
  const int lanes = Lanes(isa);
  out->isa = isa;
  out->n = n;
  out->taps = taps;
  out->depth = depth;
  out->kc = (depth + 1) / 2 * 2;
  out->panels = (n + lanes - 1) / lanes;
  const int64_t kc2 = out->kc / 2;
  out->data.assign(static_cast<size_t>(out->panels * out->panel_stride()), 0);
  for (int64_t c = 0; c < n; ++c) {
    const int64_t p = c / lanes, lane = c % lanes;
    for (int64_t t = 0; t < taps; ++t) {
      int16_t* dst = out->data.data() + p * out->panel_stride() +
                     t * kc2 * lanes * 2 + lane * 2;
      const T* src = w + (c * taps + t) * depth;
      for (int64_t k = 0; k < depth; ++k) {
        dst[(k / 2) * lanes * 2 + (k % 2)] =
            static_cast<int16_t>(static_cast<int32_t>(src[k]) - zero_point);
      }
    }
  }
}

void PackGemmWeightsDot4(const int8_t* w, int64_t n, int64_t taps,
                         int64_t depth, PackedGemmWeights* out) {
  const int lanes = 16;
  out->isa = Isa::kAvx512Vnni;
  out->dot4 = true;
  out->n = n;
  out->taps = taps;
  out->depth = depth;
  out->kc = (depth + 3) / 4 * 4;
  out->panels = (n + lanes - 1) / lanes;
  const int64_t kc4 = out->kc / 4;
  out->data.clear();
  out->data8.assign(static_cast<size_t>(out->panels * out->panel_stride()), 0);
  for (int64_t c = 0; c < n; ++c) {
    const int64_t p = c / lanes, lane = c % lanes;
    for (int64_t t = 0; t < taps; ++t) {
      int8_t* dst = out->data8.data() + p * out->panel_stride() +
                    t * kc4 * lanes * 4 + lane * 4;
      const int8_t* src = w + (c * taps + t) * depth;
      for (int64_t k = 0; k < depth; ++k) {
        dst[(k / 4) * lanes * 4 + (k % 4)] = src[k];
      }
    }
  }
}

std::vector<int32_t> Dot4BiasCorrection(const int8_t* w, int64_t n,
                                        int64_t per_channel,
                                        int32_t input_zero_point) {
  std::vector<int32_t> out(static_cast<size_t>(n));
  for (int64_t c = 0; c < n; ++c) {
    int64_t sum = 0;
    for (int64_t k = 0; k < per_channel; ++k) sum += w[c * per_channel + k];
    const int64_t v = -(128 + int64_t{input_zero_point}) * sum;
    out[static_cast<size_t>(c)] =
        static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
  }
  return out;
}

template <typename T>
int64_t MaxAbsWeightSum(const T* w, int32_t zero_point, int64_t n,
                        int64_t per_channel) {
  int64_t most = 0;
  for (int64_t c = 0; c < n; ++c) {
    int64_t sum = 0;
    for (int64_t k = 0; k < per_channel; ++k) {
      sum +=
          std::abs(static_cast<int64_t>(w[c * per_channel + k]) - zero_point);
    }
    most = std::max(most, sum);
  }
  return most;
}

size_t GemmScratchBytes(int64_t taps) {
  return static_cast<size_t>(kMaxTileInts) * sizeof(int32_t) +
         static_cast<size_t>(kMaxMr * taps) * sizeof(const void*);
}

void GemmRows(const PackedGemmWeights& w, const GemmA& a, int64_t m0,
              int64_t m1, int64_t p0, int64_t p1, const OutputStage& os,
              void* out, void* scratch) {
  const Isa isa = w.isa;
  const int lanes = Lanes(isa);
  const int mr_max = GemmTileRows(isa);
  const int nb_max = MaxNb(isa);
  const int64_t taps = w.taps, kc = w.kc, n = w.n;
  const int64_t pstride = w.panel_stride();
  int32_t* tile = static_cast<int32_t*>(scratch);
  const void** rows = reinterpret_cast<const void**>(
      static_cast<uint8_t*>(scratch) + kMaxTileInts * sizeof(int32_t));
  const size_t es = os.out_bytes();
  // Bytes per A row.
  const int64_t row_bytes = kc * (w.dot4 ? 1 : 2);
  const uint8_t* base = static_cast<const uint8_t*>(a.base);
  const void* b = w.dot4 ? static_cast<const void*>(w.data8.data())
                         : static_cast<const void*>(w.data.data());
  const int64_t b_es = w.dot4 ? 1 : 2;
  if (a.offsets != nullptr) {
    for (int64_t i = m0; i < m1; i += mr_max) {
      const int mr = static_cast<int>(std::min<int64_t>(mr_max, m1 - i));
      for (int64_t p = p0; p < p1;) {
        int nb = nb_max;
        while (nb > 1 && p + nb > p1) nb /= 2;
        PickDot4U(mr, nb, std::make_integer_sequence<int, kMr512>{})(
            taps, kc / 4, base, a.offsets + i * taps,
            static_cast<const uint8_t*>(b) + p * pstride, pstride, tile);
        const int64_t c0 = p * lanes;
        const int64_t count = std::min<int64_t>(n - c0, int64_t{nb} * lanes);
        os.RunRows(tile, int64_t{nb} * lanes, mr, c0, count,
                   static_cast<uint8_t*>(out) + (i * n + c0) * es,
                   n * static_cast<int64_t>(es));
        p += nb;
      }
    }
    return;
  }
  for (int64_t i = m0; i < m1; i += mr_max) {
    const int mr = static_cast<int>(std::min<int64_t>(mr_max, m1 - i));
    for (int r = 0; r < mr; ++r) {
      const int64_t row = i + r;
      for (int64_t t = 0; t < taps; ++t) {
        const void* p;
        if (a.indirection == nullptr) {
          p = base + (row * taps + t) * row_bytes;
        } else {
          const int32_t idx = a.indirection[row * taps + t];
          p = idx < 0 ? a.zero : base + int64_t{idx} * row_bytes;
        }
        rows[r * taps + t] = p;
      }
    }
    for (int64_t p = p0; p < p1;) {
      int nb = nb_max;
      while (nb > 1 && p + nb > p1) nb /= 2;
      PickKernel(isa, w.dot4, mr, nb)(
          taps, w.dot4 ? kc / 4 : kc / 2, rows,
          static_cast<const uint8_t*>(b) + p * pstride * b_es, pstride, tile);
      const int64_t c0 = p * lanes;
      const int64_t count = std::min<int64_t>(n - c0, int64_t{nb} * lanes);
      os.RunRows(tile, int64_t{nb} * lanes, mr, c0, count,
                 static_cast<uint8_t*>(out) + (i * n + c0) * es,
                 n * static_cast<int64_t>(es));
      p += nb;
    }
  }
}

namespace {

// One stream of n bytes to int16 minus the zero point.
template <bool kSigned>
QF_TARGET_AVX512 void Widen512(const void* src, int32_t zero_point, int64_t n,
                               int16_t* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  const __m512i zp = _mm512_set1_epi16(static_cast<int16_t>(zero_point));
  for (int64_t k = 0; k < n; k += 32) {
    const int64_t left = n - k;
    const __mmask32 m = left >= 32
                            ? ~__mmask32{0}
                            : (__mmask32{1} << static_cast<int>(left)) - 1;
    const __m256i b = _mm256_maskz_loadu_epi8(m, s + k);
    const __m512i w =
        kSigned ? _mm512_cvtepi8_epi16(b) : _mm512_cvtepu8_epi16(b);
    _mm512_mask_storeu_epi16(dst + k, m, _mm512_sub_epi16(w, zp));
  }
}

template <bool kSigned>
QF_TARGET_AVX2 void Widen256(const void* src, int32_t zero_point, int64_t n,
                             int16_t* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  const __m256i zp = _mm256_set1_epi16(static_cast<int16_t>(zero_point));
  int64_t k = 0;
  for (; k + 16 <= n; k += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k));
    const __m256i w =
        kSigned ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + k),
                        _mm256_sub_epi16(w, zp));
  }
  for (; k < n; ++k) {
    const int32_t v = kSigned ? static_cast<int32_t>(static_cast<int8_t>(s[k]))
                              : static_cast<int32_t>(s[k]);
    dst[k] = static_cast<int16_t>(v - zero_point);
  }
}

template <typename T>
void WidenScalar(const T* s, int32_t zero_point, int64_t n, int16_t* d) {
  for (int64_t k = 0; k < n; ++k) {
    d[k] = static_cast<int16_t>(static_cast<int32_t>(s[k]) - zero_point);
  }
}

template <typename T>
void Widen(Isa isa, const T* s, int32_t zero_point, int64_t n, int16_t* d) {
  constexpr bool kByte = sizeof(T) == 1;
  constexpr bool kSigned = std::is_signed_v<T>;
  if (kByte && isa == Isa::kAvx512Vnni) {
    Widen512<kSigned>(s, zero_point, n, d);
  } else if (kByte && isa == Isa::kAvx2) {
    Widen256<kSigned>(s, zero_point, n, d);
  } else {
    WidenScalar(s, zero_point, n, d);
  }
}

}  // namespace

template <typename T>
void ToInt16Rows(Isa isa, const T* src, int32_t zero_point, int64_t pixels,
                 int64_t channels, int64_t kc, int16_t* dst) {
  if (kc == channels) {  // no padding: one stream
    Widen(isa, src, zero_point, pixels * channels, dst);
    return;
  }
  for (int64_t p = 0; p < pixels; ++p) {
    int16_t* d = dst + p * kc;
    Widen(isa, src + p * channels, zero_point, channels, d);
    for (int64_t k = channels; k < kc; ++k) d[k] = 0;
  }
}

template void PackGemmWeights<int8_t>(const int8_t*, int32_t, int64_t, int64_t,
                                      int64_t, Isa, PackedGemmWeights*);
template void PackGemmWeights<uint8_t>(const uint8_t*, int32_t, int64_t,
                                       int64_t, int64_t, Isa,
                                       PackedGemmWeights*);
template int64_t MaxAbsWeightSum<int8_t>(const int8_t*, int32_t, int64_t,
                                         int64_t);
template int64_t MaxAbsWeightSum<uint8_t>(const uint8_t*, int32_t, int64_t,
                                          int64_t);
template void ToInt16Rows<int8_t>(Isa, const int8_t*, int32_t, int64_t, int64_t,
                                  int64_t, int16_t*);
template void ToInt16Rows<uint8_t>(Isa, const uint8_t*, int32_t, int64_t,
                                   int64_t, int64_t, int16_t*);
template void ToInt16Rows<int16_t>(Isa, const int16_t*, int32_t, int64_t,
                                   int64_t, int64_t, int16_t*);

// ------------------------------------------------ the plans' shared steps

namespace {

// Rows of a GEMM per task: several tiles, so that a task reuses the packed
// weights it brought into cache, and enough multiply-adds that claiming the
// task (shared cache lines between threads) stays small beside its work;
// the split depends on the shape alone.
constexpr int kTilesPerTask = 4;
constexpr int64_t kMinTaskMacs = int64_t{1} << 17;

template <typename T>
void ToInt16Parallel(const OpContext& ctx, Isa isa, const T* src,
                     int32_t zero_point, int64_t pixels, int64_t channels,
                     int64_t kc, int16_t* dst) {
  const int64_t chunk = std::max<int64_t>(1, kElementwiseChunk / kc);
  ParallelChunks(ctx, pixels, chunk, [&](int64_t b, int64_t e) {
    ToInt16Rows(isa, src + b * channels, zero_point, e - b, channels, kc,
                dst + b * kc);
  });
}

// int8 rows of `channels` copied to rows of kc (the padding is never
// written: its weights are zero).
void PadRows(const OpContext& ctx, const int8_t* src, int64_t pixels,
             int64_t channels, int64_t kc, int8_t* dst) {
  const int64_t chunk = std::max<int64_t>(1, kElementwiseChunk / kc);
  ParallelChunks(ctx, pixels, chunk, [&](int64_t b, int64_t e) {
    if (channels < 16) {  // the first layer's 1-3 channels: no calls
      for (int64_t i = b; i < e; ++i) {
        for (int64_t c = 0; c < channels; ++c) {
          dst[i * kc + c] = src[i * channels + c];
        }
      }
      return;
    }
    for (int64_t i = b; i < e; ++i) {
      std::memcpy(dst + i * kc, src + i * channels,
                  static_cast<size_t>(channels));
    }
  });
}

}  // namespace

namespace {

QF_TARGET_AVX512 void FlipStream(const int8_t* s, int64_t n, uint8_t* d) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  int64_t k = 0;
  for (; k + 64 <= n; k += 64) {
    _mm512_storeu_si512(d + k,
                        _mm512_xor_si512(_mm512_loadu_si512(s + k), flip));
  }
  if (k < n) {
    const __mmask64 m = (__mmask64{1} << static_cast<int>(n - k)) - 1;
    _mm512_mask_storeu_epi8(
        d + k, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, s + k), flip));
  }
}

// Three channels per pixel (an RGB input) to rows of four: 16 pixels per
// step, the dwords of 4 pixels moved into each 128-bit lane and their bytes
// spread to 3 of every 4 (the fourth, whose weights are zero, is 0x80).
QF_TARGET_AVX512 void FlipRgb(const int8_t* s, int64_t pixels, uint8_t* d) {
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  const __m512i lanes =
      _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
  const __m512i spread = _mm512_broadcast_i32x4(_mm_setr_epi8(
      0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128));
  for (int64_t i = 0; i < pixels; i += 16) {
    const int64_t n = std::min<int64_t>(16, pixels - i);
    const __mmask64 in = (~__mmask64{0}) >> (64 - 3 * n);
    const __mmask64 out =
        n == 16 ? ~__mmask64{0} : (__mmask64{1} << (4 * n)) - 1;
    __m512i v = _mm512_maskz_loadu_epi8(in, s + 3 * i);
    v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(lanes, v), spread);
    _mm512_mask_storeu_epi8(d + 4 * i, out, _mm512_xor_si512(v, flip));
  }
}

}  // namespace

void FlipRows(const OpContext& ctx, const int8_t* src, int64_t images,
              int64_t pixels, int64_t channels, int64_t kc, uint8_t* dst) {
  const int64_t chunk = std::max<int64_t>(1, kElementwiseChunk / kc);
  ParallelChunks(ctx, images * pixels, chunk, [&](int64_t b, int64_t e) {
    while (b < e) {
      const int64_t image = b / pixels, i0 = b % pixels;
      const int64_t i1 = std::min(pixels, i0 + (e - b));
      const int8_t* s = src + (image * pixels + i0) * channels;
      uint8_t* d = dst + (image * (pixels + 1) + i0) * kc;
      if (kc == channels) {
        FlipStream(s, (i1 - i0) * channels, d);
      } else if (channels == 3 && kc == 4) {
        FlipRgb(s, i1 - i0, d);
      } else if (channels < 16) {  // the first layer's 1-3 channels
        for (int64_t i = 0; i < i1 - i0; ++i) {
          for (int64_t c = 0; c < channels; ++c) {
            d[i * kc + c] = static_cast<uint8_t>(s[i * channels + c] ^ 0x80);
          }
        }
      } else {
        for (int64_t i = 0; i < i1 - i0; ++i) {
          FlipStream(s + i * channels, channels, d + i * kc);
        }
      }
      b += i1 - i0;
    }
  });
}

void PackPlanWeights(const RtTensor& w, const GemmRequant& r, bool acc64,
                     int64_t n, int64_t taps, int64_t depth, Isa isa,
                     PackedGemmWeights* out) {
  if (r.type == ir::DataType::kUInt8) {
    PackGemmWeights(w.Data<uint8_t>(), r.weights_zp, n, taps, depth, isa, out);
  } else if (isa == Isa::kAvx512Vnni && r.type == ir::DataType::kInt8 &&
             r.weights_zp == 0 && !acc64) {
    PackGemmWeightsDot4(w.Data<int8_t>(), n, taps, depth, out);
  } else {
    PackGemmWeights(w.Data<int8_t>(), r.weights_zp, n, taps, depth, isa, out);
  }
}

void InitPlanOutputStage(const OpContext& ctx, const GemmRequant& r,
                         int64_t channels, bool acc64,
                         const PackedGemmWeights& w, int64_t per_channel,
                         Isa isa, OutputStage* os) {
  OutputStage::Params op;
  op.out_type = r.type;
  op.channels = channels;
  op.zero_point = r.output_zp;
  op.act_min = r.act_min;
  op.act_max = r.act_max;
  op.acc64 = acc64;
  op.scheme = r.scheme;
  op.rounding = r.rounding;
  op.multiplier = r.multiplier->data();
  op.shift = r.shift->data();
  if (r.xnn_scale != nullptr && !r.xnn_scale->empty()) {
    op.xnn_scale = r.xnn_scale->data();
  }
  if (r.real_scale != nullptr && !r.real_scale->empty()) {
    op.real_scale = r.real_scale->data();
  }
  if (const RtTensor* bias = ctx.input(2); bias != nullptr) {
    if (bias->type == ir::DataType::kInt64) {
      op.bias64 = bias->Data<int64_t>();
    } else {
      op.bias32 = bias->Data<int32_t>();
    }
  }
  os->Init(op, isa);
  if (w.dot4) {
    os->AddToBias(Dot4BiasCorrection(ctx.input(1)->Data<int8_t>(), channels,
                                     per_channel, r.input_zp)
                      .data());
  }
}

const void* PlanInputRows(const OpContext& ctx, const GemmRequant& r, Isa isa,
                          int64_t kc, bool dot4, const void* input,
                          int64_t pixels, int64_t channels,
                          std::vector<int16_t>* rows,
                          std::vector<int8_t>* rows8) {
  if (dot4) {
    if (rows8->empty()) return input;
    PadRows(ctx, static_cast<const int8_t*>(input), pixels, channels, kc,
            rows8->data());
    return rows8->data();
  }
  switch (r.type) {
    case ir::DataType::kUInt8:
      ToInt16Parallel(ctx, isa, static_cast<const uint8_t*>(input), r.input_zp,
                      pixels, channels, kc, rows->data());
      break;
    case ir::DataType::kInt16:
      ToInt16Parallel(ctx, isa, static_cast<const int16_t*>(input), r.input_zp,
                      pixels, channels, kc, rows->data());
      break;
    default:
      ToInt16Parallel(ctx, isa, static_cast<const int8_t*>(input), r.input_zp,
                      pixels, channels, kc, rows->data());
      break;
  }
  return rows->data();
}

GemmTasks SplitGemm(Isa isa, int64_t images, int64_t m,
                    const PackedGemmWeights& w) {
  GemmTasks t;
  t.images = images;
  t.m = m;
  const int64_t tile_rows = GemmTileRows(isa);
  const int64_t tile_macs =
      std::max<int64_t>(1, tile_rows * w.taps * w.kc * w.n);
  t.rows_per_task =
      tile_rows * std::max<int64_t>(kTilesPerTask,
                                    (kMinTaskMacs + tile_macs - 1) / tile_macs);
  t.m_tasks = (m + t.rows_per_task - 1) / t.rows_per_task;
  const int64_t panels = w.panels;
  t.panels = panels;
  // Few rows (a fully connected layer on one sample): split the channels.
  t.panels_per_task = images * t.m_tasks >= 4 ? panels : 4;
  t.n_tasks = (panels + t.panels_per_task - 1) / t.panels_per_task;
  return t;
}

void RunGemmTasks(const OpContext& ctx, const GemmTasks& t,
                  const PackedGemmWeights& w, const OutputStage& os,
                  absl::FunctionRef<GemmA(int64_t image)> a, void* out,
                  ScratchSlots* scratch) {
  const size_t image_bytes = static_cast<size_t>(t.m * w.n) * os.out_bytes();
  ctx.pool().ParallelFor(t.count(), [&](int64_t task) {
    const int64_t n_task = task % t.n_tasks;
    const int64_t m_task = (task / t.n_tasks) % t.m_tasks;
    const int64_t image = task / (t.n_tasks * t.m_tasks);
    const int64_t m0 = m_task * t.rows_per_task;
    const int64_t m1 = std::min(t.m, m0 + t.rows_per_task);
    const int64_t p0 = n_task * t.panels_per_task;
    const int64_t p1 = std::min(t.panels, p0 + t.panels_per_task);
    ScratchLease lease(scratch);
    GemmRows(
        w, a(image), m0, m1, p0, p1, os,
        static_cast<uint8_t*>(out) + static_cast<size_t>(image) * image_bytes,
        lease.As<uint8_t>());
  });
}

}  // namespace qforge::runtime::integer
