// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite's integer arithmetic, bit-exact:
//  - real multipliers as (int32 significand, power-of-two shift), with
//    real = multiplier * 2^(shift - 31) (QuantizeMultiplier);
//  - gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT;
//  - MultiplyByQuantizedMultiplier for int32 accumulators in both of
//    TFLite's forms, single rounding (LiteRT, the default) and double
//    rounding (TFLite Micro), chosen by a mode passed in (see "rounding
//    mode" below), and the reduced-multiplier form TFLite uses for int64
//    accumulators (int16x8 kernels).
// Where TFLite relies on two's-complement wrap-around (an int32 left shift
// that overflows, an int64 result narrowed to int32) these functions wrap
// the same way, without undefined behaviour.
//
// Rounding, in words:
//  - SaturatingRoundingDoublingHighMul(a, b) = round(a * b / 2^31), ties
//    towards +infinity; the single overflow case a = b = INT32_MIN gives
//    INT32_MAX.
//  - RoundingDivideByPOT(x, e) = round(x / 2^e), ties away from zero.
#ifndef QFORGE_NUMERICS_FIXED_POINT_H_
#define QFORGE_NUMERICS_FIXED_POINT_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace qforge::numerics {

// ------------------------------------------------------- multiplier setup
//
// Everything here is inline: qforge_runtime uses it and does not link
// qforge_numerics (numerics is header-only for the runtime).

// Decomposes `real` as multiplier * 2^(shift - 31), multiplier in
// [2^30, 2^31) (or 0), exactly as TFLite's QuantizeMultiplier: frexp, the
// significand rounded half away from zero to 31 bits, a significand that
// rounds up to 2^31 halved (shift + 1), and reals below ~2^-31 (shift < -31)
// flushed to multiplier 0, shift 0. real = 0 (or non-finite) gives (0, 0).
// Negative reals give negative multipliers (TFLite's kernels never use
// them).
//
// TFLite's checked variants (QuantizeMultiplierSmallerThanOneExp /
// GreaterThanOne) return false (outputs unspecified) when `real` is outside
// (0, 1) / (1, inf) or the shift has the wrong sign, where TFLite aborts.
//
// CheckedLog2: *log2 = round(log2(x)) computed in float as TFLite does;
// true when x is a power of two to within 1e-3 in the exponent.
//
// Per-channel requantization multipliers of a conv / fully-connected op:
// effective_scale[c] = input_scale * weight_scale[c] / output_scale, in
// double from the float scales (TFLite's
// PopulateConvolutionQuantizationParams). A single weight scale is broadcast to
// all `channels`.
struct ChannelMultipliers {
  std::vector<int32_t> multiplier;
  std::vector<int> shift;
};

inline void QuantizeMultiplier(double real, int32_t* multiplier, int* shift) {
  if (real == 0.0 || !std::isfinite(real)) {
    *multiplier = 0;
    *shift = 0;
    return;
  }
  int exponent = 0;
  const double significand = std::frexp(real, &exponent);  // [0.5, 1)
  // std::round: half away from zero, as TfLiteRound.
  int64_t q =
      static_cast<int64_t>(std::round(significand * (int64_t{1} << 31)));
  // Only +2^31 overflows int32 (TFLite fixes up that case alone).
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  if (exponent < -31) {
    // Every product would shift out to 0: flush, as TFLite does.
    exponent = 0;
    q = 0;
  }
  *multiplier = static_cast<int32_t>(q);
  *shift = exponent;
}

inline bool QuantizeMultiplierSmallerThanOneExp(double real,
                                                int32_t* multiplier,
                                                int* left_shift) {
  if (!(real > 0.0 && real < 1.0)) return false;
  int shift = 0;
  QuantizeMultiplier(real, multiplier, &shift);
  *left_shift = shift;
  return shift <= 0;
}

inline bool QuantizeMultiplierGreaterThanOne(double real, int32_t* multiplier,
                                             int* left_shift) {
  if (!(real > 1.0) || !std::isfinite(real)) return false;
  QuantizeMultiplier(real, multiplier, left_shift);
  return *left_shift >= 0;
}

inline bool CheckedLog2(float x, int* log2) {
  // Float arithmetic and std::log, exactly as TFLite's CheckedLog2.
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  const float fraction = x_log2 - rounded;
  *log2 = static_cast<int>(rounded);
  return std::abs(fraction) < 1e-3f;
}

inline ChannelMultipliers QuantizeChannelMultipliers(float input_scale,
                                                     const float* weight_scales,
                                                     int num_weight_scales,
                                                     float output_scale,
                                                     int channels) {
  ChannelMultipliers out;
  out.multiplier.resize(static_cast<size_t>(channels));
  out.shift.resize(static_cast<size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    const float w = num_weight_scales > 1 ? weight_scales[c] : weight_scales[0];
    const double effective = static_cast<double>(input_scale) *
                             static_cast<double>(w) /
                             static_cast<double>(output_scale);
    QuantizeMultiplier(effective, &out.multiplier[static_cast<size_t>(c)],
                       &out.shift[static_cast<size_t>(c)]);
  }
  return out;
}

