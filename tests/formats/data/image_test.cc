// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/image.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/data/fingerprint.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::Mutate;
using ::qforge::formats::testing::ReadBytes;
using ::qforge::formats::testing::TestdataPath;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// person.bmp is an 8-bit palettized BMP whose palette maps index i to gray
// (i, i, i); its 96 rows of 96 bytes start at byte 1078, bottom row first.
// So the pixel at (y, x) is simply byte 1078 + (95 - y) * 96 + x.
class PersonBmp : public ::testing::Test {
 protected:
  void SetUp() override { bytes_ = ReadBytes(TestdataPath("person.bmp")); }
  int Pixel(int y, int x) const { return bytes_[1078 + (95 - y) * 96 + x]; }
  std::vector<uint8_t> bytes_;
};

InputDesc Input(ir::DataType type, std::vector<int32_t> shape) {
  InputDesc d;
  d.name = "image";
  d.type = type;
  d.shape = std::move(shape);
  return d;
}

TEST_F(PersonBmp, DecodesToTheStoredPixels) {
  absl::StatusOr<Image> image = DecodeImage(bytes_, "person.bmp");
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->height, 96);
  EXPECT_EQ(image->width, 96);
  ASSERT_GE(image->channels, 1);
  const int c = image->channels;
  for (int y = 0; y < 96; ++y) {
    for (int x = 0; x < 96; ++x) {
      for (int k = 0; k < std::min(c, 3); ++k) {
        ASSERT_EQ(image->pixels[(y * 96 + x) * c + k], Pixel(y, x))
            << y << "," << x;
      }
    }
  }
  // Spot values read off the file with a hex dump.
  EXPECT_EQ(Pixel(0, 0), 11);
  EXPECT_EQ(Pixel(10, 20), 225);
  EXPECT_EQ(Pixel(50, 50), 143);
}

