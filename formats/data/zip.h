// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Just enough of the zip format to read .npz files: the central directory
// (with zip64 records, which numpy.savez always asks for), STORED entries
// (numpy.savez) and DEFLATE entries (numpy.savez_compressed, via zlib).
// Input is untrusted: every offset and size is checked against the buffer.
#ifndef QFORGE_FORMATS_DATA_ZIP_H_
#define QFORGE_FORMATS_DATA_ZIP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace qforge::formats {

struct ZipEntry {
  enum Method : uint16_t { kStored = 0, kDeflate = 8 };
  std::string name;
  Method method = kStored;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  // Offset of the entry's (compressed) bytes in the archive, past its local
  // header.
  uint64_t data_offset = 0;
};

// Lists the file entries of `zip` in central-directory order (directory
// entries are skipped). `file` names the archive in error messages.
absl::StatusOr<std::vector<ZipEntry>> ListZipEntries(
    absl::Span<const uint8_t> zip, absl::string_view file);

// The uncompressed bytes of `entry`, CRC-checked.
absl::StatusOr<std::vector<uint8_t>> ExtractZipEntry(
    absl::Span<const uint8_t> zip, const ZipEntry& entry,
    absl::string_view file);

// The first `n` uncompressed bytes of `entry` (at most its uncompressed
// size), inflated no further than that: what a caller reads of a member
// (an .npy header) before deciding to extract it whole. No CRC check: that
// needs the whole entry.
absl::StatusOr<std::vector<uint8_t>> ZipEntryPrefix(
    absl::Span<const uint8_t> zip, const ZipEntry& entry, uint64_t n,
    absl::string_view file);

// Checks a STORED entry's CRC-32 in place, without copying it.
absl::Status VerifyStoredZipEntry(absl::Span<const uint8_t> zip,
                                  const ZipEntry& entry,
                                  absl::string_view file);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_ZIP_H_
