// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Picking a kernel's per-type instantiation from a tensor's data type.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_TYPE_DISPATCH_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_TYPE_DISPATCH_H_

#include <cstdint>

#include "ir/types.h"

namespace qforge::runtime {

// The data type of a C++ element type: DataTypeTrait<T>::value. Defined for
// the arithmetic types kernels instantiate for; a kernel may specialize it
// for a type of its own (a float16 or bool-as-byte wrapper).
template <typename T>
struct DataTypeTrait;
#define QF_DATA_TYPE_TRAIT(T, dt)                           \
  template <>                                               \
  struct DataTypeTrait<T> {                                 \
    static constexpr ir::DataType value = ir::DataType::dt; \
  };
QF_DATA_TYPE_TRAIT(float, kFloat32)
QF_DATA_TYPE_TRAIT(double, kFloat64)
QF_DATA_TYPE_TRAIT(int8_t, kInt8)
QF_DATA_TYPE_TRAIT(uint8_t, kUInt8)
QF_DATA_TYPE_TRAIT(int16_t, kInt16)
QF_DATA_TYPE_TRAIT(uint16_t, kUInt16)
QF_DATA_TYPE_TRAIT(int32_t, kInt32)
QF_DATA_TYPE_TRAIT(uint32_t, kUInt32)
QF_DATA_TYPE_TRAIT(int64_t, kInt64)
QF_DATA_TYPE_TRAIT(uint64_t, kUInt64)
QF_DATA_TYPE_TRAIT(bool, kBool)
#undef QF_DATA_TYPE_TRAIT

template <typename T>
constexpr ir::DataType DataTypeOf() {
  return DataTypeTrait<T>::value;
}

// Calls fn(T{}) for the T among Ts whose data type is `type`; false when
// there is none.
template <typename... Ts, typename Fn>
bool ForTypeIn(ir::DataType type, const Fn& fn) {
  return ((type == DataTypeOf<Ts>() && (fn(Ts{}), true)) || ...);
}

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_TYPE_DISPATCH_H_
