// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A tensor as the interpreter and kernels see it: element type, the shape it
// has in this run, and a pointer into the activation arena (or into constant
// data). Kernels read and write through it; they never allocate.
#ifndef QFORGE_RUNTIME_TENSOR_H_
#define QFORGE_RUNTIME_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "ir/model.h"
#include "ir/types.h"

namespace qforge::runtime {

using Dims = absl::InlinedVector<int64_t, 6>;

int64_t NumElements(absl::Span<const int64_t> dims);
std::string DimsString(absl::Span<const int64_t> dims);

struct RtTensor {
  ir::DataType type = ir::DataType::kFloat32;
  Dims shape;
  uint8_t* data = nullptr;   // null until allocated (or for empty tensors)
  size_t bytes = 0;          // bytes available at `data`
  bool is_constant = false;  // data is a constant (file buffer or folded)
  bool is_variable = false;  // state that survives between ops of a run
  const ir::Tensor* ir = nullptr;  // name, quantization; never null

  int64_t NumElements() const { return runtime::NumElements(shape); }
  int rank() const { return static_cast<int>(shape.size()); }
  int64_t dim(int i) const { return shape[static_cast<size_t>(i)]; }

  template <typename T>
  T* Data() {
    return reinterpret_cast<T*>(data);
  }
  template <typename T>
  const T* Data() const {
    return reinterpret_cast<const T*>(data);
  }
  template <typename T>
  absl::Span<T> Flat() {
    return absl::Span<T>(Data<T>(), static_cast<size_t>(NumElements()));
  }
  template <typename T>
  absl::Span<const T> Flat() const {
    return absl::Span<const T>(Data<T>(), static_cast<size_t>(NumElements()));
  }
  const std::string& name() const { return ir->name; }
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_TENSOR_H_