TEST_F(PersonBmp, NormalizesWithMeanStdScale) {
  ImageOptions options;
  options.mean = {127.5f};
  options.std = {127.5f};
  absl::StatusOr<ir::HostTensor> t = LoadImageTensor(
      bytes_, Input(ir::DataType::kFloat32, {1, 96, 96, 3}), options, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 96, 96, 3}));
  // Pixel (50, 50) is 143: (143 - 127.5) / 127.5 = 0.121568627...
  const size_t at = (50 * 96 + 50) * 3;
  EXPECT_FLOAT_EQ(t->Flat<float>()[at], 0.12156863f);
  EXPECT_EQ(t->Flat<float>()[at + 1], t->Flat<float>()[at]);  // gray -> RGB
  EXPECT_EQ(t->Flat<float>()[at + 2], t->Flat<float>()[at]);

  // The same through scale: 225 / 255 * 1 - 0.5, / 0.5 at (10, 20).
  options.mean = {0.5f};
  options.std = {0.5f};
  options.scale = 1.0f / 255;
  t = LoadImageTensor(bytes_, Input(ir::DataType::kFloat32, {1, 96, 96, 3}),
                      options, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_NEAR(t->Flat<float>()[(10 * 96 + 20) * 3], 0.76470588, 1e-6);
  // Per-channel mean: channel 2 gets 100.
  options.mean = {0, 0, 100};
  options.std = {};
  options.scale.reset();
  t = LoadImageTensor(bytes_, Input(ir::DataType::kFloat32, {1, 96, 96, 3}),
                      options, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(absl::MakeConstSpan(t->Flat<float>().data() + at, 3),
              ElementsAre(143, 143, 43));
}

TEST_F(PersonBmp, IntegerInputsTakeRawPixels) {
  ImageOptions options;
  options.mean = {127.5f};  // ignored for integer inputs
  options.std = {127.5f};
  absl::StatusOr<ir::HostTensor> u8 = LoadImageTensor(
      bytes_, Input(ir::DataType::kUInt8, {1, 96, 96, 1}), options, "p.bmp");
  ASSERT_TRUE(u8.ok()) << u8.status();
  EXPECT_EQ(u8->Flat<uint8_t>()[50 * 96 + 50], 143);
  absl::StatusOr<ir::HostTensor> i8 = LoadImageTensor(
      bytes_, Input(ir::DataType::kInt8, {1, 96, 96, 1}), options, "p.bmp");
  ASSERT_TRUE(i8.ok()) << i8.status();
  EXPECT_EQ(i8->Flat<int8_t>()[50 * 96 + 50], 143 - 128);
  EXPECT_EQ(i8->Flat<int8_t>()[0], 11 - 128);
}

// Halving with half-pixel centers samples exactly between 2x2 source blocks:
// each output is the block average, rounded half up.
TEST_F(PersonBmp, DownscaleByTwoAveragesBlocks) {
  absl::StatusOr<ir::HostTensor> t = LoadImageTensor(
      bytes_, Input(ir::DataType::kUInt8, {1, 48, 48, 1}), {}, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  for (int y = 0; y < 48; ++y) {
    for (int x = 0; x < 48; ++x) {
      const int sum = Pixel(2 * y, 2 * x) + Pixel(2 * y, 2 * x + 1) +
                      Pixel(2 * y + 1, 2 * x) + Pixel(2 * y + 1, 2 * x + 1);
      ASSERT_EQ(t->Flat<uint8_t>()[y * 48 + x], (sum + 2) / 4) << y << "," << x;
    }
  }
}

TEST_F(PersonBmp, NchwLayoutIsPlanar) {
  ImageOptions options;
  options.layout = ImageOptions::kNchw;
  options.mean = {0, 0, 100};
  absl::StatusOr<ir::HostTensor> t = LoadImageTensor(
      bytes_, Input(ir::DataType::kFloat32, {1, 3, 96, 96}), options, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 3, 96, 96}));
  const size_t pixel = 50 * 96 + 50;
  EXPECT_EQ(t->Flat<float>()[pixel], 143);
  EXPECT_EQ(t->Flat<float>()[96 * 96 + pixel], 143);
  EXPECT_EQ(t->Flat<float>()[2 * 96 * 96 + pixel], 43);
}

TEST_F(PersonBmp, ResizeOptionAndAutoResize) {
  ImageOptions options;
  options.auto_resize = false;
  absl::StatusOr<ir::HostTensor> t = LoadImageTensor(
      bytes_, Input(ir::DataType::kFloat32, {1, 64, 64, 3}), options, "p.bmp");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            "p.bmp: image is 96x96 (HxW), input 'image' float32[1,64,64,3] "
            "wants 64x64 and automatic resizing is off");
  // A dynamic input takes the image size, or --resize.
  t = LoadImageTensor(bytes_, Input(ir::DataType::kFloat32, {-1, -1, -1, 3}),
                      options, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 96, 96, 3}));
  options.resize_hw = std::make_pair(32, 40);
  t = LoadImageTensor(bytes_, Input(ir::DataType::kFloat32, {1, -1, -1, 3}),
                      options, "p.bmp");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 32, 40, 3}));
  t = LoadImageTensor(bytes_, Input(ir::DataType::kFloat32, {1, 64, 64, 3}),
                      options, "p.bmp");
  EXPECT_THAT(t.status().message(),
              HasSubstr("--resize 32x40 does not fit input 'image' "
                        "float32[1,64,64,3]"));
}

TEST(ImageTest, DecodesPngAndJpeg) {
  absl::StatusOr<Image> png =
      DecodeImage(ReadBytes(TestdataPath("mnist_sample3.png")), "3.png");
  ASSERT_TRUE(png.ok()) << png.status();
  EXPECT_EQ(png->height, 28);
  EXPECT_EQ(png->width, 28);
  EXPECT_EQ(png->channels, 1);
  EXPECT_EQ(png->pixels[0], 0);  // MNIST background
  EXPECT_EQ(*std::max_element(png->pixels.begin(), png->pixels.end()), 255);

  absl::StatusOr<Image> jpg =
      DecodeImage(ReadBytes(TestdataPath("shoe_224_224_3.jpeg")), "s.jpeg");
  ASSERT_TRUE(jpg.ok()) << jpg.status();
  EXPECT_EQ(jpg->height, 224);
  EXPECT_EQ(jpg->width, 224);
  EXPECT_EQ(jpg->channels, 3);
}

