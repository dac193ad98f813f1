// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/host_tensor.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qforge::ir {

HostTensor::HostTensor(DataType type, std::vector<int64_t> shape)
    : type_(type), shape_(std::move(shape)) {
  bytes_.resize(
      static_cast<size_t>(DenseByteSize(type_, NumElements()).value_or(0)));
}

int64_t HostTensor::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

std::string HostTensor::DebugString() const {
  return absl::StrCat(DataTypeName(type_), ShapeString(shape_));
}

std::string ShapeString(absl::Span<const int64_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}
std::string ShapeString(absl::Span<const int32_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

}  // namespace qforge::ir
