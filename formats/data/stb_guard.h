// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Screens image files for inputs known to make Debian's stb_image (v2.27)
// misbehave, before stb sees them. Each check cites the stb bug it stands in
// for; drop it when the packaged stb carries the fix. stb decodes PNG and BMP
// only: JPEG goes to libjpeg-turbo (jpeg.h), so the JPEG screens (Huffman
// tables with more than 256 codes) went with stb's JPEG decoder.
#ifndef QFORGE_FORMATS_DATA_STB_GUARD_H_
#define QFORGE_FORMATS_DATA_STB_GUARD_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace qforge::formats {

// InvalidArgument naming `file` if `bytes` is a PNG that would trip a known
// stb_image bug; OK otherwise (stb judges the rest itself).
absl::Status ScreenForStb(absl::Span<const uint8_t> bytes,
                          absl::string_view file);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_STB_GUARD_H_
