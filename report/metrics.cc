// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace qforge::report {
namespace {

// Sizes the per-channel sums on first use; a tensor whose channel count
// changes between samples (dynamic shapes) drops its channel metric.
bool PrepareChannels(ErrorSums& s, int64_t n, int64_t channels) {
  if (channels < 2 || n % channels != 0) return false;
  if (s.ch_ff.empty() && s.seen() == 0) {
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

// Per-lane sums of one call. The element loop keeps one set of sums per
// lane (lane c of a row holds channel c % channels when channel sums are
// kept) and selects instead of branching, so that it vectorizes: a single
// running sum is one long dependency chain. Everything is a double, counts
// and integers included (exact far beyond any tensor), so that all lanes
// share one vector width.
// The lanes fold in index order, so the sums depend on the tensor alone.
constexpr int64_t kFlatLanes = 64;

struct Lanes {
  // kA, kB and kV hold a staged row, not sums.
  enum {
    kCount,
    kFF,
    kEE,
    kFQ,
    kQQ,
    kMaxE,
    kFMin,
    kFMax,
    kQLo,
    kQHi,
    kClip,
    kMask,
    kA,
    kB,
    kV,
    kN
  };
  int64_t width = 0;
  std::vector<double> v;
  double* at(int k) { return v.data() + k * width; }
  void Reset(int64_t w) {
    width = w;
    v.assign(static_cast<size_t>(kN * w), 0.0);
    const double inf = std::numeric_limits<double>::infinity();
    std::fill_n(at(kFMin), w, inf);
    std::fill_n(at(kFMax), w, -inf);
    std::fill_n(at(kQLo), w, inf);
    std::fill_n(at(kQHi), w, -inf);
  }
};

// The lane count: whole rows of channels (lane c holds channel c % channels)
// of at least kFlatLanes values, since a row of 8 channels is too short to
// pay for the call per row.
int64_t LaneWidth(bool per_channel, int64_t channels, int64_t n) {
  if (!per_channel) return std::min(n, kFlatLanes);
  return channels * ((kFlatLanes + channels - 1) / channels);
}

// One set per thread: report workers add samples concurrently.
Lanes& ScratchLanes(int64_t width) {
  thread_local Lanes lanes;
  lanes.Reset(width);
  return lanes;
}

// Folds the lanes of one call into `s` (n = values seen in the call).
void Fold(Lanes& l, int64_t n, bool per_channel, bool quantized, ErrorSums& s) {
  double count = 0, clipped = 0, masked = 0;
  for (int64_t c = 0; c < l.width; ++c) {
    count += l.at(Lanes::kCount)[c];
    s.sum_ff += l.at(Lanes::kFF)[c];
    s.sum_ee += l.at(Lanes::kEE)[c];
    s.sum_fq += l.at(Lanes::kFQ)[c];
    s.sum_qq += l.at(Lanes::kQQ)[c];
    s.max_abs_error = std::max(s.max_abs_error, l.at(Lanes::kMaxE)[c]);
    s.f_min = std::min(s.f_min, l.at(Lanes::kFMin)[c]);
    s.f_max = std::max(s.f_max, l.at(Lanes::kFMax)[c]);
    if (per_channel) {
      const size_t ch = static_cast<size_t>(c) % s.ch_ff.size();
      s.ch_ff[ch] += l.at(Lanes::kFF)[c];
      s.ch_ee[ch] += l.at(Lanes::kEE)[c];
    }
    if (quantized) {
      clipped += l.at(Lanes::kClip)[c];
      masked += l.at(Lanes::kMask)[c];
      const double lo = l.at(Lanes::kQLo)[c], hi = l.at(Lanes::kQHi)[c];
      if (lo <= hi) {
        s.q_lo = std::min(s.q_lo, static_cast<int64_t>(lo));
        s.q_hi = std::max(s.q_hi, static_cast<int64_t>(hi));
      }
    }
  }
  const auto finite = static_cast<uint64_t>(count);
  const auto sentinels = static_cast<uint64_t>(masked);
  s.count += finite;
  s.masked += sentinels;
  s.nonfinite += static_cast<uint64_t>(n) - finite - sentinels;
  s.clipped += static_cast<uint64_t>(clipped);
}

// The sums of one staged row of m values (a: float reference, b: compared
// value, v: integers of a quantized tensor). __restrict tells GCC that the
// fifteen rows do not overlap; it gives up on vectorizing otherwise (too
// many runtime alias checks), and inlined into the caller the promise was
// lost, hence noinline. & and | on bools keep the loop branch-free.
struct RowGrid {
  double below, above, qmin, qmax;
  double mask_below, mask_above;  // a sentinel lies at or beyond these
};
template <bool kQuantized>
__attribute__((noinline)) void AddRow(
    int64_t m, const double* __restrict as, const double* __restrict bs,
    const double* __restrict vs, double* __restrict cnt, double* __restrict ff,
    double* __restrict ee, double* __restrict fq, double* __restrict qq,
    double* __restrict mx, double* __restrict fmin, double* __restrict fmax,
    double* __restrict qlo, double* __restrict qhi, double* __restrict clip,
    double* __restrict mask, const RowGrid& g) {
  constexpr double kMax = std::numeric_limits<double>::max();
  // The grid in locals and each input loaded once: GCC 12 reloaded g's
  // fields in the loop (a store might change them, for all it knew) and
  // did not vectorize it ("control flow in loop").
  const double mask_below = g.mask_below, mask_above = g.mask_above;
  const double qmin = g.qmin, qmax = g.qmax, below = g.below, above = g.above;
  for (int64_t c = 0; c < m; ++c) {
    const double a0 = as[c], b0 = bs[c];
    // NaN fails both comparisons, so this is "both finite".
    bool fin = (std::fabs(a0) <= kMax) & (std::fabs(b0) <= kMax);
    if (kQuantized) {
      const bool sentinel = fin & ((a0 <= mask_below) | (a0 >= mask_above));
      mask[c] += sentinel ? 1.0 : 0.0;
      fin = fin & !sentinel;
    }
    const double a = fin ? a0 : 0.0;
    const double b = fin ? b0 : 0.0;
    const double e = b - a;
    cnt[c] += fin ? 1.0 : 0.0;
    ff[c] += a * a;
    ee[c] += e * e;
    fq[c] += a * b;
    qq[c] += b * b;
    // Selects of values (std::max(x, y) is x < y ? y : x; std::min(x, y)
    // is y < x ? y : x), not std::min / std::max of references to lanes.
    const double abs_e = std::fabs(e);
    const double m0 = mx[c], lo0 = fmin[c], hi0 = fmax[c];
    mx[c] = m0 < abs_e ? abs_e : m0;
    fmin[c] = fin & (a < lo0) ? a : lo0;
    fmax[c] = fin & (hi0 < a) ? a : hi0;
    if (kQuantized) {
      const double v = vs[c];
      const double qlo0 = qlo[c], qhi0 = qhi[c];
      qlo[c] = v < qlo0 ? v : qlo0;
      qhi[c] = qhi0 < v ? v : qhi0;
      const bool clipped =
          fin & (((v == qmin) & (a < below)) | ((v == qmax) & (a > above)));
      clip[c] += clipped ? 1.0 : 0.0;
    }
  }
}

// Accumulates n pairs into the lanes, a row of lanes at a time: f[i]
// against the values stage(base, m, b, v) writes for elements [base, base +
// m) into b (compared values) and, for quantized tensors, v (the integers).
// Rows are staged into doubles first because GCC 12 does not vectorize a
// loop that widens float or int8 to double among this many streams.
template <bool kQuantized, typename Stage>
void Accumulate(const float* f, int64_t n, Lanes& l, const Stage& stage,
                const QuantGrid* grid) {
  RowGrid g{0, 0, 0, 0, 0, 0};
  if (kQuantized) {
    const double half = 0.5 * grid->scale;
    const double far = kMaskSpans * (grid->hi() - grid->lo());
    g = {grid->lo() - half,
         grid->hi() + half,
         static_cast<double>(grid->qmin),
         static_cast<double>(grid->qmax),
         std::max(grid->lo() - far, -kMaskSentinel),
         std::min(grid->hi() + far, kMaskSentinel)};
  }
  double* as = l.at(Lanes::kA);
  double* bs = l.at(Lanes::kB);
  double* vs = l.at(Lanes::kV);
  for (int64_t base = 0; base < n; base += l.width) {
    const int64_t m = std::min(l.width, n - base);
    for (int64_t c = 0; c < m; ++c) as[c] = f[base + c];
    stage(base, m, bs, vs);
    AddRow<kQuantized>(m, as, bs, vs, l.at(Lanes::kCount), l.at(Lanes::kFF),
                       l.at(Lanes::kEE), l.at(Lanes::kFQ), l.at(Lanes::kQQ),
                       l.at(Lanes::kMaxE), l.at(Lanes::kFMin),
                       l.at(Lanes::kFMax), l.at(Lanes::kQLo), l.at(Lanes::kQHi),
                       l.at(Lanes::kClip), l.at(Lanes::kMask), g);
  }
}

}  // namespace

void ErrorSums::AddFloat(const float* f, const float* g, int64_t n,
                         int64_t channels) {
  const bool per_channel = PrepareChannels(*this, n, channels);
  Lanes& l = ScratchLanes(LaneWidth(per_channel, channels, n));
  Accumulate<false>(
      f, n, l,
      [g](int64_t base, int64_t m, double* b, double*) {
        for (int64_t c = 0; c < m; ++c) b[c] = g[base + c];
      },
      nullptr);
  Fold(l, n, per_channel, /*quantized=*/false, *this);
}

template <typename T>
void ErrorSums::AddQuantized(const float* f, const T* q, int64_t n,
                             int64_t channels, const QuantGrid& grid) {
  const bool per_channel = PrepareChannels(*this, n, channels);
  Lanes& l = ScratchLanes(LaneWidth(per_channel, channels, n));
  const double scale = grid.scale;
  const double zp = static_cast<double>(grid.zero_point);
  Accumulate<true>(
      f, n, l,
      [q, scale, zp](int64_t base, int64_t m, double* b, double* v) {
        for (int64_t c = 0; c < m; ++c) {
          v[c] = static_cast<double>(static_cast<int32_t>(q[base + c]));
          b[c] = scale * (v[c] - zp);
        }
      },
      &grid);
  Fold(l, n, per_channel, /*quantized=*/true, *this);
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
  if (o.seen() > 0) {
    if (seen() == 0) {
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
  masked += o.masked;
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
  m.masked = s.masked;
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
