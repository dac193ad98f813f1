// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// IEEE 754 binary16 <-> binary32 conversion on bit patterns (float16
// weights behind DEQUANTIZE, CAST to/from float16, the float16 scheme).
// In numerics (a leaf) so that the quantizer and the kernels share it.
//  - HalfToFloat is exact for every one of the 65536 half values; a NaN keeps
//    its sign and payload and comes out quiet (as F16C and TFLite's FP16
//    library produce it).
//  - FloatToHalf rounds to nearest, ties to even; values at or above
//    65520 (half of the way between 65504 and 2^16) become infinity, and a
//    NaN becomes the canonical quiet NaN 0x7E00 with the input's sign (as
//    TFLite's fp16_ieee_from_fp32_value does).
#ifndef QFORGE_NUMERICS_FLOAT16_H_
#define QFORGE_NUMERICS_FLOAT16_H_

#include <cstdint>
#include <cstring>

namespace qforge::numerics {

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

inline float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1F) {  // infinity or NaN
    uint32_t bits = sign | 0x7F800000u | (mantissa << 13);
    if (mantissa != 0) bits |= 0x00400000u;  // quiet the NaN
    return BitsToFloat(bits);
  }
  if (exponent != 0) {  // normal: rebias 15 -> 127
    return BitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return BitsToFloat(sign);  // signed zero
  // Subnormal half: mantissa * 2^-24. Normalise it: shift the leading one
  // into bit 10, lowering the exponent once per shift.
  int32_t e = 113;  // biased float exponent of 2^-14
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    --e;
  }
  return BitsToFloat(sign | (static_cast<uint32_t>(e) << 23) |
                     ((mantissa & 0x3FFu) << 13));
}

inline uint16_t FloatToHalf(float f) {
  const uint32_t bits = FloatBits(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t abs = bits & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);  // NaN
  // 65520 = 0x477FF000 and above round to infinity (ties to even: 65504's
  // mantissa 0x3FF is odd, so the tie goes up).
  if (abs >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);
  if (abs >= 0x38800000u) {  // >= 2^-14: a normal half
    // Drop 13 mantissa bits with round to nearest even; a carry out of the
    // mantissa correctly bumps the exponent.
    const uint32_t rebiased = abs - 0x38000000u;  // exponent 127 -> 15
    const uint32_t lsb = (rebiased >> 13) & 1u;
    return static_cast<uint16_t>(sign | ((rebiased + 0xFFFu + lsb) >> 13));
  }
  if (abs < 0x33000000u) return sign;  // < 2^-25: rounds to zero
  // Subnormal half: value = m * 2^-24 with m = significand >> shift.
  const uint32_t exponent = abs >> 23;  // 102..112
  const uint32_t significand = (abs & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126u - exponent;  // 14..24
  const uint32_t m = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1u);
  const uint32_t half_way = 1u << (shift - 1);
  const uint32_t round_up =
      (rest > half_way || (rest == half_way && (m & 1u) != 0)) ? 1u : 0u;
  return static_cast<uint16_t>(sign | (m + round_up));
}

}  // namespace qforge::numerics

#endif  // QFORGE_NUMERICS_FLOAT16_H_
