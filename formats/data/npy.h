// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// NumPy .npy arrays (format versions 1, 2 and 3) and .npz archives of them.
// Only what a model input can hold is accepted: little-endian numeric and
// bool dtypes, C order. Files are untrusted and fully validated; a bad file
// yields an InvalidArgument status naming the file and the rule broken.
#ifndef QFORGE_FORMATS_DATA_NPY_H_
#define QFORGE_FORMATS_DATA_NPY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "formats/data/zip.h"
#include "ir/host_tensor.h"
#include "ir/types.h"

namespace qforge::formats {

// What an .npy header says, checked against the bytes that follow it.
struct NpyHeader {
  ir::DataType type = ir::DataType::kFloat32;
  std::vector<int64_t> shape;
  size_t data_offset = 0;  // bytes of magic + header before the data
  size_t data_size = 0;    // product(shape) * element size
};

// Parses and validates the header of the .npy file held in `bytes` (the
// whole file: the data must follow the header exactly, nothing after it).
// `file` names the file in error messages.
absl::StatusOr<NpyHeader> ParseNpyHeader(absl::Span<const uint8_t> bytes,
                                         absl::string_view file);
// The same from the file's first bytes (at least its header) and its
// total size, which the data must fill exactly.
absl::StatusOr<NpyHeader> ParseNpyHeaderPrefix(absl::Span<const uint8_t> bytes,
                                               uint64_t total,
                                               absl::string_view file);
// How many first bytes ParseNpyHeaderPrefix needs, from the first 12 (or
// as many as the file has); a bad magic or version asks for no more.
size_t NpyHeaderBytes(absl::Span<const uint8_t> first);

absl::StatusOr<ir::HostTensor> ReadNpy(absl::Span<const uint8_t> bytes,
                                       absl::string_view file);
absl::StatusOr<ir::HostTensor> ReadNpyFile(const std::string& path);

// The .npy file (version 1.0 header, C order) holding `tensor`. Fails for
// element types .npy cannot carry here (strings, sub-byte ints, ...).
absl::StatusOr<std::vector<uint8_t>> WriteNpy(const ir::HostTensor& tensor);

// The .npy descr of `type` ("<f4", "|u1", ...); empty if not supported.
absl::string_view NpyDescr(ir::DataType type);

// One array of an .npz archive, located but not copied: callers that stream
// samples read STORED arrays straight from the archive file.
struct NpzArray {
  std::string key;  // member name without ".npy"
  NpyHeader header;
  // Where the array data starts: in the archive file for a STORED entry,
  // else in `*inflated` once InflateNpzArray has decompressed it.
  uint64_t data_offset = 0;
  // A DEFLATE entry: its zip entry, to inflate.
  std::optional<ZipEntry> deflated;
  std::shared_ptr<const std::vector<uint8_t>> inflated;
};

// Indexes every member of the .npz held in `bytes`, in archive order.
// Validates each member's .npy header against the size its zip entry
// declares; STORED members are CRC-checked, DEFLATE members are not
// inflated (only their headers): InflateNpzArray does that, CRC included,
// once the caller has checked the header's shape and size. Keys must be
// unique.
absl::StatusOr<std::vector<NpzArray>> IndexNpz(absl::Span<const uint8_t> bytes,
                                               absl::string_view file);

// Inflates a DEFLATE member into `array.inflated` (no-op for STORED ones).
absl::Status InflateNpzArray(absl::Span<const uint8_t> bytes, NpzArray& array,
                             absl::string_view file);

// Key -> array, keys in sorted order.
absl::StatusOr<std::map<std::string, ir::HostTensor>> ReadNpz(
    absl::Span<const uint8_t> bytes, absl::string_view file);
absl::StatusOr<std::map<std::string, ir::HostTensor>> ReadNpzFile(
    const std::string& path);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_NPY_H_
