// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// JPEG decoding with libjpeg-turbo (Debian libjpeg62-turbo-dev): the
// reference decoder, with SIMD IDCT, upsampling and color conversion. PNG and
// BMP stay with stb_image (image.cc).
//
// Decoding is always at full scale with libjpeg's accurate defaults
// (JDCT_ISLOW, fancy upsampling), whose SIMD code gives the same bytes as
// its C code, so a file decodes to the same pixels on every machine (the
// corpus JPEGs decode identically with AVX2, SSE2 and no SIMD:
// JSIMD_FORCESSE2=1, JSIMD_FORCENONE=1).
//
// Output: 1 channel for grayscale files, 3 (RGB) for YCbCr and RGB files and
// for Adobe CMYK/YCCK files (converted as stb_image converted them:
// R = C * K / 255 on the stored, inverted values). Other component counts
// are refused. Libjpeg's fatal errors and a premature end of the file become
// InvalidArgument "FILE: cannot decode image (libjpeg: ...)"; its other
// warnings (corrupt entropy-coded data, a scan cut short by a marker) do not
// stop the decode: libjpeg fills what is missing, as stb_image decoded such
// files too. Nothing is printed.
#ifndef QFORGE_FORMATS_DATA_JPEG_H_
#define QFORGE_FORMATS_DATA_JPEG_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "formats/data/image.h"

namespace qforge::formats {

// True if `bytes` starts with a JPEG SOI marker, FF D8, optionally behind FF
// fill bytes (which stb_image accepted too).
bool IsJpeg(absl::Span<const uint8_t> bytes);

struct JpegHeader {
  int height = 0;
  int width = 0;
  int channels = 0;  // of the decoded image: 1 or 3
};

// Reads the header only (up to the start of the first scan).
absl::StatusOr<JpegHeader> ReadJpegHeader(absl::Span<const uint8_t> bytes,
                                          absl::string_view file);

// Decodes the whole image. `check_size(height, width)` runs on the header's
// dimensions before libjpeg allocates anything for the pixels; its error is
// returned as is.
absl::StatusOr<Image> DecodeJpeg(
    absl::Span<const uint8_t> bytes, absl::string_view file,
    absl::FunctionRef<absl::Status(int height, int width)> check_size);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_JPEG_H_
