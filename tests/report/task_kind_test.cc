// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Output kinds (report/task_kind.h) detected on real corpus models: three
// or more of each kind, and the --task overrides.
#include "report/task_kind.h"

#include <string>
#include <vector>

#include "formats/tflite_metadata.h"
#include "gtest/gtest.h"
#include "ir/graph.h"
#include "tests/support/test_paths.h"

namespace qforge::report {
namespace {

std::vector<OutputTask> Tasks(const std::string& relative,
                              const std::vector<TaskOverride>& overrides = {}) {
  const ir::Model model =
      testing::ReadModel(testing::CorpusDir() + "/models/" + relative);
  absl::StatusOr<std::vector<OutputTask>> tasks = DetectTasks(model, overrides);
  EXPECT_TRUE(tasks.ok()) << tasks.status();
  return tasks.ok() ? *tasks : std::vector<OutputTask>{};
}

class TaskKindTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::CorpusDir().empty()) GTEST_SKIP() << "no corpus";
  }
};

TEST_F(TaskKindTest, Classifiers) {
  for (const char* m : {"tflite2onnx/mobilenet_v1_0.25_128.tflite",
                        "mlperf-tiny/vww_96_float.tflite",
                        "ai-edge-quantizer/conv_fc_mnist.tflite"}) {
    const std::vector<OutputTask> t = Tasks(m);
    ASSERT_EQ(t.size(), 1u) << m;
    EXPECT_EQ(t[0].kind, TaskKind::kClassification) << m;
  }
}

// tflite-support metadata names the image classifier's output
// "probability": a classification even where the graph does not say so
// (here the output moved to the SOFTMAX's input, renamed).
TEST_F(TaskKindTest, MetadataNamesTheOutput) {
  ir::Model m = testing::ReadModel(
      testing::CorpusDir() +
      "/models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite");
  EXPECT_EQ(formats::ReadOutputNames(m),
            std::vector<std::string>{"probability"});
  ir::Subgraph& sg = m.subgraphs[0];
  const ir::Graph graph(sg);
  const int softmax = graph.producer(sg.outputs[0]);
  ASSERT_GE(softmax, 0);
  sg.outputs[0] = sg.operators[static_cast<size_t>(softmax)].inputs[0];
  sg.tensors[static_cast<size_t>(sg.outputs[0])].name = "scores";
  absl::StatusOr<std::vector<OutputTask>> t = DetectTasks(m, {});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)[0].kind, TaskKind::kClassification);
  m.metadata.clear();
  t = DetectTasks(m, {});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)[0].kind, TaskKind::kNone);
}

TEST_F(TaskKindTest, Segmenters) {
  // Selfie: [1, 144, 256, 1] made by LOGISTIC (probabilities); hair:
  // [1, 512, 512, 2] class maps; BlazePose's mask [1, 256, 256, 1] is
  // logits (MediaPipe applies the sigmoid after the model).
  std::vector<OutputTask> t =
      Tasks("mediapipe/selfie_segmentation_landscape.tflite");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].kind, TaskKind::kSegmentation);
  EXPECT_FALSE(t[0].logits);
  t = Tasks("mediapipe/hair_segmentation.tflite");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].kind, TaskKind::kSegmentation);
  t = Tasks("mediapipe/pose_landmark_lite__20210818.tflite");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[2].kind, TaskKind::kSegmentation);
  EXPECT_TRUE(t[2].logits);
}

TEST_F(TaskKindTest, LandmarksAndScores) {
  // Hands: 21 (x, y, z) points, hand presence and handedness made by
  // LOGISTIC.
  for (const char* m : {"mediapipe/hand_landmark__20201104.tflite",
                        "mediapipe/hand_landmark_sparse__20210227.tflite"}) {
    const std::vector<OutputTask> t = Tasks(m);
    ASSERT_EQ(t.size(), 3u) << m;
    EXPECT_EQ(t[0].kind, TaskKind::kLandmarks) << m;
    EXPECT_EQ(t[0].point_stride, 3) << m;
    for (int j : {1, 2}) {
      EXPECT_EQ(t[j].kind, TaskKind::kScore) << m;
      EXPECT_FALSE(t[j].logits) << m;
    }
  }
  // Face mesh: 468 points in [1, 1, 1, 1404], the face flag a raw logit.
  std::vector<OutputTask> t = Tasks("mediapipe/face_landmark__20201209.tflite");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].kind, TaskKind::kLandmarks);
  EXPECT_EQ(t[0].point_stride, 3);
  EXPECT_EQ(t[1].kind, TaskKind::kScore);
  EXPECT_TRUE(t[1].logits);
  // BlazePose: 39 points of 5 values ([1, 195]) beside 39 heatmaps
  // ([1, 64, 64, 39]: no segmentation), world points of 3 ([1, 117]).
  t = Tasks("mediapipe/pose_landmark_lite__20210818.tflite");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].kind, TaskKind::kLandmarks);
  EXPECT_EQ(t[0].point_stride, 5);
  EXPECT_EQ(t[1].kind, TaskKind::kScore);
  EXPECT_EQ(t[3].kind, TaskKind::kNone);
  EXPECT_EQ(t[4].kind, TaskKind::kLandmarks);
  EXPECT_EQ(t[4].point_stride, 3);
}

