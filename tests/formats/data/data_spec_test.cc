// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/data/data_spec.h"

#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/formats/data/test_util.h"

namespace qforge::formats {
namespace {

using ::qforge::formats::testing::MakeTempDir;
using ::qforge::formats::testing::WriteText;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<InputDesc> TwoInputs() {
  InputDesc image;
  image.name = "serving_default_image:0";
  image.signature_name = "image";
  image.shape = {1, 8, 8, 3};
  InputDesc mask;
  mask.name = "mask";
  mask.shape = {-1, 4};
  return {image, mask};
}

std::vector<std::string> Labels(const std::vector<SampleFile>& files) {
  std::vector<std::string> labels;
  for (const SampleFile& f : files) labels.push_back(f.label);
  return labels;
}

TEST(DataSpecTest, KindsByExtension) {
  const std::vector<InputDesc> inputs = TwoInputs();
  const struct {
    const char* text;
    SpecKind kind;
  } kCases[] = {
      {"a.npy", SpecKind::kNpy},     {"a.NPZ", SpecKind::kNpz},
      {"a.bin", SpecKind::kRaw},     {"a.raw", SpecKind::kRaw},
      {"a.wav", SpecKind::kWav},     {"a.JPG", SpecKind::kImage},
      {"a.jpeg", SpecKind::kImage},  {"a.png", SpecKind::kImage},
      {"a.bmp", SpecKind::kImage},   {"list.txt", SpecKind::kList},
      {"list.lst", SpecKind::kList}, {"imgs/*.jpg", SpecKind::kGlob},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<DataSpec> spec = ParseDataSpec(c.text, inputs);
    ASSERT_TRUE(spec.ok()) << spec.status();
    EXPECT_EQ(spec->kind, c.kind) << c.text;
    EXPECT_EQ(spec->input, -1);
    EXPECT_EQ(spec->path, c.text);
  }
  EXPECT_THAT(ParseDataSpec("a.csv", inputs).status().message(),
              HasSubstr("a.csv: unknown kind of data file '.csv'"));
  EXPECT_EQ(ParseDataSpec(MakeTempDir(), inputs)->kind, SpecKind::kDirectory);
}

TEST(DataSpecTest, BindsByTensorOrSignatureName) {
  const std::vector<InputDesc> inputs = TwoInputs();
  absl::StatusOr<DataSpec> spec = ParseDataSpec("image=x.npy", inputs);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->input, 0);
  EXPECT_EQ(spec->binding, "image");
  EXPECT_EQ(spec->path, "x.npy");
  spec = ParseDataSpec("serving_default_image:0=d/x=y.npy", inputs);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->input, 0);
  EXPECT_EQ(spec->path, "d/x=y.npy");
  spec = ParseDataSpec("mask=m.npy", inputs);
  EXPECT_EQ(spec->input, 1);

  absl::StatusOr<DataSpec> bad = ParseDataSpec("imag=x.npy", inputs);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "--data 'imag=x.npy': 'imag' is not a model input (inputs: "
            "'serving_default_image:0' (signature 'image'), 'mask')");
  EXPECT_FALSE(ParseDataSpec("mask=", inputs).ok());
}

TEST(DataSpecTest, EqualsSignInAnExistingPath) {
  const std::string dir = MakeTempDir();
  const std::string path = absl::StrCat(dir, "/a=b.npy");
  WriteText(path, "x");
  absl::StatusOr<DataSpec> spec = ParseDataSpec(path, TwoInputs());
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->input, -1);
  EXPECT_EQ(spec->path, path);
}

TEST(DataSpecTest, ExpandsDirectoriesSortedBytewise) {
  const std::string dir = MakeTempDir();
  for (const char* name : {"b.png", "B.jpg", "a.npy", "c.wav", "notes.txt",
                           "d.bin", "_.BMP", "x.jpeg"}) {
    WriteText(absl::StrCat(dir, "/", name), "x");
  }
  std::filesystem::create_directory(absl::StrCat(dir, "/sub.png"));
  absl::StatusOr<DataSpec> spec = ParseDataSpec(dir + "/", {});
  ASSERT_TRUE(spec.ok());
  absl::StatusOr<std::vector<SampleFile>> files = ExpandDataSpec(*spec);
  ASSERT_TRUE(files.ok()) << files.status();
  // Uppercase sorts before lowercase; .txt/.bin and folders are skipped.
  EXPECT_THAT(Labels(*files), ElementsAre("B.jpg", "_.BMP", "a.npy", "b.png",
                                          "c.wav", "x.jpeg"));
  EXPECT_EQ((*files)[0].path, absl::StrCat(dir, "/B.jpg"));

  const std::string empty = MakeTempDir();
  EXPECT_THAT(ExpandDataSpec(*ParseDataSpec(empty, {})).status().message(),
              HasSubstr("directory holds no sample files"));
}

TEST(DataSpecTest, ExpandsGlobsSorted) {
  const std::string dir = MakeTempDir();
  for (const char* name : {"s10.npy", "s2.npy", "s1.npy", "t.npy", "s3.txt"}) {
    WriteText(absl::StrCat(dir, "/", name), "x");
  }
  absl::StatusOr<DataSpec> spec = ParseDataSpec(dir + "/s*", {});
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->kind, SpecKind::kGlob);
  absl::StatusOr<std::vector<SampleFile>> files = ExpandDataSpec(*spec);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(Labels(*files), ElementsAre("s1.npy", "s10.npy", "s2.npy"));
  EXPECT_THAT(
      ExpandDataSpec(*ParseDataSpec(dir + "/z*.npy", {})).status().message(),
      HasSubstr("pattern matches no sample files"));
}

TEST(DataSpecTest, ExpandsLists) {
  const std::string dir = MakeTempDir();
  WriteText(absl::StrCat(dir, "/list.txt"),
            "# calibration set\n"
            "b.npy\n"
            "\n"
            "  imgs/a.png  \r\n"
            "/abs/c.wav\n");
  absl::StatusOr<std::vector<SampleFile>> files =
      ExpandDataSpec(*ParseDataSpec(absl::StrCat(dir, "/list.txt"), {}));
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[0].path, absl::StrCat(dir, "/b.npy"));
  EXPECT_EQ((*files)[1].path, absl::StrCat(dir, "/imgs/a.png"));
  EXPECT_EQ((*files)[1].label, "imgs/a.png");
  EXPECT_EQ((*files)[2].path, "/abs/c.wav");

  WriteText(absl::StrCat(dir, "/bad.lst"), "a.npy\n\nb.csv\n");
  EXPECT_EQ(ExpandDataSpec(*ParseDataSpec(absl::StrCat(dir, "/bad.lst"), {}))
                .status()
                .message(),
            absl::StrCat(dir,
                         "/bad.lst:3: 'b.csv' is not a sample file (npy, bin, "
                         "raw, wav, png, jpg, jpeg, bmp)"));
  EXPECT_EQ(ExpandDataSpec(*ParseDataSpec(absl::StrCat(dir, "/none.txt"), {}))
                .status()
                .code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace qforge::formats
