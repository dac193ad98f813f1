// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Whole-file reads and atomic writes. Every output of qforge goes through
// WriteFileAtomic: a temp file in the destination folder, then rename, so a
// failed or interrupted run never leaves a partial output behind.
#ifndef QFORGE_BASE_FILE_IO_H_
#define QFORGE_BASE_FILE_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace qforge {

absl::StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path);

// Writes `chunks` back to back into `path` atomically. Refuses (NotFound-free
// InvalidArgument) when `path` names the same file as any of `inputs`.
absl::Status WriteFileAtomic(const std::string& path,
                             absl::Span<const absl::Span<const uint8_t>> chunks,
                             absl::Span<const std::string> inputs = {});

inline absl::Status WriteFileAtomic(const std::string& path,
                                    absl::Span<const uint8_t> bytes,
                                    absl::Span<const std::string> inputs = {}) {
  const absl::Span<const uint8_t> chunks[] = {bytes};
  return WriteFileAtomic(path, chunks, inputs);
}

inline absl::Status WriteFileAtomic(const std::string& path,
                                    absl::string_view text,
                                    absl::Span<const std::string> inputs = {}) {
  return WriteFileAtomic(
      path,
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()),
                                text.size()),
      inputs);
}

// True when both paths exist and are the same file (same device and inode).
bool SameFile(const std::string& a, const std::string& b);

}  // namespace qforge

#endif  // QFORGE_BASE_FILE_IO_H_
