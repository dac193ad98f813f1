// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// gemmlowp's fixed-point transcendental functions, bit-exact, as TFLite's
// builtin kernels use them (int16 LOGISTIC / TANH with power-of-two input
// scales): exp on negative values, 1 / (1 + x), (1 - x) / (1 + x),
// logistic and tanh, for int16 and int32 raw values.
//
// A value Fixed<T, I> holds `raw` in Q(I).(bits(T) - 1 - I): I integer bits
// plus the sign bit. Arithmetic follows gemmlowp exactly: + and - wrap
// around, * is the saturating rounding doubling high multiply (integer
// bits add up), Rescale changes the integer bits with a saturating left
// shift or a rounding right shift, and constants given as Q0.31 int32 raw
// values are rounded to 16 bits for int16.
// Header-only: qforge_runtime uses it and does not link qforge_numerics.
#ifndef QFORGE_NUMERICS_FIXED_POINT_MATH_H_
#define QFORGE_NUMERICS_FIXED_POINT_MATH_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "numerics/fixed_point.h"

namespace qforge::numerics::fixed {

template <typename T, int I>
struct Fixed {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>,
                "int16 or int32 raw values");
  static constexpr int kTotalBits = 8 * sizeof(T);
  static constexpr int kIntegerBits = I;
  static constexpr int kFractionalBits = kTotalBits - 1 - I;
  T raw = 0;

  static Fixed FromRaw(T r) { return Fixed{r}; }
  static Fixed Zero() { return Fixed{0}; }
  // 1.0, or the largest value below 1 when there are no integer bits.
  static Fixed One() {
    return Fixed{I == 0
                     ? std::numeric_limits<T>::max()
                     : static_cast<T>(T{1} << (I == 0 ? 0 : kFractionalBits))};
  }
  template <int kExponent>
  static Fixed ConstantPOT() {
    static_assert(kFractionalBits + kExponent < 31, "not representable");
    return Fixed{static_cast<T>(T{1} << (kFractionalBits + kExponent))};
  }
};

// Wrapping raw arithmetic (gemmlowp's Add / Sub / Neg on the raw type).
template <typename T>
inline T WrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T>
inline T WrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}

template <typename T, int I>
Fixed<T, I> operator+(Fixed<T, I> a, Fixed<T, I> b) {
  return Fixed<T, I>{WrapAdd(a.raw, b.raw)};
}
template <typename T, int I>
Fixed<T, I> operator-(Fixed<T, I> a, Fixed<T, I> b) {
  return Fixed<T, I>{WrapSub(a.raw, b.raw)};
}
template <typename T, int I>
Fixed<T, I> operator-(Fixed<T, I> a) {
  return Fixed<T, I>{WrapSub(T{0}, a.raw)};
}
template <typename T, int Ia, int Ib>
Fixed<T, Ia + Ib> operator*(Fixed<T, Ia> a, Fixed<T, Ib> b) {
  return Fixed<T, Ia + Ib>{SaturatingRoundingDoublingHighMul(a.raw, b.raw)};
}

// x * 2^kExponent: saturating left shift or rounding right shift.
template <int kExponent, typename T>
inline T SaturatingRoundingMultiplyByPOT(T x) {
  if constexpr (kExponent == 0) {
    return x;
  } else if constexpr (kExponent > 0) {
    constexpr int64_t threshold =
        (int64_t{1} << (8 * sizeof(T) - 1 - kExponent)) - 1;
    if (x > threshold) return std::numeric_limits<T>::max();
    if (x < -threshold) return std::numeric_limits<T>::min();
    return static_cast<T>(static_cast<int64_t>(x) * (int64_t{1} << kExponent));
  } else {
    return static_cast<T>(
        RoundingDivideByPOT(static_cast<int32_t>(x), -kExponent));
  }
}

template <int kExponent, typename T, int I>
Fixed<T, I> SaturatingRoundingMultiplyByPOT(Fixed<T, I> a) {
  return Fixed<T, I>{SaturatingRoundingMultiplyByPOT<kExponent>(a.raw)};
}

// Same raw value, kExponent more integer bits (an exact product).
template <int kExponent, typename T, int I>
Fixed<T, I + kExponent> ExactMulByPot(Fixed<T, I> a) {
  return Fixed<T, I + kExponent>{a.raw};
}

template <int Idst, typename T, int Isrc>
Fixed<T, Idst> Rescale(Fixed<T, Isrc> a) {
  return Fixed<T, Idst>{SaturatingRoundingMultiplyByPOT<Isrc - Idst>(a.raw)};
}

