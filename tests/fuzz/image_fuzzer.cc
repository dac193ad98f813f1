// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for images (png, jpg, bmp) through the `--data` path:
// the header probe, decoding (libjpeg-turbo for jpg, formats/data/jpeg.cc;
// stb_image behind formats/data/stb_guard.cc for png and bmp),
// color conversion, resize and scaling into a model input. The last byte
// picks the input (type, layout, channels, size) and options. Seed with the
// images of testdata/data (and testdata/data/fuzz, earlier findings).
// Crashes and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>

#include "formats/data/image.h"
#include "tests/fuzz/data_fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace qforge;  // NOLINT: a fuzzer entry point
  const absl::Span<const uint8_t> file(data, size);
  const uint8_t selector = size > 0 ? data[size - 1] : 0;
  formats::InputDesc input;
  input.name = "image";
  formats::LoadOptions options;
  switch (selector % 5) {
    case 0:
      input.shape = {1, 17, 23, 3};  // a color conversion and a resize
      break;
    case 1:
      input.type = ir::DataType::kUInt8;
      input.shape = {1, 28, 28, 1};
      break;
    case 2:
      input.type = ir::DataType::kInt8;
      input.shape = {1, 3, 8, 8};
      options.image.layout = formats::ImageOptions::kNchw;
      break;
    case 3:
      input.shape = {-1, -1, -1, 4};
      options.image.color = formats::ImageOptions::kBgr;
      break;
    default:
      input.shape = {1, 9, 9, 3};
      options.image.color = formats::ImageOptions::kGray;
      options.image.mean = {127.5f};
      options.image.std = {127.5f};
      options.image.resize_hw = std::make_pair(12, 12);
  }
  // Extension by signature, as a user's file would be named.
  const char* ext = size >= 2 && data[0] == 0xFF && data[1] == 0xD8 ? "jpg"
                    : size >= 2 && data[0] == 'B' && data[1] == 'M' ? "bmp"
                                                                    : "png";
  (void)formats::ProbeImage(file, "fuzz.img");
  fuzz::ThroughSampleSource(file, ext, input, options);
  return 0;
}
