// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/wav.h"

#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/data/bytes.h"
#include "formats/data/convert.h"

namespace qforge::formats {
namespace {

constexpr uint16_t kFormatPcm = 1;
constexpr uint16_t kFormatFloat = 3;
constexpr uint16_t kFormatExtensible = 0xFFFE;
constexpr uint32_t kMaxRate = 10'000'000;

}  // namespace

absl::StatusOr<WavInfo> ParseWav(absl::Span<const uint8_t> bytes,
                                 absl::string_view file,
                                 const WavOptions& options) {
  if (bytes.size() < 12 || std::memcmp(bytes.data(), "RIFF", 4) != 0 ||
      std::memcmp(bytes.data() + 8, "WAVE", 4) != 0) {
    return DataError(file, "not a RIFF/WAVE file");
  }
  const uint8_t* fmt = nullptr;
  size_t fmt_size = 0;
  bool have_data = false;
  size_t data_offset = 0;
  uint64_t data_size = 0;
  size_t pos = 12;
  while (bytes.size() - pos >= 8 && !(fmt != nullptr && have_data)) {
    const uint8_t* chunk = bytes.data() + pos;
    const uint64_t size = LoadLE32(chunk + 4);
    const size_t body = pos + 8;
    const size_t left = bytes.size() - body;
    if (std::memcmp(chunk, "fmt ", 4) == 0) {
      if (size < 16 || size > left) {
        return DataError(file,
                         absl::StrCat("'fmt ' chunk of ", size,
                                      " bytes is malformed or truncated"));
      }
      fmt = bytes.data() + body;
      fmt_size = static_cast<size_t>(size);
    } else if (std::memcmp(chunk, "data", 4) == 0) {
      if (size > left) {
        return DataError(file, absl::StrCat("truncated: data chunk says ", size,
                                            " bytes, file has ", left));
      }
      have_data = true;
      data_offset = body;
      data_size = size;
    }
    if (size > left) break;  // a trailing chunk we do not need
    pos = body + static_cast<size_t>(size) + (size & 1);  // even-padded
    if (pos > bytes.size()) break;
  }
  if (fmt == nullptr) return DataError(file, "has no 'fmt ' chunk");
  if (!have_data) return DataError(file, "has no 'data' chunk");

  uint16_t format = LoadLE16(fmt);
  if (format == kFormatExtensible && fmt_size >= 40) {
    format = LoadLE16(fmt + 24);  // first two bytes of the sub-format GUID
  }
  const int channels = LoadLE16(fmt + 2);
  const uint32_t rate = LoadLE32(fmt + 4);
  const int block_align = LoadLE16(fmt + 12);
  const int bits = LoadLE16(fmt + 14);
  if (format == kFormatFloat) {
    return DataError(file, "is IEEE float audio; qforge reads 16-bit PCM");
  }
  if (format != kFormatPcm) {
    return DataError(file, absl::StrCat("is not PCM (format tag ", format,
                                        "); qforge reads 16-bit PCM"));
  }
  if (channels != 1) {
    return DataError(
        file, absl::StrCat("has ", channels, " channels; qforge reads mono"));
  }
  if (bits != 16) {
    return DataError(
        file, absl::StrCat("is ", bits, "-bit PCM; qforge reads 16-bit PCM"));
  }
  if (block_align != 2) {
    return DataError(file, absl::StrCat("has block align ", block_align,
                                        ", expected 2 for 16-bit mono"));
  }
  if (rate == 0 || rate > kMaxRate) {
    return DataError(
        file, absl::StrCat("sample rate ", rate, " Hz is not plausible"));
  }
  if (options.expected_sample_rate > 0 &&
      rate != static_cast<uint32_t>(options.expected_sample_rate)) {
    return DataError(file, absl::StrCat("is ", rate, " Hz, expected ",
                                        options.expected_sample_rate,
                                        " Hz (--sample-rate)"));
  }
  if (data_size % 2 != 0) {
    return DataError(file, absl::StrCat("data chunk of ", data_size,
                                        " bytes is not whole 16-bit samples"));
  }
  WavInfo info;
  info.sample_rate = static_cast<int>(rate);
  info.data_offset = data_offset;
  info.num_samples = static_cast<int64_t>(data_size / 2);
  return info;
}

absl::StatusOr<std::vector<float>> ReadWavFloat(absl::Span<const uint8_t> bytes,
                                                absl::string_view file,
                                                const WavOptions& options) {
  ASSIGN_OR_RETURN(const WavInfo info, ParseWav(bytes, file, options));
  std::vector<float> out(static_cast<size_t>(info.num_samples));
  ConvertElements(Conversion::kPcm16ToFloat32, bytes.data() + info.data_offset,
                  info.num_samples, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

absl::StatusOr<std::vector<int16_t>> ReadWavInt16(
    absl::Span<const uint8_t> bytes, absl::string_view file,
    const WavOptions& options) {
  ASSIGN_OR_RETURN(const WavInfo info, ParseWav(bytes, file, options));
  std::vector<int16_t> out(static_cast<size_t>(info.num_samples));
  ConvertElements(Conversion::kCopy, bytes.data() + info.data_offset,
                  info.num_samples * 2, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

}  // namespace qforge::formats
