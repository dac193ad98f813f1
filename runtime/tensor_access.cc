// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/tensor_access.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace qforge::runtime {

// Bytes of `t`'s data for its current shape. Fails on an unknown (-1) or
// overflowing shape, and past `limit` bytes (when > 0), naming the tensor:
// shapes come from the file or from kernels' prepare, and must not reach an
// allocation or a memcpy unchecked.
absl::StatusOr<size_t> TensorBytes(const RtTensor& t, int64_t limit) {
  int64_t n = 1;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    const int64_t d = t.shape[i];
    if (d < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tensor '", t.name(), "' has shape ", DimsString(t.shape),
          ": dimension ", i, " is unknown where its size is needed"));
    }
    // 8 bytes per element at most: the byte count must fit too.
    if (d != 0 && n > (INT64_MAX / 8) / d) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tensor '", t.name(), "' has shape ", DimsString(t.shape),
          ", more elements than int64 holds"));
    }
    n *= d;
  }
  // A resource tensor holds an int32 handle per element (as in TFLite).
  const std::optional<int64_t> bytes =
      t.type == ir::DataType::kResource
          ? std::optional<int64_t>(n * static_cast<int64_t>(sizeof(int32_t)))
          : ir::DenseByteSize(t.type, n);
  if (!bytes.has_value() || *bytes < 0) {
    return absl::UnimplementedError(
        absl::StrCat("tensor '", t.name(), "' has type ",
                     ir::DataTypeName(t.type), ", which qforge cannot run"));
  }
  if (limit > 0 && *bytes > limit) {
    return absl::InvalidArgumentError(
        absl::StrCat("tensor '", t.name(), "' ", ir::DataTypeName(t.type),
                     DimsString(t.shape), " needs ", *bytes,
                     " bytes, more than the ", limit, " a tensor may take"));
  }
  return static_cast<size_t>(*bytes);
}

// An op may read input `k` (`t`): its shape is known, and its data is
// there and large enough. Constants with dynamic dims, variables resized by
// an earlier op, and tensors no op writes would otherwise be read out of
// bounds.
absl::Status CheckReadable(const ir::Operator& op, int subgraph, int index,
                           size_t k, const RtTensor& t) {
  auto error = [&](const std::string& rule) {
    return absl::InvalidArgumentError(absl::StrCat(
        "subgraph ", subgraph, " op ", index, " (", op.DisplayName(),
        "): input ", k, " '", t.name(), "' ", rule));
  };
  absl::StatusOr<size_t> bytes = TensorBytes(t);
  if (!bytes.ok()) {
    if (absl::IsUnimplemented(bytes.status())) return absl::OkStatus();
    return error(absl::StrCat(DimsString(t.shape),
                              " has no size: no op computes its shape"));
  }
  if (*bytes == 0) return absl::OkStatus();
  // A sparse constant holds its compressed values; DENSIFY (or a kernel
  // that reads the format) checks them against its sparsity metadata.
  if (t.ir->sparsity.has_value() && t.data != nullptr) {
    return absl::OkStatus();
  }
  if (t.data == nullptr) {
    return error(
        "has no value: no earlier op writes it, and it is neither an input "
        "of the subgraph nor a constant");
  }
  if (*bytes > t.bytes) {
    return error(absl::StrCat("holds ", t.bytes, " bytes, but its shape ",
                              DimsString(t.shape), " of ",
                              ir::DataTypeName(t.type), " needs ", *bytes));
  }
  return absl::OkStatus();
}

// Output `k` of subgraph `subgraph` (`t`) holds a value once its ops ran: a
// file can name as output a tensor no op writes, whose data would be read
// (copied to the caller, or to a control-flow op's output) from nowhere.
absl::Status CheckOutputWritten(int subgraph, size_t k, const RtTensor& t) {
  absl::StatusOr<size_t> bytes = TensorBytes(t);
  if (!bytes.ok() && absl::IsUnimplemented(bytes.status())) {
    return absl::OkStatus();
  }
  if (!bytes.ok() || (*bytes > 0 && (t.data == nullptr || *bytes > t.bytes))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "subgraph ", subgraph, " output ", k, " '", t.name(), "' ",
        DimsString(t.shape),
        " has no value: no op writes it, and it is neither an input of the "
        "subgraph nor a constant"));
  }
  return absl::OkStatus();
}

absl::Status Reserve(AlignedBuffer& buffer, RtTensor& rt, size_t bytes) {
  uint8_t* data = buffer.Reserve(bytes);
  if (data == nullptr && bytes > 0) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "tensor '", rt.name(), "' ", ir::DataTypeName(rt.type),
        DimsString(rt.shape), ": cannot allocate ", bytes, " bytes"));
  }
  rt.data = data;
  rt.bytes = buffer.capacity();
  return absl::OkStatus();
}

absl::Status WidenInt4(AlignedBuffer& buffer, RtTensor& rt,
                       absl::Span<const uint8_t> packed) {
  // The element count, bounded by what the bytes can hold (no overflow).
  const int64_t most = 2 * static_cast<int64_t>(packed.size());
  int64_t n = 1;
  for (int64_t d : rt.shape) {
    if (d < 0 || (d > 0 && n > most / d + 1)) {
      n = -1;
      break;
    }
    n *= d;
  }
  if (n < 0 || n > most) {
    return absl::InvalidArgumentError(absl::StrCat(
        "int4 constant '", rt.name(), "' ", DimsString(rt.shape), " has ",
        packed.size(), " bytes; its shape needs ",
        n < 0 ? std::string("a known size") : absl::StrCat((n + 1) / 2)));
  }
  RETURN_IF_ERROR(Reserve(buffer, rt, static_cast<size_t>(n)));
  int8_t* out = rt.Data<int8_t>();
  for (int64_t i = 0; i < n; ++i) {
    const int nibble =
        (packed[static_cast<size_t>(i / 2)] >> (4 * (i % 2))) & 15;
    out[i] = static_cast<int8_t>(nibble >= 8 ? nibble - 16 : nibble);
  }
  rt.type = ir::DataType::kInt8;
  return absl::OkStatus();
}

}  // namespace qforge::runtime
