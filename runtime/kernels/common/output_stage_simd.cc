// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/common/output_stage_simd.h"

#include <algorithm>
#include <cstring>

#include "numerics/xnnpack_arithmetic.h"
#include "runtime/kernels/common/simd_target.h"

namespace qforge::runtime::integer {
namespace {

constexpr int64_t kPad = 16;  // the widest lane count

int64_t Padded(int64_t n) { return (n + kPad - 1) / kPad * kPad; }

// Single rounding is one product and shift when TFLite's condition for it
// holds (else MultiplyByQuantizedMultiplierSingle falls back to double).
bool SingleVectorizable(int32_t m, int shift) {
  return m >= 0 && shift <= 30 && shift >= -31;
}

}  // namespace

void OutputStage::Init(const Params& p, Isa isa) {
  p_ = p;
  isa_ = isa;
  const int64_t n = p.channels, np = Padded(n);
  multiplier_.assign(static_cast<size_t>(np), 0);
  shift_.assign(static_cast<size_t>(np), 0);
  bias32_.assign(static_cast<size_t>(np), 0);
  bias64_.assign(static_cast<size_t>(np), 0);
  scale_f_.assign(static_cast<size_t>(np), 0.0f);
  scale_d_.assign(static_cast<size_t>(np), 0.0);
  for (int64_t c = 0; c < n; ++c) {
    const size_t k = static_cast<size_t>(c);
    if (p.multiplier != nullptr) multiplier_[k] = p.multiplier[c];
    if (p.shift != nullptr) shift_[k] = p.shift[c];
    if (p.bias32 != nullptr) {
      bias32_[k] = p.bias32[c];
      bias64_[k] = p.bias32[c];
    }
    if (p.bias64 != nullptr) bias64_[k] = p.bias64[c];
    if (p.xnn_scale != nullptr) scale_f_[k] = p.xnn_scale[c];
    if (p.real_scale != nullptr) scale_d_[k] = p.real_scale[c];
  }
  // The pointers are not kept (the caller's arrays may go away).
  p_.multiplier = nullptr;
  p_.shift = nullptr;
  p_.xnn_scale = nullptr;
  p_.real_scale = nullptr;
  p_.bias32 = nullptr;
  p_.bias64 = nullptr;

  kind_ = Kind::kScalar;
  if (isa == Isa::kScalar) return;
  const bool avx512 = isa == Isa::kAvx512Vnni;
  const bool single =
      p.scheme == Scheme::kFixedSingle ||
      (p.scheme == Scheme::kFixed && p.rounding == numerics::Rounding::kSingle);
  if (p.acc64) {
    if (!avx512) return;
    if (p.scheme == Scheme::kByScale) {
      kind_ = Kind::kByScale;
    } else if (p.scheme == Scheme::kFixed) {
      // numerics::MultiplyByQuantizedMultiplier(int64_t, ...): the
      // multiplier reduced to 15 bits, one shift by 15 - shift, in [8, 46]
      // for the shifts the kernels accept (<= 7; >= -31 from
      // QuantizeMultiplier).
      m64_.assign(static_cast<size_t>(np), 0);
      ts64_.assign(static_cast<size_t>(np), 15);
      rnd64_.assign(static_cast<size_t>(np), int64_t{1} << 14);
      for (int64_t c = 0; c < n; ++c) {
        const size_t k = static_cast<size_t>(c);
        const int32_t m = multiplier_[k];
        const int ts = 15 - shift_[k];
        if (ts < 1 || ts > 62) return;  // outside the reference's domain
        m64_[k] = m < 0x7FFF0000 ? (m + (1 << 15)) >> 16 : 0x7FFF;
        ts64_[k] = ts;
        rnd64_[k] = int64_t{1} << (ts - 1);
      }
      kind_ = Kind::kFixed64;
    }
    return;
  }
  switch (p.scheme) {
    case Scheme::kXnnpack:
      lo_f_ = static_cast<float>(p.act_min - p.zero_point);
      hi_f_ = static_cast<float>(p.act_max - p.zero_point);
      kind_ = Kind::kXnnpack32;
      return;
    case Scheme::kByScale:
      if (avx512) kind_ = Kind::kByScale;
      return;
    case Scheme::kFixed:
    case Scheme::kFixedSingle:
      break;
  }
  m32_.assign(multiplier_.begin(), multiplier_.end());
  if (single) {
    for (int64_t c = 0; c < n; ++c) {
      const size_t k = static_cast<size_t>(c);
      if (!SingleVectorizable(multiplier_[k], shift_[k])) return;
    }
    const size_t half = static_cast<size_t>(np / 2);
    ts_even_.assign(half, 31);
    ts_odd_.assign(half, 31);
    rnd_even_.assign(half, int64_t{1} << 30);
    rnd_odd_.assign(half, int64_t{1} << 30);
    sign_even_.assign(half, int64_t{1} << 32);
    sign_odd_.assign(half, int64_t{1} << 32);
    for (int64_t c = 0; c < n; ++c) {
      const int ts = 31 - shift_[static_cast<size_t>(c)];  // [1, 62]
      const size_t h = static_cast<size_t>(c / 2);
      auto& t = c % 2 == 0 ? ts_even_ : ts_odd_;
      auto& r = c % 2 == 0 ? rnd_even_ : rnd_odd_;
      auto& g = c % 2 == 0 ? sign_even_ : sign_odd_;
      t[h] = ts;
      r[h] = int64_t{1} << (ts - 1);
      g[h] = static_cast<int64_t>((uint64_t{1} << 63) >> ts);
    }
    kind_ = Kind::kSingle32;
    // With 31 - shift >= 33 the rounding term 2^(30 - shift) is a multiple
    // of 2^32: (p + 2^(30 - shift)) >> (31 - shift) is then
    // ((p >> 32) + 2^(30 - shift - 32)) >> (31 - shift - 32), exactly (two
    // floor divisions by powers of two), so the high words of the products
    // and 32-bit lanes do.
    bool hi = avx512;
    for (int64_t c = 0; c < n; ++c) {
      if (31 - shift_[static_cast<size_t>(c)] < 33) hi = false;
    }
    if (hi) {
      m_odd32_.assign(static_cast<size_t>(np), 0);
      hi_rnd32_.assign(static_cast<size_t>(np), 0);
      hi_shift32_.assign(static_cast<size_t>(np), 0);
      for (int64_t c = 0; c < n; ++c) {
        const size_t k = static_cast<size_t>(c);
        const int ts = 31 - shift_[k];  // [33, 62]
        if (c % 2 == 1) m_odd32_[k - 1] = multiplier_[k];
        hi_rnd32_[k] = int32_t{1} << (ts - 33);
        hi_shift32_[k] = ts - 32;
      }
      kind_ = Kind::kSingleHi32;
    }
  } else {
    ls32_.assign(static_cast<size_t>(np), 0);
    rs32_.assign(static_cast<size_t>(np), 0);
    mask32_.assign(static_cast<size_t>(np), 0);
    half32_.assign(static_cast<size_t>(np), 0);
    for (int64_t c = 0; c < n; ++c) {
      const size_t k = static_cast<size_t>(c);
      const int s = shift_[k];
      if (s > 31 || s < -31) return;
      ls32_[k] = s > 0 ? s : 0;
      rs32_[k] = s > 0 ? 0 : -s;
      mask32_[k] = static_cast<int32_t>((int64_t{1} << rs32_[k]) - 1);
      half32_[k] = mask32_[k] >> 1;
    }
    kind_ = Kind::kDouble32;
  }
}

void OutputStage::AddToBias(const int32_t* extra) {
  for (int64_t c = 0; c < p_.channels; ++c) {
    const size_t k = static_cast<size_t>(c);
    bias32_[k] = numerics::WrappingAdd(bias32_[k], extra[c]);
    bias64_[k] += extra[c];
  }
}

void OutputStage::MirrorEightChannels() {
  auto mirror = [](auto& v, size_t n) {
    if (v.size() >= 2 * n) std::copy_n(v.begin(), n, v.begin() + n);
  };
  for (auto* v : {&bias32_, &m32_, &ls32_, &rs32_, &mask32_, &half32_,
                  &m_odd32_, &hi_rnd32_, &hi_shift32_, &multiplier_}) {
    mirror(*v, 8);
  }
  for (auto* v : {&bias64_, &m64_, &ts64_, &rnd64_}) mirror(*v, 8);
  for (auto* v :
       {&ts_even_, &ts_odd_, &rnd_even_, &rnd_odd_, &sign_even_, &sign_odd_}) {
    mirror(*v, 4);
  }
  mirror(shift_, 8);
  mirror(scale_f_, 8);
  mirror(scale_d_, 8);
}

int32_t OutputStage::ScalarOne(int32_t acc, int64_t c) const {
  const size_t k = static_cast<size_t>(c);
  const int32_t zp = p_.zero_point, lo = p_.act_min, hi = p_.act_max;
  if (p_.acc64) {
    const int64_t a = int64_t{acc} + bias64_[k];
    if (p_.scheme == Scheme::kByScale) {
      return numerics::RequantizeByScale(a, scale_d_[k], zp, lo, hi);
    }
    return numerics::Requantize(a, multiplier_[k], shift_[k], zp, lo, hi);
  }
  const int32_t a = numerics::WrappingAdd(acc, bias32_[k]);
  switch (p_.scheme) {
    case Scheme::kXnnpack:
      return numerics::XnnpackRequantize(a, scale_f_[k], zp, lo, hi);
    case Scheme::kByScale:
      return numerics::RequantizeByScale(a, scale_d_[k], zp, lo, hi);
    case Scheme::kFixedSingle:
      return numerics::Clamp(numerics::MultiplyByQuantizedMultiplierSingle(
                                 a, multiplier_[k], shift_[k]) +
                                 zp,
                             lo, hi);
    case Scheme::kFixed:
      break;
  }
  return numerics::Requantize(a, multiplier_[k], shift_[k], zp, lo, hi,
                              p_.rounding);
}

void OutputStage::RunScalar(const int32_t* acc, int64_t c0, int64_t count,
                            void* out) const {
  for (int64_t i = 0; i < count; ++i) {
    const int32_t v = ScalarOne(acc[i], c0 + i);
    switch (p_.out_type) {
      case ir::DataType::kUInt8:
        static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(v);
        break;
      case ir::DataType::kInt16:
        static_cast<int16_t*>(out)[i] = static_cast<int16_t>(v);
        break;
      default:
        static_cast<int8_t*>(out)[i] = static_cast<int8_t>(v);
        break;
    }
  }
}

void OutputStage::Run(const int32_t* acc, int64_t c0, int64_t count,
                      void* out) const {
  switch (kind_ == Kind::kScalar ? Isa::kScalar : isa_) {
    case Isa::kAvx512Vnni:
      RunAvx512(acc, c0, count, out);
      return;
    case Isa::kAvx2:
      RunAvx2(acc, c0, count, out);
      return;
    case Isa::kScalar:
      break;
  }
  RunScalar(acc, c0, count, out);
}

// ------------------------------------------------------------- AVX-512

namespace {

QF_TARGET_AVX512 inline __m512i Single16(__m512i x, __m512i m, __m512i tse,
                                         __m512i tso, __m512i rnde,
                                         __m512i rndo) {
  __m512i pe = _mm512_mul_epi32(x, m);
  __m512i po =
      _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(m, 32));
  pe = _mm512_srav_epi64(_mm512_add_epi64(pe, rnde), tse);
  po = _mm512_srav_epi64(_mm512_add_epi64(po, rndo), tso);
  return _mm512_mask_blend_epi32(0xAAAA, pe, _mm512_slli_epi64(po, 32));
}

// Single rounding for shifts <= -2 (kSingleHi32): the high words of the
// products x * m, plus 2^(30 - shift - 32), shifted by 31 - shift - 32.
QF_TARGET_AVX512 inline __m512i SingleHi16(__m512i x, __m512i m, __m512i m_odd,
                                           __m512i rnd, __m512i shift) {
  // The odd lanes move down and the even products' high words into place
  // by vpshufd (port 5) rather than 64-bit shifts and a blend (port 0
  // runs the multiplies and shifts).
  const __m512i pe = _mm512_mul_epi32(x, m);
  const __m512i po = _mm512_mul_epi32(
      _mm512_shuffle_epi32(x, static_cast<_MM_PERM_ENUM>(0xF5)), m_odd);
  const __m512i hi = _mm512_mask_shuffle_epi32(
      po, 0x5555, pe, static_cast<_MM_PERM_ENUM>(0xF5));
  return _mm512_srav_epi32(_mm512_add_epi32(hi, rnd), shift);
}

// gemmlowp's SaturatingRoundingDoublingHighMul of int64 products: (ab +
// nudge) / 2^31, truncated towards zero.
QF_TARGET_AVX512 inline __m512i HighMulProducts(__m512i ab) {
  const __m512i zero = _mm512_setzero_si512();
  const __mmask8 neg = _mm512_cmplt_epi64_mask(ab, zero);
  const __m512i nudge =
      _mm512_mask_blend_epi64(neg, _mm512_set1_epi64(int64_t{1} << 30),
                              _mm512_set1_epi64(1 - (int64_t{1} << 30)));
  __m512i v = _mm512_add_epi64(ab, nudge);
  const __mmask8 vneg = _mm512_cmplt_epi64_mask(v, zero);
  v = _mm512_mask_add_epi64(v, vneg, v,
                            _mm512_set1_epi64((int64_t{1} << 31) - 1));
  return _mm512_srai_epi64(v, 31);
}

QF_TARGET_AVX512 inline __m512i Double16(__m512i x, __m512i m, __m512i ls,
                                         __m512i rs, __m512i mask,
                                         __m512i half) {
  const __m512i a = _mm512_sllv_epi32(x, ls);
  const __m512i pe = HighMulProducts(_mm512_mul_epi32(a, m));
  const __m512i po = HighMulProducts(
      _mm512_mul_epi32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(m, 32)));
  __m512i q = _mm512_mask_blend_epi32(0xAAAA, pe, _mm512_slli_epi64(po, 32));
  const __m512i min32 = _mm512_set1_epi32(INT32_MIN);
  const __mmask16 sat =
      _mm512_cmpeq_epi32_mask(a, min32) & _mm512_cmpeq_epi32_mask(m, min32);
  q = _mm512_mask_mov_epi32(q, sat, _mm512_set1_epi32(INT32_MAX));
  // RoundingDivideByPOT(q, rs).
  const __m512i rem = _mm512_and_si512(q, mask);
  const __m512i thr = _mm512_add_epi32(half, _mm512_srli_epi32(q, 31));
  const __m512i r = _mm512_srav_epi32(q, rs);
  return _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(rem, thr), r,
                               _mm512_set1_epi32(1));
}

