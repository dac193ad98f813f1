// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/stb_guard.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace qforge::formats {
namespace {

// stb reads past the end as zeros; mirror that so we see what it sees.
uint8_t At(absl::Span<const uint8_t> b, size_t i) {
  return i < b.size() ? b[i] : 0;
}

bool IsRst(uint8_t marker) { return marker >= 0xD0 && marker <= 0xD7; }

// A DHT segment whose 16 code counts add up to more than 256 makes stb
// v2.27 write past stbi__huffman::size[257] and values[256] (fixed upstream
// in v2.28: "bad DHT header"). Walks DHT tables the way stb does.
bool DhtOverflows(absl::Span<const uint8_t> b, size_t pos, size_t length) {
  int64_t left = static_cast<int64_t>(length) - 2;
  while (left > 0) {
    ++pos;  // table class and id
    int n = 0;
    for (int i = 0; i < 16; ++i) n += At(b, pos++);
    if (n > 256) return true;
    pos += static_cast<size_t>(n);
    left -= 17 + n;
  }
  return false;
}

// stb v2.27 copies a first IDAT chunk of length 0 with memcpy(NULL, ..., 0)
// (undefined), and allocates whatever an IDAT length claims before reading
// it (up to 2 GiB from a tiny file). An empty first IDAT is legal but never
// written in practice; both are refused.
absl::Status ScreenPng(absl::Span<const uint8_t> b, absl::string_view file) {
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
      if (length == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(file,
                         ": cannot decode image (PNG starts its image data "
                         "with an empty IDAT chunk; re-save the file)"));
      }
      return absl::OkStatus();  // stb has a buffer from here on
    }
    if (length > b.size() - pos - 8) return absl::OkStatus();  // stb refuses
    pos += 12 + static_cast<size_t>(length);
    if (pos > b.size()) return absl::OkStatus();
  }
  return absl::OkStatus();
}

absl::Status ScreenJpeg(absl::Span<const uint8_t> b, absl::string_view file) {
  // stb takes FF (FF...) D8 as the start of a JPEG: fill bytes may precede
  // the SOI marker.
  size_t pos = 0;
  while (pos < b.size() && b[pos] == 0xFF) ++pos;
  if (pos == 0 || pos >= b.size() || b[pos] != 0xD8) return absl::OkStatus();
  ++pos;
  const auto refuse = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat(file,
                     ": cannot decode image (corrupt JPEG: Huffman table with "
                     "more than 256 codes)"));
  };
  // Up to the first scan, walk the segments as stb does (it skips stray
  // bytes between segments).
  while (pos + 4 <= b.size()) {
    if (b[pos] != 0xFF) {
      ++pos;
      continue;
    }
    const uint8_t marker = b[pos + 1];
    if (marker == 0xFF) {  // fill byte
      ++pos;
      continue;
    }
    if (marker == 0xD8 || marker == 0x01 || IsRst(marker)) {
      pos += 2;
      continue;
    }
    if (marker == 0xD9) return absl::OkStatus();  // end of image
    const size_t length = static_cast<size_t>(b[pos + 2] << 8 | b[pos + 3]);
    if (marker == 0xC4 && DhtOverflows(b, pos + 4, length)) return refuse();
    pos += 2 + std::max<size_t>(length, 2);
    if (marker == 0xDA) break;
  }
  // After a scan stb resumes wherever its entropy decoder stopped, which
  // need not be a segment boundary; any FF C4 from here on may be read as a
  // DHT. Valid entropy-coded data never holds FF C4, so checking them all
  // costs no valid file.
  for (; pos + 4 <= b.size(); ++pos) {
    if (b[pos] == 0xFF && b[pos + 1] == 0xC4 &&
        DhtOverflows(b, pos + 4,
                     static_cast<size_t>(b[pos + 2] << 8 | b[pos + 3]))) {
      return refuse();
    }
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
  return ScreenJpeg(b, file);
}

}  // namespace qforge::formats
