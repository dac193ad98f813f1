// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The content hash (ContentHash64) of one data file, taken from the bytes
// of its samples as they are read instead of in a pass of its own.
//
// A pass over the file when it is opened read every byte once more than
// the run, from memory rather than from the cache a sample's read has just
// filled (docs/performance.md, "Reading samples").
//
// The value is the whole file's hash whatever was read, in whatever order:
// bytes go into the hash strictly in file order. A sample read past what
// is hashed has the gap read and hashed first; one read before it adds
// nothing; Digest() reads and hashes whatever is left.
#ifndef QFORGE_FORMATS_DATA_LAZY_CONTENT_HASH_H_
#define QFORGE_FORMATS_DATA_LAZY_CONTENT_HASH_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "formats/data/file_range.h"
#include "formats/data/fingerprint.h"

namespace qforge::formats {

class LazyContentHash {
 public:
  // `size`: the file's size when it was opened.
  LazyContentHash(std::shared_ptr<const OpenFile> file, uint64_t size)
      : file_(std::move(file)), size_(size) {}

  // `bytes` were just read from the file at `offset`. Thread-safe, and
  // never waits: if another thread is hashing, these bytes are left for a
  // later call or for Digest(), which read them again.
  void Read(uint64_t offset, absl::Span<const uint8_t> bytes);

  // ContentHash64 of the whole file (errors: the file's read errors).
  // Thread-safe.
  absl::StatusOr<uint64_t> Digest();

 private:
  // Reads and hashes the file up to `end`; `mu_` held.
  absl::Status HashFileTo(uint64_t end);

  std::mutex mu_;
  std::shared_ptr<const OpenFile> file_;
  const uint64_t size_;
  ContentHasher hasher_;
  uint64_t hashed_ = 0;  // bytes [0, hashed_) are in `hasher_`
  std::optional<uint64_t> digest_;
};

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_LAZY_CONTENT_HASH_H_