// numerics::MultiplyByQuantizedMultiplier(int64_t, ...) on 8 lanes, low 32
// bits of each result.
QF_TARGET_AVX512 inline __m256i Fixed64x8(__m512i a, __m512i m, __m512i ts,
                                          __m512i rnd) {
  const __m512i p = _mm512_add_epi64(_mm512_mullo_epi64(a, m), rnd);
  return _mm512_cvtepi64_epi32(_mm512_srav_epi64(p, ts));
}

// numerics::RequantizeByScale on 8 int64 lanes: round(a * scale) half away
// from zero, saturated to int32, + zp, clamped; as int32.
QF_TARGET_AVX512 inline __m256i ByScale8(__m512i a, __m512d scale, int32_t zp,
                                         int32_t lo, int32_t hi) {
  const __m512d v = _mm512_mul_pd(_mm512_cvtepi64_pd(a), scale);
  __m512d t = _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m512d f = _mm512_sub_pd(v, t);
  const __m512d one = _mm512_set1_pd(1.0);
  t = _mm512_mask_add_pd(
      t, _mm512_cmp_pd_mask(f, _mm512_set1_pd(0.5), _CMP_GE_OQ), t, one);
  t = _mm512_mask_sub_pd(
      t, _mm512_cmp_pd_mask(f, _mm512_set1_pd(-0.5), _CMP_LE_OQ), t, one);
  t = _mm512_max_pd(t, _mm512_set1_pd(-2147483648.0));
  t = _mm512_min_pd(t, _mm512_set1_pd(2147483647.0));
  __m512i r = _mm512_add_epi64(_mm512_cvtpd_epi64(t), _mm512_set1_epi64(zp));
  r = _mm512_max_epi64(r, _mm512_set1_epi64(lo));
  r = _mm512_min_epi64(r, _mm512_set1_epi64(hi));
  return _mm512_cvtepi64_epi32(r);
}

