// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/elementwise/quantize_simd.h"

#include <algorithm>
#include <cmath>

#include "runtime/kernels/common/simd_target.h"

namespace qforge::runtime::integer {

QF_TARGET_AVX2 void QuantizeFloatAvx2(const float* x, int64_t n, double scale,
                                      double zp, double lo, double hi,
                                      int32_t* y) {
  // std::round spelled out: t = trunc(v), and v - t is exact, so t +- 1 at
  // |v - t| >= 0.5 is round half away from zero, bit for bit.
  const __m256d vscale = _mm256_set1_pd(scale);
  const __m256d vzp = _mm256_set1_pd(zp);
  const __m256d vlo = _mm256_set1_pd(lo);
  const __m256d vhi = _mm256_set1_pd(hi);
  const __m256d half = _mm256_set1_pd(0.5);
  const __m256d minus_half = _mm256_set1_pd(-0.5);
  const __m256d one = _mm256_set1_pd(1.0);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d v =
        _mm256_div_pd(_mm256_cvtps_pd(_mm_loadu_ps(x + i)), vscale);
    __m256d t = _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d d = _mm256_sub_pd(v, t);
    t = _mm256_add_pd(t,
                      _mm256_and_pd(_mm256_cmp_pd(d, half, _CMP_GE_OQ), one));
    t = _mm256_sub_pd(
        t, _mm256_and_pd(_mm256_cmp_pd(d, minus_half, _CMP_LE_OQ), one));
    __m256d q = _mm256_add_pd(t, vzp);
    q = _mm256_blendv_pd(q, vlo, _mm256_cmp_pd(q, q, _CMP_UNORD_Q));
    q = _mm256_max_pd(_mm256_min_pd(q, vhi), vlo);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm256_cvttpd_epi32(q));
  }
  for (; i < n; ++i) {
    const double q = std::round(static_cast<double>(x[i]) / scale) + zp;
    y[i] = static_cast<int32_t>(std::isnan(q) ? lo
                                              : std::max(lo, std::min(hi, q)));
  }
}

QF_TARGET_AVX512 void QuantizeFloatAvx512(const float* x, int64_t n,
                                          double scale, double zp, double lo,
                                          double hi, int32_t* y) {
  // QuantizeFloatAvx2's steps on 8 lanes; the tail through masks.
  //
  // The quotient comes from a product with r = RN(1/scale) unless a lane
  // may round differently: RN(x * r) and RN(x / scale) both lie within
  // 2^-52 |x / scale| of the exact quotient, and the result depends on the
  // quotient only through which side of a half-integer it lies on (the
  // rounding; zp and the clamp follow from it). A product farther than
  // 2^-49 of its magnitude from every half-integer is on the same side as
  // the quotient, and is no tie: its nearest integer (vrndscalepd) is the
  // rounded quotient. 0.5 - |v - nearest(v)| is exact. A vector with a lane
  // closer (or NaN, or infinite) divides as before.
  const double recip = 1.0 / scale;
  const bool use_recip = std::isnormal(scale) && std::isnormal(recip);
  const __m512d vrecip = _mm512_set1_pd(recip);
  const __m512d tol = _mm512_set1_pd(0x1p-49);
  const __m512d abs_mask =
      _mm512_castsi512_pd(_mm512_set1_epi64(0x7FFFFFFFFFFFFFFF));
  const __m512d vscale = _mm512_set1_pd(scale);
  const __m512d vzp = _mm512_set1_pd(zp);
  const __m512d vlo = _mm512_set1_pd(lo);
  const __m512d vhi = _mm512_set1_pd(hi);
  const __m512d half = _mm512_set1_pd(0.5);
  const __m512d minus_half = _mm512_set1_pd(-0.5);
  const __m512d one = _mm512_set1_pd(1.0);
  for (int64_t i = 0; i < n; i += 8) {
    const int64_t left = n - i;
    const __mmask8 k =
        left >= 8 ? static_cast<__mmask8>(0xFF)
                  : static_cast<__mmask8>((1u << static_cast<int>(left)) - 1);
    const __m512d xv = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(k, x + i));
    if (use_recip) {
      const __m512d v = _mm512_mul_pd(xv, vrecip);
      const __m512d r = _mm512_roundscale_pd(
          v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      const __m512d margin =
          _mm512_sub_pd(half, _mm512_and_pd(_mm512_sub_pd(v, r), abs_mask));
      if (_mm512_cmp_pd_mask(margin,
                             _mm512_mul_pd(_mm512_and_pd(v, abs_mask), tol),
                             _CMP_GT_OQ) == 0xFF) {
        const __m512d q =
            _mm512_max_pd(_mm512_min_pd(_mm512_add_pd(r, vzp), vhi), vlo);
        _mm256_mask_storeu_epi32(y + i, k, _mm512_cvttpd_epi32(q));
        continue;
      }
    }
    const __m512d v = _mm512_div_pd(xv, vscale);
    __m512d t = _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m512d d = _mm512_sub_pd(v, t);
    t = _mm512_mask_add_pd(t, _mm512_cmp_pd_mask(d, half, _CMP_GE_OQ), t, one);
    t = _mm512_mask_sub_pd(t, _mm512_cmp_pd_mask(d, minus_half, _CMP_LE_OQ), t,
                           one);
    __m512d q = _mm512_add_pd(t, vzp);
    q = _mm512_mask_mov_pd(q, _mm512_cmp_pd_mask(q, q, _CMP_UNORD_Q), vlo);
    q = _mm512_max_pd(_mm512_min_pd(q, vhi), vlo);
    _mm256_mask_storeu_epi32(y + i, k, _mm512_cvttpd_epi32(q));
  }
}

}  // namespace qforge::runtime::integer
