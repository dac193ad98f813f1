// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/fingerprint.h"

#include <xxhash.h>
#if defined(__x86_64__)
// Debian's libxxhash is built for baseline x86-64 (SSE2); its _dispatch
// entry points pick AVX2 / AVX-512 at run time, which is faster with the
// same value (XXH3 is defined independently of the vector width). The
// fingerprint pass reads every data byte once.
#include <xxh_x86dispatch.h>
#endif

#include "absl/strings/str_format.h"

namespace qforge::formats {

uint64_t ContentHash64(absl::Span<const uint8_t> bytes) {
#if defined(__x86_64__)
  return XXH3_64bits_dispatch(bytes.data(), bytes.size());
#else
  return XXH3_64bits(bytes.data(), bytes.size());
#endif
}

ContentHasher::ContentHasher() : state_(XXH3_createState()) {
  XXH3_64bits_reset(state_);
}

ContentHasher::~ContentHasher() { XXH3_freeState(state_); }

void ContentHasher::Update(absl::Span<const uint8_t> bytes) {
#if defined(__x86_64__)
  XXH3_64bits_update_dispatch(state_, bytes.data(), bytes.size());
#else
  XXH3_64bits_update(state_, bytes.data(), bytes.size());
#endif
}

uint64_t ContentHasher::digest() const { return XXH3_64bits_digest(state_); }

void Fnv1a64::Update(absl::Span<const uint8_t> bytes) {
  uint64_t h = state_;
  for (uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  state_ = h;
}

void Fnv1a64::Update(absl::string_view text) {
  Update(absl::Span<const uint8_t>(
      reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void Fnv1a64::UpdateU64(uint64_t value) {
  uint8_t le[8];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<uint8_t>(value >> (8 * i));
  Update(le);
}

void Fnv1a64::UpdateString(absl::string_view text) {
  UpdateU64(text.size());
  Update(text);
}

std::string Fnv1a64::HexDigest() const {
  return absl::StrFormat("%016x", state_);
}

}  // namespace qforge::formats
