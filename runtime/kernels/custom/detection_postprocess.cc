// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite_Detection_PostProcess (float), following TFLite's
// kernels/detection_postprocess.cc:
//   inputs  box_encodings [1, N, >=4] (y, x, h, w per anchor),
//           class_predictions [1, N, C (+1 background)], anchors [N, 4]
//           (ycenter, xcenter, h, w)
//   outputs boxes [1, D, 4] (ymin, xmin, ymax, xmax), classes [1, D],
//           scores [1, D], num_detections [1]; D = max_detections *
//           max_classes_per_detection; all float32.
// Options (flexbuffer map): max_detections, max_classes_per_detection,
// detections_per_class (default 100), use_regular_nms (default false),
// nms_score_threshold, nms_iou_threshold, num_classes, y/x/h/w_scale.
//
// 1. Decode every anchor's box in double, as TFLite:
//      yc = y / y_scale * a.h + a.y   xc = x / x_scale * a.w + a.x
//      half_h = 0.5 * exp(h / h_scale) * a.h (w alike)
//    A box with ymin > ymax or xmin > xmax is an error (as in TFLite).
// 2. Single-class NMS (both modes): keep scores >= the score threshold,
//    order them by decreasing score (equal scores: lower anchor first, a
//    stable sort as TFLite's), then greedily select, dropping every later
//    box whose IoU with a selected one exceeds the IoU threshold.
// 3. Fast mode: each anchor is ranked by its best class score; up to
//    max_detections anchors selected, each reported with its top
//    min(max_classes_per_detection, num_classes) classes.
//    Regular mode: NMS per class (up to detections_per_class each), the
//    running top max_detections over classes kept by decreasing score.
// Slots past the detections are zero (TFLite leaves them unwritten in fast
// mode). Partial sorts break ties by the lower index; TFLite's
// std::partial_sort leaves equal scores in an unspecified order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "flatbuffers/flexbuffers.h"
#include "runtime/kernels/custom/custom.h"

