// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Graph: which op writes and which ops read each tensor of a subgraph,
// indexed once. A value: it copies what it needs and does not refer to the
// subgraph afterwards. It accepts any subgraph (indices out of range are
// left out), and on a valid one (ir/validate.h) every tensor has at most
// one producer.
#ifndef QFORGE_IR_GRAPH_H_
#define QFORGE_IR_GRAPH_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "ir/model.h"

namespace qforge::ir {

class Graph {
 public:
  explicit Graph(const Subgraph& sg);

  // The op writing tensor `t`; -1 for subgraph inputs, constants, tensors
  // nothing writes and indices out of range. When several ops write `t` (an
  // invalid subgraph), the first.
  int producer(int32_t t) const {
    return InRange(t) ? producer_[static_cast<size_t>(t)] : -1;
  }
  // Which of producer(t)'s outputs `t` is (the first, if listed twice); -1
  // without a producer.
  int producer_output(int32_t t) const {
    return InRange(t) ? producer_output_[static_cast<size_t>(t)] : -1;
  }
  // The ops reading `t` as an input, in op order, each once.
  absl::Span<const int> consumers(int32_t t) const;

 private:
  bool InRange(int32_t t) const {
    return t >= 0 && static_cast<size_t>(t) < producer_.size();
  }

  std::vector<int> producer_, producer_output_;
  // consumers(t) = consumer_ops_[consumer_start_[t], consumer_start_[t + 1]).
  std::vector<int> consumer_start_, consumer_ops_;
};

}  // namespace qforge::ir

#endif  // QFORGE_IR_GRAPH_H_