QF_TARGET_AVX512 inline __m512i Join(__m256i lo, __m256i hi) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

}  // namespace

QF_TARGET_AVX512 void OutputStage::RunAvx512(const int32_t* acc, int64_t c0,
                                             int64_t count, void* out) const {
  const __m512i zp = _mm512_set1_epi32(p_.zero_point);
  const __m512i lo = _mm512_set1_epi32(p_.act_min);
  const __m512i hi = _mm512_set1_epi32(p_.act_max);
  for (int64_t i = 0; i < count; i += 16) {
    const int64_t c = c0 + i;
    const int64_t left = count - i;
    const __mmask16 k =
        left >= 16 ? static_cast<__mmask16>(0xFFFF)
                   : static_cast<__mmask16>((1u << static_cast<int>(left)) - 1);
    __m512i x = _mm512_maskz_loadu_epi32(k, acc + i);
    __m512i y;
    switch (kind_) {
      case Kind::kSingle32:
        x = _mm512_add_epi32(x, _mm512_loadu_si512(bias32_.data() + c));
        y = Single16(x, _mm512_loadu_si512(m32_.data() + c),
                     _mm512_loadu_si512(ts_even_.data() + c / 2),
                     _mm512_loadu_si512(ts_odd_.data() + c / 2),
                     _mm512_loadu_si512(rnd_even_.data() + c / 2),
                     _mm512_loadu_si512(rnd_odd_.data() + c / 2));
        y = _mm512_add_epi32(y, zp);
        break;
      case Kind::kSingleHi32:
        x = _mm512_add_epi32(x, _mm512_loadu_si512(bias32_.data() + c));
        y = SingleHi16(x, _mm512_loadu_si512(m32_.data() + c),
                       _mm512_loadu_si512(m_odd32_.data() + c),
                       _mm512_loadu_si512(hi_rnd32_.data() + c),
                       _mm512_loadu_si512(hi_shift32_.data() + c));
        y = _mm512_add_epi32(y, zp);
        break;
      case Kind::kDouble32:
        x = _mm512_add_epi32(x, _mm512_loadu_si512(bias32_.data() + c));
        y = Double16(x, _mm512_loadu_si512(m32_.data() + c),
                     _mm512_loadu_si512(ls32_.data() + c),
                     _mm512_loadu_si512(rs32_.data() + c),
                     _mm512_loadu_si512(mask32_.data() + c),
                     _mm512_loadu_si512(half32_.data() + c));
        y = _mm512_add_epi32(y, zp);
        break;
      case Kind::kXnnpack32: {
        x = _mm512_add_epi32(x, _mm512_loadu_si512(bias32_.data() + c));
        __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(x),
                                 _mm512_loadu_ps(scale_f_.data() + c));
        v = _mm512_max_ps(v, _mm512_set1_ps(lo_f_));
        v = _mm512_min_ps(v, _mm512_set1_ps(hi_f_));
        y = _mm512_add_epi32(
            _mm512_cvt_roundps_epi32(
                v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
            zp);
        break;
      }
      case Kind::kFixed64: {
        const __m512i a0 =
            _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(x)),
                             _mm512_loadu_si512(bias64_.data() + c));
        const __m512i a1 = _mm512_add_epi64(
            _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(x, 1)),
            _mm512_loadu_si512(bias64_.data() + c + 8));
        y = Join(Fixed64x8(a0, _mm512_loadu_si512(m64_.data() + c),
                           _mm512_loadu_si512(ts64_.data() + c),
                           _mm512_loadu_si512(rnd64_.data() + c)),
                 Fixed64x8(a1, _mm512_loadu_si512(m64_.data() + c + 8),
                           _mm512_loadu_si512(ts64_.data() + c + 8),
                           _mm512_loadu_si512(rnd64_.data() + c + 8)));
        y = _mm512_add_epi32(y, zp);
        break;
      }
      case Kind::kByScale: {
        __m512i a0, a1;
        if (p_.acc64) {
          a0 =
              _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(x)),
                               _mm512_loadu_si512(bias64_.data() + c));
          a1 = _mm512_add_epi64(
              _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(x, 1)),
              _mm512_loadu_si512(bias64_.data() + c + 8));
        } else {
          x = _mm512_add_epi32(x, _mm512_loadu_si512(bias32_.data() + c));
          a0 = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(x));
          a1 = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(x, 1));
        }
        y = Join(ByScale8(a0, _mm512_loadu_pd(scale_d_.data() + c),
                          p_.zero_point, p_.act_min, p_.act_max),
                 ByScale8(a1, _mm512_loadu_pd(scale_d_.data() + c + 8),
                          p_.zero_point, p_.act_min, p_.act_max));
        break;
      }
      case Kind::kScalar:
      default:
        return;
    }
    y = _mm512_min_epi32(_mm512_max_epi32(y, lo), hi);
    switch (p_.out_type) {
      case ir::DataType::kInt16:
        _mm256_mask_storeu_epi16(static_cast<int16_t*>(out) + i, k,
                                 _mm512_cvtepi32_epi16(y));
        break;
      case ir::DataType::kUInt8:
        _mm_mask_storeu_epi8(static_cast<uint8_t*>(out) + i, k,
                             _mm512_cvtepi32_epi8(y));
        break;
      default:
        _mm_mask_storeu_epi8(static_cast<int8_t*>(out) + i, k,
                             _mm512_cvtepi32_epi8(y));
        break;
    }
  }
}

