// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// StatsCollector watches a float run (runtime::TensorObserver) and records
// TensorStats for every float32 activation of every subgraph. It keeps
// nothing but the statistics: memory does not grow with the samples.
#ifndef QFORGE_CALIBRATION_COLLECTOR_H_
#define QFORGE_CALIBRATION_COLLECTOR_H_

#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "calibration/tensor_stats.h"
#include "ir/model.h"
#include "runtime/interpreter.h"

namespace qforge::calibration {

class StatsCollector : public runtime::TensorObserver {
 public:
  // `histogram_stride`: the histogram counts every stride-th value of a
  // tensor, starting at index (sample % stride) for sample number `sample`
  // (SetSample): a data-independent subset that visits every position of a
  // tensor across samples, and that depends on the sample's index in the
  // whole data list only, so shards and threads merge to the same counts.
  // 1 = all. min, max, counts and NaN/Inf always cover every value.
  explicit StatsCollector(const ir::Model& model, int histogram_stride = 1);

  // The index, in the whole data list, of the sample about to run (the
  // caller runs one sample at a time per collector when stride > 1).
  void SetSample(uint64_t sample) { sample_ = sample; }

  void Observe(int subgraph, int op_index, int tensor_index,
               const runtime::RtTensor& tensor) override;
  // Large tensors are scanned in chunks (scan.h) on the pool's threads.
  void ObserveParallel(int subgraph, int op_index, int tensor_index,
                       const runtime::RtTensor& tensor,
                       runtime::ThreadPool& pool) override;
  // Every thread records into its own accumulators, merged exactly by
  // Finish, so results do not depend on which thread saw which sample.
  bool ConcurrentObserve() const override { return true; }

  // Folds the dense accumulators into sorted TensorStats (and resets).
  std::vector<TensorStats> Finish();

 private:
  struct Accumulator {
    TensorStats stats;
    std::unique_ptr<DenseHistogram> dense;
  };
  using Accumulators = std::map<std::pair<int, int>, Accumulator>;
  Accumulators& ThisThread();
  // The calling thread's accumulator of a tensor.
  Accumulator& Find(int subgraph, int tensor_index);
  void ObserveOn(int subgraph, int tensor_index,
                 const runtime::RtTensor& tensor, runtime::ThreadPool* pool);

  const ir::Model& model_;
  int stride_;
  uint64_t sample_ = 0;
  std::mutex mu_;
  std::map<std::thread::id, std::unique_ptr<Accumulators>> per_thread_;
};

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_COLLECTOR_H_
