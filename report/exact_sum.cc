// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/exact_sum.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace qforge::report {
namespace {

// -0 below +0, so that the extremes keep the same zero whatever the order.
bool TotalLess(double a, double b) {
  return a < b || (a == b && std::signbit(a) && !std::signbit(b));
}

}  // namespace

void ExactSum::Add(double x) {
  if (!std::isfinite(x)) {
    special_ += x;
    return;
  }
  // Each step splits x + y exactly into hi + lo (Knuth's two-sum with the
  // larger magnitude first); the nonzero lo's stay as partials.
  size_t kept = 0;
  for (size_t j = 0; j < partials_.size(); ++j) {
    double y = partials_[j];
    if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
    const double hi = x + y;
    const double lo = y - (hi - x);
    if (lo != 0.0) partials_[kept++] = lo;
    x = hi;
  }
  partials_.resize(kept);
  if (!std::isfinite(x)) {  // the exact sum left the double range
    special_ += x;
    partials_.clear();
    return;
  }
  partials_.push_back(x);
}

void ExactSum::Merge(const ExactSum& o) {
  for (double p : o.partials_) Add(p);
  special_ += o.special_;
}

double ExactSum::Value() const {
  if (special_ != 0.0 || std::isnan(special_)) return special_;
  // Python's math.fsum: add the partials from the largest down until the
  // sum is inexact, then correct a tie that the rest would break.
  size_t n = partials_.size();
  double hi = 0.0;
  if (n == 0) return hi;
  hi = partials_[--n];
  double lo = 0.0;
  while (n > 0) {
    const double x = hi;
    const double y = partials_[--n];
    hi = x + y;
    const double yr = hi - x;
    lo = y - yr;
    if (lo != 0.0) break;
  }
  if (n > 0 &&
      ((lo < 0 && partials_[n - 1] < 0) || (lo > 0 && partials_[n - 1] > 0))) {
    const double y = lo * 2;
    const double x = hi + y;
    const double yr = x - hi;
    if (y == yr) hi = x;
  }
  return hi;
}

ExactSum ExactSum::FromParts(std::vector<double> partials, double special) {
  // Re-added rather than trusted: any finite values give a valid state.
  // Partials Add did not write (an edited or corrupt file) can leave two
  // that one more pass would merge, so the file would not read back as it
  // was written; repeat to a fixed point (every pass keeps the exact sum).
  ExactSum s;
  for (int pass = 0; pass < 64; ++pass) {
    s = ExactSum();
    for (double p : partials) s.Add(p);
    if (s.special_ != 0.0 || s.partials_ == partials) break;
    partials = s.partials_;
  }
  s.special_ += special;
  return s;
}

void ExactErrorSums::Add(const ErrorSums& s) {
  if (s.seen() == 0) return;  // the tensor was not seen
  count += s.count;
  nonfinite += s.nonfinite;
  masked += s.masked;
  sum_ff.Add(s.sum_ff);
  sum_ee.Add(s.sum_ee);
  sum_fq.Add(s.sum_fq);
  sum_qq.Add(s.sum_qq);
  max_abs_error = std::max(max_abs_error, s.max_abs_error);
  clipped += s.clipped;
  q_lo = std::min(q_lo, s.q_lo);
  q_hi = std::max(q_hi, s.q_hi);
  if (TotalLess(s.f_min, f_min)) f_min = s.f_min;
  if (TotalLess(f_max, s.f_max)) f_max = s.f_max;
  const int64_t c = static_cast<int64_t>(s.ch_ff.size());
  if (channels < 0) {
    channels = c;
    ch_ff.assign(static_cast<size_t>(c), ExactSum());
    ch_ee.assign(static_cast<size_t>(c), ExactSum());
  } else if (channels != c) {
    channels = 0;
    ch_ff.clear();
    ch_ee.clear();
  }
  for (size_t k = 0; k < ch_ff.size(); ++k) {
    ch_ff[k].Add(s.ch_ff[k]);
    ch_ee[k].Add(s.ch_ee[k]);
  }
}

void ExactErrorSums::Merge(const ExactErrorSums& o) {
  if (o.channels < 0) return;  // nothing added to `o`
  count += o.count;
  nonfinite += o.nonfinite;
  masked += o.masked;
  sum_ff.Merge(o.sum_ff);
  sum_ee.Merge(o.sum_ee);
  sum_fq.Merge(o.sum_fq);
  sum_qq.Merge(o.sum_qq);
  max_abs_error = std::max(max_abs_error, o.max_abs_error);
  clipped += o.clipped;
  q_lo = std::min(q_lo, o.q_lo);
  q_hi = std::max(q_hi, o.q_hi);
  if (TotalLess(o.f_min, f_min)) f_min = o.f_min;
  if (TotalLess(f_max, o.f_max)) f_max = o.f_max;
  if (channels < 0) {
    channels = o.channels;
    ch_ff = o.ch_ff;
    ch_ee = o.ch_ee;
  } else if (channels != o.channels) {
    channels = 0;
    ch_ff.clear();
    ch_ee.clear();
  } else {
    for (size_t k = 0; k < ch_ff.size(); ++k) {
      ch_ff[k].Merge(o.ch_ff[k]);
      ch_ee[k].Merge(o.ch_ee[k]);
    }
  }
}

ErrorSums ExactErrorSums::Rounded() const {
  ErrorSums s;
  s.count = count;
  s.nonfinite = nonfinite;
  s.masked = masked;
  s.sum_ff = sum_ff.Value();
  s.sum_ee = sum_ee.Value();
  s.sum_fq = sum_fq.Value();
  s.sum_qq = sum_qq.Value();
  s.max_abs_error = max_abs_error;
  s.clipped = clipped;
  s.q_lo = q_lo;
  s.q_hi = q_hi;
  s.f_min = f_min;
  s.f_max = f_max;
  for (size_t k = 0; k < ch_ff.size(); ++k) {
    s.ch_ff.push_back(ch_ff[k].Value());
    s.ch_ee.push_back(ch_ee[k].Value());
  }
  return s;
}

}  // namespace qforge::report
