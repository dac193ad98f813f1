// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/collector.h"

// GCC 12 reports a false -Wmaybe-uninitialized inside the AVX-512 min/max
// intrinsics (they start from _mm512_undefined_ps); silence it for the
// header only.
#if defined(__AVX512F__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace qforge::calibration {
namespace {

constexpr uint32_t kExponentBits = 0x7f800000u;

// What one scan of a tensor found, before infinities are separated out.
struct ScanResult {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  uint64_t nan = 0;
};

// min/max (min and max instructions keep the accumulator when the value is
// NaN; infinities are taken out afterwards) and the NaN count, in one
// vector pass.
ScanResult ScanMinMax(const float* data, int64_t n) {
  ScanResult r;
  int64_t i = 0;
#if defined(__AVX512F__)
  __m512 mn = _mm512_set1_ps(r.lo), mx = _mm512_set1_ps(r.hi);
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(data + i);
    mn = _mm512_min_ps(v, mn);
    mx = _mm512_max_ps(v, mx);
    r.nan += static_cast<uint64_t>(
        __builtin_popcount(_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q)));
  }
  float lanes[16];
  _mm512_storeu_ps(lanes, mn);
  for (float x : lanes) r.lo = std::min(r.lo, x);
  _mm512_storeu_ps(lanes, mx);
  for (float x : lanes) r.hi = std::max(r.hi, x);
#endif
  for (; i < n; ++i) {
    const float v = data[i];
    if (v != v) {
      ++r.nan;
      continue;
    }
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
  }
  return r;
}

// The histogram of the finite values at indices start, start + stride, ...
// (the key is the top of the float's bits, histogram.h). Counting zeros
// apart in registers, with or without branches, measured slower on
// MobileNet's ReLU outputs than this plain loop.
void ScanHistogram(const float* data, int64_t n, int64_t start, int64_t stride,
                   uint32_t* counts) {
  for (int64_t i = start; i < n; i += stride) {
    uint32_t bits;
    std::memcpy(&bits, &data[i], sizeof(bits));
    if ((bits & kExponentBits) != kExponentBits) ++counts[bits >> kBucketShift];
  }
}

// Folds a scan into the statistics; infinities are rare: a second pass
// recounts them when seen.
void AddScan(const float* data, int64_t n, ScanResult r, TensorStats& s) {
  uint64_t pos_inf = 0, neg_inf = 0;
  if (std::isinf(r.lo) || std::isinf(r.hi)) {
    // Recount without infinities.
    r.lo = std::numeric_limits<float>::max();
    r.hi = std::numeric_limits<float>::lowest();
    for (int64_t k = 0; k < n; ++k) {
      const float v = data[k];
      if (std::isinf(v)) {
        (v > 0 ? pos_inf : neg_inf)++;
      } else if (v == v) {
        r.lo = std::min(r.lo, v);
        r.hi = std::max(r.hi, v);
      }
    }
  }
  const uint64_t finite = static_cast<uint64_t>(n) - r.nan - pos_inf - neg_inf;
  s.nan += r.nan;
  s.pos_inf += pos_inf;
  s.neg_inf += neg_inf;
  s.count += finite;
  if (finite > 0) {
    s.min = std::min(s.min, r.lo);
    s.max = std::max(s.max, r.hi);
  }
}

}  // namespace

StatsCollector::StatsCollector(const ir::Model& model, int histogram_stride)
    : model_(model), stride_(std::max(1, histogram_stride)) {}

void StatsCollector::Observe(int subgraph, int /*op_index*/, int tensor_index,
                             const runtime::RtTensor& tensor) {
  if (tensor.type != ir::DataType::kFloat32 || tensor.is_constant ||
      tensor.data == nullptr) {
    return;
  }
  Accumulator& acc = ThisThread()[{subgraph, tensor_index}];
  if (acc.dense == nullptr) {
    acc.dense = std::make_unique<DenseHistogram>();
    acc.stats.subgraph = subgraph;
    acc.stats.tensor = tensor_index;
    acc.stats.name = model_.subgraphs[subgraph].tensors[tensor_index].name;
  }
  const float* data = tensor.Data<float>();
  const int64_t n = tensor.NumElements();
  const int64_t start = static_cast<int64_t>(sample_ % stride_);
  const int64_t picked = n > start ? (n - start + stride_ - 1) / stride_ : 0;
  uint32_t* counts = acc.dense->Reserve(static_cast<uint64_t>(picked));
  AddScan(data, n, ScanMinMax(data, n), acc.stats);
  ScanHistogram(data, n, start, stride_, counts);
}

StatsCollector::Accumulators& StatsCollector::ThisThread() {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<Accumulators>& mine = per_thread_[std::this_thread::get_id()];
  if (mine == nullptr) mine = std::make_unique<Accumulators>();
  return *mine;
}

std::vector<TensorStats> StatsCollector::Finish() {
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::pair<int, int>, TensorStats> merged;
  for (auto& [thread, accumulators] : per_thread_) {
    for (auto& [key, acc] : *accumulators) {
      acc.dense->FlushInto(acc.stats.histogram);
      auto [it, fresh] = merged.try_emplace(key);
      if (fresh) {
        it->second.subgraph = key.first;
        it->second.tensor = key.second;
        it->second.name = acc.stats.name;
      }
      it->second.Merge(acc.stats);
      const std::string name = acc.stats.name;
      acc.stats = TensorStats{};
      acc.stats.subgraph = key.first;
      acc.stats.tensor = key.second;
      acc.stats.name = name;
    }
  }
  std::vector<TensorStats> out;
  out.reserve(merged.size());
  for (auto& entry : merged) out.push_back(std::move(entry.second));
  return out;
}

}  // namespace qforge::calibration