TEST(ImageTest, GrayModelInputs) {
  // trained_lstm-style [1,28,28] input: the MNIST digit, scaled to [0,1].
  ImageOptions options;
  options.scale = 1.0f / 255;
  absl::StatusOr<ir::HostTensor> t =
      LoadImageTensor(ReadBytes(TestdataPath("mnist_sample3.png")),
                      Input(ir::DataType::kFloat32, {1, 28, 28}), options, "3");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 28, 28}));
  EXPECT_EQ(*std::max_element(t->Flat<float>().begin(), t->Flat<float>().end()),
            1.0f);
  // An RGB photo into a gray input uses BT.601 luma.
  t = LoadImageTensor(ReadBytes(TestdataPath("shoe_224_224_3.jpeg")),
                      Input(ir::DataType::kUInt8, {224, 224}), {}, "s");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (std::vector<int64_t>{224, 224}));
}

TEST(ImageTest, ConvertColor) {
  Image rgb{1, 3, 3, {255, 0, 0, 0, 255, 0, 0, 0, 255}};
  // 0.299 * 255 = 76.2, 0.587 * 255 = 149.7, 0.114 * 255 = 29.1
  EXPECT_THAT(ConvertColor(rgb, 1, ImageOptions::kRgb).pixels,
              ElementsAre(76, 150, 29));
  EXPECT_THAT(ConvertColor(rgb, 3, ImageOptions::kBgr).pixels,
              ElementsAre(0, 0, 255, 0, 255, 0, 255, 0, 0));
  EXPECT_THAT(ConvertColor(rgb, 3, ImageOptions::kGray).pixels,
              ElementsAre(76, 76, 76, 150, 150, 150, 29, 29, 29));
  EXPECT_THAT(ConvertColor(rgb, 4, ImageOptions::kRgb).pixels,
              ElementsAre(255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255));
  Image gray_alpha{1, 1, 2, {9, 200}};
  EXPECT_THAT(ConvertColor(gray_alpha, 3, ImageOptions::kRgb).pixels,
              ElementsAre(9, 9, 9));
  EXPECT_THAT(ConvertColor(gray_alpha, 4, ImageOptions::kRgb).pixels,
              ElementsAre(9, 9, 9, 200));
}

TEST(ImageTest, ResizeBilinearHandValues) {
  // Upscaling [0, 100] to 4 samples: source x = (i + 0.5) / 2 - 0.5 =
  // -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1).
  Image row{1, 2, 1, {0, 100}};
  EXPECT_THAT(ResizeBilinear(row, 1, 4).pixels, ElementsAre(0, 25, 75, 100));
  // 3 -> 2: source x = 0.25, 1.75: 0.75*10 + 0.25*20 = 12.5 -> 13 (half up),
  // 0.25*20 + 0.75*31 = 28.25 -> 28.
  Image three{1, 3, 1, {10, 20, 31}};
  EXPECT_THAT(ResizeBilinear(three, 1, 2).pixels, ElementsAre(13, 28));
  Image same{1, 3, 1, {10, 20, 31}};
  EXPECT_EQ(ResizeBilinear(same, 1, 3).pixels, same.pixels);
}

