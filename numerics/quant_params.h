// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Choosing quantization parameters (TFLite quantization spec):
//  - asymmetric (activations): the float range is widened to contain 0,
//    scale = (max - min) / (qmax - qmin), and the zero point is the integer
//    that represents 0.0 exactly ("nudged" into [qmin, qmax]);
//  - symmetric (weights, int16 activations): zero point 0,
//    scale = max(|min|, |max|) / qmax.
// Degenerate ranges (empty, all zero, a single value) never give a zero,
// NaN or infinite scale. Leaf library: no dependency on the graph.
#ifndef QFORGE_NUMERICS_QUANT_PARAMS_H_
#define QFORGE_NUMERICS_QUANT_PARAMS_H_

#include <cstdint>

namespace qforge::numerics {

struct QuantParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// The smallest scale ever chosen: keeps 1/scale finite in float.
inline constexpr float kMinScale = 1e-30f;

// Asymmetric parameters for [rmin, rmax] on [qmin, qmax].
QuantParams ChooseAsymmetric(float rmin, float rmax, int32_t qmin,
                             int32_t qmax);

// Symmetric parameters: zero point 0, range [-absmax, absmax] on
// [-qmax, qmax].
QuantParams ChooseSymmetric(float absmax, int32_t qmax);

// round(x / scale) + zero_point, clamped to [qmin, qmax]; ties round away
// from zero (std::round), as TFLite's quantizer does.
int32_t QuantizeValue(float x, const QuantParams& p, int32_t qmin,
                      int32_t qmax);

inline float DequantizeValue(int32_t q, const QuantParams& p) {
  return p.scale * static_cast<float>(q - p.zero_point);
}

}  // namespace qforge::numerics

#endif  // QFORGE_NUMERICS_QUANT_PARAMS_H_