// (a + b) / 2 rounded half away from zero.
template <typename T, int I>
Fixed<T, I> RoundingHalfSum(Fixed<T, I> a, Fixed<T, I> b) {
  const int64_t sum = int64_t{a.raw} + b.raw;
  const int64_t sign = sum >= 0 ? 1 : -1;
  return Fixed<T, I>{static_cast<T>((sum + sign) / 2)};
}

// a + b, saturating for int16, wrapping for int32.
template <typename T, int I>
Fixed<T, I> AddSaturatingIf16Bit(Fixed<T, I> a, Fixed<T, I> b) {
  if constexpr (std::is_same_v<T, int16_t>) {
    const int32_t s = int32_t{a.raw} + b.raw;
    return Fixed<T, I>{
        static_cast<T>(s > 32767 ? 32767 : (s < -32768 ? -32768 : s))};
  } else {
    return a + b;
  }
}

// A constant given as a Q-format int32 raw value, rounded to T's width.
template <typename F>
F Constant(int32_t int32_raw) {
  using T = decltype(F::raw);
  return F{static_cast<T>(
      RoundingDivideByPOT(int32_raw, 32 - 8 * static_cast<int>(sizeof(T))))};
}

// exp(a) for a in [-1/4, 0).
template <typename T>
Fixed<T, 0> ExpOnIntervalNegQuarterTo0(Fixed<T, 0> a) {
  using F = Fixed<T, 0>;
  const F constant_term = Constant<F>(1895147668);  // exp(-1/8)
  const F one_third = Constant<F>(715827883);
  // Taylor expansion around -1/8: x = a + 1/8.
  const F x = a + F::template ConstantPOT<-3>();
  const F x2 = x * x;
  const F x3 = x2 * x;
  const F x4 = x2 * x2;
  const F x4_over_4 = SaturatingRoundingMultiplyByPOT<-2>(x4);
  const F poly =
      SaturatingRoundingMultiplyByPOT<-1>(((x4_over_4 + x3) * one_third) + x2);
  return AddSaturatingIf16Bit(constant_term, constant_term * (x + poly));
}

// exp(a) for a <= 0.
template <typename T, int I>
Fixed<T, 0> ExpOnNegativeValues(Fixed<T, I> a) {
  using InputF = Fixed<T, I>;
  using ResultF = Fixed<T, 0>;
  constexpr int kFractionalBits = InputF::kFractionalBits;
  const InputF one_quarter = InputF::template ConstantPOT<-2>();
  const InputF mask = one_quarter - InputF::FromRaw(1);
  const InputF a_mod_quarter_minus_quarter =
      InputF{static_cast<T>(a.raw & mask.raw)} - one_quarter;
  ResultF result =
      ExpOnIntervalNegQuarterTo0(Rescale<0>(a_mod_quarter_minus_quarter));
  const T remainder = (a_mod_quarter_minus_quarter - a).raw;
  // Multiply by exp(-2^e) for each set bit e of the remainder.
  auto barrel = [&](auto exponent_tag, int32_t multiplier) {
    constexpr int kExponent = decltype(exponent_tag)::value;
    if constexpr (I > kExponent) {
      constexpr int kShift = kFractionalBits + kExponent;
      if ((remainder & static_cast<T>(T{1} << kShift)) != 0) {
        result = result * Constant<ResultF>(multiplier);
      }
    }
  };
  barrel(std::integral_constant<int, -2>{}, 1672461947);  // exp(-1/4)
  barrel(std::integral_constant<int, -1>{}, 1302514674);  // exp(-1/2)
  barrel(std::integral_constant<int, 0>{}, 790015084);    // exp(-1)
  barrel(std::integral_constant<int, 1>{}, 290630308);    // exp(-2)
  barrel(std::integral_constant<int, 2>{}, 39332535);     // exp(-4)
  barrel(std::integral_constant<int, 3>{}, 720401);       // exp(-8)
  barrel(std::integral_constant<int, 4>{}, 242);          // exp(-16)
  if constexpr (I > 5) {
    const InputF clamp = Constant<InputF>(-(1 << (36 - I)));  // -32
    if (a.raw < clamp.raw) result = ResultF::Zero();
  }
  if (a.raw == 0) result = ResultF::One();
  return result;
}

