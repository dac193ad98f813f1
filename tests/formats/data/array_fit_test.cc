// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/array_fit.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qforge::formats {
namespace {

using ::testing::HasSubstr;

InputDesc Input(std::vector<int32_t> shape,
                ir::DataType type = ir::DataType::kFloat32) {
  InputDesc d;
  d.name = "x";
  d.type = type;
  d.shape = std::move(shape);
  return d;
}

struct Case {
  std::vector<int32_t> input;
  std::vector<int64_t> array;
  int64_t count;
  std::vector<int64_t> sample;
};

TEST(FitArrayTest, ShapeRules) {
  const Case kCases[] = {
      // Exact fit.
      {{1, 224, 224, 3}, {1, 224, 224, 3}, 1, {1, 224, 224, 3}},
      {{4, 3}, {4, 3}, 1, {4, 3}},
      // A batch of samples for a batch-1 or dynamic-batch input.
      {{1, 224, 224, 3}, {5, 224, 224, 3}, 5, {1, 224, 224, 3}},
      {{-1, 640}, {40, 640}, 40, {1, 640}},  // ToyCar: 40 vectors
      {{-1, 640}, {1, 640}, 1, {1, 640}},
      // Missing batch dim.
      {{1, 224, 224, 3}, {224, 224, 3}, 1, {1, 224, 224, 3}},
      {{-1, 28, 28}, {28, 28}, 1, {1, 28, 28}},
      // Dynamic non-batch dims take the array's size.
      {{1, -1, 4}, {1, 7, 4}, 1, {1, 7, 4}},
      {{-1, -1}, {3, 9}, 3, {1, 9}},
      // Rank 1 has no batch dim.
      {{-1}, {100}, 1, {100}},
      {{5}, {5}, 1, {5}},
      // Scalars.
      {{}, {}, 1, {}},
      // Stacked samples [N, ...S] for inputs without a batch dim: a 5360-value
      // waveform, a [335, 10, 80] spectrogram stack, a fixed [4, 4].
      {{5360}, {12, 5360}, 12, {5360}},
      {{335, 10, 80}, {7, 335, 10, 80}, 7, {335, 10, 80}},
      {{4, 4}, {3, 4, 4}, 3, {4, 4}},
      {{-1}, {6, 100}, 6, {100}},  // dynamic length, 6 rows
      // ... and with one: [N, 1, ...] as LiteRT's run_model.mjs --samples and
      // qforge run --save-inputs write them.
      {{1, 224, 224, 3}, {2, 1, 224, 224, 3}, 2, {1, 224, 224, 3}},
      {{-1, 640}, {40, 1, 640}, 40, {1, 640}},
      // Fits two ways: [4, 4] is S itself and (were 4 a batch) 4 rows; the
      // exact match wins, one sample. A -1 batch is the exception: it is
      // always split ({-1, 640} / {40, 640} above is 40 samples).
      {{4, 4}, {4, 4}, 1, {4, 4}},
      {{1, 4}, {1, 4}, 1, {1, 4}},
      {{5}, {5}, 1, {5}},
  };
  for (const Case& c : kCases) {
    absl::StatusOr<ArrayFit> fit =
        FitArray(ir::DataType::kFloat32, c.array, Input(c.input), "a.npy");
    ASSERT_TRUE(fit.ok()) << fit.status();
    EXPECT_EQ(fit->count, c.count) << ir::ShapeString(c.array);
    EXPECT_EQ(fit->sample_shape, c.sample) << ir::ShapeString(c.array);
    EXPECT_EQ(fit->conversion, Conversion::kCopy);
  }
}

TEST(FitArrayTest, ShapeMismatchMessage) {
  absl::StatusOr<ArrayFit> fit =
      FitArray(ir::DataType::kFloat32, std::vector<int64_t>{3, 224, 224},
               Input({1, 224, 224, 3}), "data/x.npy");
  ASSERT_FALSE(fit.ok());
  EXPECT_EQ(fit.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(fit.status().message(),
            "data/x.npy: shape [3,224,224] does not fit input 'x' "
            "float32[1,224,224,3] (want [1,224,224,3], [N,224,224,3], "
            "[224,224,3] or [N,1,224,224,3])");
  EXPECT_EQ(FitArray(ir::DataType::kFloat32, std::vector<int64_t>{12, 5361},
                     Input({5360}), "w.npy")
                .status()
                .message(),
            "w.npy: shape [12,5361] does not fit input 'x' float32[5360] "
            "(want [5360] or [N,5360])");
  EXPECT_FALSE(FitArray(ir::DataType::kFloat32, std::vector<int64_t>{5, 3},
                        Input({5}), "a")
                   .ok());
  EXPECT_FALSE(FitArray(ir::DataType::kFloat32, std::vector<int64_t>{2, 4},
                        Input({2, 3}), "a")
                   .ok());
  // Empty arrays hold no samples.
  EXPECT_THAT(FitArray(ir::DataType::kFloat32, std::vector<int64_t>{0, 640},
                       Input({-1, 640}), "a")
                  .status()
                  .message(),
              HasSubstr("holds no data"));
}

TEST(FitArrayTest, TypeRules) {
  const std::vector<int64_t> shape = {1, 4};
  EXPECT_EQ(
      FitArray(ir::DataType::kFloat64, shape, Input({1, 4}), "a")->conversion,
      Conversion::kFloat64ToFloat32);
  EXPECT_EQ(
      FitArray(ir::DataType::kFloat16, shape, Input({1, 4}), "a")->conversion,
      Conversion::kFloat16ToFloat32);
  EXPECT_TRUE(FitArray(ir::DataType::kInt8, shape,
                       Input({1, 4}, ir::DataType::kInt8), "a")
                  .ok());
  absl::StatusOr<ArrayFit> bad =
      FitArray(ir::DataType::kInt32, shape, Input({1, 4}), "a.npy");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("a.npy: dtype int32 does not match input 'x' "
                        "float32[1,4]"));
  // No silent narrowing between integer types, nor float -> int.
  EXPECT_FALSE(FitArray(ir::DataType::kInt32, shape,
                        Input({1, 4}, ir::DataType::kInt8), "a")
                   .ok());
  EXPECT_FALSE(FitArray(ir::DataType::kFloat32, shape,
                        Input({1, 4}, ir::DataType::kUInt8), "a")
                   .ok());
}

TEST(FitFlatTest, Rules) {
  absl::StatusOr<ArrayFit> fit =
      FitFlat(48000, Input({1, 16000}), Conversion::kPcm16ToFloat32, "a.wav");
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(fit->count, 3);
  EXPECT_EQ(fit->sample_shape, (std::vector<int64_t>{1, 16000}));
  fit = FitFlat(25600, Input({-1, 640}), Conversion::kCopy, "a.bin");
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(fit->count, 40);
  fit = FitFlat(92137, Input({-1}), Conversion::kCopy, "a.wav");
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(fit->count, 1);
  EXPECT_EQ(fit->sample_shape, (std::vector<int64_t>{92137}));
  fit = FitFlat(12, Input({1, -1, 3}), Conversion::kCopy, "a.bin");
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ(fit->sample_shape, (std::vector<int64_t>{1, 4, 3}));
  EXPECT_EQ(FitFlat(16001, Input({1, 16000}), Conversion::kCopy, "a.wav")
                .status()
                .message(),
            "a.wav: 16001 values is not a positive multiple of input 'x' "
            "float32[1,16000] (16000 values per sample)");
  EXPECT_THAT(FitFlat(100, Input({1, -1, -1}), Conversion::kCopy, "a.bin")
                  .status()
                  .message(),
              HasSubstr("several dynamic dims"));
  EXPECT_FALSE(FitFlat(0, Input({1, 4}), Conversion::kCopy, "a.bin").ok());
}

struct WindowCase {
  std::vector<int32_t> input;
  int64_t elements, window, hop;
  int64_t count;
  std::vector<int64_t> sample;
  int64_t stride, dropped;
};

TEST(FitWindowsTest, Rules) {
  const WindowCase kCases[] = {
      // Default: windows of the input's length, one after the other.
      // 68360 = 12 * 5360 + 4040: 12 windows, the last 4040 values dropped.
      {{5360}, 68360, 0, 0, 12, {5360}, 5360, 4040},
      {{1, 16000}, 48000, 0, 0, 3, {1, 16000}, 16000, 0},
      {{-1, 16000}, 16000, 0, 0, 1, {1, 16000}, 16000, 0},
      // --window equal to the input's length is the same thing.
      {{1, 16000}, 40000, 16000, 0, 2, {1, 16000}, 16000, 8000},
      // Overlap: windows start at 0, 8000, ..., 32000: (48000-16000)/8000+1.
      {{1, 16000}, 48000, 0, 8000, 5, {1, 16000}, 8000, 0},
      // A gap: hop > window, windows at 0 and 5000; the 2000 values after
      // the second (ends at 9000) are dropped.
      {{4000}, 11000, 0, 5000, 2, {4000}, 5000, 2000},
      // A dynamic length is set by --window: 25 ms / 10 ms frames at 16 kHz,
      // (16000-400)/160+1 = 98 windows, the last ends at 97*160+400 = 15920.
      {{1, -1}, 16000, 400, 160, 98, {1, 400}, 160, 80},
      {{-1}, 16000, 400, 0, 40, {400}, 400, 0},
      // ... without --window, the whole file.
      {{-1}, 92137, 0, 0, 1, {92137}, 92137, 0},
      // A dynamic dim among fixed ones: 12 values per window = 4 steps of 3.
      {{1, -1, 3}, 30, 12, 0, 2, {1, 4, 3}, 12, 6},
  };
  for (const WindowCase& c : kCases) {
    int64_t dropped = -2;
    absl::StatusOr<ArrayFit> fit =
        FitWindows(c.elements, Input(c.input), c.window, c.hop,
                   Conversion::kPcm16ToFloat32, "a.wav", &dropped);
    const std::string what = absl::StrCat(
        ir::ShapeString(c.input), " ", c.elements, " w", c.window, " h", c.hop);
    ASSERT_TRUE(fit.ok()) << what << ": " << fit.status();
    EXPECT_EQ(fit->count, c.count) << what;
    EXPECT_EQ(fit->sample_shape, c.sample) << what;
    EXPECT_EQ(fit->stride_elements, c.stride) << what;
    EXPECT_EQ(dropped, c.dropped) << what;
    EXPECT_EQ(fit->conversion, Conversion::kPcm16ToFloat32);
  }
}

TEST(FitWindowsTest, Errors) {
  int64_t dropped = 0;
  auto message = [&](std::vector<int32_t> input, int64_t elements,
                     int64_t window, int64_t hop) {
    return std::string(FitWindows(elements, Input(std::move(input)), window,
                                  hop, Conversion::kCopy, "a.wav", &dropped)
                           .status()
                           .message());
  };
  EXPECT_EQ(message({1, 16000}, 100, 0, 0),
            "a.wav: 100 values is less than one window of 16000 for input "
            "'x' float32[1,16000]");
  EXPECT_EQ(message({1, 16000}, 48000, 8000, 0),
            "a.wav: --window 8000 does not match input 'x' "
            "float32[1,16000], which takes 16000 values per sample");
  EXPECT_EQ(message({1, -1, 3}, 30, 10, 0),
            "a.wav: --window 10 is not a multiple of input 'x' "
            "float32[1,-1,3] (3 values per step)");
  EXPECT_EQ(message({-1}, 30, 0, 10),
            "a.wav: --hop needs --window: input 'x' float32[-1] has a "
            "dynamic length");
  EXPECT_THAT(message({1, -1, -1}, 30, 10, 0),
              HasSubstr("several dynamic dims"));
}

}  // namespace
}  // namespace qforge::formats
