// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The task metrics (report/task_metrics.h) on small hand-made outputs; each
// expected value is derived in the comment above its check.
#include "report/task_metrics.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace qforge::report {
namespace {

double SigmoidOf(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One output of one sample.
std::vector<OutputValues> One(const std::vector<float>& f,
                              const std::vector<float>& q,
                              std::vector<int64_t> shape) {
  return {OutputValues{&f, &q, std::move(shape)}};
}

TEST(TaskMetricsTest, SegmentationClassMaps) {
  // 2x2 pixels, 3 classes. Float argmax per pixel: 0, 1, 2, 2; quantized:
  // 0, 1, 1, 2. Agreement 3/4. IoU by class: class 0 {p0} vs {p0} = 1/1;
  // class 1 {p1} vs {p1, p2} = 1/2; class 2 {p2, p3} vs {p3} = 1/2; mean
  // (1 + 0.5 + 0.5) / 3 = 2/3.
  const std::vector<float> f = {9, 0, 0, 0, 9, 0, 0, 1, 2, 0, 0, 5};
  const std::vector<float> q = {9, 0, 0, 0, 9, 0, 0, 2, 1, 0, 0, 5};
  OutputTask task;
  task.kind = TaskKind::kSegmentation;
  TaskSums s;
  AddTaskSample(task, 0, One(f, q, {1, 2, 2, 3}), -1, s);
  const TaskResult r = FinishTask(task, s);
  EXPECT_EQ(r.pixels, 4u);
  EXPECT_EQ(r.classes, 3);
  EXPECT_DOUBLE_EQ(r.mask_agreement, 0.75);
  EXPECT_DOUBLE_EQ(r.mean_iou, 2.0 / 3.0);
}

TEST(TaskMetricsTest, SegmentationMaskOfLogits) {
  // Logits: foreground where the value is > 0 (sigmoid > 0.5). Float
  // -1, 2, 0.5, -3 -> 0, 1, 1, 0; quantized 1, 2, -0.1, -3 -> 1, 1, 0, 0.
  // Agreement: pixels 1 and 3, 2/4. Background {p0, p3} vs {p2, p3}: 1/3;
  // foreground {p1, p2} vs {p0, p1}: 1/3; mean 1/3.
  const std::vector<float> f = {-1, 2, 0.5f, -3};
  const std::vector<float> q = {1, 2, -0.1f, -3};
  OutputTask task;
  task.kind = TaskKind::kSegmentation;
  task.logits = true;
  TaskSums s;
  AddTaskSample(task, 0, One(f, q, {1, 2, 2, 1}), -1, s);
  TaskResult r = FinishTask(task, s);
  EXPECT_DOUBLE_EQ(r.mask_agreement, 0.5);
  EXPECT_DOUBLE_EQ(r.mean_iou, 1.0 / 3.0);
  // The same values as probabilities (made by LOGISTIC): foreground above
  // 0.5. Float 0, 1, 0, 0; quantized 1, 1, 0, 0: agreement 3/4;
  // background {p0, p2, p3} vs {p2, p3}: 2/3; foreground {p1} vs {p0, p1}:
  // 1/2; mean 7/12.
  task.logits = false;
  TaskSums p;
  AddTaskSample(task, 0, One(f, q, {1, 2, 2}), -1, p);
  r = FinishTask(task, p);
  EXPECT_DOUBLE_EQ(r.mask_agreement, 0.75);
  EXPECT_DOUBLE_EQ(r.mean_iou, 7.0 / 12.0);
}

TEST(TaskMetricsTest, LandmarkErrorsAndTheirPercentile) {
  // Two points of (x, y, z): (0, 0, 5) -> (3, 4, 9) moves 5 in (x, y) (z
  // is not counted); (10, 10, 1) does not move. Mean (5 + 0) / 2 = 2.5.
  // p95: rank ceil(0.95 * 2) = 2, the 5: its bucket on calibration's grid
  // is [5, 5 + 4/32) (5 = 1.25 * 2^2, 32 buckets per binade), upper edge
  // 5.125.
  const std::vector<float> f = {0, 0, 5, 10, 10, 1};
  const std::vector<float> q = {3, 4, 9, 10, 10, 1};
  OutputTask task;
  task.kind = TaskKind::kLandmarks;
  task.point_stride = 3;
  TaskSums s;
  AddTaskSample(task, 0, One(f, q, {1, 6}), -1, s);
  TaskResult r = FinishTask(task, s);
  EXPECT_EQ(r.points, 2u);
  EXPECT_DOUBLE_EQ(r.point_error_mean, 2.5);
  EXPECT_DOUBLE_EQ(r.point_error_p95, 5.125);
  // 19 more exact points: rank ceil(0.95 * 21) = 20 of 21 sorted errors,
  // the 20 zeros come first: p95 is 0; mean 5 / 21.
  const std::vector<float> g(57, 1.0f);
  AddTaskSample(task, 0, One(g, g, {1, 57}), -1, s);
  r = FinishTask(task, s);
  EXPECT_EQ(r.points, 21u);
  EXPECT_DOUBLE_EQ(r.point_error_p95, 0.0);
  EXPECT_DOUBLE_EQ(r.point_error_mean, 5.0 / 21.0);
}

TEST(TaskMetricsTest, RawAnchorDetection) {
  // Three anchors, boxes (x_center, y_center, w, h), score logits.
  // Anchor 0: float 2 > 0 (a detection), quantized 3 > 0; boxes (0, 0, 2,
  // 2) and (0.2, 0, 2, 2): x spans [-1, 1] and [-0.8, 1.2], y both [-1, 1]:
  // intersection 1.8 * 2 = 3.6, union 4 + 4 - 3.6 = 4.4, IoU 9/11 >= 0.5:
  // matched, score error sigmoid(3) - sigmoid(2).
  // Anchor 1: float 1 > 0, quantized -1: missed. Anchor 2: float -1, not a
  // detection. Recall 1/2.
  const std::vector<float> fb = {0, 0, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1};
  const std::vector<float> qb = {0.2f, 0, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1};
  const std::vector<float> fs = {2, 1, -1};
  const std::vector<float> qs = {3, -1, 3};
  std::vector<OutputValues> outs = {OutputValues{&fb, &qb, {1, 3, 4}},
                                    OutputValues{&fs, &qs, {1, 3, 1}}};
  OutputTask task;
  task.kind = TaskKind::kDetection;
  task.role = DetectionRole::kBoxes;
  task.boxes = 0;
  task.scores = 1;
  task.logits = true;
  TaskSums s;
  AddTaskSample(task, 0, outs, -1, s);
  const TaskResult r = FinishTask(task, s);
  EXPECT_EQ(r.reference_boxes, 2u);
  EXPECT_EQ(r.matched_boxes, 1u);
  EXPECT_DOUBLE_EQ(r.recall, 0.5);
  EXPECT_NEAR(r.match_iou, 9.0 / 11.0, 1e-7);
  EXPECT_NEAR(r.score_error, SigmoidOf(3) - SigmoidOf(2), 1e-12);
  // The scores output adds nothing itself.
  OutputTask scores = task;
  scores.role = DetectionRole::kScores;
  TaskSums none;
  AddTaskSample(scores, 1, outs, -1, none);
  EXPECT_EQ(none.reference, 0u);
}

TEST(TaskMetricsTest, PostProcessDetections) {
  // TFLite_Detection_PostProcess: boxes [ymin, xmin, ymax, xmax], classes,
  // scores, count. Float keeps its first 2 (count 2) with score > 0.5:
  // detections 0 (class 1) and 1 (class 2). Quantized keeps 0 (0.85, class
  // 1) and 2 (0.9, class 1); 1 scores 0.4. Float 0 matches quantized 0
  // (same box: IoU 1; quantized 2 has IoU 0.9 with it but the better pair
  // goes first); float 1 has no class-2 candidate. Recall 1/2, IoU 1,
  // score error |0.85 - 0.9| = 0.05.
  const std::vector<float> fb = {0, 0, 1, 1, 0, 0, 2, 2, 5, 5, 6, 6};
  const std::vector<float> qb = {0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 0.9f};
  const std::vector<float> fc = {1, 2, 3}, qc = {1, 2, 1};
  const std::vector<float> fs = {0.9f, 0.8f, 0.7f}, qs = {0.85f, 0.4f, 0.9f};
  const std::vector<float> fn = {2}, qn = {3};
  std::vector<OutputValues> outs = {
      OutputValues{&fb, &qb, {1, 3, 4}}, OutputValues{&fc, &qc, {1, 3}},
      OutputValues{&fs, &qs, {1, 3}}, OutputValues{&fn, &qn, {1}}};
  OutputTask task;
  task.kind = TaskKind::kDetection;
  task.postprocess = true;
  task.role = DetectionRole::kBoxes;
  task.boxes = 0;
  task.classes = 1;
  task.scores = 2;
  task.count = 3;
  TaskSums s;
  AddTaskSample(task, 0, outs, -1, s);
  const TaskResult r = FinishTask(task, s);
  EXPECT_EQ(r.reference_boxes, 2u);
  EXPECT_EQ(r.matched_boxes, 1u);
  EXPECT_DOUBLE_EQ(r.match_iou, 1.0);
  EXPECT_NEAR(r.score_error, 0.05, 1e-7);
}

TEST(TaskMetricsTest, ScoreDecisions) {
  // Probabilities (made by LOGISTIC). Sample 1: 0.7 vs 0.4, on opposite
  // sides of 0.5, error 0.3; sample 2: 0.2 vs 0.1, both below, error 0.1.
  // Agreement 1/2; mean absolute error (0.3 + 0.1) / 2 = 0.2.
  OutputTask task;
  task.kind = TaskKind::kScore;
  TaskSums s;
  const std::vector<float> f1 = {0.7f}, q1 = {0.4f}, f2 = {0.2f}, q2 = {0.1f};
  AddTaskSample(task, 0, One(f1, q1, {1, 1}), -1, s);
  AddTaskSample(task, 0, One(f2, q2, {1, 1}), -1, s);
  TaskResult r = FinishTask(task, s);
  EXPECT_EQ(r.decisions, 2u);
  EXPECT_EQ(r.decisions_agree, 1u);
  EXPECT_DOUBLE_EQ(r.decision_agreement, 0.5);
  EXPECT_NEAR(r.mean_abs_error, 0.2, 1e-7);
  // Logits: 1 vs -0.5 disagree (sigmoid 0.731 vs 0.378); error
  // sigmoid(1) - sigmoid(-0.5).
  task.logits = true;
  TaskSums l;
  const std::vector<float> f3 = {1.0f}, q3 = {-0.5f};
  AddTaskSample(task, 0, One(f3, q3, {1, 1}), -1, l);
  r = FinishTask(task, l);
  EXPECT_EQ(r.decisions_agree, 0u);
  EXPECT_NEAR(r.mean_abs_error, SigmoidOf(1) - SigmoidOf(-0.5), 1e-12);
}

TEST(TaskMetricsTest, AccuracyAgainstLabels) {
  // Label 1: float's argmax is 1 (correct), quantized's 0 (wrong). A
  // second sample with label 0: both argmax 0, both correct. Float 2/2,
  // quantized 1/2. Without a label a sample counts for neither.
  OutputTask task;
  task.kind = TaskKind::kClassification;
  TaskSums s;
  const std::vector<float> f = {0.1f, 0.7f, 0.2f}, q = {0.5f, 0.4f, 0.1f};
  const std::vector<float> g = {0.8f, 0.1f, 0.1f};
  AddTaskSample(task, 0, One(f, q, {1, 3}), 1, s);
  AddTaskSample(task, 0, One(g, g, {1, 3}), 0, s);
  AddTaskSample(task, 0, One(g, g, {1, 3}), -1, s);
  const TaskResult r = FinishTask(task, s);
  EXPECT_EQ(r.labeled, 2u);
  EXPECT_DOUBLE_EQ(r.float_accuracy, 1.0);
  EXPECT_DOUBLE_EQ(r.quant_accuracy, 0.5);
}

TEST(TaskMetricsTest, MergedSumsEqualOneRun) {
  // Samples split in two parts, merged in either order: the same sums.
  OutputTask task;
  task.kind = TaskKind::kLandmarks;
  task.point_stride = 2;
  std::vector<std::vector<float>> f, q;
  for (int k = 0; k < 6; ++k) {
    f.push_back({0.1f * k, 0.3f, 1.0f / (k + 3), 7.0f});
    q.push_back({0.1f * k + 0.01f * k, 0.3f, 1.0f / (k + 2), 7.5f});
  }
  TaskSums all, a, b;
  for (int k = 0; k < 6; ++k) {
    AddTaskSample(task, 0, One(f[k], q[k], {1, 4}), -1, all);
    AddTaskSample(task, 0, One(f[k], q[k], {1, 4}), -1, k % 2 ? a : b);
  }
  TaskSums ab = a, ba = b;
  ab.Merge(b);
  ba.Merge(a);
  const TaskResult r = FinishTask(task, all);
  for (const TaskSums* m : {&ab, &ba}) {
    const TaskResult x = FinishTask(task, *m);
    EXPECT_EQ(x.points, r.points);
    EXPECT_EQ(x.point_error_mean, r.point_error_mean);  // bit for bit
    EXPECT_EQ(x.point_error_p95, r.point_error_p95);
  }
}

}  // namespace
}  // namespace qforge::report
