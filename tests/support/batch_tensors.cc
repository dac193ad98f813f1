// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/support/batch_tensors.h"

#include <cstring>
#include <random>
#include <vector>

namespace qforge::testing {

ir::HostTensor RandomInput(const ir::Model& model, int64_t batch,
                           uint32_t seed) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const ir::Tensor& in = sg.tensors[sg.inputs[0]];
  std::vector<int64_t> shape(in.shape.begin(), in.shape.end());
  shape[0] = batch;
  ir::HostTensor t(in.type, shape);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  for (float& v : t.Flat<float>()) v = u(rng);
  return t;
}

ir::HostTensor Sample(const ir::HostTensor& batched, int64_t b) {
  std::vector<int64_t> shape = batched.shape();
  const int64_t batch = shape[0];
  shape[0] = 1;
  ir::HostTensor t(batched.type(), shape);
  const size_t bytes = batched.ByteSize() / static_cast<size_t>(batch);
  std::memcpy(t.data(), batched.data() + static_cast<size_t>(b) * bytes, bytes);
  return t;
}

}  // namespace qforge::testing
