// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A file mapped read-only into memory. Model files are mapped rather than
// read: a constant buffer is then a view of the file's pages, which the
// kernel loads when first touched and may drop again under memory pressure
// (they are clean), so a 2.5 GB model costs no copy and `inspect` touches
// only the flatbuffer's table.
//
// The mapping is private and read-only; a file changed by another process
// while qforge runs is undefined (as for any mapped file). Outputs are never
// written over inputs (base/file_io.h), so qforge itself never does that.
#ifndef QFORGE_BASE_MAPPED_FILE_H_
#define QFORGE_BASE_MAPPED_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace qforge {

class MappedFile {
 public:
  // Errors as ReadFileBytes's: NotFound, FailedPrecondition (not a regular
  // file), Unavailable (cannot open or map). An empty file maps to no bytes.
  // `populate`: map every page now (one pass, no page fault per page), for
  // files that will be read whole; otherwise pages load when touched.
  static absl::StatusOr<std::shared_ptr<const MappedFile>> Open(
      const std::string& path, bool populate = false);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  absl::Span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

}  // namespace qforge

#endif  // QFORGE_BASE_MAPPED_FILE_H_
