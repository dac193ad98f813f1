// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/task_kind.h"

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "formats/tflite_metadata.h"
#include "ir/graph.h"
#include "report/class_output.h"

namespace qforge::report {
namespace {

constexpr char kPostProcess[] = "TFLite_Detection_PostProcess";

// The smallest side of a map the report calls a segmentation.
constexpr int64_t kMinMapSide = 8;

std::vector<int64_t> StaticShape(const ir::Subgraph& sg, int32_t t) {
  std::vector<int64_t> shape;
  if (t < 0 || static_cast<size_t>(t) >= sg.tensors.size()) return shape;
  for (int32_t d : sg.tensors[static_cast<size_t>(t)].shape) shape.push_back(d);
  return shape;
}

// The dims other than leading 1s.
std::vector<int64_t> WithoutLeadingOnes(const std::vector<int64_t>& shape) {
  size_t k = 0;
  while (k + 1 < shape.size() && shape[k] == 1) ++k;
  return std::vector<int64_t>(shape.begin() + static_cast<long>(k),
                              shape.end());
}

// The op that computed tensor `t`'s values, looking back through ops that
// only reshape (kShapeOnly) or re-encode (kConverter) them; -1: none.
int SourceOp(const ir::Subgraph& sg, const ir::Graph& graph, int32_t t) {
  for (int hop = 0; hop < 8; ++hop) {  // bounded: a cycle cannot hang
    const int producer = graph.producer(t);
    if (producer < 0) return -1;
    const ir::Operator& op = sg.operators[static_cast<size_t>(producer)];
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    if (op.inputs.empty() || (!info.Has(ir::op_flags::kShapeOnly) &&
                              !info.Has(ir::op_flags::kConverter))) {
      return producer;
    }
    t = op.inputs[0];
  }
  return -1;
}

// Whether the values are logits: not made by LOGISTIC, whose output is
// already the probability a 0.5 threshold applies to.
bool AreLogits(const ir::Subgraph& sg, const ir::Graph& graph, int32_t t) {
  const int op = SourceOp(sg, graph, t);
  return op < 0 ||
         sg.operators[static_cast<size_t>(op)].kind != ir::OpKind::kLogistic;
}

// Values per point of a flat landmark vector of `k` values: x, y, z
// triples of at least 2 points (0: not landmarks; a flat vector of pairs
// is as likely an embedding, so it takes --task).
int FlatStride(int64_t k) {
  if (k >= 6 && k % 3 == 0) return 3;
  return 0;
}

}  // namespace

const char* TaskKindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kNone:
      return "none";
    case TaskKind::kClassification:
      return "classification";
    case TaskKind::kSegmentation:
      return "segmentation";
    case TaskKind::kLandmarks:
      return "landmarks";
    case TaskKind::kDetection:
      return "detection";
    case TaskKind::kScore:
      return "score";
  }
  return "none";
}

absl::StatusOr<TaskKind> ParseTaskKind(std::string_view name) {
  for (TaskKind k :
       {TaskKind::kNone, TaskKind::kClassification, TaskKind::kSegmentation,
        TaskKind::kLandmarks, TaskKind::kDetection, TaskKind::kScore}) {
    if (name == TaskKindName(k)) return k;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("task kind '", std::string(name),
                   "': expected classification, segmentation, landmarks, "
                   "detection, score or none"));
}

absl::StatusOr<TaskOverride> ParseTaskOverride(const std::string& text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--task ", text, ": expected OUTPUT=KIND"));
  }
  TaskOverride o;
  o.output = text.substr(0, eq);
  absl::StatusOr<TaskKind> kind = ParseTaskKind(text.substr(eq + 1));
  if (!kind.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--task ", text, ": ", kind.status().message()));
  }
  o.kind = *kind;
  return o;
}

