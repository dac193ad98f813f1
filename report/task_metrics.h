// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Task metrics of the report: each output judged by its task (task_kind.h)
// against the float model's output on the same sample. Kept as integer
// counts, exact sums (exact_sum.h) and a fixed-grid histogram, so that
// they merge exactly across threads and shards like the rest of the
// report. Definitions (docs/report-json.md#task-metrics):
//   classification: accuracy of the float and of the quantized top-1
//     against --labels (top-1 / top-5 agreement: report_sums.h);
//   segmentation: per pixel, the class (argmax over C >= 2 channels; with
//     one channel, or none, foreground when the probability is > 0.5,
//     after a sigmoid when the values are logits): the fraction of pixels
//     whose class agrees, and the mean over classes of the IoU of the two
//     models' masks of that class (classes neither model uses left out);
//     with --labels DIR (label_masks.h), each model's mean over classes
//     of the IoU of its mask with the ground truth's (classes neither uses
//     left out), ignored pixels left out;
//   landmarks: per point, the distance between the two models' (x, y), in
//     the output's units; its mean, and its 95th percentile read from a
//     histogram on calibration's grid (1/32 of a binade per bucket: the
//     upper edge of the bucket, at most ~3.1% above the exact value);
//   detection: the float model's detections with score > 0.5 (after a
//     sigmoid for logits) matched one to one to the quantized model's
//     (same class, IoU >= 0.5, greedily by IoU) for
//     TFLite_Detection_PostProcess; for raw per-anchor outputs, the same
//     anchor above 0.5 in both with IoU >= 0.5. Recall (matched / float's),
//     the mean IoU and mean absolute score difference of the matches;
//   score: per value, whether both probabilities are on the same side of
//     0.5, and the mean absolute difference of the probabilities.
#ifndef QFORGE_REPORT_TASK_METRICS_H_
#define QFORGE_REPORT_TASK_METRICS_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "calibration/histogram.h"
#include "report/exact_sum.h"
#include "report/task_kind.h"

namespace qforge::report {

// The decision threshold on probabilities (scores, masks, detections) and
// the IoU a detection match needs.
inline constexpr double kTaskThreshold = 0.5;
inline constexpr double kMatchIou = 0.5;

struct TaskSums {
  uint64_t samples = 0;  // samples judged
  // Classification against --labels.
  uint64_t labeled = 0, float_correct = 0, quant_correct = 0;
  // Segmentation; by class: pixels of both masks, of either.
  uint64_t pixels = 0, pixels_agree = 0;
  std::vector<uint64_t> intersection, union_pixels;
  // Segmentation against --labels DIR: pixels with a class and ignored
  // ones; by class, each model's pixels of both its mask and the truth's,
  // of either.
  uint64_t label_pixels = 0, label_ignored = 0;
  std::vector<uint64_t> label_float_intersection, label_float_union,
      label_quant_intersection, label_quant_union;
  // Landmarks: point errors.
  uint64_t points = 0;
  ExactSum point_error;
  calibration::Histogram point_errors;
  // Detection: the float model's detections, those matched, and the sums
  // over the matches.
  uint64_t reference = 0, matched = 0;
  ExactSum match_iou, score_error;
  // Scores.
  uint64_t decisions = 0, decisions_agree = 0;
  ExactSum abs_error;

  void Merge(const TaskSums& o);
};

// One model output of one sample, as float values.
struct OutputValues {
  const std::vector<float>* f = nullptr;  // the float model's (null: n/a)
  const std::vector<float>* q = nullptr;  // the quantized model's
  std::vector<int64_t> shape;             // the float model's
};

// Adds one sample of output `task` (for detection, the boxes output of a
// group; `outputs` holds every output of the sample, by index) to `sums`.
// `label`: the sample's --labels class, or -1.
void AddTaskSample(const OutputTask& task, int output,
                   const std::vector<OutputValues>& outputs, int64_t label,
                   TaskSums& sums);

// The task metrics of one output; NaN where nothing was judged.
struct TaskResult {
  TaskKind kind = TaskKind::kNone;
  bool overridden = false;
  DetectionRole role = DetectionRole::kNone;
  int boxes = -1;  // detection: the output the group's metrics are on
  bool logits = false;
  uint64_t samples = 0;
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  uint64_t labeled = 0;
  double float_accuracy = kNaN, quant_accuracy = kNaN;
  uint64_t pixels = 0;
  int64_t classes = 0;
  double mask_agreement = kNaN, mean_iou = kNaN;
  uint64_t label_pixels = 0, label_ignored = 0;  // --labels DIR
  double float_label_miou = kNaN, quant_label_miou = kNaN;
  uint64_t points = 0;
  int point_stride = 0;
  double point_error_mean = kNaN, point_error_p95 = kNaN;
  uint64_t reference_boxes = 0, matched_boxes = 0;
  double recall = kNaN, match_iou = kNaN, score_error = kNaN;
  uint64_t decisions = 0, decisions_agree = 0;
  double decision_agreement = kNaN, mean_abs_error = kNaN;
};
TaskResult FinishTask(const OutputTask& task, const TaskSums& sums);

// Segmentation: a [1, H, W, C] output's C, else 1; the class of a pixel's
// `channels` values (argmax over C >= 2; else 1 when the one value is
// positive, 0 otherwise).
int64_t SegmentationChannels(const std::vector<int64_t>& shape);
int64_t PixelClass(const OutputTask& task, const float* v, int64_t channels);

// The mean over classes with a union of intersection / union; NaN when
// no class has one.
double MeanIou(const std::vector<uint64_t>& intersection,
               const std::vector<uint64_t>& union_pixels);

// The 95th percentile (rank ceil(0.95 n)) of the histogram's values: the
// upper edge of the bucket holding it; NaN when empty.
double HistogramP95(const calibration::Histogram& h);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_TASK_METRICS_H_