// Against a straightforward double-precision reference of the same
// definition: never more than the final rounding apart.
TEST(ImageTest, ResizeBilinearMatchesDoubleReference) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    Image in;
    in.height = 1 + static_cast<int>(rng() % 17);
    in.width = 1 + static_cast<int>(rng() % 17);
    in.channels = 1 + static_cast<int>(rng() % 3);
    in.pixels.resize(static_cast<size_t>(in.height * in.width * in.channels));
    for (uint8_t& p : in.pixels) p = static_cast<uint8_t>(rng());
    const int oh = 1 + static_cast<int>(rng() % 23);
    const int ow = 1 + static_cast<int>(rng() % 23);
    const Image out = ResizeBilinear(in, oh, ow);
    const auto src = [](int i, int in_size, int out_size, int& lo, int& hi,
                        double& f) {
      double s = (i + 0.5) * in_size / out_size - 0.5;
      if (s < 0) s = 0;
      lo = std::min(static_cast<int>(std::floor(s)), in_size - 1);
      hi = std::min(lo + 1, in_size - 1);
      f = s - lo;
    };
    for (int y = 0; y < oh; ++y) {
      int y0, y1;
      double fy;
      src(y, in.height, oh, y0, y1, fy);
      for (int x = 0; x < ow; ++x) {
        int x0, x1;
        double fx;
        src(x, in.width, ow, x0, x1, fx);
        for (int k = 0; k < in.channels; ++k) {
          const auto p = [&](int yy, int xx) {
            return in.pixels[static_cast<size_t>(
                (yy * in.width + xx) * in.channels + k)];
          };
          const double top = p(y0, x0) * (1 - fx) + p(y0, x1) * fx;
          const double bot = p(y1, x0) * (1 - fx) + p(y1, x1) * fx;
          const double want = top * (1 - fy) + bot * fy;
          const int got =
              out.pixels[static_cast<size_t>((y * ow + x) * in.channels + k)];
          ASSERT_LE(std::abs(got - want), 0.5 + 1e-9)
              << trial << ": " << y << "," << x << "," << k;
        }
      }
    }
  }
}

TEST(ImageTest, RefusesNonImageInputsAndBadOptions) {
  const std::vector<uint8_t> png = ReadBytes(TestdataPath("mnist_sample3.png"));
  EXPECT_THAT(
      LoadImageTensor(png, Input(ir::DataType::kFloat32, {1, 10}), {}, "3.png")
          .status()
          .message(),
      HasSubstr("3.png: input 'image' float32[1,10] is not an image "
                "input"));
  EXPECT_THAT(LoadImageTensor(png, Input(ir::DataType::kInt16, {1, 28, 28, 1}),
                              {}, "3.png")
                  .status()
                  .message(),
              HasSubstr("cannot take images"));
  ImageOptions two_means;
  two_means.mean = {1, 2};
  EXPECT_THAT(
      LoadImageTensor(png, Input(ir::DataType::kFloat32, {1, 28, 28, 3}),
                      two_means, "3.png")
          .status()
          .message(),
      HasSubstr("--mean has 2 values; input 'image' float32[1,28,28,3] has 3 "
                "channels (give 1 or 3)"));
  ImageOptions zero_std;
  zero_std.std = {0};
  EXPECT_FALSE(LoadImageTensor(png,
                               Input(ir::DataType::kFloat32, {1, 28, 28, 1}),
                               zero_std, "3.png")
                   .ok());
  const std::vector<uint8_t> text = {'n', 'o', 't', ' ', 'a', 'n',
                                     ' ', 'i', 'm', 'a', 'g', 'e'};
  absl::StatusOr<Image> bad = DecodeImage(text, "x.png");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("x.png: cannot decode image"));
}

