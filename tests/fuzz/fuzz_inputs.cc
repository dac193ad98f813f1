// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/fuzz/fuzz_inputs.h"

#include <cstring>

namespace qforge::fuzz {
namespace {

// Bytes of `shape` of `type` with dynamic dims as `dynamic`; nullopt past
// the bound or for types without a dense size.
std::optional<int64_t> BoundedBytes(ir::DataType type,
                                    const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t v : shape) {
    if (v < 0) return std::nullopt;
    if (v != 0 && n > kMaxTensorBytes / v) return std::nullopt;
    n *= v;
  }
  const std::optional<int64_t> bytes = ir::DenseByteSize(type, n);
  if (!bytes.has_value() || *bytes > kMaxTensorBytes) return std::nullopt;
  return bytes;
}

}  // namespace

std::optional<std::vector<ir::HostTensor>> SampleInputs(const ir::Model& model,
                                                        int64_t batch) {
  if (model.subgraphs.empty()) return std::nullopt;
  const ir::Subgraph& sg = model.subgraphs[0];
  std::vector<ir::HostTensor> out;
  for (int32_t index : sg.inputs) {
    const ir::Tensor& t = sg.tensors[index];
    const std::vector<int32_t>& shape =
        t.shape_signature.empty() ? t.shape : t.shape_signature;
    std::vector<int64_t> dims;
    for (int32_t d : shape) dims.push_back(d < 0 ? 1 : d);
    if (!dims.empty() && (shape[0] == 1 || shape[0] == -1)) dims[0] = batch;
    if (!BoundedBytes(t.type, dims).has_value()) return std::nullopt;
    ir::HostTensor h(t.type, dims);
    // Small values of both signs; exact in every type.
    uint8_t* p = h.data();
    const size_t n = static_cast<size_t>(h.NumElements());
    const size_t size = h.ByteSize() / std::max<size_t>(1, n);
    for (size_t i = 0; i < n; ++i) {
      const int v = static_cast<int>(i % 7) - 3;
      switch (t.type) {
        case ir::DataType::kFloat32: {
          const float f = 0.25f * static_cast<float>(v);
          std::memcpy(p + i * 4, &f, 4);
          break;
        }
        case ir::DataType::kBool:
          p[i] = static_cast<uint8_t>(v > 0);
          break;
        default:
          // Little-endian two's complement of v in `size` bytes (integers);
          // other types get the same bit pattern, which is what a file
          // could hold.
          for (size_t b = 0; b < size; ++b) {
            p[i * size + b] =
                static_cast<uint8_t>(static_cast<int64_t>(v) >> (8 * b));
          }
      }
    }
    out.push_back(std::move(h));
  }
  return out;
}

bool ModelWithinBounds(const ir::Model& model) {
  for (const ir::Subgraph& sg : model.subgraphs) {
    for (const ir::Tensor& t : sg.tensors) {
      if (!ir::DenseByteSize(t.type, 1).has_value()) continue;
      std::vector<int64_t> dims;
      for (int32_t d : t.shape) dims.push_back(d < 0 ? 1 : d);
      if (!BoundedBytes(t.type, dims).has_value()) return false;
    }
  }
  return true;
}

}  // namespace qforge::fuzz
