// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/convert.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace qforge::formats {

int SourceElementSize(Conversion conversion, int copy_element_size) {
  switch (conversion) {
    case Conversion::kCopy:
      return copy_element_size;
    case Conversion::kFloat64ToFloat32:
      return 8;
    case Conversion::kFloat16ToFloat32:
    case Conversion::kPcm16ToFloat32:
      return 2;
  }
  return copy_element_size;
}

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits >> 15) << 31;
  uint32_t exp = (bits >> 10) & 0x1F;
  uint32_t mant = bits & 0x3FF;
  uint32_t out = 0;
  if (exp == 0x1F) {
    out = sign | 0x7F800000u | mant << 13;  // inf / NaN
  } else if (exp != 0) {
    out = sign | (exp + 127 - 15) << 23 | mant << 13;
  } else if (mant == 0) {
    out = sign;  // +-0
  } else {
    // Subnormal half: normalize; every such value is a normal float.
    int e = 127 - 15 + 1;
    while ((mant & 0x400) == 0) {
      mant <<= 1;
      --e;
    }
    out = sign | static_cast<uint32_t>(e) << 23 | (mant & 0x3FF) << 13;
  }
  float f;
  std::memcpy(&f, &out, sizeof(f));
  return f;
}

namespace {

// A plain cast of an out-of-range double is undefined in C++; IEEE says it
// rounds to +-inf. Values from the halfway point above FLT_MAX round up.
float DoubleToFloat(double d) {
  if (std::isfinite(d) && std::fabs(d) >= 0x1.ffffffp127) {
    return std::signbit(d) ? -std::numeric_limits<float>::infinity()
                           : std::numeric_limits<float>::infinity();
  }
  return static_cast<float>(d);
}

}  // namespace

void ConvertElements(Conversion conversion, const uint8_t* src, int64_t count,
                     uint8_t* dst) {
  switch (conversion) {
    case Conversion::kCopy:
      if (count > 0) std::memcpy(dst, src, static_cast<size_t>(count));
      return;
    case Conversion::kFloat64ToFloat32:
      for (int64_t i = 0; i < count; ++i) {
        double d;
        std::memcpy(&d, src + 8 * i, sizeof(d));
        const float f = DoubleToFloat(d);
        std::memcpy(dst + 4 * i, &f, sizeof(f));
      }
      return;
    case Conversion::kFloat16ToFloat32:
      for (int64_t i = 0; i < count; ++i) {
        const uint16_t h =
            static_cast<uint16_t>(src[2 * i] | src[2 * i + 1] << 8);
        const float f = HalfToFloat(h);
        std::memcpy(dst + 4 * i, &f, sizeof(f));
      }
      return;
    case Conversion::kPcm16ToFloat32:
      for (int64_t i = 0; i < count; ++i) {
        const int16_t s =
            static_cast<int16_t>(src[2 * i] | src[2 * i + 1] << 8);
        const float f = static_cast<float>(s) / 32768.0f;
        std::memcpy(dst + 4 * i, &f, sizeof(f));
      }
      return;
  }
}

}  // namespace qforge::formats
