// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Reads byte ranges of a file (pread), so a sample can be taken from a
// large .npy / .bin / .wav without loading the rest.
#ifndef QFORGE_FORMATS_DATA_FILE_RANGE_H_
#define QFORGE_FORMATS_DATA_FILE_RANGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace qforge::formats {

// A file open for reading, closed when the last owner lets go. ReadAt is
// safe to call from several threads at once (pread has no file position).
class OpenFile {
 public:
  // NotFound; ResourceExhausted when the process or system has no
  // descriptor left; else Unavailable.
  static absl::StatusOr<std::shared_ptr<const OpenFile>> Open(
      const std::string& path);
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile();

  // Fills `out` with the bytes at `offset`; a file now shorter than that
  // (changed since it was indexed) is an Unavailable error.
  absl::Status ReadAt(uint64_t offset, absl::Span<uint8_t> out) const;
  const std::string& path() const { return path_; }
  int descriptor() const { return fd_; }

 private:
  OpenFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_FILE_RANGE_H_
