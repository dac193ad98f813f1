// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Statistics of a tensor that saw exactly two values, lo and hi: the
// smallest input a quantizer test needs to fix a calibrated range.
#ifndef QFORGE_TESTS_QUANTIZER_RANGE_STATS_H_
#define QFORGE_TESTS_QUANTIZER_RANGE_STATS_H_

#include "calibration/histogram.h"
#include "calibration/tensor_stats.h"

namespace qforge::testing {

inline calibration::TensorStats RangeStats(int tensor, float lo, float hi) {
  calibration::TensorStats s;
  s.tensor = tensor;
  s.count = 2;
  s.min = lo;
  s.max = hi;
  s.histogram.Add(calibration::BucketOf(lo));
  s.histogram.Add(calibration::BucketOf(hi));
  return s;
}

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_QUANTIZER_RANGE_STATS_H_
