// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Exact summation of the report's sums. A report's sums are sums over
// samples; added in a running double they depend on the order of the
// additions, so a report merged from shards (report --shard, merge-reports)
// would differ in the last bits from one process. ExactSum keeps the sum
// exactly (Shewchuk's non-overlapping partials, as Python's math.fsum) and
// rounds it once, to nearest, when read: the result does not depend on how
// the samples were split or in what order the parts were added.
#ifndef QFORGE_REPORT_EXACT_SUM_H_
#define QFORGE_REPORT_EXACT_SUM_H_

#include <cstdint>
#include <vector>

#include "report/metrics.h"

namespace qforge::report {

class ExactSum {
 public:
  void Add(double x);
  void Merge(const ExactSum& o);
  // The exact sum rounded to nearest (ties to even); +-inf or NaN when an
  // infinite or NaN value was added.
  double Value() const;

  // For partial report files: the partials (finite, increasing magnitude)
  // and the sum of the non-finite values added (0 when none).
  const std::vector<double>& partials() const { return partials_; }
  double special() const { return special_; }
  static ExactSum FromParts(std::vector<double> partials, double special);

 private:
  std::vector<double> partials_;
  double special_ = 0;  // inf + -inf = NaN: independent of order too
};

// ErrorSums (metrics.h) over many samples, merged exactly: per-sample sums
// are added, in any order and grouping, with the same result.
struct ExactErrorSums {
  uint64_t count = 0, nonfinite = 0, masked = 0;
  ExactSum sum_ff, sum_ee, sum_fq, sum_qq;
  double max_abs_error = 0;
  uint64_t clipped = 0;
  int64_t q_lo = ErrorSums().q_lo, q_hi = ErrorSums().q_hi;
  double f_min = ErrorSums().f_min, f_max = ErrorSums().f_max;
  // -1: nothing added yet; else the channel count every sample added had
  // (0 once two samples disagree, as ErrorSums::Merge drops them).
  int64_t channels = -1;
  std::vector<ExactSum> ch_ff, ch_ee;

  void Add(const ErrorSums& s);
  void Merge(const ExactErrorSums& o);
  // The sums rounded, for Finish().
  ErrorSums Rounded() const;
};

}  // namespace qforge::report

#endif  // QFORGE_REPORT_EXACT_SUM_H_
