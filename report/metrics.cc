// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/metrics.h"

#include <algorithm>
#include <cmath>

namespace qforge::report {

void ErrorSums::AddFloat(const float* f, const float* g, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double a = f[i], b = g[i];
    if (!std::isfinite(a) || !std::isfinite(b)) {
      ++nonfinite;
      continue;
    }
    const double e = b - a;
    ++count;
    sum_ff += a * a;
    sum_ee += e * e;
    sum_fq += a * b;
    sum_qq += b * b;
    max_abs_error = std::max(max_abs_error, std::fabs(e));
    f_min = std::min(f_min, a);
    f_max = std::max(f_max, a);
  }
}

template <typename T>
void ErrorSums::AddQuantized(const float* f, const T* q, int64_t n,
                             const QuantGrid& grid) {
  const double half = 0.5 * grid.scale;
  const double below = grid.lo() - half, above = grid.hi() + half;
  for (int64_t i = 0; i < n; ++i) {
    const double a = f[i];
    const int64_t v = q[i];
    q_lo = std::min(q_lo, v);
    q_hi = std::max(q_hi, v);
    if (!std::isfinite(a)) {
      ++nonfinite;
      continue;
    }
    const double b = grid.scale * static_cast<double>(v - grid.zero_point);
    const double e = b - a;
    ++count;
    sum_ff += a * a;
    sum_ee += e * e;
    sum_fq += a * b;
    sum_qq += b * b;
    max_abs_error = std::max(max_abs_error, std::fabs(e));
    f_min = std::min(f_min, a);
    f_max = std::max(f_max, a);
    if ((v == grid.qmin && a < below) || (v == grid.qmax && a > above)) {
      ++clipped;
    }
  }
}

template void ErrorSums::AddQuantized<int8_t>(const float*, const int8_t*,
                                              int64_t, const QuantGrid&);
template void ErrorSums::AddQuantized<uint8_t>(const float*, const uint8_t*,
                                               int64_t, const QuantGrid&);
template void ErrorSums::AddQuantized<int16_t>(const float*, const int16_t*,
                                               int64_t, const QuantGrid&);

void ErrorSums::Merge(const ErrorSums& o) {
  count += o.count;
  nonfinite += o.nonfinite;
  sum_ff += o.sum_ff;
  sum_ee += o.sum_ee;
  sum_fq += o.sum_fq;
  sum_qq += o.sum_qq;
  max_abs_error = std::max(max_abs_error, o.max_abs_error);
  clipped += o.clipped;
  q_lo = std::min(q_lo, o.q_lo);
  q_hi = std::max(q_hi, o.q_hi);
  f_min = std::min(f_min, o.f_min);
  f_max = std::max(f_max, o.f_max);
}

double SqnrDb(double signal, double noise) {
  if (noise == 0) return std::numeric_limits<double>::infinity();
  if (signal == 0) return -std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(signal / noise);
}

Metrics Finish(const ErrorSums& s, const QuantGrid* grid) {
  Metrics m;
  m.count = s.count;
  m.nonfinite = s.nonfinite;
  m.sqnr_db = SqnrDb(s.sum_ff, s.sum_ee);
  const double denom = std::sqrt(s.sum_ff) * std::sqrt(s.sum_qq);
  if (denom > 0) {
    m.cosine = s.sum_fq / denom;
  } else {
    // Both all zero: identical; one all zero: orthogonal.
    m.cosine = (s.sum_ff == 0 && s.sum_qq == 0) ? 1.0 : 0.0;
  }
  m.mse = s.count > 0 ? s.sum_ee / static_cast<double>(s.count) : 0.0;
  m.max_abs_error = s.max_abs_error;
  if (s.count > 0) {
    m.float_min = s.f_min;
    m.float_max = s.f_max;
  }
  if (grid != nullptr) {
    m.rmse_over_scale = std::sqrt(m.mse) / grid->scale;
    const uint64_t total = s.count + s.nonfinite;
    m.clipped_fraction =
        total > 0 ? static_cast<double>(s.clipped) / static_cast<double>(total)
                  : 0.0;
    m.range_used = s.q_hi >= s.q_lo
                       ? static_cast<double>(s.q_hi - s.q_lo + 1) /
                             static_cast<double>(grid->qmax - grid->qmin + 1)
                       : 0.0;
  }
  return m;
}

}  // namespace qforge::report
