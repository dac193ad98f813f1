// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Reads one byte range of a file (pread), so a sample can be taken from a
// large .npy / .bin / .wav without loading the rest. Safe to call from
// several threads: each call opens its own descriptor.
#ifndef QFORGE_FORMATS_DATA_FILE_RANGE_H_
#define QFORGE_FORMATS_DATA_FILE_RANGE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace qforge::formats {

// `size` bytes at `offset`; a file now shorter than that (changed since it
// was indexed) is an Unavailable error.
absl::StatusOr<std::vector<uint8_t>> ReadFileRange(const std::string& path,
                                                   uint64_t offset,
                                                   size_t size);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_FILE_RANGE_H_