// ----------------------------------------------------- fixed-point kernels

inline int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::max();
  }
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  // C++ division truncates towards zero, as gemmlowp relies on.
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

// The int16 form (Q0.15 x Q0.15), as gemmlowp's FixedPoint<int16_t>.
inline int16_t SaturatingRoundingDoublingHighMul(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) {
    return std::numeric_limits<int16_t>::max();
  }
  const int32_t ab = static_cast<int32_t>(a) * static_cast<int32_t>(b);
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

// x / 2^exponent rounded to nearest, ties away from zero; exponent in
// [0, 31] (exponent 0 returns x).
inline int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// int16 form; exponent in [0, 15].
inline int16_t RoundingDivideByPOT(int16_t x, int exponent) {
  return static_cast<int16_t>(
      RoundingDivideByPOT(static_cast<int32_t>(x), exponent));
}

// a + b with int32 wrap-around: TFLite's int32 accumulations (SVDF's
// reductions, for one) overflow on saturated inputs and wrap in practice.
inline int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) +
                              static_cast<uint32_t>(b));
}

// x * 2^left_shift with int32 wrap-around (TFLite's `x * (1 << shift)`).
inline int32_t WrappingShiftLeft(int32_t x, int left_shift) {
  return static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
}

// ------------------------------------------------------- rounding mode
//
// TFLite builds its int32 requantization in one of two ways, chosen at
// compile time by TFLITE_SINGLE_ROUNDING:
//  - kDouble (gemmlowp's form; TFLite before 2.20 and TFLite Micro): a
//    rounding doubling high multiply (ties up), then a rounding right shift
//    (ties away from zero): two roundings.
//  - kSingle (LiteRT / TFLite 2.20+ builds): round(x * multiplier /
//    2^(31 - shift)), ties towards +infinity, computed in int64. (LiteRT's
//    XNNPACK delegate requantizes 8-bit CONV/FC in float instead, which
//    agrees with this on most but not all values: xnnpack_arithmetic.h.)
// The two differ by 1 on a small share of values, which compounds over
// layers. LiteRT's int8 kernels round once; its uint8 kernels (gemmlowp
// output stages) and int16 kernels round twice: measured against LiteRT's
// builtin kernels in tests/interop/int_vs_litert.mjs and int_ops_litert.mjs.
//
// The mode is a value: each op's kernel receives it (runtime::OpContext::
// rounding(), chosen by the interpreter from its options' RoundingPolicy and
// the op's types, see OpRounding) and passes it to the functions below, so
// interpreters with different modes can run side by side. The
// int64-accumulator form (int16x8 kernels) is the same in both modes.
enum class Rounding { kSingle, kDouble };

// The policy of one interpreter (the CLI's --rounding):
//  - kSingle: every int8 op rounds once (LiteRT);
//  - kDouble: every int8 op rounds twice (TFLite Micro); its int16
//    FULLY_CONNECTED requantizes the int64 accumulator in fixed point, not
//    by the float scale (runtime/kernels/conv/fully_connected_int.cc);
//  - kLegacy: TFLite builds without TFLITE_SINGLE_ROUNDING that still run
//    GEMMs in ruy (tfjs-tflite 0.0.1-alpha.10, measured op by op): int8
//    CONV_2D / FULLY_CONNECTED / BATCH_MATMUL requantize in ruy's output
//    stage, which always rounds once; every other int8 kernel rounds twice.
//    Their int16 FULLY_CONNECTED also predates float-scale requantization
//    (runtime/kernels/conv/fully_connected_int.cc).
// uint8 and int16 ops round twice under every policy.
enum class RoundingPolicy { kSingle, kDouble, kLegacy };

// The rounding of one op under `policy`: `rounds_twice` for ops with uint8
// or int16 tensors (LiteRT's gemmlowp and int16 kernels), `ruy_gemm` for
// int8 CONV_2D / FULLY_CONNECTED / BATCH_MATMUL.
inline Rounding OpRounding(RoundingPolicy policy, bool rounds_twice,
                           bool ruy_gemm) {
  if (rounds_twice) return Rounding::kDouble;
  switch (policy) {
    case RoundingPolicy::kSingle:
      return Rounding::kSingle;
    case RoundingPolicy::kDouble:
      return Rounding::kDouble;
    case RoundingPolicy::kLegacy:
      return ruy_gemm ? Rounding::kSingle : Rounding::kDouble;
  }
  return Rounding::kSingle;
}

// TFLite's MultiplyByQuantizedMultiplier, double rounding: shift > 0 is a
// left shift applied before the high multiply, shift <= 0 a rounding right
// shift after it. shift in [-31, 31].
inline int32_t MultiplyByQuantizedMultiplierDouble(int32_t x,
                                                   int32_t multiplier,
                                                   int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
                                 WrappingShiftLeft(x, left_shift), multiplier),
                             right_shift);
}

