// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A histogram on a fixed, data-independent grid: the bucket of a float is
// the top 14 bits of its IEEE-754 pattern (sign, 8-bit exponent, 5 mantissa
// bits), so every bucket spans 1/32 of a binade (~3% relative width) and
// two histograms of the same tensor merge exactly by adding counts,
// whatever data each saw. Range methods (range.h) read the distribution
// back from it without rerunning inference.
#ifndef QFORGE_CALIBRATION_HISTOGRAM_H_
#define QFORGE_CALIBRATION_HISTOGRAM_H_

#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

namespace qforge::calibration {

inline constexpr int kBucketShift = 18;  // 32 - 14
inline constexpr uint32_t kNumBuckets = 1u << 14;
inline constexpr uint32_t kSignKey = 1u << 13;  // the sign bit within a key

// The bucket of a finite float.
inline uint32_t BucketOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits >> kBucketShift;
}

// The values of bucket `key` lie in [lo, hi) by magnitude; for negative
// buckets (sign bit set) lo/hi are returned as negative numbers with
// lo < hi (lo is the more negative end).
struct BucketRange {
  double lo, hi;
};
BucketRange RangeOf(uint32_t key);

// Bins sorted by value, for range methods.
struct Bin {
  double lo, hi;
  uint64_t count;
};

class Histogram {
 public:
  Histogram() = default;
  void Add(uint32_t key, uint64_t n = 1) { counts_[key] += n; }
  void Merge(const Histogram& other);
  const std::map<uint32_t, uint64_t>& counts() const { return counts_; }
  uint64_t Total() const;
  // Non-empty bins in increasing value order (-0 and +0 are one bin).
  std::vector<Bin> SortedBins() const;
  bool operator==(const Histogram& o) const { return counts_ == o.counts_; }

 private:
  std::map<uint32_t, uint64_t> counts_;
};

// A dense accumulator for the hot path (one per tensor per worker), folded
// into a Histogram at the end. Counts are 32-bit (half the cache footprint
// of 64-bit ones); they spill into a Histogram before they could overflow.
class DenseHistogram {
 public:
  DenseHistogram() : counts_(kNumBuckets, 0) {}
  void AddFinite(float v) { Reserve(1)[BucketOf(v)]++; }
  // Room for `adds` more increments: returns the count array (kNumBuckets
  // entries) that the caller may then increment up to `adds` times.
  uint32_t* Reserve(uint64_t adds) {
    if (adds > kMaxPending - pending_) Spill();
    pending_ += adds;
    return counts_.data();
  }
  void FlushInto(Histogram& out);

 private:
  static constexpr uint64_t kMaxPending = 0xffffffffu;
  void Spill();
  std::vector<uint32_t> counts_;
  uint64_t pending_ = 0;  // an upper bound of any count
  Histogram spilled_;
};

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_HISTOGRAM_H_
