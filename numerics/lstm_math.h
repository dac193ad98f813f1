// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The element-level integer arithmetic of TFLite's fully quantized LSTM
// (lstm_eval.cc's 8x8_16 path and the int16 tensor_utils it calls), bit for
// bit:
//  - gate activations on int16: sigmoid of a Q3.12 value and tanh of a
//    Q(I).(15-I) value, both to Q0.15 (gemmlowp's logistic / tanh, as
//    PortableApplySigmoid / PortableApplyTanh);
//  - the element products of the cell update (CwiseMul: a * b rounded
//    right by a power of two, or requantized to int8);
//  - the integer layer normalization of one gate row (ApplyLayerNorm).
// Requantization (MultiplyByQuantizedMultiplier) takes the op's rounding
// mode (numerics/fixed_point.h); LiteRT's LSTM, whose cell state is int16,
// rounds twice.
// Header-only: qforge_runtime uses it and does not link qforge_numerics.
#ifndef QFORGE_NUMERICS_LSTM_MATH_H_
#define QFORGE_NUMERICS_LSTM_MATH_H_

#include <algorithm>
#include <cstdint>

#include "numerics/fixed_point.h"
#include "numerics/fixed_point_math.h"

namespace qforge::numerics::lstm {

// The largest integer-bit count TFLite's int16 tanh dispatches
// (PortableApplyTanh asserts integer_bits <= 6).
inline constexpr int kMaxTanhIntegerBits = 6;

// sigmoid(x) for x in Q3.12 (raw / 4096), as Q0.15 (raw / 32768; 1.0 is
// 32767).
inline int16_t SigmoidQ3(int16_t x) {
  using F3 = fixed::Fixed<int16_t, 3>;
  return fixed::Logistic(F3::FromRaw(x)).raw;
}

template <int I>
inline int16_t TanhQ(int16_t x) {
  return fixed::Tanh(fixed::Fixed<int16_t, I>::FromRaw(x)).raw;
}

// tanh(x) for x with `integer_bits` integer bits (raw / 2^(15 -
// integer_bits)), as Q0.15. integer_bits in [0, kMaxTanhIntegerBits]; other
// values return 0, as TFLite's dispatch leaves the output unwritten (the
// LSTM kernels refuse them before running).
inline int16_t Tanh(int integer_bits, int16_t x) {
  switch (integer_bits) {
    case 0:
      return TanhQ<0>(x);
    case 1:
      return TanhQ<1>(x);
    case 2:
      return TanhQ<2>(x);
    case 3:
      return TanhQ<3>(x);
    case 4:
      return TanhQ<4>(x);
    case 5:
      return TanhQ<5>(x);
    case 6:
      return TanhQ<6>(x);
    default:
      return 0;
  }
}

// a * b / 2^shift rounded half away from zero, narrowed to int16 with
// wrap-around as TFLite's cast (PortableCwiseMul, shift form). shift in
// [0, 31]. Only (-32768)^2 / 2^15 wraps (to -32768).
inline int16_t MulShift(int16_t a, int16_t b, int shift) {
  const int32_t product = static_cast<int32_t>(a) * static_cast<int32_t>(b);
  return static_cast<int16_t>(
      static_cast<uint16_t>(RoundingDivideByPOT(product, shift)));
}

// a * b requantized to int8: MultiplyByQuantizedMultiplier(a * b), then
// *minus* the zero point, clamped to [-128, 127] (PortableCwiseMul,
// multiplier form: LiteRT subtracts `zero_point` here, and adds the same
// zero point times the row sums back in the projection bias).
inline int8_t MulRequantize(int16_t a, int16_t b, int32_t multiplier, int shift,
                            int32_t zero_point, Rounding r) {
  int32_t v = static_cast<int32_t>(a) * static_cast<int32_t>(b);
  v = MultiplyByQuantizedMultiplier(v, multiplier, shift, r);
  v -= zero_point;
  return static_cast<int8_t>(std::min(std::max(v, int32_t{-128}), 127));
}

// a + b saturated to int16 (PortableCwiseAdd).
inline int16_t AddSat(int16_t a, int16_t b) {
  return SaturatingCast<int16_t>(int64_t{a} + int64_t{b});
}

// TFLite's integer layer normalization of one gate row (PortableApply-
// LayerNorm), in place allowed (out may equal in). n values of `in`
// (Q3.12 gate pre-activations), per-cell int16 coefficients `weights`, int32
// `bias`, the coefficients' scale as (scale_a, scale_b) from
// QuantizeMultiplier, and `variance_limit` for rows whose variance rounds
// below 1. Fixed-point steps:
//   mean = sum * 1024 / n;  variance = (sum_sq * (2^20 / n) - mean^2) / 2^20
//   x' = (1024 x - mean) / sqrt(variance)          (Q... via the inverse
//        square-root multiplier, GetInvSqrtQuantizedMultiplierExp)
//   y  = round_half_away((x' * w + bias) / 1024)   (int64)
//   out = clamp16(MultiplyByQuantizedMultiplier(y, scale_a, scale_b + 12))
// As in TFLite, 2^20 / n truncates (exact for power-of-two n only), and
// the intermediate products wrap as TFLite's int32 / int64 arithmetic does.
inline void LayerNormRow(const int16_t* in, const int16_t* weights,
                         const int32_t* bias, int32_t scale_a, int scale_b,
                         int32_t variance_limit, int n, int16_t* out,
                         Rounding r) {
  constexpr int64_t kTwoToPower20 = int64_t{1} << 20;
  int64_t sum = 0;
  int64_t sum_sq = 0;
  for (int j = 0; j < n; ++j) {
    const int32_t v = in[j];
    sum += v;
    sum_sq += v * v;
  }
  const int32_t mean = static_cast<int32_t>(sum * 1024 / n);
  const int32_t temp = static_cast<int32_t>(kTwoToPower20 / n);
  const int64_t variance =
      sum_sq * temp - static_cast<int64_t>(mean) * static_cast<int64_t>(mean);
  int32_t variance2 = static_cast<int32_t>(variance / kTwoToPower20);
  if (variance2 < 1) variance2 = variance_limit;
  int32_t inv_a = 0;
  int inv_b = 0;
  fixed::InvSqrtQuantizedMultiplierExp(variance2, &inv_a, &inv_b);
  for (int j = 0; j < n; ++j) {
    const int32_t shifted = static_cast<int32_t>(
        static_cast<uint32_t>(1024u * static_cast<uint32_t>(in[j])) -
        static_cast<uint32_t>(mean));
    const int32_t rescaled =
        MultiplyByQuantizedMultiplier(shifted, inv_a, inv_b, r);
    // TFLite: int64 val3 = rescaled * weights[j] + bias[j], the product in
    // int32 (wrapping), then widened.
    const int32_t product = static_cast<int32_t>(
        static_cast<uint32_t>(rescaled) *
        static_cast<uint32_t>(static_cast<int32_t>(weights[j])));
    const int64_t val3 = static_cast<int64_t>(static_cast<int32_t>(
        static_cast<uint32_t>(product) + static_cast<uint32_t>(bias[j])));
    const int32_t val4 =
        static_cast<int32_t>((val3 > 0 ? val3 + 512 : val3 - 512) / 1024);
    const int32_t val5 =
        MultiplyByQuantizedMultiplier(val4, scale_a, scale_b + 12, r);
    out[j] = SaturatingCast<int16_t>(val5);
  }
}

}  // namespace qforge::numerics::lstm

#endif  // QFORGE_NUMERICS_LSTM_MATH_H_