namespace {

// Clamps y to [lo, hi] and stores the lanes of mask k as the output type.
// `saturate`: [lo, hi] is the whole range of a signed output type, which
// the saturating narrowing clamps to by itself.
// The narrowing goes to a register, then a plain store when all 16 lanes
// are stored: the narrowing store to memory (vpmov*db m128{k}) costs
// several more uops.
QF_TARGET_AVX512 inline void StoreNarrow8(__m128i v, __mmask16 k, void* out) {
  if (k == 0xFFFF) {
    _mm_storeu_si128(static_cast<__m128i*>(out), v);
  } else {
    _mm_mask_storeu_epi8(out, k, v);
  }
}

QF_TARGET_AVX512 inline void Store16(__m512i y, __m512i lo, __m512i hi,
                                     ir::DataType type, __mmask16 k, void* out,
                                     bool saturate) {
  if (saturate) {
    if (type == ir::DataType::kInt16) {
      _mm256_mask_storeu_epi16(out, k, _mm512_cvtsepi32_epi16(y));
    } else {
      StoreNarrow8(_mm512_cvtsepi32_epi8(y), k, out);
    }
    return;
  }
  y = _mm512_min_epi32(_mm512_max_epi32(y, lo), hi);
  switch (type) {
    case ir::DataType::kInt16:
      _mm256_mask_storeu_epi16(out, k, _mm512_cvtepi32_epi16(y));
      return;
    default:  // int8 and uint8: the clamp put y in range
      StoreNarrow8(_mm512_cvtepi32_epi8(y), k, out);
      return;
  }
}

}  // namespace

