// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/histogram.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace qforge::calibration {
namespace {

double FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return static_cast<double>(f);
}

}  // namespace

BucketRange RangeOf(uint32_t key) {
  const uint32_t magnitude = key & (kSignKey - 1);
  const double lo = FromBits(magnitude << kBucketShift);
  // The bucket's upper edge is the first value of the next bucket (for the
  // last finite bucket that is infinity's pattern: use the largest float).
  const uint32_t next = (magnitude + 1) << kBucketShift;
  const double hi =
      (next >= 0x7f800000u) ? static_cast<double>(FLT_MAX) : FromBits(next);
  if (key & kSignKey) return BucketRange{-hi, -lo};
  return BucketRange{lo, hi};
}

void Histogram::Merge(const Histogram& other) {
  for (const auto& [key, n] : other.counts_) counts_[key] += n;
}

uint64_t Histogram::Total() const {
  uint64_t total = 0;
  for (const auto& entry : counts_) total += entry.second;
  return total;
}

std::vector<Bin> Histogram::SortedBins() const {
  std::vector<Bin> bins;
  uint64_t zeros = 0;
  for (const auto& [key, n] : counts_) {
    if ((key & (kSignKey - 1)) == 0) {  // +0, -0 and the tiniest values
      zeros += n;
      continue;
    }
    const BucketRange r = RangeOf(key);
    bins.push_back(Bin{r.lo, r.hi, n});
  }
  if (zeros > 0) {
    const BucketRange r = RangeOf(0);
    bins.push_back(Bin{-r.hi, r.hi, zeros});
  }
  std::sort(bins.begin(), bins.end(),
            [](const Bin& a, const Bin& b) { return a.lo < b.lo; });
  return bins;
}

void DenseHistogram::Spill() {
  for (uint32_t key = 0; key < kNumBuckets; ++key) {
    if (counts_[key] != 0) {
      spilled_.Add(key, counts_[key]);
      counts_[key] = 0;
    }
  }
  pending_ = 0;
}

void DenseHistogram::FlushInto(Histogram& out) {
  Spill();
  out.Merge(spilled_);
  spilled_ = Histogram();
}

}  // namespace qforge::calibration
