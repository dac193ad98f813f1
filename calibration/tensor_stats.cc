// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/tensor_stats.h"

#include "calibration/scan.h"

namespace qforge::calibration {

void TensorStats::Merge(const TensorStats& other) {
  count += other.count;
  nan += other.nan;
  pos_inf += other.pos_inf;
  neg_inf += other.neg_inf;
  min = MinOf(min, other.min);  // -0 < +0: any merge order, same bits
  max = MaxOf(max, other.max);
  histogram.Merge(other.histogram);
}

bool TensorStats::operator==(const TensorStats& o) const {
  return subgraph == o.subgraph && tensor == o.tensor && name == o.name &&
         count == o.count && nan == o.nan && pos_inf == o.pos_inf &&
         neg_inf == o.neg_inf && min == o.min && max == o.max &&
         histogram == o.histogram;
}

}  // namespace qforge::calibration
