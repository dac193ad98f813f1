// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Little helpers the data readers share: little-endian integers read from
// raw bytes (npy, wav and zip headers are little-endian whatever the host),
// and the "FILE: what" invalid-data error every reader returns.
#ifndef QFORGE_FORMATS_DATA_BYTES_H_
#define QFORGE_FORMATS_DATA_BYTES_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace qforge::formats {

inline uint16_t LoadLE16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | p[1] << 8);
}
inline uint32_t LoadLE32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
inline uint64_t LoadLE64(const uint8_t* p) {
  return static_cast<uint64_t>(LoadLE32(p)) |
         static_cast<uint64_t>(LoadLE32(p + 4)) << 32;
}

// InvalidArgument "FILE: what" (exit code 2 at the command line).
inline absl::Status DataError(absl::string_view file, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ": ", what));
}

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_BYTES_H_