// The 32-bit forms, channel block outer and rows inner: the per-channel
// constants stay in registers across the rows of a tile.
template <OutputStage::Kind kKind>
QF_TARGET_AVX512 void OutputStage::RowsAvx512(const int32_t* acc,
                                              int64_t acc_stride, int rows,
                                              int64_t c0, int64_t count,
                                              void* out,
                                              int64_t out_stride) const {
  const __m512i zp = _mm512_set1_epi32(p_.zero_point);
  const __m512i lo = _mm512_set1_epi32(p_.act_min);
  const __m512i hi = _mm512_set1_epi32(p_.act_max);
  const int64_t es = static_cast<int64_t>(out_bytes());
  const bool saturate = (p_.out_type == ir::DataType::kInt8 &&
                         p_.act_min == -128 && p_.act_max == 127) ||
                        (p_.out_type == ir::DataType::kInt16 &&
                         p_.act_min == -32768 && p_.act_max == 32767);
  for (int64_t i = 0; i < count; i += 16) {
    const int64_t c = c0 + i;
    const int64_t left = count - i;
    const __mmask16 k =
        left >= 16 ? static_cast<__mmask16>(0xFFFF)
                   : static_cast<__mmask16>((1u << static_cast<int>(left)) - 1);
    const __m512i bias = _mm512_loadu_si512(bias32_.data() + c);
    __m512i m = _mm512_setzero_si512(), a1 = m, a2 = m, a3 = m, a4 = m;
    __m512 scale = _mm512_setzero_ps(), lo_f = scale, hi_f = scale;
    if constexpr (kKind == Kind::kSingle32) {
      m = _mm512_loadu_si512(m32_.data() + c);
      a1 = _mm512_loadu_si512(ts_even_.data() + c / 2);
      a2 = _mm512_loadu_si512(ts_odd_.data() + c / 2);
      a3 = _mm512_loadu_si512(rnd_even_.data() + c / 2);
      a4 = _mm512_loadu_si512(rnd_odd_.data() + c / 2);
    } else if constexpr (kKind == Kind::kSingleHi32) {
      m = _mm512_loadu_si512(m32_.data() + c);
      a1 = _mm512_loadu_si512(m_odd32_.data() + c);
      a2 = _mm512_loadu_si512(hi_rnd32_.data() + c);
      a3 = _mm512_loadu_si512(hi_shift32_.data() + c);
    } else if constexpr (kKind == Kind::kDouble32) {
      m = _mm512_loadu_si512(m32_.data() + c);
      a1 = _mm512_loadu_si512(ls32_.data() + c);
      a2 = _mm512_loadu_si512(rs32_.data() + c);
      a3 = _mm512_loadu_si512(mask32_.data() + c);
      a4 = _mm512_loadu_si512(half32_.data() + c);
    } else {
      scale = _mm512_loadu_ps(scale_f_.data() + c);
      lo_f = _mm512_set1_ps(lo_f_);
      hi_f = _mm512_set1_ps(hi_f_);
    }
    for (int r = 0; r < rows; ++r) {
      const __m512i x = _mm512_add_epi32(
          _mm512_maskz_loadu_epi32(k, acc + r * acc_stride + i), bias);
      __m512i y;
      if constexpr (kKind == Kind::kSingle32) {
        y = Single16(x, m, a1, a2, a3, a4);
      } else if constexpr (kKind == Kind::kSingleHi32) {
        y = SingleHi16(x, m, a1, a2, a3);
      } else if constexpr (kKind == Kind::kDouble32) {
        y = Double16(x, m, a1, a2, a3, a4);
      } else {
        __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(x), scale);
        v = _mm512_min_ps(_mm512_max_ps(v, lo_f), hi_f);
        y = _mm512_cvt_roundps_epi32(
            v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      }
      Store16(_mm512_add_epi32(y, zp), lo, hi, p_.out_type, k,
              static_cast<uint8_t*>(out) + r * out_stride + i * es, saturate);
    }
  }
}

