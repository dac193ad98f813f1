// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/lazy_content_hash.h"

#include <algorithm>
#include <vector>

#include "base/status_macros.h"

namespace qforge::formats {
namespace {

// Gaps and the rest are read in pieces this large: few calls, and the
// piece stays in cache between its read and its hash.
constexpr uint64_t kPiece = 256 << 10;

}  // namespace

void LazyContentHash::Read(uint64_t offset, absl::Span<const uint8_t> bytes) {
  std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
  if (!lock.owns_lock() || digest_.has_value() || offset >= size_) return;
  const uint64_t end = std::min<uint64_t>(offset + bytes.size(), size_);
  if (end <= hashed_) return;
  // What lies before (a header, samples skipped or read by another thread)
  // goes first: the order is the value. A read error is left to Digest().
  if (!HashFileTo(offset).ok()) return;
  hasher_.Update(bytes.subspan(hashed_ - offset, end - hashed_));
  hashed_ = end;
}

absl::StatusOr<uint64_t> LazyContentHash::Digest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!digest_.has_value()) {
    RETURN_IF_ERROR(HashFileTo(size_));
    digest_ = hasher_.digest();
  }
  return *digest_;
}

absl::Status LazyContentHash::HashFileTo(uint64_t end) {
  end = std::min(end, size_);
  std::vector<uint8_t> piece;
  while (hashed_ < end) {
    piece.resize(static_cast<size_t>(std::min(kPiece, end - hashed_)));
    RETURN_IF_ERROR(file_->ReadAt(hashed_, absl::MakeSpan(piece)));
    hasher_.Update(piece);
    hashed_ += piece.size();
  }
  return absl::OkStatus();
}

}  // namespace qforge::formats
