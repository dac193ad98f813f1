// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Range methods: the float range [min, max] a tensor is quantized over,
// chosen from its calibration statistics without rerunning inference.
//   minmax          the observed range
//   percentile:P    the (100-P)th and Pth percentiles (P in (50, 100])
//   kl              TensorRT's entropy method: the clipping threshold whose
//                   quantized distribution is closest (KL divergence) to
//                   the observed one (clipping at most half of the values)
//   mse             the clipping range minimising the expected squared
//                   quantization error (clipping + rounding)
#ifndef QFORGE_CALIBRATION_RANGE_H_
#define QFORGE_CALIBRATION_RANGE_H_

#include <string>

#include "absl/status/statusor.h"
#include "calibration/tensor_stats.h"

namespace qforge::calibration {

enum class RangeMethod { kMinMax, kPercentile, kKl, kMse };

struct RangeSpec {
  RangeMethod method = RangeMethod::kMinMax;
  double percentile = 99.99;
  int num_bits = 8;  // quantization levels the range is chosen for
};

// Parses "minmax", "percentile:99.9", "kl", "mse".
absl::StatusOr<RangeSpec> ParseRangeMethod(const std::string& text);
std::string RangeMethodName(const RangeSpec& spec);

struct Range {
  float min = 0.0f, max = 0.0f;
};

// The chosen range, always within [stats.min, stats.max]. Empty stats give
// [0, 0].
Range ComputeRange(const TensorStats& stats, const RangeSpec& spec);

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_RANGE_H_