absl::StatusOr<std::vector<OutputTask>> DetectTasks(
    const ir::Model& float_model, const std::vector<TaskOverride>& overrides) {
  if (float_model.subgraphs.empty()) return std::vector<OutputTask>{};
  const ir::Subgraph& sg = float_model.subgraphs[0];
  const ir::Graph graph(sg);
  const size_t n = sg.outputs.size();
  std::vector<OutputTask> tasks(n);
  std::vector<std::vector<int64_t>> shapes(n);
  for (size_t j = 0; j < n; ++j) shapes[j] = StaticShape(sg, sg.outputs[j]);
  // tflite-support's metadata names its task library's outputs:
  // "probability" (image classifier), "segmentation_masks" (segmenter).
  std::vector<std::string> meta = formats::ReadOutputNames(float_model);
  meta.resize(n);
  for (std::string& name : meta) name = absl::AsciiStrToLower(name);

  // TFLite_Detection_PostProcess: outputs 0..3 of the op are boxes,
  // classes, scores and the detection count.
  std::vector<OutputTask> detection(n);  // a detection group, by output
  for (size_t j = 0; j < n; ++j) {
    const int producer = graph.producer(sg.outputs[j]);
    if (producer < 0 ||
        sg.operators[static_cast<size_t>(producer)].custom_code !=
            kPostProcess) {
      continue;
    }
    OutputTask group;
    group.kind = TaskKind::kDetection;
    group.postprocess = true;
    for (size_t i = 0; i < n; ++i) {
      if (graph.producer(sg.outputs[i]) != producer) continue;
      switch (graph.producer_output(sg.outputs[i])) {
        case 0:
          group.boxes = static_cast<int>(i);
          break;
        case 1:
          group.classes = static_cast<int>(i);
          break;
        case 2:
          group.scores = static_cast<int>(i);
          break;
        case 3:
          group.count = static_cast<int>(i);
          break;
      }
    }
    if (group.boxes < 0 || group.scores < 0) continue;
    detection[j] = group;
    const int k = graph.producer_output(sg.outputs[j]);
    detection[j].role = k == 0   ? DetectionRole::kBoxes
                        : k == 1 ? DetectionRole::kClasses
                        : k == 2 ? DetectionRole::kScores
                        : k == 3 ? DetectionRole::kCount
                                 : DetectionRole::kNone;
  }
  // Raw per-anchor detectors (MediaPipe's BlazeFace, palm, pose): boxes
  // [1, N, K >= 4] and scores [1, N, 1] (or [1, N]) of the same N.
  for (size_t j = 0; j < n; ++j) {
    const std::vector<int64_t>& b = shapes[j];
    if (detection[j].kind != TaskKind::kNone || b.size() != 3 || b[0] != 1 ||
        b[1] < 2 || b[2] < 4) {
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      const std::vector<int64_t>& s = shapes[i];
      const bool scores = i != j && detection[i].kind == TaskKind::kNone &&
                          s.size() >= 2 && s.size() <= 3 && s[0] == 1 &&
                          s[1] == b[1] && (s.size() == 2 || s[2] == 1);
      if (!scores) continue;
      OutputTask group;
      group.kind = TaskKind::kDetection;
      group.boxes = static_cast<int>(j);
      group.scores = static_cast<int>(i);
      group.logits = AreLogits(sg, graph, sg.outputs[i]);
      detection[j] = group;
      detection[j].role = DetectionRole::kBoxes;
      detection[i] = group;
      detection[i].role = DetectionRole::kScores;
      break;
    }
  }

  for (size_t j = 0; j < n; ++j) {
    OutputTask& t = tasks[j];
    const std::vector<int64_t>& shape = shapes[j];
    const std::vector<int64_t> core = WithoutLeadingOnes(shape);
    int64_t elements = shape.empty() ? 0 : 1;
    for (int64_t d : shape) elements *= d;
    if (detection[j].kind == TaskKind::kDetection) {
      t = detection[j];
    } else if (ScoresClasses(sg, static_cast<int>(j)) ||
               meta[j] == "probability" || meta[j] == "probabilities") {
      t.kind = TaskKind::kClassification;
    } else if (absl::StrContains(meta[j], "segmentation") ||
               meta[j] == "mask" || meta[j] == "masks") {
      t.kind = TaskKind::kSegmentation;
      t.logits = AreLogits(sg, graph, sg.outputs[j]);
    } else if (elements == 1) {
      t.kind = TaskKind::kScore;
      t.logits = AreLogits(sg, graph, sg.outputs[j]);
    } else if ((shape.size() == 4 || shape.size() == 3) && shape[0] == 1 &&
               shape[1] >= kMinMapSide && shape[2] >= kMinMapSide) {
      t.kind = TaskKind::kSegmentation;
      t.logits = AreLogits(sg, graph, sg.outputs[j]);
    } else if (core.size() == 1 && FlatStride(core[0]) > 0) {
      t.kind = TaskKind::kLandmarks;
      t.point_stride = FlatStride(core[0]);
    } else if (core.size() == 2 && core[0] >= 2 &&
               (core[1] == 2 || core[1] == 3)) {
      t.kind = TaskKind::kLandmarks;
      t.point_stride = static_cast<int>(core[1]);
    }
  }
  // A model with landmarks and [1, H, W, C] maps of C channels where a
  // landmark vector holds C points (BlazePose: 39 points of x, y, z,
  // visibility, presence, and 39 heatmaps): the maps are the points'
  // heatmaps, not a segmentation, and the points are K / C values each.
  for (size_t j = 0; j < n; ++j) {
    if (tasks[j].kind != TaskKind::kSegmentation || shapes[j].size() != 4 ||
        shapes[j][3] < 2) {
      continue;
    }
    const int64_t c = shapes[j][3];
    bool heatmap = false;
    for (size_t i = 0; i < n; ++i) {
      if (tasks[i].kind != TaskKind::kLandmarks) continue;
      const std::vector<int64_t> core = WithoutLeadingOnes(shapes[i]);
      if (core.size() == 1 && core[0] % c == 0 && core[0] / c >= 2 &&
          core[0] / c <= 5) {
        tasks[i].point_stride = static_cast<int>(core[0] / c);
        heatmap = true;
      }
    }
    if (heatmap) tasks[j] = OutputTask{};
  }

  for (const TaskOverride& o : overrides) {
    int j = -1;
    for (size_t i = 0; i < n; ++i) {
      const int32_t t = sg.outputs[i];
      if (t >= 0 && static_cast<size_t>(t) < sg.tensors.size() &&
          sg.tensors[static_cast<size_t>(t)].name == o.output) {
        j = static_cast<int>(i);
      }
    }
    int index = 0;
    if (j < 0 && absl::SimpleAtoi(o.output, &index) && index >= 0 &&
        static_cast<size_t>(index) < n) {
      j = index;
    }
    if (j < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--task ", o.output, "=", TaskKindName(o.kind),
          ": the model has no output of that name or index (", n, " outputs)"));
    }
    OutputTask& t = tasks[static_cast<size_t>(j)];
    const int32_t tensor = sg.outputs[static_cast<size_t>(j)];
    if (o.kind == TaskKind::kDetection) {
      if (detection[static_cast<size_t>(j)].kind != TaskKind::kDetection) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--task ", o.output,
            "=detection: the output is not part of a boxes/scores pair "
            "([1, N, K >= 4] and [1, N, 1]) or of "
            "TFLite_Detection_PostProcess's outputs"));
      }
      t = detection[static_cast<size_t>(j)];
    } else {
      t = OutputTask{};
      t.kind = o.kind;
      t.logits = AreLogits(sg, graph, tensor);
      if (o.kind == TaskKind::kLandmarks) {
        const std::vector<int64_t> core =
            WithoutLeadingOnes(shapes[static_cast<size_t>(j)]);
        t.point_stride = core.size() == 2 && core[1] >= 2 && core[1] <= 5
                             ? static_cast<int>(core[1])
                         : !core.empty() && core.back() % 3 == 0 ? 3
                                                                 : 2;
      }
    }
    t.overridden = true;
  }
  // A group whose boxes were overridden to something else is no group.
  for (size_t j = 0; j < n; ++j) {
    OutputTask& t = tasks[j];
    if (t.kind != TaskKind::kDetection || t.role == DetectionRole::kBoxes)
      continue;
    if (t.boxes < 0 ||
        tasks[static_cast<size_t>(t.boxes)].kind != TaskKind::kDetection) {
      const bool overridden = t.overridden;
      t = OutputTask{};
      t.overridden = overridden;
    }
  }
  return tasks;
}

}  // namespace qforge::report