void OutputStage::RunRows(const int32_t* acc, int64_t acc_stride, int rows,
                          int64_t c0, int64_t count, void* out,
                          int64_t out_stride) const {
  if (isa_ == Isa::kAvx512Vnni) {
    switch (kind_) {
      case Kind::kSingle32:
        RowsAvx512<Kind::kSingle32>(acc, acc_stride, rows, c0, count, out,
                                    out_stride);
        return;
      case Kind::kSingleHi32:
        RowsAvx512<Kind::kSingleHi32>(acc, acc_stride, rows, c0, count, out,
                                      out_stride);
        return;
      case Kind::kDouble32:
        RowsAvx512<Kind::kDouble32>(acc, acc_stride, rows, c0, count, out,
                                    out_stride);
        return;
      case Kind::kXnnpack32:
        RowsAvx512<Kind::kXnnpack32>(acc, acc_stride, rows, c0, count, out,
                                     out_stride);
        return;
      case Kind::kScalar:
      case Kind::kFixed64:
      case Kind::kByScale:
        break;
    }
  }
  for (int r = 0; r < rows; ++r) {
    Run(acc + r * acc_stride, c0, count,
        static_cast<uint8_t*>(out) + r * out_stride);
  }
}

// ---------------------------------------------------------------- AVX2