namespace qforge::runtime {
namespace {

struct Box {
  float ymin, xmin, ymax, xmax;
};

struct DetectionState : KernelState {
  // Options.
  int max_detections = 0, max_classes_per_detection = 0;
  int detections_per_class = 100;
  bool regular = false;
  float score_threshold = 0.f, iou_threshold = 0.f;
  int num_classes = 0;
  double y_scale = 0, x_scale = 0, h_scale = 0, w_scale = 0;
  // Shapes.
  int64_t num_boxes = 0, encoding_size = 0, classes_with_background = 0;
  int label_offset = 0;
  // Scratch, sized in prepare.
  std::vector<Box> boxes;               // [N] decoded
  std::vector<float> candidate_scores;  // [N] one class, or best per anchor
  std::vector<int> keep, order, selected;
  std::vector<uint8_t> active;
  std::vector<int> class_order;  // fast: [N][num_classes] top classes
  std::vector<int> top_index;    // regular: [N + D] box * C + class
  std::vector<float> top_score;  // regular: [N + D]
  std::vector<int> merge_order;  // regular: [N + D]
  std::vector<int> tmp_index;
  std::vector<float> tmp_score;
};

// Index order of `values[0..n)` by decreasing value, ties by lower index;
// only the first `k` positions are sorted.
void DecreasingOrder(const float* values, int n, int k, int* order) {
  std::iota(order, order + n, 0);
  auto cmp = [values](int i, int j) {
    return values[i] > values[j] || (values[i] == values[j] && i < j);
  };
  if (k >= n) {
    std::sort(order, order + n, cmp);
  } else {
    std::partial_sort(order, order + k, order + n, cmp);
  }
}

float IoU(const Box& a, const Box& b) {
  const float area_a = (a.ymax - a.ymin) * (a.xmax - a.xmin);
  const float area_b = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  if (area_a <= 0 || area_b <= 0) return 0.f;
  const float ymin = std::max(a.ymin, b.ymin);
  const float xmin = std::max(a.xmin, b.xmin);
  const float ymax = std::min(a.ymax, b.ymax);
  const float xmax = std::min(a.xmax, b.xmax);
  const float inter = std::max(ymax - ymin, 0.f) * std::max(xmax - xmin, 0.f);
  return inter / (area_a + area_b - inter);
}

// NMS over s.candidate_scores: fills s.selected (anchor indices, at most
// `limit`).
void SingleClassNms(DetectionState& s, int limit) {
  const int n = static_cast<int>(s.num_boxes);
  s.keep.clear();
  for (int i = 0; i < n; ++i) {
    if (s.candidate_scores[static_cast<size_t>(i)] >= s.score_threshold) {
      s.keep.push_back(i);
    }
  }
  const int kept = static_cast<int>(s.keep.size());
  // Kept scores in order, then their decreasing order.
  for (int i = 0; i < kept; ++i) {
    s.tmp_score[static_cast<size_t>(i)] =
        s.candidate_scores[static_cast<size_t>(s.keep[static_cast<size_t>(i)])];
  }
  DecreasingOrder(s.tmp_score.data(), kept, kept, s.order.data());
  s.selected.clear();
  const int output_size = std::min(kept, limit);
  std::fill(s.active.begin(), s.active.begin() + kept, uint8_t{1});
  int num_active = kept;
  for (int i = 0; i < kept; ++i) {
    if (num_active == 0 || static_cast<int>(s.selected.size()) >= output_size)
      break;
    if (!s.active[static_cast<size_t>(i)]) continue;
    const int box_i =
        s.keep[static_cast<size_t>(s.order[static_cast<size_t>(i)])];
    s.selected.push_back(box_i);
    s.active[static_cast<size_t>(i)] = 0;
    --num_active;
    for (int j = i + 1; j < kept; ++j) {
      if (!s.active[static_cast<size_t>(j)]) continue;
      const int box_j =
          s.keep[static_cast<size_t>(s.order[static_cast<size_t>(j)])];
      if (IoU(s.boxes[static_cast<size_t>(box_i)],
              s.boxes[static_cast<size_t>(box_j)]) > s.iou_threshold) {
        s.active[static_cast<size_t>(j)] = 0;
        --num_active;
      }
    }
  }
}

struct Outputs {
  Box* boxes;
  float* classes;
  float* scores;
};

int FastNms(DetectionState& s, const float* scores, const Outputs& out) {
  const int n = static_cast<int>(s.num_boxes);
  const int per_anchor = std::min(s.max_classes_per_detection, s.num_classes);
  for (int row = 0; row < n; ++row) {
    const float* row_scores =
        scores + row * s.classes_with_background + s.label_offset;
    int* order =
        s.class_order.data() + static_cast<size_t>(row) * s.num_classes;
    DecreasingOrder(row_scores, s.num_classes, per_anchor, order);
    s.candidate_scores[static_cast<size_t>(row)] = row_scores[order[0]];
  }
  SingleClassNms(s, s.max_detections);
  int count = 0;
  for (int anchor : s.selected) {
    const float* row_scores =
        scores + anchor * s.classes_with_background + s.label_offset;
    const int* order =
        s.class_order.data() + static_cast<size_t>(anchor) * s.num_classes;
    for (int col = 0; col < per_anchor; ++col) {
      const int slot = s.max_classes_per_detection * count + col;
      out.boxes[slot] = s.boxes[static_cast<size_t>(anchor)];
      out.classes[slot] = static_cast<float>(order[col]);
      out.scores[slot] = row_scores[order[col]];
    }
    ++count;
  }
  return count;
}

int RegularNms(DetectionState& s, const float* scores, const Outputs& out) {
  const int n = static_cast<int>(s.num_boxes);
  const int64_t C = s.classes_with_background;
  int num_top = 0;  // entries of the running top list
  for (int col = 0; col < s.num_classes; ++col) {
    for (int row = 0; row < n; ++row) {
      s.candidate_scores[static_cast<size_t>(row)] =
          scores[row * C + col + s.label_offset];
    }
    SingleClassNms(s, s.detections_per_class);
    int count = num_top;
    for (int anchor : s.selected) {
      s.top_index[static_cast<size_t>(count)] =
          static_cast<int>(anchor * C + col + s.label_offset);
      s.top_score[static_cast<size_t>(count)] =
          s.candidate_scores[static_cast<size_t>(anchor)];
      ++count;
    }
    const int keep = std::min(count, s.max_detections);
    DecreasingOrder(s.top_score.data(), count, keep, s.merge_order.data());
    for (int r = 0; r < keep; ++r) {
      const size_t from =
          static_cast<size_t>(s.merge_order[static_cast<size_t>(r)]);
      s.tmp_index[static_cast<size_t>(r)] = s.top_index[from];
      s.tmp_score[static_cast<size_t>(r)] = s.top_score[from];
    }
    std::copy_n(s.tmp_index.begin(), keep, s.top_index.begin());
    std::copy_n(s.tmp_score.begin(), keep, s.top_score.begin());
    num_top = keep;
  }
  for (int r = 0; r < num_top; ++r) {
    const int index = s.top_index[static_cast<size_t>(r)];
    const int anchor = static_cast<int>(index / C);
    out.boxes[r] = s.boxes[static_cast<size_t>(anchor)];
    out.classes[r] = static_cast<float>(index - anchor * C - s.label_offset);
    out.scores[r] = s.top_score[static_cast<size_t>(r)];
  }
  return num_top;
}

absl::Status ReadOptions(const OpContext& ctx, DetectionState* s) {
  const std::vector<uint8_t>& bytes = ctx.op().custom_options;
  if (bytes.empty() || !flexbuffers::VerifyBuffer(bytes.data(), bytes.size())) {
    return ctx.Error("custom options are missing or not a flexbuffer");
  }
  const flexbuffers::Reference root =
      flexbuffers::GetRoot(bytes.data(), bytes.size());
  if (!root.IsMap())
    return ctx.Error("custom options are not a flexbuffer map");
  const flexbuffers::Map m = root.AsMap();
  for (const char* key :
       {"max_detections", "max_classes_per_detection", "nms_score_threshold",
        "nms_iou_threshold", "num_classes", "y_scale", "x_scale", "h_scale",
        "w_scale"}) {
    if (m[key].IsNull()) {
      return ctx.Error(absl::StrCat("custom option '", key, "' is missing"));
    }
  }
  s->max_detections = m["max_detections"].AsInt32();
  s->max_classes_per_detection = m["max_classes_per_detection"].AsInt32();
  if (!m["detections_per_class"].IsNull()) {
    s->detections_per_class = m["detections_per_class"].AsInt32();
  }
  if (!m["use_regular_nms"].IsNull())
    s->regular = m["use_regular_nms"].AsBool();
  s->score_threshold = m["nms_score_threshold"].AsFloat();
  s->iou_threshold = m["nms_iou_threshold"].AsFloat();
  s->num_classes = m["num_classes"].AsInt32();
  s->y_scale = m["y_scale"].AsFloat();
  s->x_scale = m["x_scale"].AsFloat();
  s->h_scale = m["h_scale"].AsFloat();
  s->w_scale = m["w_scale"].AsFloat();
  if (s->max_detections < 0 || s->max_classes_per_detection <= 0 ||
      s->detections_per_class <= 0 || s->num_classes <= 0) {
    return ctx.Error(absl::StrCat(
        "max_detections (", s->max_detections, "), max_classes_per_detection (",
        s->max_classes_per_detection, "), detections_per_class (",
        s->detections_per_class, ") and num_classes (", s->num_classes,
        ") must be positive"));
  }
  if (!(s->iou_threshold > 0.f && s->iou_threshold <= 1.f)) {
    return ctx.Error(absl::StrCat("nms_iou_threshold ", s->iou_threshold,
                                  " must be in (0, 1]"));
  }
  return absl::OkStatus();
}

absl::Status CheckFloat(const OpContext& ctx, const RtTensor* t, int rank,
                        const char* role) {
  if (t == nullptr) return ctx.Error(absl::StrCat(role, " is missing"));
  if (t->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat(role, " '", t->name(), "' is ",
                                        ir::DataTypeName(t->type),
                                        "; this kernel takes float32"));
  }
  if (t->rank() != rank) {
    return ctx.Error(absl::StrCat(role, " '", t->name(), "' has shape ",
                                  DimsString(t->shape), "; it must have rank ",
                                  rank));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareDetectionPostProcess(OpContext& ctx) {
  if (ctx.num_inputs() != 3 || ctx.num_outputs() != 4) {
    return ctx.Error(absl::StrCat("takes 3 inputs and 4 outputs; got ",
                                  ctx.num_inputs(), " and ",
                                  ctx.num_outputs()));
  }
  auto state = std::make_unique<DetectionState>();
  DetectionState& s = *state;
  RETURN_IF_ERROR(ReadOptions(ctx, &s));
  const RtTensor* enc = ctx.input(0);
  const RtTensor* cls = ctx.input(1);
  const RtTensor* anchors = ctx.input(2);
  RETURN_IF_ERROR(CheckFloat(ctx, enc, 3, "box_encodings"));
  RETURN_IF_ERROR(CheckFloat(ctx, cls, 3, "class_predictions"));
  RETURN_IF_ERROR(CheckFloat(ctx, anchors, 2, "anchors"));
  s.num_boxes = enc->dim(1);
  s.encoding_size = enc->dim(2);
  s.classes_with_background = cls->dim(2);
  if (enc->dim(0) != 1 || cls->dim(0) != 1 || s.encoding_size < 4 ||
      cls->dim(1) != s.num_boxes || anchors->dim(0) != s.num_boxes ||
      anchors->dim(1) != 4) {
    return ctx.Error(absl::StrCat(
        "box_encodings ", DimsString(enc->shape), ", class_predictions ",
        DimsString(cls->shape), " and anchors ", DimsString(anchors->shape),
        " must be [1, N, >=4], [1, N, C] and [N, 4]"));
  }
  const int64_t extra = s.classes_with_background - s.num_classes;
  if (extra < 0 || extra > 1) {
    return ctx.Error(absl::StrCat("class_predictions have ",
                                  s.classes_with_background,
                                  " classes; num_classes is ", s.num_classes,
                                  " (one background class at most)"));
  }
  s.label_offset = static_cast<int>(extra);
  for (int o = 0; o < 4; ++o) {
    if (ctx.output(o)->type != ir::DataType::kFloat32) {
      return ctx.Error(absl::StrCat("output ", o, " '", ctx.output(o)->name(),
                                    "' must be float32"));
    }
  }
  const int64_t n = s.num_boxes;
  const int64_t d =
      int64_t{s.max_detections} * int64_t{s.max_classes_per_detection};
  ctx.SetOutputShape(0, Dims{1, d, 4});
  ctx.SetOutputShape(1, Dims{1, d});
  ctx.SetOutputShape(2, Dims{1, d});
  ctx.SetOutputShape(3, Dims{1});
  const size_t un = static_cast<size_t>(n);
  const size_t top = un + static_cast<size_t>(s.max_detections);
  s.boxes.resize(un);
  s.candidate_scores.resize(un);
  s.keep.reserve(un);
  s.order.resize(un);
  s.selected.reserve(un);
  s.active.resize(un);
  s.tmp_score.resize(top);
  s.tmp_index.resize(top);
  if (s.regular) {
    s.top_index.resize(top);
    s.top_score.resize(top);
    s.merge_order.resize(top);
  } else {
    s.class_order.resize(un * static_cast<size_t>(s.num_classes));
  }
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalDetectionPostProcess(OpContext& ctx) {
  DetectionState* sp = ctx.state<DetectionState>();
  if (sp == nullptr) return ctx.Error("eval before prepare");
  DetectionState& s = *sp;
  const float* enc = ctx.input(0)->Data<float>();
  const float* anchors = ctx.input(2)->Data<float>();
  for (int64_t i = 0; i < s.num_boxes; ++i) {
    const float* e = enc + i * s.encoding_size;
    const float* a = anchors + i * 4;
    const double yc = e[0] / s.y_scale * a[2] + a[0];
    const double xc = e[1] / s.x_scale * a[3] + a[1];
    const double half_h = 0.5 * std::exp(e[2] / s.h_scale) * a[2];
    const double half_w = 0.5 * std::exp(e[3] / s.w_scale) * a[3];
    // TFLite rounds the center and the half sizes to float first.
    const float ycf = static_cast<float>(yc), xcf = static_cast<float>(xc);
    const float hh = static_cast<float>(half_h);
    const float hw = static_cast<float>(half_w);
    Box& b = s.boxes[static_cast<size_t>(i)];
    b = {ycf - hh, xcf - hw, ycf + hh, xcf + hw};
    if (b.ymin > b.ymax || b.xmin > b.xmax) {
      return ctx.Error(absl::StrCat("anchor ", i,
                                    " decodes to an inverted box (negative "
                                    "anchor height or width)"));
    }
  }
  Outputs out{reinterpret_cast<Box*>(ctx.output(0)->Data<float>()),
              ctx.output(1)->Data<float>(), ctx.output(2)->Data<float>()};
  const int64_t d = ctx.output(1)->NumElements();
  std::fill_n(ctx.output(0)->Data<float>(), d * 4, 0.f);
  std::fill_n(out.classes, d, 0.f);
  std::fill_n(out.scores, d, 0.f);
  const float* scores = ctx.input(1)->Data<float>();
  const int count =
      s.regular ? RegularNms(s, scores, out) : FastNms(s, scores, out);
  ctx.output(3)->Data<float>()[0] = static_cast<float>(count);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