// A DHT segment whose 16 code counts add up to more than 256 made stb_image
// 2.27 write past its Huffman tables (stb_guard.cc screened for it); libjpeg
// refuses such tables itself.
TEST(ImageTest, RefusesOverfullJpegHuffmanTables) {
  // SOI, then DHT: length 19, class/id 0, sixteen counts of 0xFF (4080).
  std::vector<uint8_t> jpeg = {0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x13, 0x00};
  jpeg.insert(jpeg.end(), 16, 0xFF);
  jpeg.insert(jpeg.end(), {0xFF, 0xD9});
  absl::StatusOr<Image> image = DecodeImage(jpeg, "h.jpg");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(image.status().message(),
            "h.jpg: cannot decode image (libjpeg: Bogus Huffman table "
            "definition)");
  EXPECT_EQ(ProbeImage(jpeg, "h.jpg"), image.status());
  // Also when stray bytes precede the segment, FF fill bytes the SOI marker,
  // or it follows a scan.
  std::vector<uint8_t> junk = {0xFF, 0xD8, 0x12, 0x34};
  junk.insert(junk.end(), jpeg.begin() + 2, jpeg.end());
  EXPECT_FALSE(DecodeImage(junk, "j.jpg").ok());
  std::vector<uint8_t> fill = {0xFF, 0xFF, 0xFF};
  fill.insert(fill.end(), jpeg.begin() + 1, jpeg.end());
  EXPECT_THAT(DecodeImage(fill, "f.jpg").status().message(),
              HasSubstr("Bogus Huffman table"));
  std::vector<uint8_t> after_scan = {0xFF, 0xD8, 0xFF, 0xDA,
                                     0x00, 0x02, 0x55, 0x66};
  after_scan.insert(after_scan.end(), jpeg.begin() + 2, jpeg.end());
  EXPECT_FALSE(DecodeImage(after_scan, "s.jpg").ok());
}

// Inputs libFuzzer found (testdata/data/fuzz/): the sanitizer build must
// decode or refuse them without a report. The JPEG ones were found against
// stb_image's decoder and are kept against libjpeg's.
TEST(ImageTest, FuzzRegressions) {
  EXPECT_THAT(DecodeImage(ReadBytes(TestdataPath("fuzz/jpeg_dht_overflow.jpg")),
                          "d.jpg")
                  .status()
                  .message(),
              HasSubstr("d.jpg: cannot decode image (libjpeg: "));
  EXPECT_FALSE(
      DecodeImage(ReadBytes(TestdataPath("fuzz/jpeg_dht_after_fill.jpg")),
                  "f.jpg")
          .ok());
  EXPECT_THAT(
      DecodeImage(ReadBytes(TestdataPath("fuzz/png_empty_idat.png")), "e.png")
          .status()
          .message(),
      HasSubstr("empty IDAT chunk"));
  // Coefficients that overflowed int in stb's IDCT: any outcome but a crash.
  (void)DecodeImage(ReadBytes(TestdataPath("fuzz/jpeg_idct_overflow.jpg")),
                    "i.jpg");
}

// --- JPEG (libjpeg-turbo, formats/data/jpeg.cc).

// FNV-1a 64 of the decoded pixel bytes.
uint64_t PixelHash(const Image& image) {
  Fnv1a64 h;
  h.Update(image.pixels);
  return h.digest();
}

// Reference decodes: Pillow 9.4 (Debian python3-pil), whose bytes also match
// `djpeg -pnm` (Debian libjpeg-turbo-progs 2.1.5) exactly, hashed the same
// way:
//   /usr/bin/python3 -c 'import sys; from PIL import Image
//   h = 0xcbf29ce484222325
//   for b in Image.open(sys.argv[1]).tobytes():
//       h = ((h ^ b) * 0x100000001b3) % 2**64
//   print(hex(h))' FILE
// Both decode with libjpeg-turbo's defaults too, so they check how qforge
// drives libjpeg (color space, full scale, row order), not libjpeg itself.
// stb_image, the decoder before libjpeg, gave other bytes: on the corpus
// photos 3% of the bytes differ from these, by at most 3.
struct JpegReference {
  const char* file;
  int height, width, channels;
  uint64_t hash;
};

