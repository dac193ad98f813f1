// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/image.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/data/bytes.h"
#include "formats/data/jpeg.h"
#include "formats/data/stb_guard.h"
#include "stb_image.h"

namespace qforge::formats {
namespace {

// Guards against allocation bombs from a header or a model shape.
constexpr int64_t kMaxSourcePixels = int64_t{1} << 26;  // 64 Mpx
constexpr int kMaxSide = 1 << 15;
constexpr int64_t kMaxTensorElements = int64_t{1} << 28;

// Where an image lives in an input's shape.
struct Geometry {
  int h_dim = -1, w_dim = -1, c_dim = -1;  // indices into the shape
  int height = -1, width = -1;             // -1: dynamic
  int channels = 1;
};

absl::StatusOr<Geometry> InputGeometry(const InputDesc& input,
                                       const ImageOptions& options) {
  const std::vector<int32_t>& s = input.shape;
  const auto not_image = [&]() {
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", DescribeInput(input),
        " is not an image input (want [1,H,W,C], [1,C,H,W], [1,H,W] or [H,W] "
        "with C = 1, 3 or 4)"));
  };
  Geometry g;
  const bool batch_ok = !s.empty() && (s[0] == 1 || s[0] == -1);
  if (s.size() == 4 && batch_ok) {
    const bool nchw = options.layout == ImageOptions::kNchw;
    g.c_dim = nchw ? 1 : 3;
    g.h_dim = nchw ? 2 : 1;
    g.w_dim = nchw ? 3 : 2;
    g.channels = s[g.c_dim] == -1 ? 3 : s[g.c_dim];
  } else if (s.size() == 3 && batch_ok) {
    g.h_dim = 1;
    g.w_dim = 2;
  } else if (s.size() == 2 && s[0] != 1) {  // [1,N] is a vector, not HxW
    g.h_dim = 0;
    g.w_dim = 1;
  } else {
    return not_image();
  }
  g.height = s[g.h_dim];
  g.width = s[g.w_dim];
  if (g.channels != 1 && g.channels != 3 && g.channels != 4) return not_image();
  if (g.height == 0 || g.width == 0 || g.height < -1 || g.width < -1 ||
      g.height > kMaxSide || g.width > kMaxSide) {
    return not_image();
  }
  return g;
}

absl::Status CheckSourceSize(int height, int width, absl::string_view file) {
  if (width <= 0 || height <= 0 || int64_t{width} * height > kMaxSourcePixels) {
    return DataError(file,
                     absl::StrCat("image of ", width, "x", height,
                                  " pixels is empty or over the 64 Mpx limit"));
  }
  return absl::OkStatus();
}

absl::Status CheckFileSize(absl::Span<const uint8_t> bytes,
                           absl::string_view file) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return DataError(file, "image file is larger than 2 GiB");
  }
  return absl::OkStatus();
}

// Header check of a PNG or BMP (stb_image).
absl::Status ProbeStb(absl::Span<const uint8_t> bytes, absl::string_view file) {
  RETURN_IF_ERROR(ScreenForStb(bytes, file));
  int w = 0, h = 0, c = 0;
  if (!stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w,
                             &h, &c)) {
    return DataError(
        file, absl::StrCat("cannot decode image (", stbi_failure_reason(),
                           "); qforge reads png, jpg and bmp"));
  }
  return CheckSourceSize(h, w, file);
}

uint8_t Luma(const uint8_t* rgb) {
  // ITU-R BT.601: 0.299 R + 0.587 G + 0.114 B, rounded half up.
  return static_cast<uint8_t>(
      (299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] + 500) / 1000);
}

}  // namespace

absl::Status ProbeImage(absl::Span<const uint8_t> bytes,
                        absl::string_view file) {
  RETURN_IF_ERROR(CheckFileSize(bytes, file));
  if (IsJpeg(bytes)) {
    ASSIGN_OR_RETURN(const JpegHeader header, ReadJpegHeader(bytes, file));
    return CheckSourceSize(header.height, header.width, file);
  }
  return ProbeStb(bytes, file);
}

absl::StatusOr<Image> DecodeImage(absl::Span<const uint8_t> bytes,
                                  absl::string_view file) {
  RETURN_IF_ERROR(CheckFileSize(bytes, file));
  if (IsJpeg(bytes)) {
    return DecodeJpeg(bytes, file, [file](int height, int width) {
      return CheckSourceSize(height, width, file);
    });
  }
  RETURN_IF_ERROR(ProbeStb(bytes, file));
  int w = 0, h = 0, c = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> data(
      stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w,
                            &h, &c, 0),
      stbi_image_free);
  if (data == nullptr) {
    return DataError(file, absl::StrCat("cannot decode image (",
                                        stbi_failure_reason(), ")"));
  }
  if (c < 1 || c > 4) {
    return DataError(file, absl::StrCat("image has ", c, " channels"));
  }
  Image image;
  image.height = h;
  image.width = w;
  image.channels = c;
  image.pixels.assign(data.get(), data.get() + static_cast<size_t>(w) * h * c);
  return image;
}

