// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/graph.h"

namespace qforge::ir {

Graph::Graph(const Subgraph& sg)
    : producer_(sg.tensors.size(), -1),
      producer_output_(sg.tensors.size(), -1),
      consumer_start_(sg.tensors.size() + 1, 0) {
  const size_t n = sg.tensors.size();
  auto in_range = [n](int32_t t) {
    return t >= 0 && static_cast<size_t>(t) < n;
  };
  // The last op counted as a reader of each tensor, so that an op reading
  // a tensor at two inputs counts once.
  std::vector<int> last_reader(n, -1);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const Operator& op = sg.operators[i];
    const int index = static_cast<int>(i);
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      const int32_t t = op.outputs[k];
      if (in_range(t) && producer_[static_cast<size_t>(t)] < 0) {
        producer_[static_cast<size_t>(t)] = index;
        producer_output_[static_cast<size_t>(t)] = static_cast<int>(k);
      }
    }
    for (int32_t t : op.inputs) {
      if (!in_range(t) || last_reader[static_cast<size_t>(t)] == index) {
        continue;
      }
      last_reader[static_cast<size_t>(t)] = index;
      ++consumer_start_[static_cast<size_t>(t) + 1];
    }
  }
  for (size_t t = 0; t < n; ++t) consumer_start_[t + 1] += consumer_start_[t];
  consumer_ops_.resize(static_cast<size_t>(consumer_start_[n]));
  std::vector<int> next(consumer_start_.begin(), consumer_start_.end() - 1);
  last_reader.assign(n, -1);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const int index = static_cast<int>(i);
    for (int32_t t : sg.operators[i].inputs) {
      if (!in_range(t) || last_reader[static_cast<size_t>(t)] == index) {
        continue;
      }
      last_reader[static_cast<size_t>(t)] = index;
      consumer_ops_[static_cast<size_t>(next[static_cast<size_t>(t)]++)] =
          index;
    }
  }
}

absl::Span<const int> Graph::consumers(int32_t t) const {
  if (!InRange(t)) return {};
  const size_t begin =
      static_cast<size_t>(consumer_start_[static_cast<size_t>(t)]);
  const size_t end =
      static_cast<size_t>(consumer_start_[static_cast<size_t>(t) + 1]);
  return absl::MakeConstSpan(consumer_ops_.data() + begin, end - begin);
}

}  // namespace qforge::ir
