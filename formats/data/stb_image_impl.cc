// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The one translation unit that compiles stb_image. Only PNG and BMP are
// built (less untrusted-input surface): JPEG goes to libjpeg-turbo (jpeg.h).
// SIMD is off so every machine runs the same scalar code.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_BMP
#define STBI_NO_STDIO
#define STBI_NO_SIMD
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#include "stb_image.h"