namespace {

// x >> s (arithmetic) on int64 lanes from a logical shift: flip the sign
// bit, shift, take off 2^63 >> s.
QF_TARGET_AVX2 inline __m256i Sra64(__m256i x, __m256i s,
                                    __m256i sign_shifted) {
  const __m256i flip = _mm256_set1_epi64x(INT64_MIN);
  return _mm256_sub_epi64(_mm256_srlv_epi64(_mm256_xor_si256(x, flip), s),
                          sign_shifted);
}

QF_TARGET_AVX2 inline __m256i Single8(__m256i x, __m256i m, __m256i tse,
                                      __m256i tso, __m256i rnde, __m256i rndo,
                                      __m256i sge, __m256i sgo) {
  __m256i pe = _mm256_mul_epi32(x, m);
  __m256i po =
      _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(m, 32));
  pe = Sra64(_mm256_add_epi64(pe, rnde), tse, sge);
  po = Sra64(_mm256_add_epi64(po, rndo), tso, sgo);
  return _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
}

QF_TARGET_AVX2 inline __m256i HighMulProducts4(__m256i ab) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i neg = _mm256_cmpgt_epi64(zero, ab);
  const __m256i nudge =
      _mm256_blendv_epi8(_mm256_set1_epi64x(int64_t{1} << 30),
                         _mm256_set1_epi64x(1 - (int64_t{1} << 30)), neg);
  __m256i v = _mm256_add_epi64(ab, nudge);
  const __m256i vneg = _mm256_cmpgt_epi64(zero, v);
  v = _mm256_add_epi64(
      v, _mm256_and_si256(vneg, _mm256_set1_epi64x((int64_t{1} << 31) - 1)));
  return Sra64(v, _mm256_set1_epi64x(31), _mm256_set1_epi64x(int64_t{1} << 32));
}

