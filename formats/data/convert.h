// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The element conversions the data layer performs between what a file holds
// and what a model input takes. Each is exact or correctly rounded, so the
// result is the same on every machine.
#ifndef QFORGE_FORMATS_DATA_CONVERT_H_
#define QFORGE_FORMATS_DATA_CONVERT_H_

#include <cstdint>

namespace qforge::formats {

enum class Conversion {
  kCopy,              // same type in and out
  kFloat64ToFloat32,  // round to nearest even
  kFloat16ToFloat32,  // exact
  kPcm16ToFloat32,    // x / 32768, exact: [-1, 1)
};

// Bytes per element on the source side.
int SourceElementSize(Conversion conversion, int copy_element_size);

// IEEE binary16 bits -> float (exact, NaN payloads and signs kept).
float HalfToFloat(uint16_t bits);

// Converts `count` elements from `src` into `dst` (for kCopy, `count` is in
// bytes). Buffers must not overlap; no alignment is assumed.
void ConvertElements(Conversion conversion, const uint8_t* src, int64_t count,
                     uint8_t* dst);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_CONVERT_H_
