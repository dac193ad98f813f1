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

// min/max over finite values and NaN/Inf counts in one vector pass (min
// and max instructions keep the accumulator when the value is NaN);
// infinities are rare: a second pass recounts them when seen.
void ScanMinMax(const float* data, int64_t n, TensorStats& s) {
  float lo = std::numeric_limits<float>::infinity();
  float hi = -std::numeric_limits<float>::infinity();
  uint64_t nan_total = 0;
  int64_t i = 0;
#if defined(__AVX512F__)
  __m512 mn = _mm512_set1_ps(lo), mx = _mm512_set1_ps(hi);
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(data + i);
    mn = _mm512_min_ps(v, mn);
    mx = _mm512_max_ps(v, mx);
    nan_total += static_cast<uint64_t>(
        __builtin_popcount(_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q)));
  }
  float lanes[16];
  _mm512_storeu_ps(lanes, mn);
  for (float x : lanes) lo = std::min(lo, x);
  _mm512_storeu_ps(lanes, mx);
  for (float x : lanes) hi = std::max(hi, x);
#endif
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
  const uint64_t finite =
      static_cast<uint64_t>(n) - nan_total - pos_inf - neg_inf;
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
