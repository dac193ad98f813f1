// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "calibration/collector.h"

#include <algorithm>
#include <vector>

#include "calibration/scan.h"
#include "runtime/thread_pool.h"

namespace qforge::calibration {
namespace {

constexpr int64_t kMinParallelChunks = 4;

}  // namespace

StatsCollector::StatsCollector(const ir::Model& model, int histogram_stride)
    : model_(model), stride_(std::max(1, histogram_stride)) {}

void StatsCollector::Observe(int subgraph, int /*op_index*/, int tensor_index,
                             const runtime::RtTensor& tensor) {
  ObserveOn(subgraph, tensor_index, tensor, nullptr);
}

void StatsCollector::ObserveParallel(int subgraph, int /*op_index*/,
                                     int tensor_index,
                                     const runtime::RtTensor& tensor,
                                     runtime::ThreadPool& pool) {
  ObserveOn(subgraph, tensor_index, tensor, &pool);
}

StatsCollector::Accumulator& StatsCollector::Find(int subgraph,
                                                  int tensor_index) {
  Accumulator& acc = ThisThread()[{subgraph, tensor_index}];
  if (acc.dense == nullptr) {
    acc.dense = std::make_unique<DenseHistogram>();
    acc.stats.subgraph = subgraph;
    acc.stats.tensor = tensor_index;
    acc.stats.name = model_.subgraphs[subgraph].tensors[tensor_index].name;
  }
  return acc;
}

void StatsCollector::ObserveOn(int subgraph, int tensor_index,
                               const runtime::RtTensor& tensor,
                               runtime::ThreadPool* pool) {
  if (tensor.type != ir::DataType::kFloat32 || tensor.is_constant ||
      tensor.data == nullptr) {
    return;
  }
  const float* data = tensor.Data<float>();
  const int64_t n = tensor.NumElements();
  const int64_t stride = stride_;
  const int64_t first = static_cast<int64_t>(sample_ % stride_);
  const int64_t size = ChunkSize(stride);
  const int64_t chunks = NumChunks(n, stride);
  // Chunk c's histogram counts go to the accumulator of the thread that
  // scans it (integer counts: any split adds up the same); its min, max
  // and counts are combined in chunk order below.
  auto scan = [&](int64_t c, Accumulator& acc) {
    const int64_t begin = c * size;
    const int64_t len = std::min(size, n - begin);
    const int64_t picked =
        len > first ? (len - first + stride - 1) / stride : 0;
    uint32_t* counts = acc.dense->Reserve(static_cast<uint64_t>(picked));
    return ScanChunk(data + begin, len, first, stride, counts);
  };
  Accumulator& mine = Find(subgraph, tensor_index);
  ChunkScan total;
  // Small tensors stay on this thread: waking an idle worker costs more
  // than it saves below kMinParallelChunks chunks.
  if (pool != nullptr && pool->num_threads() > 1 &&
      chunks >= kMinParallelChunks) {
    std::vector<ChunkScan> results(static_cast<size_t>(chunks));
    // Contiguous runs of chunks, one per thread; the results stay per
    // chunk, so the split only decides which thread counts what.
    const int64_t tasks = std::min<int64_t>(chunks, pool->num_threads());
    pool->ParallelFor(tasks, [&](int64_t t) {
      Accumulator& acc = Find(subgraph, tensor_index);
      for (int64_t c = t * chunks / tasks; c < (t + 1) * chunks / tasks; ++c) {
        results[static_cast<size_t>(c)] = scan(c, acc);
      }
    });
    for (const ChunkScan& r : results) total.Merge(r);
  } else {
    for (int64_t c = 0; c < chunks; ++c) {
      total.Merge(scan(c, mine));
    }
  }
  TensorStats& s = mine.stats;
  s.count += total.finite;
  s.nan += total.nan;
  s.pos_inf += total.pos_inf;
  s.neg_inf += total.neg_inf;
  if (total.finite > 0) {
    s.min = MinOf(s.min, total.lo);
    s.max = MaxOf(s.max, total.hi);
  }
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
