// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/range.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace qforge::calibration {
namespace {

// Histogram bins clipped to the exact observed [min, max] (bucket edges
// may overshoot it).
std::vector<Bin> ClippedBins(const TensorStats& s) {
  std::vector<Bin> bins = s.histogram.SortedBins();
  for (Bin& b : bins) {
    b.lo = std::max(b.lo, static_cast<double>(s.min));
    b.hi = std::min(b.hi, static_cast<double>(s.max));
    if (b.hi < b.lo) b.hi = b.lo;
  }
  return bins;
}

// ClippedBins without the bin of exact zeros (and denormal-tiny values).
// Zero is always exactly representable (every range contains it and the
// zero point is an integer), so zeros cost nothing whatever the range; left
// in, the zero spike of every ReLU output dominates the error measures of
// the clipping methods (KL: the spike smeared over its quantization group;
// MSE: rounding error charged to values that have none) and drives them to
// clip most of the real distribution away.
std::vector<Bin> NonZeroBins(const TensorStats& s) {
  std::vector<Bin> bins = ClippedBins(s);
  const BucketRange zero = RangeOf(0);
  bins.erase(std::remove_if(bins.begin(), bins.end(),
                            [&](const Bin& b) {
                              return b.lo >= -zero.hi && b.hi <= zero.hi;
                            }),
             bins.end());
  return bins;
}

// The value below which a fraction q of the mass lies, interpolating
// linearly inside a bin.
double Quantile(const std::vector<Bin>& bins, double total, double q) {
  const double target = q * total;
  double seen = 0.0;
  for (const Bin& b : bins) {
    const double c = static_cast<double>(b.count);
    if (seen + c >= target) {
      const double f = c > 0 ? (target - seen) / c : 0.0;
      return b.lo + f * (b.hi - b.lo);
    }
    seen += c;
  }
  return bins.empty() ? 0.0 : bins.back().hi;
}

// Expected squared error of quantizing the distribution onto `levels`
// uniform steps over [lo, hi]; each bin is treated as uniform over its
// width.
double QuantizationMse(const std::vector<Bin>& bins, double lo, double hi,
                       int levels) {
  const double step = (hi - lo) / (levels - 1);
  const double rounding = step * step / 12.0;
  double err = 0.0, total = 0.0;
  for (const Bin& b : bins) {
    const double c = static_cast<double>(b.count);
    total += c;
    const double w = b.hi - b.lo;
    const double mid = 0.5 * (b.lo + b.hi);
    // Part inside [lo, hi] pays rounding; part outside pays its distance to
    // the clip point (mean square of a uniform segment [a, a+w]: a^2 + a w
    // + w^2/3 with a the near distance).
    auto outside = [&](double a, double width) {
      return a * a + a * width + width * width / 3.0;
    };
    if (b.lo >= lo && b.hi <= hi) {
      err += c * rounding;
    } else if (w <= 0.0) {
      const double d = mid < lo ? lo - mid : (mid > hi ? mid - hi : 0.0);
      err += c * (d > 0 ? d * d : rounding);
    } else {
      const double in_lo = std::max(b.lo, lo), in_hi = std::min(b.hi, hi);
      const double in_w = std::max(0.0, in_hi - in_lo);
      err += c * (in_w / w) * rounding;
      if (b.lo < lo) {
        const double seg = std::min(b.hi, lo) - b.lo;
        err += c * (seg / w) * outside(lo - std::min(b.hi, lo), seg);
      }
      if (b.hi > hi) {
        const double seg = b.hi - std::max(b.lo, hi);
        err += c * (seg / w) * outside(std::max(b.lo, hi) - hi, seg);
      }
    }
  }
  return total > 0 ? err / total : 0.0;
}

Range MseRange(const TensorStats& s, int num_bits) {
  const std::vector<Bin> bins = NonZeroBins(s);
  if (bins.empty()) return Range{s.min, s.max};
  const int levels = 1 << num_bits;
  const double mn = std::min(0.0, static_cast<double>(s.min));
  const double mx = std::max(0.0, static_cast<double>(s.max));
  double best_alpha = 1.0;
  double best = QuantizationMse(bins, mn, mx, levels);
  // Shrink the range by alpha in 0.5% steps, down to 5%; ties keep the
  // wider range.
  for (int k = 1; k <= 190; ++k) {
    const double alpha = 1.0 - 0.005 * k;
    const double err = QuantizationMse(bins, alpha * mn, alpha * mx, levels);
    if (err < best) {
      best = err;
      best_alpha = alpha;
    }
  }
  return Range{static_cast<float>(std::max<double>(s.min, best_alpha * mn)),
               static_cast<float>(std::min<double>(s.max, best_alpha * mx))};
}

// TensorRT's entropy calibration over |x| on 2048 linear bins.
Range KlRange(const TensorStats& s, int num_bits) {
  constexpr int kBins = 2048;
  const double absmax = std::max(std::fabs(static_cast<double>(s.min)),
                                 std::fabs(static_cast<double>(s.max)));
  if (absmax <= 0.0) return Range{s.min, s.max};
  const double width = absmax / kBins;
  std::vector<double> hist(kBins, 0.0);
  double nonzero_mass = 0.0;
  for (const Bin& b : NonZeroBins(s)) {
    nonzero_mass += static_cast<double>(b.count);
    // |x| interval of the bin, spread uniformly over the linear bins.
    double a = std::fabs(b.lo), z = std::fabs(b.hi);
    if (b.lo < 0 && b.hi > 0) {
      a = 0.0;
      z = std::max(-b.lo, b.hi);
    } else if (a > z) {
      std::swap(a, z);
    }
    const double c = static_cast<double>(b.count);
    if (z - a <= 0.0) {
      hist[std::min(kBins - 1, static_cast<int>(a / width))] += c;
      continue;
    }
    const int first = std::min(kBins - 1, static_cast<int>(a / width));
    const int last = std::min(kBins - 1, static_cast<int>(z / width));
    for (int i = first; i <= last; ++i) {
      const double lo = std::max(a, i * width),
                   hi = std::min(z, (i + 1) * width);
      if (hi > lo) hist[i] += c * (hi - lo) / (z - a);
    }
  }
  if (nonzero_mass <= 0.0) return Range{s.min, s.max};
  const bool two_sided = s.min < 0 && s.max > 0;
  const int levels = two_sided ? (1 << (num_bits - 1)) : (1 << num_bits);
  double best_kl = std::numeric_limits<double>::infinity();
  int best_i = kBins;
  for (int i = levels; i <= kBins; ++i) {
    std::vector<double> p(hist.begin(), hist.begin() + i);
    double outliers = 0.0;
    for (int k = i; k < kBins; ++k) outliers += hist[k];
    // KL clips outliers. A threshold below most of the mass piles it into
    // P's last bin, where the normalized Q piles its few remaining values
    // too: the divergence vanishes and a distribution away from zero (an
    // autoencoder's bottleneck) would be clipped to its minimum.
    if (outliers > 0.5 * nonzero_mass) continue;
    p[i - 1] += outliers;
    // Q: the first i bins merged into `levels` groups, each group's mass
    // spread over the bins where P is non-zero (TensorRT's rule: P's last
    // bin, which holds the clipped outliers, always gets its share).
    std::vector<double> q(i, 0.0);
    const double per = static_cast<double>(i) / levels;
    for (int g = 0; g < levels; ++g) {
      const int start = static_cast<int>(std::floor(g * per));
      const int end =
          g == levels - 1 ? i : static_cast<int>(std::floor((g + 1) * per));
      double mass = 0.0;
      int nonzero = 0;
      for (int k = start; k < end; ++k) {
        mass += hist[k];
        nonzero += p[k] > 0;
      }
      for (int k = start; k < end; ++k) {
        if (p[k] > 0) q[k] = mass / nonzero;
      }
    }
    double psum = 0.0, qsum = 0.0;
    for (int k = 0; k < i; ++k) {
      psum += p[k];
      qsum += q[k];
    }
    if (psum <= 0.0 || qsum <= 0.0) continue;
    double kl = 0.0;
    for (int k = 0; k < i; ++k) {
      if (p[k] <= 0.0) continue;
      const double pk = p[k] / psum;
      const double qk = q[k] > 0 ? q[k] / qsum : 1e-12;
      kl += pk * std::log(pk / qk);
    }
    if (kl < best_kl) {
      best_kl = kl;
      best_i = i;
    }
  }
  const double t = std::min(absmax, (best_i + 0.5) * width);
  return Range{static_cast<float>(std::max<double>(s.min, -t)),
               static_cast<float>(std::min<double>(s.max, t))};
}

}  // namespace

