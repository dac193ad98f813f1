// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite_Detection_PostProcess on a case worked out by hand, in both NMS
// modes. Three anchors (ycenter, xcenter, h, w), zero box encodings, so
// each box is its anchor: y/x in [center - 0.5, center + 0.5]:
//   a0 (0.5, 0.5, 1, 1) -> [0, 0, 1, 1]
//   a1 (0.6, 0.6, 1, 1) -> [0.1, 0.1, 1.1, 1.1]   IoU(a0, a1) = 0.81 / 1.19
//                                                  = 0.68 > 0.5
//   a2 (3, 3, 1, 1)     -> [2.5, 2.5, 3.5, 3.5]   IoU 0 with both
// Scores (background, class 0, class 1): a0 (0, 0.9, 0.2), a1 (0, 0.8, 0.7),
// a2 (0, 0.1, 0.6); score threshold 0.3, IoU threshold 0.5, at most 3
// detections, 1 class per detection.
//  - fast: best class per anchor a0 0.9 (0), a1 0.8 (0), a2 0.6 (1); NMS
//    keeps a0, drops a1 (IoU 0.68 with a0), keeps a2: 2 detections
//    [a0, 0, 0.9], [a2, 1, 0.6], then a zero slot.
//  - regular: class 0 keeps a0 (a1 suppressed, a2 below 0.3); class 1
//    keeps a1 and a2 (a0 below 0.3; IoU(a1, a2) = 0): 3 detections
//    [a0, 0, 0.9], [a1, 1, 0.7], [a2, 1, 0.6].
// The corpus's glow detection models match LiteRT exactly
// (tests/interop/float_vs_litert.sh).
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "flatbuffers/flexbuffers.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

std::vector<uint8_t> Options(bool regular, float iou = 0.5f) {
  flexbuffers::Builder fbb;
  fbb.Map([&]() {
    fbb.Int("max_detections", 3);
    fbb.Int("max_classes_per_detection", 1);
    fbb.Int("detections_per_class", 100);
    fbb.Bool("use_regular_nms", regular);
    fbb.Float("nms_score_threshold", 0.3f);
    fbb.Float("nms_iou_threshold", iou);
    fbb.Int("num_classes", 2);
    fbb.Float("y_scale", 10.f);
    fbb.Float("x_scale", 10.f);
    fbb.Float("h_scale", 5.f);
    fbb.Float("w_scale", 5.f);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

absl::StatusOr<std::vector<ir::HostTensor>> RunDetection(
    std::vector<uint8_t> options) {
  OpModel m;
  const int enc = m.Input(ir::DataType::kFloat32, {1, 3, 4});
  const int cls = m.Input(ir::DataType::kFloat32, {1, 3, 3});
  const int anchors = m.Constant<float>(
      {3, 4}, {0.5f, 0.5f, 1, 1, 0.6f, 0.6f, 1, 1, 3, 3, 1, 1});
  std::vector<int32_t> outs;
  for (int o = 0; o < 4; ++o)
    outs.push_back(m.Output(ir::DataType::kFloat32, {}));
  m.Op(ir::OpKind::kCustom, {enc, cls, anchors}, outs);
  ir::Operator& op = m.model().subgraphs[0].operators[0];
  op.custom_code = "TFLite_Detection_PostProcess";
  op.custom_options = std::move(options);
  return m.Run({MakeTensor<float>({1, 3, 4}, std::vector<float>(12, 0.f)),
                MakeTensor<float>(
                    {1, 3, 3}, {0, 0.9f, 0.2f, 0, 0.8f, 0.7f, 0, 0.1f, 0.6f})});
}

void ExpectBoxes(const std::vector<float>& got,
                 const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6);
}

TEST(DetectionPostProcessTest, FastNms) {
  auto out = RunDetection(Options(/*regular=*/false));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 3, 4}));
  ExpectBoxes(Values<float>((*out)[0]),
              {0, 0, 1, 1, 2.5f, 2.5f, 3.5f, 3.5f, 0, 0, 0, 0});
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{0, 1, 0}));
  EXPECT_EQ(Values<float>((*out)[2]), (std::vector<float>{0.9f, 0.6f, 0}));
  EXPECT_EQ(Values<float>((*out)[3]), (std::vector<float>{2}));
}

TEST(DetectionPostProcessTest, RegularNms) {
  auto out = RunDetection(Options(/*regular=*/true));
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectBoxes(Values<float>((*out)[0]),
              {0, 0, 1, 1, 0.1f, 0.1f, 1.1f, 1.1f, 2.5f, 2.5f, 3.5f, 3.5f});
  EXPECT_EQ(Values<float>((*out)[1]), (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(Values<float>((*out)[2]), (std::vector<float>{0.9f, 0.7f, 0.6f}));
  EXPECT_EQ(Values<float>((*out)[3]), (std::vector<float>{3}));
}

TEST(DetectionPostProcessTest, HighIouThresholdKeepsOverlaps) {
  // IoU threshold 0.7 > 0.68: fast NMS keeps a1 too, between a0 and a2.
  auto out = RunDetection(Options(/*regular=*/false, 0.7f));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(Values<float>((*out)[2]), (std::vector<float>{0.9f, 0.8f, 0.6f}));
  EXPECT_EQ(Values<float>((*out)[3]), (std::vector<float>{3}));
}

TEST(DetectionPostProcessTest, RejectsBadOptions) {
  auto out = RunDetection({});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
  out = RunDetection(Options(false, 1.5f));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
}

}  // namespace
}  // namespace qforge
