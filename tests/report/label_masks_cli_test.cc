// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// `--labels DIR` end to end (report/label_masks.h): MediaPipe's selfie
// segmenter (one output channel: person probability) on three corpus
// photos with ground truth, float and int8 mIoU against it, in every
// report format, merged shards, and the errors.
//
// The masks are derived from the corpus' ground truth, for the one class
// the segmenter knows (person = 1, everything else = 0):
//  - tflite-support's segmentation_input_rotation0.jpg (a person on a
//    horse, 257x257) has segmentation_golden_rotation0.png, gray values
//    10 x the Pascal VOC class: 150 is person (15), 130 horse (13), 0
//    background. Person -> 1, the rest -> 0.
//  - coral's bird_segmentation.bmp and cityscapes_segmentation.bmp have
//    *_mask.bmp (Pascal VOC / Cityscapes classes): no person in either
//    (VOC 15, Cityscapes 11 and 12 absent), so all 0.
// Written as .npy (uint8) under the sample's file stem.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/image.h"
#include "formats/data/npy.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using nlohmann::json;
using testing::CorpusDir;
using testing::QforgeBinary;
using testing::RunCommand;

const char kHorse[] =
    "/data/tflite-support/tensorflow_lite_support/cc/test/testdata/task/"
    "vision/segmentation_input_rotation0.jpg";
const char kHorseTruth[] =
    "/data/tflite-support/tensorflow_lite_support/cc/test/testdata/task/"
    "vision/segmentation_golden_rotation0.png";

// A gray mask file's pixels mapped by `to_class` into DIR/STEM.npy.
void DeriveMask(const std::string& truth, const std::string& out,
                int (*to_class)(uint8_t)) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(truth);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<formats::Image> image = formats::DecodeImage(*bytes, truth);
  ASSERT_TRUE(image.ok()) << image.status();
  ir::HostTensor t(ir::DataType::kUInt8, {image->height, image->width});
  auto v = t.Flat<uint8_t>();
  for (size_t p = 0; p < v.size(); ++p) {
    v[p] = static_cast<uint8_t>(
        to_class(image->pixels[p * static_cast<size_t>(image->channels)]));
  }
  absl::StatusOr<std::vector<uint8_t>> npy = formats::WriteNpy(t);
  ASSERT_TRUE(npy.ok());
  std::ofstream f(out, std::ios::binary);
  f.write(reinterpret_cast<const char*>(npy->data()),
          static_cast<std::streamsize>(npy->size()));
}

class LabelMasksCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CorpusDir().empty()) GTEST_SKIP() << "no corpus";
    dir_ = testing::MakeTempDir();
    masks_ = dir_ + "/masks";
    std::filesystem::create_directory(masks_);
    const std::string d = CorpusDir();
    DeriveMask(d + kHorseTruth, masks_ + "/segmentation_input_rotation0.npy",
               [](uint8_t v) { return v == 150 ? 1 : 0; });
    for (const char* name : {"bird", "cityscapes"}) {
      DeriveMask(d + "/data/coral/" + name + "_segmentation_mask.bmp",
                 masks_ + "/" + name + "_segmentation.npy",
                 [](uint8_t) { return 0; });
    }
    data_ = " --data " + d + kHorse + " --data " + d +
            "/data/coral/bird_segmentation.bmp --data " + d +
            "/data/coral/cityscapes_segmentation.bmp --scale 0.003921569 ";
    selfie_ = d + "/models/mediapipe/selfie_segmentation_landscape.tflite";
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string dir_, masks_, data_, selfie_;
};

// Float and int8 against the truth: mIoU 0.6444 and 0.6326 (mask agreement
// 96.35%): the rider is found, with the horse partly taken for a person
// and a few false positives on the bird and the street, and int8's mIoU is
// within a few hundredths of float's.
TEST_F(LabelMasksCliTest, SelfieAgainstGroundTruth) {
  testing::CommandResult r = RunCommand(
      QforgeBinary() + " quantize " + selfie_ + data_ + " -q -o " + dir_ +
      "/q.tflite --labels " + masks_ + " --report " + dir_ + "/r.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json t = json::parse(testing::ReadText(dir_ + "/r.json"), nullptr,
                             false)["outputs"][0]["task"];
  EXPECT_EQ(t["kind"], "segmentation");
  EXPECT_EQ(t["label_pixels"], 3 * 144 * 256);
  EXPECT_EQ(t["label_ignored"], 0);
  const double f = t["float_label_miou"].get<double>();
  const double q = t["quant_label_miou"].get<double>();
  EXPECT_GT(f, 0.6);
  EXPECT_LE(f, 1.0);
  EXPECT_NEAR(q, f, 0.05);
  // Text, Markdown, HTML and JSON say it; shards merge to one report.
  const std::string base = QforgeBinary() + " report " + selfie_ + " " + dir_ +
                           "/q.tflite" + data_ + " -q --labels " + masks_;
  for (const char* format : {"text", "md", "html"}) {
    r = RunCommand(base + " --format " + format);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("mIoU against the labels (110592 pixels, 0 ignored) "
                         "float "),
              std::string::npos)
        << format << "\n"
        << r.out.substr(0, 800);
  }
  const testing::WholeAndMerged m =
      testing::ReportWholeAndMerged(base, "", "", dir_, /*reversed=*/false);
  EXPECT_EQ(m.merged, m.one);
  EXPECT_NE(m.one.find("\"quant_label_miou\""), std::string::npos);
  // A shard judged without the masks does not merge with them.
  r = RunCommand(QforgeBinary() + " report " + selfie_ + " " + dir_ +
                 "/q.tflite" + data_ + " -q --shard 1/2 -o " + dir_ +
                 "/other.1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " merge-reports " + dir_ + "/p.0 " + dir_ +
                 "/other.1");
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

// A missing mask (exit code 1), a class the output does not have and an
// unreadable mask (exit code 2): one line naming the file and the rule.
TEST_F(LabelMasksCliTest, Errors) {
  const std::string base = QforgeBinary() + " report " + selfie_ + " " +
                           selfie_ + data_ + " -q --labels " + masks_;
  std::filesystem::rename(masks_ + "/bird_segmentation.npy",
                          dir_ + "/bird_segmentation.npy");
  testing::CommandResult r = RunCommand(base);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("no mask for sample 'bird_segmentation' (looked for "
                       "bird_segmentation.png, bird_segmentation.bmp, "
                       "bird_segmentation.npy"),
            std::string::npos)
      << r.err;
  // coral's bird mask as is: Pascal VOC classes up to 3 for a 2-class
  // output.
  std::filesystem::copy_file(
      CorpusDir() + "/data/coral/bird_segmentation_mask.bmp",
      masks_ + "/bird_segmentation.bmp");
  r = RunCommand(base);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bird_segmentation.bmp: class "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("is not one of the output's 2 classes (0..1; 255 is "
                       "ignored)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  std::ofstream(masks_ + "/bird_segmentation.bmp") << "not an image";
  r = RunCommand(base);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bird_segmentation.bmp: unreadable mask"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace qforge