QF_TARGET_AVX2 inline __m256i Double8(__m256i x, __m256i m, __m256i ls,
                                      __m256i rs, __m256i mask, __m256i half) {
  const __m256i a = _mm256_sllv_epi32(x, ls);
  const __m256i pe = HighMulProducts4(_mm256_mul_epi32(a, m));
  const __m256i po = HighMulProducts4(
      _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(m, 32)));
  __m256i q = _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
  const __m256i min32 = _mm256_set1_epi32(INT32_MIN);
  const __m256i sat = _mm256_and_si256(_mm256_cmpeq_epi32(a, min32),
                                       _mm256_cmpeq_epi32(m, min32));
  q = _mm256_blendv_epi8(q, _mm256_set1_epi32(INT32_MAX), sat);
  const __m256i rem = _mm256_and_si256(q, mask);
  const __m256i thr = _mm256_add_epi32(half, _mm256_srli_epi32(q, 31));
  const __m256i r = _mm256_srav_epi32(q, rs);
  // cmpgt is -1 where true: subtracting it adds 1.
  return _mm256_sub_epi32(r, _mm256_cmpgt_epi32(rem, thr));
}

QF_TARGET_AVX2 inline __m256i LoadU(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

}  // namespace

QF_TARGET_AVX2 void OutputStage::RunAvx2(const int32_t* acc, int64_t c0,
                                         int64_t count, void* out) const {
  const __m256i zp = _mm256_set1_epi32(p_.zero_point);
  const __m256i lo = _mm256_set1_epi32(p_.act_min);
  const __m256i hi = _mm256_set1_epi32(p_.act_max);
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const int64_t c = c0 + i;
    __m256i x = _mm256_add_epi32(LoadU(acc + i), LoadU(bias32_.data() + c));
    __m256i y;
    switch (kind_) {
      case Kind::kSingle32:
        y = Single8(
            x, LoadU(m32_.data() + c), LoadU(ts_even_.data() + c / 2),
            LoadU(ts_odd_.data() + c / 2), LoadU(rnd_even_.data() + c / 2),
            LoadU(rnd_odd_.data() + c / 2), LoadU(sign_even_.data() + c / 2),
            LoadU(sign_odd_.data() + c / 2));
        y = _mm256_add_epi32(y, zp);
        break;
      case Kind::kDouble32:
        y = Double8(x, LoadU(m32_.data() + c), LoadU(ls32_.data() + c),
                    LoadU(rs32_.data() + c), LoadU(mask32_.data() + c),
                    LoadU(half32_.data() + c));
        y = _mm256_add_epi32(y, zp);
        break;
      case Kind::kXnnpack32: {
        __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(x),
                                 _mm256_loadu_ps(scale_f_.data() + c));
        v = _mm256_max_ps(v, _mm256_set1_ps(lo_f_));
        v = _mm256_min_ps(v, _mm256_set1_ps(hi_f_));
        v = _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        y = _mm256_add_epi32(_mm256_cvttps_epi32(v), zp);
        break;
      }
      default:
        RunScalar(acc + i, c, count - i,
                  static_cast<uint8_t*>(out) +
                      i * (p_.out_type == ir::DataType::kInt16 ? 2 : 1));
        return;
    }
    y = _mm256_min_epi32(_mm256_max_epi32(y, lo), hi);
    // Narrow: int32 -> int16 (in range after the clamp), then bytes.
    __m256i w = _mm256_packs_epi32(y, y);
    w = _mm256_permute4x64_epi64(w, 0x08);
    const __m128i w16 = _mm256_castsi256_si128(w);
    switch (p_.out_type) {
      case ir::DataType::kInt16:
        _mm_storeu_si128(
            reinterpret_cast<__m128i*>(static_cast<int16_t*>(out) + i), w16);
        break;
      case ir::DataType::kUInt8:
        _mm_storel_epi64(
            reinterpret_cast<__m128i*>(static_cast<uint8_t*>(out) + i),
            _mm_packus_epi16(w16, w16));
        break;
      default:
        _mm_storel_epi64(
            reinterpret_cast<__m128i*>(static_cast<int8_t*>(out) + i),
            _mm_packs_epi16(w16, w16));
        break;
    }
  }
  if (i < count) {
    RunScalar(acc + i, c0 + i, count - i,
              static_cast<uint8_t*>(out) +
                  i * (p_.out_type == ir::DataType::kInt16 ? 2 : 1));
  }
}

}  // namespace qforge::runtime::integer