TEST(JpegTest, DecodesLikeTheReferenceDecoder) {
  for (const JpegReference& r : {
           JpegReference{"shoe_224_224_3.jpeg", 224, 224, 3,
                         0x2ef56fee0b591675},  // baseline 4:2:0
           JpegReference{"jpeg/gray_32x24.jpg", 24, 32, 1,
                         0xcc99c34910565660},  // 1 component
           JpegReference{"jpeg/progressive_48x32.jpg", 32, 48, 3,
                         0x6c82a6b6e88d07ab},  // progressive
       }) {
    SCOPED_TRACE(r.file);
    const std::vector<uint8_t> bytes = ReadBytes(TestdataPath(r.file));
    EXPECT_TRUE(ProbeImage(bytes, r.file).ok());
    absl::StatusOr<Image> image = DecodeImage(bytes, r.file);
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(image->height, r.height);
    EXPECT_EQ(image->width, r.width);
    EXPECT_EQ(image->channels, r.channels);
    EXPECT_EQ(PixelHash(*image), r.hash);
  }
  // A few of the shoe's pixels as Pillow gives them, for the eye.
  absl::StatusOr<Image> shoe =
      DecodeImage(ReadBytes(TestdataPath("shoe_224_224_3.jpeg")), "s.jpeg");
  ASSERT_TRUE(shoe.ok());
  const auto rgb = [&](int y, int x) {
    const uint8_t* p = &shoe->pixels[(static_cast<size_t>(y) * 224 + x) * 3];
    return std::vector<int>{p[0], p[1], p[2]};
  };
  EXPECT_THAT(rgb(0, 0), ElementsAre(124, 81, 47));
  EXPECT_THAT(rgb(112, 112), ElementsAre(116, 45, 23));
  EXPECT_THAT(rgb(223, 223), ElementsAre(184, 116, 43));
}

// Adobe CMYK (Pillow writes the APP14 marker and inverted values, as
// Photoshop does): RGB = (255 - ink) * (255 - K) / 255, rounded, as
// stb_image and djpeg convert it (both give these four colors). Four flat
// 8x8 quadrants at quality 100, so each decodes exactly.
TEST(JpegTest, AdobeCmykBecomesRgb) {
  absl::StatusOr<Image> image =
      DecodeImage(ReadBytes(TestdataPath("jpeg/cmyk_16x16.jpg")), "c.jpg");
  ASSERT_TRUE(image.ok()) << image.status();
  ASSERT_EQ(image->height, 16);
  ASSERT_EQ(image->width, 16);
  ASSERT_EQ(image->channels, 3);
  const auto rgb = [&](int y, int x) {
    const uint8_t* p = &image->pixels[(static_cast<size_t>(y) * 16 + x) * 3];
    return std::vector<int>{p[0], p[1], p[2]};
  };
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 16; ++x) {
      SCOPED_TRACE(absl::StrCat(y, ",", x));
      // (C, M, Y, K) of the quadrant in the comment.
      if (y < 8 && x < 8) {
        EXPECT_THAT(rgb(y, x), ElementsAre(255, 0, 0));  // (0, 255, 255, 0)
      } else if (y < 8) {
        EXPECT_THAT(rgb(y, x), ElementsAre(127, 127, 127));  // (0, 0, 0, 128)
      } else if (x < 8) {
        EXPECT_THAT(rgb(y, x), ElementsAre(0, 191, 191));  // (255, 0, 0, 64)
      } else {
        EXPECT_THAT(rgb(y, x), ElementsAre(223, 191, 159));  // (32, 64, 96, 0)
      }
    }
  }
  EXPECT_EQ(PixelHash(*image), 0x3fab492585f825e5u);  // djpeg -pnm's
}

// FF fill bytes may precede the SOI marker (stb_image took them too).
TEST(JpegTest, FillBytesBeforeSoi) {
  std::vector<uint8_t> bytes = ReadBytes(TestdataPath("shoe_224_224_3.jpeg"));
  bytes.insert(bytes.begin(), {0xFF, 0xFF});
  absl::StatusOr<Image> image = DecodeImage(bytes, "f.jpg");
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(PixelHash(*image), 0x2ef56fee0b591675u);
}