Image ConvertColor(const Image& image, int channels,
                   ImageOptions::Color color) {
  Image out;
  out.height = image.height;
  out.width = image.width;
  out.channels = channels;
  const size_t n = static_cast<size_t>(image.height) * image.width;
  out.pixels.resize(n * channels);
  const int sc = image.channels;
  const bool gray_src = sc <= 2;
  const bool has_alpha = sc == 2 || sc == 4;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = image.pixels.data() + i * sc;
    uint8_t* q = out.pixels.data() + i * channels;
    uint8_t r, g, b;
    if (gray_src) {
      r = g = b = p[0];
    } else if (channels == 1 || color == ImageOptions::kGray) {
      r = g = b = Luma(p);
    } else {
      r = p[0];
      g = p[1];
      b = p[2];
    }
    if (channels == 1) {
      q[0] = r;
      continue;
    }
    if (color == ImageOptions::kBgr) std::swap(r, b);
    q[0] = r;
    q[1] = g;
    q[2] = b;
    if (channels == 4) q[3] = has_alpha ? p[sc - 1] : 255;
  }
  return out;
}

Image ResizeBilinear(const Image& image, int height, int width) {
  if (height == image.height && width == image.width) return image;
  Image out;
  out.height = height;
  out.width = width;
  out.channels = image.channels;
  out.pixels.resize(static_cast<size_t>(height) * width * image.channels);
  // Source coordinate of output index i with half-pixel centers:
  //   (i + 0.5) * in / out - 0.5 = ((2i + 1) * in - out) / (2 * out),
  // kept as an exact fraction: lower index, numerator of the weight of the
  // upper index, and the common denominator 2 * out.
  struct Tap {
    int lo, hi;
    int64_t frac;
  };
  const auto taps = [](int in, int out_size) {
    std::vector<Tap> t(static_cast<size_t>(out_size));
    const int64_t den = 2 * int64_t{out_size};
    for (int i = 0; i < out_size; ++i) {
      const int64_t num = (2 * int64_t{i} + 1) * in - out_size;
      Tap& tap = t[static_cast<size_t>(i)];
      if (num <= 0) {
        tap = {0, 0, 0};
      } else {
        tap.lo = static_cast<int>(num / den);
        tap.frac = num % den;
        if (tap.lo >= in - 1) {
          tap.lo = in - 1;
          tap.frac = 0;
        }
      }
      tap.hi = std::min(tap.lo + 1, in - 1);
    }
    return t;
  };
  const std::vector<Tap> ty = taps(image.height, height);
  const std::vector<Tap> tx = taps(image.width, width);
  const int64_t dy = 2 * int64_t{height};
  const int64_t dx = 2 * int64_t{width};
  const int64_t denom = dx * dy;
  const int c = image.channels;
  const size_t row = static_cast<size_t>(image.width) * c;
  for (int y = 0; y < height; ++y) {
    const Tap& a = ty[static_cast<size_t>(y)];
    const uint8_t* r0 = image.pixels.data() + a.lo * row;
    const uint8_t* r1 = image.pixels.data() + a.hi * row;
    for (int x = 0; x < width; ++x) {
      const Tap& b = tx[static_cast<size_t>(x)];
      uint8_t* q = out.pixels.data() + (static_cast<size_t>(y) * width + x) * c;
      for (int k = 0; k < c; ++k) {
        const int64_t top =
            r0[b.lo * c + k] * (dx - b.frac) + r0[b.hi * c + k] * b.frac;
        const int64_t bot =
            r1[b.lo * c + k] * (dx - b.frac) + r1[b.hi * c + k] * b.frac;
        const int64_t v = top * (dy - a.frac) + bot * a.frac;
        q[k] = static_cast<uint8_t>((2 * v + denom) / (2 * denom));
      }
    }
  }
  return out;
}

