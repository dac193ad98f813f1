// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Ground-truth masks (report/label_masks.h) on small hand-made outputs and
// masks; each expected value is derived in the comment above its check.
#include "report/label_masks.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "formats/data/npy.h"
#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge::report {
namespace {

OutputTask Segmentation() {
  OutputTask task;
  task.kind = TaskKind::kSegmentation;
  return task;
}

LabelMask Mask(int64_t h, int64_t w, std::vector<int32_t> classes) {
  LabelMask m;
  m.file = "truth.npy";
  m.height = h;
  m.width = w;
  m.classes = std::move(classes);
  return m;
}

TEST(LabelMasksTest, ForegroundMaskNearestResizedWithIgnoredPixels) {
  // A 2x2 foreground-probability output and a 4x4 mask. Nearest with
  // half-pixel centres: output row y reads mask row (2y + 1) * 4 / 4, i.e.
  // rows 1 and 3; columns likewise 1 and 3. So output pixels p0..p3 read
  // mask (1,1) = 1, (1,3) = 255 (ignored), (3,1) = 1, (3,3) = 0; the other
  // twelve mask pixels (all 0) are never read.
  // Float classes (> 0.5): p0 1, p2 1, p3 0: all three right, IoU 1 for
  // both classes, mIoU 1. Quantized: p0 1, p2 0, p3 0. Class 1: truth
  // {p0, p2}, quantized {p0}: 1/2; class 0: truth {p3}, quantized {p2, p3}:
  // 1/2; mIoU 0.5.
  const std::vector<float> f = {0.9f, 0.2f, 0.7f, 0.4f};
  const std::vector<float> q = {0.9f, 0.6f, 0.3f, 0.4f};
  std::vector<int32_t> truth(16, 0);
  truth[1 * 4 + 1] = 1;
  truth[1 * 4 + 3] = LabelMask::kIgnored;
  truth[3 * 4 + 1] = 1;
  TaskSums s;
  ASSERT_TRUE(AddLabelMask(Segmentation(), OutputValues{&f, &q, {1, 2, 2, 1}},
                           Mask(4, 4, truth), s)
                  .ok());
  const TaskResult r = FinishTask(Segmentation(), s);
  EXPECT_EQ(r.label_pixels, 3u);
  EXPECT_EQ(r.label_ignored, 1u);
  EXPECT_DOUBLE_EQ(r.float_label_miou, 1.0);
  EXPECT_DOUBLE_EQ(r.quant_label_miou, 0.5);

  // Added again as a second sample, the counts double and the ratios stay;
  // merging two halves gives the same sums as one pass.
  TaskSums half = s, whole;
  ASSERT_TRUE(AddLabelMask(Segmentation(), OutputValues{&f, &q, {1, 2, 2, 1}},
                           Mask(4, 4, truth), s)
                  .ok());
  whole.Merge(half);
  whole.Merge(half);
  EXPECT_EQ(whole.label_float_union, s.label_float_union);
  EXPECT_EQ(whole.label_quant_intersection, s.label_quant_intersection);
  EXPECT_EQ(FinishTask(Segmentation(), whole).label_pixels, 6u);
  EXPECT_DOUBLE_EQ(FinishTask(Segmentation(), whole).quant_label_miou, 0.5);
}

TEST(LabelMasksTest, ArgmaxClassesAndAClassNobodyUses) {
  // [1, 1, 2, 3]: float argmax p0 1, p1 0; quantized p0 2, p1 0; truth
  // 1, 0. Float: class 0 1/1, class 1 1/1, class 2 unused (left out):
  // mIoU 1. Quantized: class 0 {p1} vs {p1} 1/1, class 1 {p0} vs {} 0/1,
  // class 2 {} vs {p0} 0/1: mIoU 1/3.
  const std::vector<float> f = {0.1f, 0.8f, 0.1f, 0.7f, 0.2f, 0.1f};
  const std::vector<float> q = {0.1f, 0.2f, 0.7f, 0.7f, 0.2f, 0.1f};
  TaskSums s;
  ASSERT_TRUE(AddLabelMask(Segmentation(), OutputValues{&f, &q, {1, 1, 2, 3}},
                           Mask(1, 2, {1, 0}), s)
                  .ok());
  const TaskResult r = FinishTask(Segmentation(), s);
  EXPECT_EQ(r.label_pixels, 2u);
  EXPECT_DOUBLE_EQ(r.float_label_miou, 1.0);
  EXPECT_DOUBLE_EQ(r.quant_label_miou, 1.0 / 3.0);
}

TEST(LabelMasksTest, AClassTheOutputDoesNotHaveNamesFileAndPixel) {
  // A one-channel output has classes 0 and 1; a 2 anywhere in the mask (here
  // at x 1, y 0) is refused, even where the nearest resize would not read.
  const std::vector<float> f = {0.9f}, q = {0.9f};
  TaskSums s;
  const absl::Status st =
      AddLabelMask(Segmentation(), OutputValues{&f, &q, {1, 1, 1, 1}},
                   Mask(2, 2, {0, 2, 0, 0}), s);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("truth.npy: class 2 at pixel 1, 0"),
            std::string::npos)
      << st;
  EXPECT_NE(st.message().find("--labels DIR"), std::string::npos) << st;
}

TEST(LabelMasksTest, NpyMasksAndTheLookUp) {
  const std::string dir = testing::MakeTempDir();
  // int32 [1, 2, 2]: -1 and 255 are ignored.
  ir::HostTensor t(ir::DataType::kInt32, {1, 2, 2});
  auto v = t.Flat<int32_t>();
  v[0] = 0;
  v[1] = -1;
  v[2] = 255;
  v[3] = 3;
  absl::StatusOr<std::vector<uint8_t>> bytes = formats::WriteNpy(t);
  ASSERT_TRUE(bytes.ok());
  {
    std::ofstream out(dir + "/cat.npy", std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes->data()),
              static_cast<std::streamsize>(bytes->size()));
  }
  absl::StatusOr<std::string> path = FindLabelMask(dir, "cat");
  ASSERT_TRUE(path.ok()) << path.status();
  absl::StatusOr<LabelMask> m = ReadLabelMask(*path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->height, 2);
  EXPECT_EQ(m->width, 2);
  EXPECT_EQ(m->classes, (std::vector<int32_t>{0, LabelMask::kIgnored,
                                              LabelMask::kIgnored, 3}));
  // A missing mask: NotFound naming the files looked for.
  const absl::StatusOr<std::string> missing = FindLabelMask(dir, "dog");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("dog.png, dog.bmp, dog.npy"),
            std::string::npos)
      << missing.status();
  // Float values are not class indices; nor are JPEG bytes or garbage.
  ir::HostTensor ft(ir::DataType::kFloat32, {2, 2});
  absl::StatusOr<std::vector<uint8_t>> fb = formats::WriteNpy(ft);
  ASSERT_TRUE(fb.ok());
  EXPECT_EQ(DecodeLabelMask(*fb, "f.npy").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DecodeLabelMask({0xFF, 0xD8, 0xFF, 0xE0}, "m.jpg").status().code(),
            absl::StatusCode::kInvalidArgument);
  const absl::Status bad = DecodeLabelMask({1, 2, 3}, "m.png").status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("m.png: unreadable mask"), std::string::npos)
      << bad;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace qforge::report