// A file that ends early is refused, like a truncated PNG: libjpeg would
// make up the missing rows. Its header alone still probes fine.
TEST(JpegTest, RefusesTruncatedFiles) {
  const std::vector<uint8_t> bytes =
      ReadBytes(TestdataPath("shoe_224_224_3.jpeg"));
  const std::string want =
      "t.jpg: cannot decode image (libjpeg: Premature end of JPEG file)";
  ::testing::internal::CaptureStderr();
  const std::vector<uint8_t> half(bytes.begin(),
                                  bytes.begin() + bytes.size() / 2);
  EXPECT_TRUE(ProbeImage(half, "t.jpg").ok());
  EXPECT_EQ(DecodeImage(half, "t.jpg").status().message(), want);
  // Only the EOI marker missing: refused too (what follows the scan is
  // read ahead, and libjpeg cannot tell a file cut there from one cut
  // inside the scan before it has made rows up).
  const std::vector<uint8_t> no_eoi(bytes.begin(), bytes.end() - 2);
  EXPECT_EQ(DecodeImage(no_eoi, "t.jpg").status().message(), want);
  // Cut inside the header: the probe fails already.
  const std::vector<uint8_t> header(bytes.begin(), bytes.begin() + 100);
  EXPECT_EQ(ProbeImage(header, "t.jpg").message(), want);
  const std::vector<uint8_t> soi(bytes.begin(), bytes.begin() + 2);
  EXPECT_FALSE(DecodeImage(soi, "t.jpg").ok());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");  // nothing printed
}

