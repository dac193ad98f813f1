// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/collector.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace qforge::calibration {
namespace {

constexpr int kLanes = 16;

// min/max over finite values and NaN/Inf counts, vectorisable: 16
// independent lanes, each `v < m ? v : m` (minps semantics keep m when v is
// NaN). Infinities are rare: a second pass recounts them when seen.
void ScanMinMax(const float* data, int64_t n, TensorStats& s) {
  float mn[kLanes], mx[kLanes];
  uint32_t nans[kLanes];
  for (int j = 0; j < kLanes; ++j) {
    mn[j] = std::numeric_limits<float>::infinity();
    mx[j] = -std::numeric_limits<float>::infinity();
    nans[j] = 0;
  }
  int64_t i = 0;
  uint64_t nan_total = 0;
  while (i + kLanes <= n) {
    // Chunks keep the 32-bit NaN counters from overflowing.
    const int64_t end = std::min<int64_t>(n - (n - i) % kLanes, i + (int64_t{1} << 28));
    for (; i + kLanes <= end; i += kLanes) {
      for (int j = 0; j < kLanes; ++j) {
        const float v = data[i + j];
        mn[j] = v < mn[j] ? v : mn[j];
        mx[j] = v > mx[j] ? v : mx[j];
        nans[j] += (v != v);
      }
    }
    for (int j = 0; j < kLanes; ++j) {
      nan_total += nans[j];
      nans[j] = 0;
    }
  }
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  for (int j = 0; j < kLanes; ++j) {
    lo = std::min(lo, mn[j]);
    hi = std::max(hi, mx[j]);
  }
  for (; i < n; ++i) {
    const float v = data[i];
    if (v != v) {
      ++nan_total;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  uint64_t pos_inf = 0, neg_inf = 0;
  if (std::isinf(lo) || std::isinf(hi)) {
    // Recount without infinities.
    lo = std::numeric_limits<float>::max();
    hi = std::numeric_limits<float>::lowest();
    for (int64_t k = 0; k < n; ++k) {
      const float v = data[k];
      if (std::isinf(v)) {
        (v > 0 ? pos_inf : neg_inf)++;
      } else if (v == v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
  }
  const uint64_t finite = static_cast<uint64_t>(n) - nan_total - pos_inf - neg_inf;
  s.nan += nan_total;
  s.pos_inf += pos_inf;
  s.neg_inf += neg_inf;
  s.count += finite;
  if (finite > 0) {
    s.min = std::min(s.min, lo);
    s.max = std::max(s.max, hi);
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
  Accumulator& acc = accumulators_[{subgraph, tensor_index}];
  if (acc.dense == nullptr) {
    acc.dense = std::make_unique<DenseHistogram>();
    acc.stats.subgraph = subgraph;
    acc.stats.tensor = tensor_index;
    acc.stats.name = model_.subgraphs[subgraph].tensors[tensor_index].name;
  }
  const float* data = tensor.Data<float>();
  const int64_t n = tensor.NumElements();
  ScanMinMax(data, n, acc.stats);
  DenseHistogram& dense = *acc.dense;
  for (int64_t i = 0; i < n; i += stride_) {
    uint32_t bits;
    std::memcpy(&bits, &data[i], sizeof(bits));
    if ((bits & 0x7f800000u) != 0x7f800000u) dense.AddFinite(data[i]);
  }
}

std::vector<TensorStats> StatsCollector::Finish() {
  std::vector<TensorStats> out;
  for (auto& [key, acc] : accumulators_) {
    acc.dense->FlushInto(acc.stats.histogram);
    out.push_back(acc.stats);
    acc.stats = TensorStats{};
    acc.stats.subgraph = key.first;
    acc.stats.tensor = key.second;
    acc.stats.name = out.back().name;
  }
  return out;
}

}  // namespace qforge::calibration
