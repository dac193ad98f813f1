// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// XNNPACK's 8-bit arithmetic, which LiteRT (through its XNNPACK delegate)
// uses for the int8 / uint8 ops the delegate takes, where TFLite's builtin
// kernels use the fixed-point arithmetic of fixed_point.h. qforge follows
// TFLite's builtin kernels by default (Arithmetic::kTflite); the CLI's
// `--arithmetic xnnpack` selects this emulation for CONV_2D,
// DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD with 8-bit activations, so that
// qforge reproduces LiteRT's (XNNPACK's) outputs.
//
// From XNNPACK's sources (params-init.c, the qs8/qu8 gemm, igemm, dwconv and
// vadd micro-kernels, operators/convolution-nhwc.c, fully-connected-nc.c):
//  - GEMM / convolution / depthwise / fully connected, "fp32"
//    requantization: the scale is input_scale * weight_scale / output_scale
//    evaluated in float, left to right (per output channel for per-channel
//    weights); the int32 accumulator (bias included, zero points folded in,
//    the same integer as TFLite's) is converted to float, multiplied by the
//    scale in float, clamped to [act_min - zp, act_max - zp], rounded to
//    nearest with ties to even (lrintf / the 1.5 * 2^23 magic bias), and
//    the output zero point is added. XNNPACK refuses scales >= 256.
//  - ADD (qs8 / qu8 vadd): a_ratio = a_scale / out_scale and b_ratio in
//    float; shift = 20 - (unbiased exponent of the larger ratio), in
//    [12, 30]; each multiplier = lrintf(ratio * 2^shift) (below 2^21);
//    bias = 2^(shift - 1) - a_multiplier * a_zp - b_multiplier * b_zp;
//    out = (bias + a * a_multiplier + b * b_multiplier) >> shift (an
//    arithmetic shift: the rounding, ties towards +infinity, is in the
//    bias), clamped, + output zero point. int32 arithmetic, wrapping.
//    TFLite's delegate takes an 8-bit ADD only when both ratios are in
//    [2^-10, 2^8) (otherwise the builtin kernel runs).
#ifndef QFORGE_NUMERICS_XNNPACK_ARITHMETIC_H_
#define QFORGE_NUMERICS_XNNPACK_ARITHMETIC_H_

#include <cmath>
#include <cstdint>

namespace qforge::numerics {

// A value in each interpreter's options (runtime::InterpreterOptions), read
// by the kernels through their OpContext.
enum class Arithmetic { kTflite, kXnnpack };

// --------------------------------------------------- fp32 requantization

// input_scale * weight_scale / output_scale in float, as XNNPACK computes
// it; false when XNNPACK refuses it (>= 256, or not a positive finite).
inline bool XnnpackRequantizationScale(float input_scale, float weight_scale,
                                       float output_scale, float* scale) {
  const float s = input_scale * weight_scale / output_scale;
  *scale = s;
  return std::isfinite(s) && s > 0.0f && s < 256.0f;
}

// Round half to even of a float, independent of the FPU rounding mode.
inline int32_t RoundHalfToEven(float v) {
  const float f = std::floor(v);
  const float diff = v - f;  // exact for |v| < 2^23
  int32_t r = static_cast<int32_t>(f);
  if (diff > 0.5f || (diff == 0.5f && (r & 1) != 0)) ++r;
  return r;
}

// float(acc) * scale, clamped to [act_min - zp, act_max - zp], rounded half
// to even, + zp.
inline int32_t XnnpackRequantize(int32_t acc, float scale,
                                 int32_t output_zero_point, int32_t act_min,
                                 int32_t act_max) {
  float v = static_cast<float>(acc) * scale;
  const float lo = static_cast<float>(act_min - output_zero_point);
  const float hi = static_cast<float>(act_max - output_zero_point);
  v = v < lo ? lo : (v > hi ? hi : v);
  return RoundHalfToEven(v) + output_zero_point;
}

// ------------------------------------------------------------------- ADD

struct XnnpackAddParams {
  int32_t a_multiplier = 0;
  int32_t b_multiplier = 0;
  int32_t bias = 0;
  int shift = 0;
};

// XNNPACK's ADD parameters; false when the delegate would not take the op
// (a ratio outside [2^-10, 2^8)).
inline bool XnnpackAddParamsFor(float a_scale, int32_t a_zero_point,
                                float b_scale, int32_t b_zero_point,
                                float output_scale, XnnpackAddParams* p) {
  const float a_ratio = a_scale / output_scale;
  const float b_ratio = b_scale / output_scale;
  const float lo = std::ldexp(1.0f, -10), hi = std::ldexp(1.0f, 8);
  if (!(a_ratio >= lo && a_ratio < hi && b_ratio >= lo && b_ratio < hi)) {
    return false;
  }
  const float max_ratio = a_ratio > b_ratio ? a_ratio : b_ratio;
  int exponent = 0;
  std::frexp(max_ratio, &exponent);  // max_ratio in [2^(e-1), 2^e)
  p->shift = 20 - (exponent - 1);
  // ratio * 2^shift is exact (a power-of-two scaling of a normal float);
  // lrintf rounds half to even.
  p->a_multiplier = RoundHalfToEven(std::ldexp(a_ratio, p->shift));
  p->b_multiplier = RoundHalfToEven(std::ldexp(b_ratio, p->shift));
  const int64_t bias = (int64_t{1} << (p->shift - 1)) -
                       int64_t{p->a_multiplier} * a_zero_point -
                       int64_t{p->b_multiplier} * b_zero_point;
  p->bias = static_cast<int32_t>(static_cast<uint32_t>(bias));
  return true;
}

// One output element of XNNPACK's ADD (a, b: the raw 8-bit inputs).
inline int32_t XnnpackAdd(const XnnpackAddParams& p, int32_t a, int32_t b,
                          int32_t output_zero_point, int32_t act_min,
                          int32_t act_max) {
  // int32 with wrap-around, as XNNPACK's kernel.
  const uint32_t acc = static_cast<uint32_t>(p.bias) +
                       static_cast<uint32_t>(a * p.a_multiplier) +
                       static_cast<uint32_t>(b * p.b_multiplier);
  const int32_t out =
      (static_cast<int32_t>(acc) >> p.shift) + output_zero_point;
  return out < act_min ? act_min : (out > act_max ? act_max : out);
}

}  // namespace qforge::numerics

#endif  // QFORGE_NUMERICS_XNNPACK_ARITHMETIC_H_
