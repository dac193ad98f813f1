// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Images (jpg decoded by libjpeg-turbo, see jpeg.h; png and bmp by
// stb_image) as model input tensors.
//
// Pipeline: decode -> color conversion at the source size -> bilinear resize
// to the input's H x W -> per-element value. Every step is integer (or exact
// double) arithmetic, so a data set gives bit-identical tensors on every
// machine and compiler.
//
// Values by input type:
//   float32: (pixel * scale - mean[c]) / std[c], pixel in 0..255 (after
//            resize, rounded to the nearest integer as an 8-bit image would
//            be). scale defaults to 1, mean to 0, std to 1.
//   uint8:   the raw pixel, 0..255.
//   int8:    pixel - 128, -128..127.
// For uint8/int8 inputs (quantized models take raw pixels; the input's own
// quantization parameters do the normalization) mean, std and scale are
// ignored, so one set of options serves a float model and its integer twin.
#ifndef QFORGE_FORMATS_DATA_IMAGE_H_
#define QFORGE_FORMATS_DATA_IMAGE_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "formats/data/input_desc.h"
#include "ir/host_tensor.h"

namespace qforge::formats {

struct ImageOptions {
  enum Color { kRgb, kBgr, kGray };
  enum Layout { kNhwc, kNchw };

  // (height, width) to resize to; default: the input's H x W.
  std::optional<std::pair<int, int>> resize_hw;
  std::vector<float> mean;     // empty (0), one value, or one per channel
  std::vector<float> std;      // empty (1), one value, or one per channel
  std::optional<float> scale;  // applied before mean/std; default 1
  // Channel order the model wants. kGray with a 3-channel input replicates
  // the gray value; a 1-channel input is always gray.
  Color color = kRgb;
  Layout layout = kNhwc;  // how a rank-4 input orders its dims
  // Resize when the decoded size differs from the input's and no resize_hw
  // was given; false turns that into an error.
  bool auto_resize = true;
};

// 8-bit pixels, rows top to bottom, channels interleaved:
// pixels.size() == height * width * channels (ConvertColor and
// ResizeBilinear rely on it; ImageToTensor checks it).
struct Image {
  int height = 0;
  int width = 0;
  int channels = 0;  // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  std::vector<uint8_t> pixels;
};

// Decodes a png, jpg or bmp held in `bytes`, keeping its channel count.
absl::StatusOr<Image> DecodeImage(absl::Span<const uint8_t> bytes,
                                  absl::string_view file);

// Reads only the header: fails unless `bytes` is a decodable png/jpg/bmp of
// a size qforge accepts.
absl::Status ProbeImage(absl::Span<const uint8_t> bytes,
                        absl::string_view file);

// Converts to 1 (gray, ITU-R BT.601 luma), 3 (RGB or BGR) or 4 (RGBA or BGRA)
// channels. Gray sources are replicated, a missing alpha is 255.
Image ConvertColor(const Image& image, int channels, ImageOptions::Color color);

// Bilinear resize with half-pixel centers (TF's half_pixel_centers=True, no
// antialiasing), in exact integer arithmetic, rounded half up.
Image ResizeBilinear(const Image& image, int height, int width);

// Fails unless `input` can take an image: [1,H,W,C] / [1,C,H,W] (batch 1 or
// -1, C = 1, 3 or 4), [1,H,W] or [H,W] (gray), of type float32, uint8 or
// int8, and `options` fit it (mean/std counts, resize size).
absl::Status CheckImageInput(const InputDesc& input,
                             const ImageOptions& options);

// The tensor `input` takes for `image` (batch 1; dynamic dims resolved).
absl::StatusOr<ir::HostTensor> ImageToTensor(const Image& image,
                                             const InputDesc& input,
                                             const ImageOptions& options,
                                             absl::string_view file);

// DecodeImage + ImageToTensor.
absl::StatusOr<ir::HostTensor> LoadImageTensor(absl::Span<const uint8_t> bytes,
                                               const InputDesc& input,
                                               const ImageOptions& options,
                                               absl::string_view file);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_IMAGE_H_
