// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/types.h"

namespace qforge::ir {

absl::string_view DataTypeName(DataType type) {
  switch (type) {
    case DataType::kFloat32:
      return "float32";
    case DataType::kFloat16:
      return "float16";
    case DataType::kInt32:
      return "int32";
    case DataType::kUInt8:
      return "uint8";
    case DataType::kInt64:
      return "int64";
    case DataType::kString:
      return "string";
    case DataType::kBool:
      return "bool";
    case DataType::kInt16:
      return "int16";
    case DataType::kComplex64:
      return "complex64";
    case DataType::kInt8:
      return "int8";
    case DataType::kFloat64:
      return "float64";
    case DataType::kComplex128:
      return "complex128";
    case DataType::kUInt64:
      return "uint64";
    case DataType::kResource:
      return "resource";
    case DataType::kVariant:
      return "variant";
    case DataType::kUInt32:
      return "uint32";
    case DataType::kUInt16:
      return "uint16";
    case DataType::kInt4:
      return "int4";
    case DataType::kBFloat16:
      return "bfloat16";
    case DataType::kInt2:
      return "int2";
    case DataType::kUInt4:
      return "uint4";
    case DataType::kFloat8E4M3FN:
      return "float8_e4m3fn";
    case DataType::kFloat8E5M2:
      return "float8_e5m2";
  }
  return "invalid";
}

std::optional<int> DataTypeBits(DataType type) {
  switch (type) {
    case DataType::kFloat32:
      return 32;
    case DataType::kFloat16:
      return 16;
    case DataType::kInt32:
      return 32;
    case DataType::kUInt8:
      return 8;
    case DataType::kInt64:
      return 64;
    case DataType::kString:
      return std::nullopt;
    case DataType::kBool:
      return 8;
    case DataType::kInt16:
      return 16;
    case DataType::kComplex64:
      return 64;
    case DataType::kInt8:
      return 8;
    case DataType::kFloat64:
      return 64;
    case DataType::kComplex128:
      return 128;
    case DataType::kUInt64:
      return 64;
    case DataType::kResource:
      return std::nullopt;
    case DataType::kVariant:
      return std::nullopt;
    case DataType::kUInt32:
      return 32;
    case DataType::kUInt16:
      return 16;
    case DataType::kInt4:
      return 4;
    case DataType::kBFloat16:
      return 16;
    case DataType::kInt2:
      return 2;
    case DataType::kUInt4:
      return 4;
    case DataType::kFloat8E4M3FN:
      return 8;
    case DataType::kFloat8E5M2:
      return 8;
  }
  return std::nullopt;
}

std::optional<int64_t> DenseByteSize(DataType type, int64_t count) {
  const std::optional<int> bits = DataTypeBits(type);
  if (!bits.has_value()) return std::nullopt;
  if (*bits >= 8) return count * (*bits / 8);
  return (count * *bits + 7) / 8;
}

bool IsValidDataType(int value) { return value >= 0 && value < kNumDataTypes; }

}  // namespace qforge::ir
