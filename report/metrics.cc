// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/metrics.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace qforge::report {
namespace {

// Sizes the per-channel sums on first use; a tensor whose channel count
// changes between samples (dynamic shapes) drops its channel metric.
bool PrepareChannels(ErrorSums& s, int64_t n, int64_t channels) {
  if (channels < 2 || n % channels != 0) return false;
  if (s.ch_ff.empty() && s.count == 0 && s.nonfinite == 0) {
    s.ch_ff.assign(static_cast<size_t>(channels), 0.0);
    s.ch_ee.assign(static_cast<size_t>(channels), 0.0);
  }
  if (s.ch_ff.size() != static_cast<size_t>(channels)) {
    s.ch_ff.clear();
    s.ch_ee.clear();
    return false;
  }
  return true;
}

}  // namespace

void ErrorSums::AddFloat(const float* f, const float* g, int64_t n,
                         int64_t channels) {
  const bool per_channel = PrepareChannels(*this, n, channels);
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i, ++c) {
    if (c == channels) c = 0;
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
    if (per_channel) {
      ch_ff[static_cast<size_t>(c)] += a * a;
      ch_ee[static_cast<size_t>(c)] += e * e;
    }
    max_abs_error = std::max(max_abs_error, std::fabs(e));
    f_min = std::min(f_min, a);
    f_max = std::max(f_max, a);
  }
}

template <typename T>
void ErrorSums::AddQuantized(const float* f, const T* q, int64_t n,
                             int64_t channels, const QuantGrid& grid) {
  const bool per_channel = PrepareChannels(*this, n, channels);
  const double half = 0.5 * grid.scale;
  const double below = grid.lo() - half, above = grid.hi() + half;
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i, ++c) {
    if (c == channels) c = 0;
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
    if (per_channel) {
      ch_ff[static_cast<size_t>(c)] += a * a;
      ch_ee[static_cast<size_t>(c)] += e * e;
    }
    max_abs_error = std::max(max_abs_error, std::fabs(e));
    f_min = std::min(f_min, a);
    f_max = std::max(f_max, a);
    if ((v == grid.qmin && a < below) || (v == grid.qmax && a > above)) {
      ++clipped;
    }
  }
}

template void ErrorSums::AddQuantized<int8_t>(const float*, const int8_t*,
                                              int64_t, int64_t,
                                              const QuantGrid&);
template void ErrorSums::AddQuantized<uint8_t>(const float*, const uint8_t*,
                                               int64_t, int64_t,
                                               const QuantGrid&);
template void ErrorSums::AddQuantized<int16_t>(const float*, const int16_t*,
                                               int64_t, int64_t,
                                               const QuantGrid&);

void ErrorSums::Merge(const ErrorSums& o) {
  if (o.count + o.nonfinite > 0) {
    if (count + nonfinite == 0) {
      ch_ff = o.ch_ff;
      ch_ee = o.ch_ee;
    } else if (ch_ff.size() != o.ch_ff.size()) {
      ch_ff.clear();
      ch_ee.clear();
    } else {
      for (size_t c = 0; c < ch_ff.size(); ++c) {
        ch_ff[c] += o.ch_ff[c];
        ch_ee[c] += o.ch_ee[c];
      }
    }
  }
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
  std::vector<std::pair<double, int64_t>> channel;  // (SQNR, channel)
  for (size_t c = 0; c < s.ch_ff.size(); ++c) {
    if (s.ch_ff[c] > 0)
      channel.emplace_back(SqnrDb(s.ch_ff[c], s.ch_ee[c]),
                           static_cast<int64_t>(c));
  }
  m.rank_db = m.sqnr_db;
  if (channel.size() >= 2) {
    std::sort(channel.begin(), channel.end());
    // Lower median: with an even count the worse of the middle two.
    m.channel_sqnr_db = channel[(channel.size() - 1) / 2].first;
    m.worst_channel_sqnr_db = channel.front().first;
    m.worst_channel = channel.front().second;
    m.rank_db = std::min(m.sqnr_db, m.channel_sqnr_db);
  }
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
