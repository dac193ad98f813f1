// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What each model output is for, so that the report can judge it by its
// task (task_metrics.h) and not only by SQNR: class scores, a segmentation
// map, landmark coordinates, detections, or a scalar score. Detected from
// the float model (output shapes, the op producing each output looked for
// back through ops that only reshape or re-encode, tensor names, the output
// names of tflite-support metadata, the outputs of
// TFLite_Detection_PostProcess) and overridable per output with
// `--task OUTPUT=KIND` (docs/report-json.md#task-metrics).
#ifndef QFORGE_REPORT_TASK_KIND_H_
#define QFORGE_REPORT_TASK_KIND_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"

namespace qforge::report {

enum class TaskKind {
  kNone,
  kClassification,
  kSegmentation,
  kLandmarks,
  kDetection,
  kScore
};

// "none", "classification", "segmentation", "landmarks", "detection",
// "score".
const char* TaskKindName(TaskKind kind);
absl::StatusOr<TaskKind> ParseTaskKind(std::string_view name);

// A detection output's part in its group.
enum class DetectionRole { kNone, kBoxes, kClasses, kScores, kCount };

struct OutputTask {
  TaskKind kind = TaskKind::kNone;
  bool overridden = false;  // by --task
  // The values are logits (no LOGISTIC makes them): the 0.5 decision and
  // mask thresholds apply after a sigmoid, i.e. at 0 on the values.
  bool logits = false;
  // Landmarks: values per point (x and y first).
  int point_stride = 0;
  // Detection: this output's role and its group's outputs (-1: none).
  // `postprocess`: the outputs of TFLite_Detection_PostProcess (boxes
  // [ymin, xmin, ymax, xmax], classes, scores, count); otherwise raw
  // per-anchor outputs (boxes [1, N, K >= 4] starting with x_center,
  // y_center, width, height relative to the anchor; scores [1, N, 1]).
  DetectionRole role = DetectionRole::kNone;
  bool postprocess = false;
  int boxes = -1, classes = -1, scores = -1, count = -1;
};

// --task OUTPUT=KIND: OUTPUT is an output's name or index.
struct TaskOverride {
  std::string output;
  TaskKind kind = TaskKind::kNone;
};
absl::StatusOr<TaskOverride> ParseTaskOverride(const std::string& text);

// Every output of subgraph 0 of the float model, in order. An override
// naming no output, or asking for detection where no boxes/scores pair
// (or PostProcess group) holds the output, is InvalidArgument.
absl::StatusOr<std::vector<OutputTask>> DetectTasks(
    const ir::Model& float_model, const std::vector<TaskOverride>& overrides);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_TASK_KIND_H_