// Newton-Raphson reciprocal of (1 + a) / 2 for a in (0, 1), in Q2.
template <typename T>
Fixed<T, 2> HalfReciprocal(Fixed<T, 0> a) {
  using F0 = Fixed<T, 0>;
  using F2 = Fixed<T, 2>;
  const F0 half_denominator = RoundingHalfSum(a, F0::One());
  const F2 c48_17 = Constant<F2>(1515870810);    // 48/17
  const F2 cm32_17 = Constant<F2>(-1010580540);  // -32/17
  F2 x = c48_17 + half_denominator * cm32_17;
  for (int i = 0; i < 3; ++i) {
    const F2 hd_x = half_denominator * x;
    const F2 one_minus = F2::One() - hd_x;
    x = x + Rescale<2>(x * one_minus);
  }
  return x;
}

// 1 / (1 + a) for a in (0, 1).
template <typename T>
Fixed<T, 0> OneOverOnePlusX(Fixed<T, 0> a) {
  return Rescale<0>(ExactMulByPot<-1>(HalfReciprocal(a)));
}

// (1 - a) / (1 + a) for a in (0, 1).
template <typename T>
Fixed<T, 0> OneMinusXOverOnePlusX(Fixed<T, 0> a) {
  using F2 = Fixed<T, 2>;
  return Rescale<0>(HalfReciprocal(a) - F2::One());
}

// logistic(a) = 1 / (1 + exp(-a)).
template <typename T, int I>
Fixed<T, 0> Logistic(Fixed<T, I> a) {
  using ResultF = Fixed<T, 0>;
  if (a.raw == 0) return Constant<ResultF>(1 << 30);  // 0.5
  const bool positive = a.raw > 0;
  const Fixed<T, I> abs_a = positive ? a : -a;
  const ResultF on_positive = OneOverOnePlusX(ExpOnNegativeValues(-abs_a));
  return positive ? on_positive : ResultF::One() - on_positive;
}

// tanh(a) = (1 - exp(-2a)) / (1 + exp(-2a)).
template <typename T, int I>
Fixed<T, 0> Tanh(Fixed<T, I> a) {
  using ResultF = Fixed<T, 0>;
  if (a.raw == 0) return ResultF::Zero();
  const bool negative = a.raw < 0;
  const Fixed<T, I> n = negative ? a : -a;  // n <= 0
  const ResultF t =
      OneMinusXOverOnePlusX(ExpOnNegativeValues(ExactMulByPot<1>(n)));
  return negative ? -t : t;
}

// TFLite's GetInvSqrtQuantizedMultiplierExp (reverse_shift = -1, as every
// caller passes kReverseShift): 1 / sqrt(input) as a Q0.31 multiplier and a
// shift (multiply as MultiplyByQuantizedMultiplier(x, *multiplier,
// *shift)), by five Newton-Raphson steps in Q3.28 from x = 1, the input
// first normalised into [2^27, 2^29) by pairs of bits. Inputs 0 and 1 give
// INT32_MAX and shift 0 (TFLite treats 0 as 1).
inline void InvSqrtQuantizedMultiplierExp(int32_t input, int32_t* multiplier,
                                          int* shift) {
  if (input <= 1) {
    *multiplier = std::numeric_limits<int32_t>::max();
    *shift = 0;
    return;
  }
  int right_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++right_shift;
  }
  int leading_zeros = 0;
  for (uint32_t v = static_cast<uint32_t>(input); v < (1u << 31); v <<= 1) {
    ++leading_zeros;
  }
  const int left_shift_bit_pairs = (leading_zeros - 1) / 2 - 1;
  right_shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  using F3 = Fixed<int32_t, 3>;
  using F0 = Fixed<int32_t, 0>;
  const F3 fixed_input = F3::FromRaw(input >> 1);
  const F3 half_input = SaturatingRoundingMultiplyByPOT<-1>(fixed_input);
  const F3 half_three = F3::FromRaw((1 << 28) + (1 << 27));  // 1.5
  F3 x = F3::One();
  for (int i = 0; i < 5; ++i) {
    const F3 x3 = Rescale<3>(x * x * x);
    x = Rescale<3>(half_three * x - half_input * x3);
  }
  const F0 half_sqrt_2 = F0::FromRaw(1518500250);  // sqrt(2) / 2
  x = x * half_sqrt_2;
  int32_t m = x.raw;
  if (right_shift < 0) {
    m = static_cast<int32_t>(static_cast<uint32_t>(m) << -right_shift);
    right_shift = 0;
  }
  *multiplier = m;
  *shift = -right_shift;
}

}  // namespace qforge::numerics::fixed

#endif  // QFORGE_NUMERICS_FIXED_POINT_MATH_H_