// Single rounding: (x * multiplier + 2^(30 - shift)) >> (31 - shift) in
// int64, narrowed to int32 with wrap-around. shift in [-31, 30];
// multiplier >= 0 as TFLite requires (a negative one falls back to the
// double form, which takes it).
inline int32_t MultiplyByQuantizedMultiplierSingle(int32_t x,
                                                   int32_t multiplier,
                                                   int shift) {
  if (multiplier < 0 || shift > 30 || shift < -31) {
    return MultiplyByQuantizedMultiplierDouble(x, multiplier, shift);
  }
  const int total_shift = 31 - shift;
  const int64_t round = int64_t{1} << (total_shift - 1);
  const int64_t result =
      (static_cast<int64_t>(x) * multiplier + round) >> total_shift;
  return static_cast<int32_t>(static_cast<uint32_t>(result));
}

// MultiplyByQuantizedMultiplier in rounding mode `r`.
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier,
                                             int shift, Rounding r) {
  return r == Rounding::kSingle
             ? MultiplyByQuantizedMultiplierSingle(x, multiplier, shift)
             : MultiplyByQuantizedMultiplierDouble(x, multiplier, shift);
}

// An int32 accumulator needs the op's rounding mode (the overload above);
// without one it would silently take the int64 form below.
int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t multiplier,
                                      int shift) = delete;

// TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp (shift <= 0); with
// single rounding TFLite routes it to MultiplyByQuantizedMultiplier.
inline int32_t MultiplyByQuantizedMultiplierSmallerThanOneExp(
    int32_t x, int32_t multiplier, int left_shift, Rounding r) {
  if (r == Rounding::kSingle) {
    return MultiplyByQuantizedMultiplierSingle(x, multiplier, left_shift);
  }
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x, multiplier),
                             -left_shift);
}

// TFLite's int64-accumulator MultiplyByQuantizedMultiplier (int16x8
// kernels): the multiplier is first reduced to 15 fractional bits (rounded;
// multipliers >= 0x7FFF0000 become 0x7FFF), then one rounding right shift
// by 15 - shift (ties towards +infinity); the result is narrowed to int32
// with wrap-around. Requires multiplier >= 0, shift in [-31, 7], and
// |x| < 2^47 for a meaningful result.
inline int32_t MultiplyByQuantizedMultiplier(int64_t x, int32_t multiplier,
                                             int shift) {
  const int32_t reduced_multiplier =
      multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
  const int total_shift = 15 - shift;
  const uint64_t round = uint64_t{1} << (total_shift - 1);
  // Wrapping arithmetic in uint64 (TFLite's int64 expression, without UB).
  const uint64_t product =
      static_cast<uint64_t>(x) *
          static_cast<uint64_t>(static_cast<int64_t>(reduced_multiplier)) +
      round;
  const int64_t result = static_cast<int64_t>(product) >> total_shift;
  return static_cast<int32_t>(static_cast<uint32_t>(result));
}

// ------------------------------------------------------------ saturation

// v clamped to T's range.
template <typename T>
inline T SaturatingCast(int64_t v) {
  constexpr int64_t lo = std::numeric_limits<T>::min();
  constexpr int64_t hi = std::numeric_limits<T>::max();
  return static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
}

inline int32_t Clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// The per-channel requantization step every int8 conv / fully-connected
// kernel ends with: acc * multiplier * 2^(shift - 31) + zero_point,
// clamped to [act_min, act_max], in rounding mode `r`.
inline int32_t Requantize(int32_t acc, int32_t multiplier, int shift,
                          int32_t output_zero_point, int32_t act_min,
                          int32_t act_max, Rounding r) {
  return Clamp(MultiplyByQuantizedMultiplier(acc, multiplier, shift, r) +
                   output_zero_point,
               act_min, act_max);
}

// Needs the rounding mode (see MultiplyByQuantizedMultiplier).
int32_t Requantize(int32_t acc, int32_t multiplier, int shift,
                   int32_t output_zero_point, int32_t act_min,
                   int32_t act_max) = delete;

// The int16x8 form (int64 accumulator, zero-point-free int16 output).
inline int32_t Requantize(int64_t acc, int32_t multiplier, int shift,
                          int32_t output_zero_point, int32_t act_min,
                          int32_t act_max) {
  return Clamp(
      MultiplyByQuantizedMultiplier(acc, multiplier, shift) + output_zero_point,
      act_min, act_max);
}

// TFLite's float-scale requantization (reference_integer_ops::
// FullyConnected[PerChannel] taking the scales, which current TFLite uses
// for int16 FULLY_CONNECTED): round(acc * scale) in double, half away from
// zero, where scale = double(s_in) * double(s_w) / double(s_out). Values
// beyond int32 saturate (TFLite's cast would be undefined there).
inline int32_t RequantizeByScale(int64_t acc, double scale,
                                 int32_t output_zero_point, int32_t act_min,
                                 int32_t act_max) {
  double v = std::round(static_cast<double>(acc) * scale);
  v = v < -2147483648.0 ? -2147483648.0 : (v > 2147483647.0 ? 2147483647.0 : v);
  const int64_t r = static_cast<int64_t>(v) + output_zero_point;
  return static_cast<int32_t>(r < act_min ? act_min
                                          : (r > act_max ? act_max : r));
}

}  // namespace qforge::numerics

#endif  // QFORGE_NUMERICS_FIXED_POINT_H_
