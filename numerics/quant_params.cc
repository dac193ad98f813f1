// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "numerics/quant_params.h"

#include <algorithm>
#include <cmath>

namespace qforge::numerics {

QuantParams ChooseAsymmetric(float rmin, float rmax, int32_t qmin,
                             int32_t qmax) {
  if (!std::isfinite(rmin)) rmin = 0.0f;
  if (!std::isfinite(rmax)) rmax = 0.0f;
  // The range must contain 0 so that zero padding and ReLU are exact.
  const double lo = std::min(0.0, static_cast<double>(rmin));
  const double hi = std::max(0.0, static_cast<double>(rmax));
  QuantParams p;
  const double span = hi - lo;
  if (!(span > 0.0)) {
    // All values zero (or no values): any scale represents them; 1 keeps
    // requantization multipliers tame.
    p.scale = 1.0f;
    p.zero_point = std::clamp<int32_t>(0, qmin, qmax);
    return p;
  }
  const double scale =
      std::max(span / (qmax - qmin), static_cast<double>(kMinScale));
  p.scale = static_cast<float>(scale);
  // Zero point from the end whose rounding error is smaller (TFLite's
  // ChooseQuantizationParams), then nudged into range.
  // In double with the unrounded scale, as TFLite computes it.
  const double zp_from_min = qmin - lo / scale;
  const double zp_from_max = qmax - hi / scale;
  const double err_min = std::abs(qmin) + std::abs(lo / scale);
  const double err_max = std::abs(qmax) + std::abs(hi / scale);
  const double zp = err_min < err_max ? zp_from_min : zp_from_max;
  p.zero_point =
      static_cast<int32_t>(std::clamp<double>(std::round(zp), qmin, qmax));
  return p;
}

QuantParams ChooseSymmetric(float absmax, int32_t qmax) {
  QuantParams p;
  if (!std::isfinite(absmax) || !(absmax > 0.0f)) {
    p.scale = 1.0f;
    return p;
  }
  p.scale = std::max(absmax / static_cast<float>(qmax), kMinScale);
  return p;
}

int32_t QuantizeValue(float x, const QuantParams& p, int32_t qmin,
                      int32_t qmax) {
  const double q = std::round(static_cast<double>(x) / p.scale) + p.zero_point;
  return static_cast<int32_t>(std::clamp<double>(q, qmin, qmax));
}

}  // namespace qforge::numerics
