// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A dense tensor value in host memory: what data loaders produce, what the
// interpreter takes as inputs and returns as outputs, what .npy files hold.
#ifndef QFORGE_IR_HOST_TENSOR_H_
#define QFORGE_IR_HOST_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "ir/types.h"

namespace qforge::ir {

class HostTensor {
 public:
  HostTensor() = default;
  // Zero-filled tensor. Sub-byte and variable-size types are not supported
  // here (their DenseByteSize is used; strings get 0 bytes).
  HostTensor(DataType type, std::vector<int64_t> shape);

  DataType type() const { return type_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t NumElements() const;
  size_t ByteSize() const { return bytes_.size(); }

  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }
  template <typename T>
  absl::Span<T> Flat() {
    return absl::Span<T>(reinterpret_cast<T*>(bytes_.data()),
                         bytes_.size() / sizeof(T));
  }
  template <typename T>
  absl::Span<const T> Flat() const {
    return absl::Span<const T>(reinterpret_cast<const T*>(bytes_.data()),
                               bytes_.size() / sizeof(T));
  }
  std::vector<uint8_t>& bytes() { return bytes_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

  // "float32[1,224,224,3]"
  std::string DebugString() const;

  bool operator==(const HostTensor& o) const {
    return type_ == o.type_ && shape_ == o.shape_ && bytes_ == o.bytes_;
  }

 private:
  DataType type_ = DataType::kFloat32;
  std::vector<int64_t> shape_;
  std::vector<uint8_t> bytes_;
};

// "[1,224,224,3]"
std::string ShapeString(absl::Span<const int64_t> shape);
std::string ShapeString(absl::Span<const int32_t> shape);

}  // namespace qforge::ir

#endif  // QFORGE_IR_HOST_TENSOR_H_
