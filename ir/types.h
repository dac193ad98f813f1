// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Element types of tensors. Values equal TFLite's TensorType so that the
// reader and writer convert with a range check and a cast.
#ifndef QFORGE_IR_TYPES_H_
#define QFORGE_IR_TYPES_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace qforge::ir {

enum class DataType : int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUInt8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat64 = 10,
  kComplex128 = 11,
  kUInt64 = 12,
  kResource = 13,
  kVariant = 14,
  kUInt32 = 15,
  kUInt16 = 16,
  kInt4 = 17,
  kBFloat16 = 18,
  kInt2 = 19,
  kUInt4 = 20,
  kFloat8E4M3FN = 21,
  kFloat8E5M2 = 22,
};
inline constexpr int kNumDataTypes = 23;

// Lowercase short name ("float32", "int8", ...), as inspect prints it.
absl::string_view DataTypeName(DataType type);

// Bits per element; nullopt for types without a fixed size (string,
// resource, variant).
std::optional<int> DataTypeBits(DataType type);

// Bytes a dense constant of `count` elements occupies (sub-byte types are
// packed, as TFLite stores them); nullopt for variable-size types.
std::optional<int64_t> DenseByteSize(DataType type, int64_t count);

bool IsValidDataType(int value);

}  // namespace qforge::ir

#endif  // QFORGE_IR_TYPES_H_
