// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/stb_guard.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace qforge::formats {
namespace {

// stb v2.27 copies a first IDAT chunk of length 0 with memcpy(NULL, ..., 0)
// (undefined), and grows its buffer to whatever each IDAT length claims
// before reading it (up to 2 GiB from a tiny file, at any IDAT, not only the
// first). Past 2 GiB in all, its uint32 doubling wraps to 0 and never ends.
// An empty first IDAT is legal but never written in practice; all three are
// refused, so every IDAT stb reads is backed by bytes of the file.
absl::Status ScreenPng(absl::Span<const uint8_t> b, absl::string_view file) {
  constexpr uint64_t kMaxImageData = uint64_t{1} << 30;
  uint64_t image_data = 0;
  size_t pos = 8;  // signature
  while (b.size() - pos >= 8) {
    const uint64_t length = uint64_t{b[pos]} << 24 | b[pos + 1] << 16 |
                            b[pos + 2] << 8 | b[pos + 3];
    const absl::string_view type(reinterpret_cast<const char*>(&b[pos + 4]), 4);
    if (type == "IEND") return absl::OkStatus();
    if (type == "IDAT") {
      if (length > b.size() - pos - 8) {
        return absl::InvalidArgumentError(absl::StrCat(
            file, ": cannot decode image (truncated PNG: IDAT chunk of ",
            length, " bytes runs past the end of the file)"));
      }
      if (length == 0 && image_data == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(file,
                         ": cannot decode image (PNG starts its image data "
                         "with an empty IDAT chunk; re-save the file)"));
      }
      image_data += length;
      if (image_data > kMaxImageData) {
        return absl::InvalidArgumentError(
            absl::StrCat(file,
                         ": cannot decode image (PNG holds over 1 GiB of "
                         "compressed image data; the limit is 1 GiB)"));
      }
    } else if (length > b.size() - pos - 8) {
      return absl::OkStatus();  // stb refuses a chunk it cannot skip
    }
    pos += 12 + static_cast<size_t>(length);
    if (pos > b.size()) return absl::OkStatus();
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ScreenForStb(absl::Span<const uint8_t> b, absl::string_view file) {
  constexpr uint8_t kPngSignature[8] = {0x89, 'P',  'N',  'G',
                                        '\r', '\n', 0x1A, '\n'};
  if (b.size() >= 8 &&
      std::equal(kPngSignature, kPngSignature + 8, b.begin())) {
    return ScreenPng(b, file);
  }
  return absl::OkStatus();
}

}  // namespace qforge::formats
