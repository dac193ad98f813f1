// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What calibration records per float activation tensor. Every field merges
// exactly (integer counts, min, max, histogram), so statistics of shards
// combine into exactly the statistics of the whole data set.
#ifndef QFORGE_CALIBRATION_TENSOR_STATS_H_
#define QFORGE_CALIBRATION_TENSOR_STATS_H_

#include <cstdint>
#include <limits>
#include <string>

#include "calibration/histogram.h"

namespace qforge::calibration {

struct TensorStats {
  int subgraph = 0;
  int tensor = 0;
  std::string name;
  uint64_t count = 0;  // finite values seen
  uint64_t nan = 0;
  uint64_t pos_inf = 0, neg_inf = 0;
  // Over finite values; start at +/-max so that merging is plain min/max.
  float min = std::numeric_limits<float>::max();
  float max = std::numeric_limits<float>::lowest();
  Histogram histogram;

  bool empty() const { return count == 0; }
  void Merge(const TensorStats& other);
  bool operator==(const TensorStats& o) const;
};

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_TENSOR_STATS_H_
