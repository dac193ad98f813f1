// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "base/text.h"

#include <cstdint>

namespace qforge {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 (RFC 3629,
// table 3-7 of the Unicode standard).
size_t SequenceLength(absl::string_view s, size_t i) {
  const auto byte = [&](size_t k) -> uint8_t {
    return k < s.size() ? static_cast<uint8_t>(s[k]) : 0;
  };
  const auto in = [](uint8_t b, uint8_t lo, uint8_t hi) {
    return b >= lo && b <= hi;
  };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  if (in(b0, 0xC2, 0xDF)) return in(byte(i + 1), 0x80, 0xBF) ? 2 : 0;
  uint8_t lo = 0x80, hi = 0xBF;
  size_t len = 0;
  if (in(b0, 0xE0, 0xEF)) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (in(b0, 0xF0, 0xF4)) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (!in(byte(i + 1), lo, hi)) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (!in(byte(i + k), 0x80, 0xBF)) return 0;
  }
  return len;
}

void AppendHex(std::string& out, uint8_t b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

std::string Escape(absl::string_view s, bool controls) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = SequenceLength(s, i);
    const uint8_t b = static_cast<uint8_t>(s[i]);
    if (n == 0 || (controls && n == 1 && (b < 0x20 || b == 0x7F))) {
      AppendHex(out, b);
      ++i;
      continue;
    }
    out.append(s.data() + i, n);
    i += n;
  }
  return out;
}

}  // namespace

bool IsValidUtf8(absl::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string EscapeInvalidUtf8(absl::string_view s) {
  return IsValidUtf8(s) ? std::string(s) : Escape(s, /*controls=*/false);
}

std::string EscapeForMessage(absl::string_view s) {
  return Escape(s, /*controls=*/true);
}

}  // namespace qforge
