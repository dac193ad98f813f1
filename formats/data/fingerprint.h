// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// FNV-1a 64: a tiny, fully specified hash whose value is the same on every
// machine and run (absl::Hash is salted per process, so it cannot serve).
// It identifies data sets for caches and reports; it is not a defence
// against deliberate collisions.
#ifndef QFORGE_FORMATS_DATA_FINGERPRINT_H_
#define QFORGE_FORMATS_DATA_FINGERPRINT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

struct XXH3_state_s;

namespace qforge::formats {

// XXH3-64 (xxHash 0.8, Debian libxxhash-dev) of `bytes`: a stable,
// specified hash at memory speed, for file contents (a byte-at-a-time hash
// such as FNV-1a is a visible cost when every data byte is hashed).
uint64_t ContentHash64(absl::Span<const uint8_t> bytes);

// ContentHash64 of the concatenation of what Update() is given, in pieces.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  void Update(absl::Span<const uint8_t> bytes);
  uint64_t digest() const;

 private:
  XXH3_state_s* state_;  // xxHash's, 64-byte aligned by its allocator
};

class Fnv1a64 {
 public:
  void Update(absl::Span<const uint8_t> bytes);
  void Update(absl::string_view text);
  // Fixed-width little-endian, so field boundaries cannot blur.
  void UpdateU64(uint64_t value);
  // Length-prefixed.
  void UpdateString(absl::string_view text);

  uint64_t digest() const { return state_; }
  // 16 lowercase hex digits.
  std::string HexDigest() const;

 private:
  uint64_t state_ = 0xcbf29ce484222325ull;
};

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_FINGERPRINT_H_
