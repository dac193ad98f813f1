// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/array_fit.h"

#include <vector>

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
            "float32[1,224,224,3] (want [1,224,224,3], [N,224,224,3] or "
            "[224,224,3])");
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

}  // namespace
}  // namespace qforge::formats