absl::StatusOr<RangeSpec> ParseRangeMethod(const std::string& text) {
  RangeSpec spec;
  absl::string_view rest = text;
  if (text == "minmax") {
    spec.method = RangeMethod::kMinMax;
  } else if (text == "kl") {
    spec.method = RangeMethod::kKl;
  } else if (text == "mse") {
    spec.method = RangeMethod::kMse;
  } else if (absl::ConsumePrefix(&rest, "percentile:")) {
    spec.method = RangeMethod::kPercentile;
    if (!absl::SimpleAtod(rest, &spec.percentile) ||
        !(spec.percentile > 50.0) || spec.percentile > 100.0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--method ", text, ": the percentile must be a number in (50, 100]"));
    }
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "--method ", text, ": expected minmax, percentile:P, kl or mse"));
  }
  return spec;
}

std::string RangeMethodName(const RangeSpec& spec) {
  switch (spec.method) {
    case RangeMethod::kMinMax:
      return "minmax";
    case RangeMethod::kPercentile:
      return absl::StrCat("percentile:", spec.percentile);
    case RangeMethod::kKl:
      return "kl";
    case RangeMethod::kMse:
      return "mse";
  }
  return "?";
}

Range ComputeRange(const TensorStats& stats, const RangeSpec& spec) {
  if (stats.empty()) return Range{};
  switch (spec.method) {
    case RangeMethod::kMinMax:
      return Range{stats.min, stats.max};
    case RangeMethod::kPercentile: {
      const std::vector<Bin> bins = ClippedBins(stats);
      double total = 0.0;
      for (const Bin& b : bins) total += static_cast<double>(b.count);
      if (total <= 0.0) return Range{stats.min, stats.max};
      const double q = spec.percentile / 100.0;
      const double lo = Quantile(bins, total, 1.0 - q);
      const double hi = Quantile(bins, total, q);
      return Range{static_cast<float>(std::max<double>(stats.min, lo)),
                   static_cast<float>(std::min<double>(stats.max, hi))};
    }
    case RangeMethod::kKl:
      return KlRange(stats, spec.num_bits);
    case RangeMethod::kMse:
      return MseRange(stats, spec.num_bits);
  }
  return Range{stats.min, stats.max};
}

}  // namespace qforge::calibration
