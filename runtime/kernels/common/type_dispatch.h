// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Picking a kernel's per-type instantiation from a tensor's data type.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_TYPE_DISPATCH_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_TYPE_DISPATCH_H_

#include <cstdint>
#include <type_traits>

#include "ir/types.h"

namespace qforge::runtime {

// The data type of a C++ element type (float and the integer types kernels
// instantiate for).
template <typename T>
constexpr ir::DataType DataTypeOf() {
  static_assert(std::is_arithmetic_v<T>);
  return std::is_same_v<T, float>     ? ir::DataType::kFloat32
         : std::is_same_v<T, int8_t>  ? ir::DataType::kInt8
         : std::is_same_v<T, uint8_t> ? ir::DataType::kUInt8
         : std::is_same_v<T, int16_t> ? ir::DataType::kInt16
         : std::is_same_v<T, int32_t> ? ir::DataType::kInt32
                                      : ir::DataType::kInt64;
}

// Calls fn(T{}) for the T among Ts whose data type is `type`; false when
// there is none.
template <typename... Ts, typename Fn>
bool ForTypeIn(ir::DataType type, const Fn& fn) {
  return ((type == DataTypeOf<Ts>() && (fn(Ts{}), true)) || ...);
}

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_TYPE_DISPATCH_H_