absl::Status CheckImageInput(const InputDesc& input,
                             const ImageOptions& options) {
  ASSIGN_OR_RETURN(const Geometry g, InputGeometry(input, options));
  if (input.type != ir::DataType::kFloat32 &&
      input.type != ir::DataType::kUInt8 && input.type != ir::DataType::kInt8) {
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", DescribeInput(input),
        " cannot take images (float32, uint8 or int8 inputs can)"));
  }
  for (const auto& [flag, values] : {std::make_pair("--mean", &options.mean),
                                     std::make_pair("--std", &options.std)}) {
    if (values->size() > 1 &&
        values->size() != static_cast<size_t>(g.channels)) {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, " has ", values->size(), " values; input ",
                       DescribeInput(input), " has ", g.channels,
                       " channels (give 1 or ", g.channels, ")"));
    }
  }
  for (float s : options.std) {
    if (!(s != 0.0f)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--std has a zero value (input ", DescribeInput(input), ")"));
    }
  }
  if (options.resize_hw.has_value()) {
    const auto [h, w] = *options.resize_hw;
    if (h <= 0 || w <= 0 || h > kMaxSide || w > kMaxSide ||
        (g.height != -1 && g.height != h) || (g.width != -1 && g.width != w)) {
      return absl::InvalidArgumentError(absl::StrCat("--resize ", h, "x", w,
                                                     " does not fit input ",
                                                     DescribeInput(input)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ir::HostTensor> ImageToTensor(const Image& image,
                                             const InputDesc& input,
                                             const ImageOptions& options,
                                             absl::string_view file) {
  const auto with_file = [&](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat(file, ": ", s.message()));
  };
  if (absl::Status s = CheckImageInput(input, options); !s.ok()) {
    return with_file(s);
  }
  if (image.channels < 1 || image.channels > 4 || image.height <= 0 ||
      image.width <= 0 ||
      image.pixels.size() != static_cast<size_t>(image.height) * image.width *
                                 static_cast<size_t>(image.channels)) {
    return DataError(file, "malformed image buffer");
  }
  const Geometry g = InputGeometry(input, options).value();
  int h = image.height;
  int w = image.width;
  if (options.resize_hw.has_value()) {
    std::tie(h, w) = *options.resize_hw;
  } else {
    if (g.height != -1) h = g.height;
    if (g.width != -1) w = g.width;
    if ((h != image.height || w != image.width) && !options.auto_resize) {
      return DataError(
          file, absl::StrCat("image is ", image.height, "x", image.width,
                             " (HxW), input ", DescribeInput(input), " wants ",
                             h, "x", w, " and automatic resizing is off"));
    }
  }
  if (h > kMaxSide || w > kMaxSide ||
      int64_t{h} * w * g.channels > kMaxTensorElements) {
    return DataError(file, absl::StrCat("image of ", h, "x", w,
                                        " is over qforge's size limit"));
  }
  // Most photos are already what the input wants (RGB into 3 channels):
  // skip the full-size conversion copy.
  const bool as_is = image.channels == g.channels &&
                     (g.channels == 1 || options.color == ImageOptions::kRgb);
  Image converted;
  if (!as_is) converted = ConvertColor(image, g.channels, options.color);
  const Image ready = ResizeBilinear(as_is ? image : converted, h, w);

  std::vector<int64_t> shape(input.shape.begin(), input.shape.end());
  if (shape.size() >= 3) shape[0] = 1;
  shape[static_cast<size_t>(g.h_dim)] = h;
  shape[static_cast<size_t>(g.w_dim)] = w;
  if (g.c_dim >= 0) shape[static_cast<size_t>(g.c_dim)] = g.channels;
  ir::HostTensor tensor(input.type, shape);

  const int c = g.channels;
  const size_t plane = static_cast<size_t>(h) * w;
  const bool planar = g.c_dim == 1;
  const auto index = [&](size_t pixel, int k) {
    return planar ? k * plane + pixel : pixel * c + k;
  };
  switch (input.type) {
    case ir::DataType::kFloat32: {
      // pixel (8 bits) * scale (24 bits) is exact in double, so the result
      // does not depend on whether the compiler fuses multiply and subtract.
      const double scale = options.scale.value_or(1.0f);
      double mean[4], stdv[4];
      for (int k = 0; k < c; ++k) {
        const auto pick = [k](const std::vector<float>& v, float d) -> double {
          return v.empty()       ? d
                 : v.size() == 1 ? v[0]
                                 : v[static_cast<size_t>(k)];
        };
        mean[k] = pick(options.mean, 0.0f);
        stdv[k] = pick(options.std, 1.0f);
      }
      absl::Span<float> out = tensor.Flat<float>();
      for (size_t i = 0; i < plane; ++i) {
        for (int k = 0; k < c; ++k) {
          const double p = ready.pixels[i * c + k] * scale;
          out[index(i, k)] = static_cast<float>((p - mean[k]) / stdv[k]);
        }
      }
      break;
    }
    case ir::DataType::kUInt8: {
      absl::Span<uint8_t> out = tensor.Flat<uint8_t>();
      for (size_t i = 0; i < plane; ++i) {
        for (int k = 0; k < c; ++k) out[index(i, k)] = ready.pixels[i * c + k];
      }
      break;
    }
    case ir::DataType::kInt8: {
      absl::Span<int8_t> out = tensor.Flat<int8_t>();
      for (size_t i = 0; i < plane; ++i) {
        for (int k = 0; k < c; ++k) {
          out[index(i, k)] = static_cast<int8_t>(ready.pixels[i * c + k] - 128);
        }
      }
      break;
    }
    default:
      return absl::InternalError("unreachable: image input type");
  }
  return tensor;
}

absl::StatusOr<ir::HostTensor> LoadImageTensor(absl::Span<const uint8_t> bytes,
                                               const InputDesc& input,
                                               const ImageOptions& options,
                                               absl::string_view file) {
  ASSIGN_OR_RETURN(const Image image, DecodeImage(bytes, file));
  return ImageToTensor(image, input, options, file);
}

}  // namespace qforge::formats