TEST_F(TaskKindTest, Detectors) {
  // MediaPipe's raw anchor outputs: boxes [1, N, 16 or 18 or 12], score
  // logits [1, N, 1].
  for (const char* m : {"mediapipe/palm_detection.tflite",
                        "mediapipe/face_detection_front.tflite",
                        "mediapipe/pose_detection__20201209.tflite"}) {
    const std::vector<OutputTask> t = Tasks(m);
    ASSERT_EQ(t.size(), 2u) << m;
    EXPECT_EQ(t[0].kind, TaskKind::kDetection) << m;
    EXPECT_EQ(t[0].role, DetectionRole::kBoxes) << m;
    EXPECT_EQ(t[0].scores, 1) << m;
    EXPECT_FALSE(t[0].postprocess) << m;
    EXPECT_TRUE(t[0].logits) << m;
    EXPECT_EQ(t[1].kind, TaskKind::kDetection) << m;
    EXPECT_EQ(t[1].role, DetectionRole::kScores) << m;
    EXPECT_EQ(t[1].boxes, 0) << m;
  }
  // TFLite_Detection_PostProcess's four outputs.
  const std::vector<OutputTask> t =
      Tasks("glow/tflite_detection_post_processing_fast.tflite");
  ASSERT_EQ(t.size(), 4u);
  const DetectionRole roles[] = {DetectionRole::kBoxes, DetectionRole::kClasses,
                                 DetectionRole::kScores, DetectionRole::kCount};
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(t[j].kind, TaskKind::kDetection) << j;
    EXPECT_TRUE(t[j].postprocess) << j;
    EXPECT_EQ(t[j].role, roles[j]) << j;
    EXPECT_EQ(t[j].boxes, 0);
    EXPECT_EQ(t[j].classes, 1);
    EXPECT_EQ(t[j].scores, 2);
    EXPECT_EQ(t[j].count, 3);
  }
}

TEST_F(TaskKindTest, OverridesByNameOrIndex) {
  absl::StatusOr<TaskOverride> o = ParseTaskOverride("Identity_3=none");
  ASSERT_TRUE(o.ok());
  std::vector<OutputTask> t =
      Tasks("mediapipe/pose_landmark_lite__20210818.tflite",
            {*ParseTaskOverride("2=none"),
             *ParseTaskOverride("Identity_3=segmentation")});
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[2].kind, TaskKind::kNone);
  EXPECT_TRUE(t[2].overridden);
  EXPECT_EQ(t[3].kind, TaskKind::kSegmentation);
  EXPECT_TRUE(t[3].logits);
  // Dropping the boxes drops the group.
  t = Tasks("mediapipe/palm_detection.tflite",
            {*ParseTaskOverride("regressors=none")});
  EXPECT_EQ(t[0].kind, TaskKind::kNone);
  EXPECT_EQ(t[1].kind, TaskKind::kNone);
  // Errors: an unknown output, an unknown kind, detection on a lone output.
  const ir::Model hand =
      testing::ReadModel(testing::CorpusDir() +
                         "/models/mediapipe/hand_landmark__20201104.tflite");
  EXPECT_FALSE(DetectTasks(hand, {*ParseTaskOverride("nope=score")}).ok());
  EXPECT_FALSE(DetectTasks(hand, {*ParseTaskOverride("7=score")}).ok());
  EXPECT_FALSE(DetectTasks(hand, {*ParseTaskOverride("0=detection")}).ok());
  EXPECT_FALSE(ParseTaskOverride("0=boxes").ok());
  EXPECT_FALSE(ParseTaskOverride("=score").ok());
}

}  // namespace
}  // namespace qforge::report