// Corrupt data: a fatal libjpeg error is one line naming the file. Damage
// inside the entropy-coded data, which libjpeg only warns about, decodes to
// libjpeg's best effort, as stb_image decoded such files. Nothing is
// printed either way.
TEST(JpegTest, CorruptData) {
  const std::vector<uint8_t> bytes =
      ReadBytes(TestdataPath("shoe_224_224_3.jpeg"));
  ::testing::internal::CaptureStderr();
  // Garbage after the SOI marker.
  std::vector<uint8_t> garbage = {0xFF, 0xD8, 0xFF};
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    garbage.push_back(static_cast<uint8_t>(rng()));
  }
  absl::StatusOr<Image> image = DecodeImage(garbage, "g.jpg");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(image.status().message(),
              HasSubstr("g.jpg: cannot decode image (libjpeg: "));
  EXPECT_EQ(image.status().message().find('\n'), absl::string_view::npos);
  // A header field libjpeg refuses: 12-bit samples (SOF0 at byte 158:
  // FF C0, length, precision).
  ASSERT_EQ(bytes[158], 0xFF);
  ASSERT_EQ(bytes[159], 0xC0);
  std::vector<uint8_t> twelve = bytes;
  twelve[162] = 12;
  EXPECT_EQ(DecodeImage(twelve, "p.jpg").status().message(),
            "p.jpg: cannot decode image (libjpeg: Unsupported JPEG data "
            "precision 12)");
  // Zeroed or FF bytes in the middle of the scan: "corrupt JPEG data"
  // warnings only (the rest of the scan is lost to the FF run).
  for (const uint8_t fill : {0x00, 0xFF}) {
    std::vector<uint8_t> damaged = bytes;
    std::fill(damaged.begin() + 1609, damaged.begin() + 1617, fill);
    image = DecodeImage(damaged, "z.jpg");
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(image->pixels.size(), 224u * 224 * 3);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// The header's size is checked against the 64 Mpx limit before libjpeg
// allocates anything for the pixels (a 65000x65000 RGB buffer would be
// 12.7 GB; the sanitizer build would report the attempt).
TEST(JpegTest, RefusesHugeHeadersBeforeDecoding) {
  const std::vector<uint8_t> bytes =
      ReadBytes(TestdataPath("shoe_224_224_3.jpeg"));
  // SOF0: FF C0, length (2), precision (1), height (2), width (2).
  size_t at = 0;
  while (at + 9 < bytes.size() &&
         !(bytes[at] == 0xFF && bytes[at + 1] == 0xC0)) {
    ++at;
  }
  ASSERT_LT(at + 9, bytes.size());
  const auto with_size = [&](int height, int width) {
    std::vector<uint8_t> b = bytes;
    b[at + 5] = static_cast<uint8_t>(height >> 8);
    b[at + 6] = static_cast<uint8_t>(height & 0xFF);
    b[at + 7] = static_cast<uint8_t>(width >> 8);
    b[at + 8] = static_cast<uint8_t>(width & 0xFF);
    return b;
  };
  ASSERT_TRUE(DecodeImage(with_size(224, 224), "ok.jpg").ok());
  for (const auto& [h, w] :
       {std::make_pair(65000, 65000), std::make_pair(9000, 8000)}) {
    const std::vector<uint8_t> big = with_size(h, w);
    const std::string want =
        absl::StrCat("big.jpg: image of ", w, "x", h,
                     " pixels is empty or over the 64 Mpx limit");
    EXPECT_EQ(ProbeImage(big, "big.jpg").message(), want);
    EXPECT_EQ(DecodeImage(big, "big.jpg").status().message(), want);
  }
  // Over libjpeg's own limit of 65500 a side; and an empty image.
  EXPECT_EQ(DecodeImage(with_size(65535, 65535), "big.jpg").status().message(),
            "big.jpg: cannot decode image (libjpeg: Maximum supported image "
            "dimension is 65500 pixels)");
  EXPECT_THAT(DecodeImage(with_size(0, 224), "e.jpg").status().message(),
              HasSubstr("e.jpg: cannot decode image (libjpeg: "));
}

TEST(ImageTest, RefusesPngIdatLies) {
  std::vector<uint8_t> png = ReadBytes(TestdataPath("mnist_sample3.png"));
  ASSERT_TRUE(DecodeImage(png, "ok.png").ok());
  // The first chunk after IHDR (8 + 25 bytes) is IDAT here; claim 1 GiB.
  ASSERT_EQ(std::string(png.begin() + 37, png.begin() + 41), "IDAT");
  png[33] = 0x40;
  EXPECT_THAT(DecodeImage(png, "big.png").status().message(),
              HasSubstr("big.png: cannot decode image (truncated PNG: IDAT "
                        "chunk of 1073742"));
}

// stb grows its buffer to each IDAT's claimed length before reading it, so
// a lie in any IDAT, not only the first, must be caught (the image fuzzer
// found a 297-byte PNG whose second IDAT claimed 1.1 GB).
TEST(ImageTest, RefusesPngLaterIdatLies) {
  std::vector<uint8_t> png = ReadBytes(TestdataPath("mnist_sample3.png"));
  ASSERT_EQ(std::string(png.begin() + 37, png.begin() + 41), "IDAT");
  const size_t first_length =
      size_t{png[33]} << 24 | png[34] << 16 | png[35] << 8 | png[36];
  const size_t after_first = 33 + 12 + first_length;
  const uint8_t lie[] = {0x3f, 0xff, 0xff, 0xff, 'I', 'D', 'A', 'T', 0x78};
  png.insert(png.begin() + after_first, std::begin(lie), std::end(lie));
  EXPECT_THAT(DecodeImage(png, "second.png").status().message(),
              HasSubstr("second.png: cannot decode image (truncated PNG: IDAT "
                        "chunk of 1073741823 bytes"));
}

TEST(ImageTest, SurvivesMutations) {
  for (const char* name :
       {"person.bmp", "mnist_sample3.png", "shoe_224_224_3.jpeg"}) {
    const std::vector<uint8_t> bytes = ReadBytes(TestdataPath(name));
    for (uint32_t seed = 0; seed < 300; ++seed) {
      (void)DecodeImage(Mutate(bytes, seed), name);
    }
  }
}

}  // namespace
}  // namespace qforge::formats
