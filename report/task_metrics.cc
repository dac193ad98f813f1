// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/task_metrics.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace qforge::report {
namespace {

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// A value as a probability: the sigmoid of a logit.
double Probability(float v, bool logits) {
  return logits ? Sigmoid(v) : static_cast<double>(v);
}

// Positive: probability > 0.5; for a logit that is value > 0, decided on
// the value so that rounding in the sigmoid cannot flip it.
bool Positive(float v, bool logits) {
  return logits ? v > 0.0f : v > kTaskThreshold;
}

double Ratio(uint64_t a, uint64_t b) {
  return b == 0 ? TaskResult::kNaN
                : static_cast<double>(a) / static_cast<double>(b);
}

int64_t ArgMaxOf(const float* v, int64_t n) {
  int64_t best = 0;
  for (int64_t i = 1; i < n; ++i) {
    if (v[i] > v[best]) best = i;
  }
  return best;
}

void AddClassification(const OutputValues& o, int64_t label, TaskSums& s) {
  const std::vector<float>& f = *o.f;
  const std::vector<float>& q = *o.q;
  if (f.size() < 2 || label < 0) return;
  ++s.labeled;
  const int64_t n = static_cast<int64_t>(f.size());
  s.float_correct += ArgMaxOf(f.data(), n) == label;
  s.quant_correct += ArgMaxOf(q.data(), n) == label;
}

void AddSegmentation(const OutputTask& task, const OutputValues& o,
                     TaskSums& s) {
  const std::vector<float>& f = *o.f;
  const std::vector<float>& q = *o.q;
  const int64_t c = SegmentationChannels(o.shape);
  const int64_t classes = std::max<int64_t>(2, c);
  if (static_cast<int64_t>(s.intersection.size()) < classes) {
    s.intersection.resize(static_cast<size_t>(classes), 0);
    s.union_pixels.resize(static_cast<size_t>(classes), 0);
  }
  const int64_t pixels = static_cast<int64_t>(f.size()) / c;
  for (int64_t p = 0; p < pixels; ++p) {
    const int64_t a = PixelClass(task, f.data() + p * c, c);
    const int64_t b = PixelClass(task, q.data() + p * c, c);
    ++s.pixels;
    ++s.union_pixels[static_cast<size_t>(a)];
    if (a == b) {
      ++s.pixels_agree;
      ++s.intersection[static_cast<size_t>(a)];
    } else {
      ++s.union_pixels[static_cast<size_t>(b)];
    }
  }
}

void AddLandmarks(const OutputTask& task, const OutputValues& o, TaskSums& s) {
  const std::vector<float>& f = *o.f;
  const std::vector<float>& q = *o.q;
  const size_t stride = static_cast<size_t>(std::max(2, task.point_stride));
  for (size_t p = 0; p + stride <= f.size(); p += stride) {
    const double dx = static_cast<double>(q[p]) - f[p];
    const double dy = static_cast<double>(q[p + 1]) - f[p + 1];
    const double e = std::sqrt(dx * dx + dy * dy);
    if (!std::isfinite(e)) continue;
    ++s.points;
    s.point_error.Add(e);
    s.point_errors.Add(calibration::BucketOf(static_cast<float>(e)));
  }
}

// IoU of two boxes given by their edges (lo < hi on each axis).
double IouEdges(double ay0, double ax0, double ay1, double ax1, double by0,
                double bx0, double by1, double bx1) {
  const double ih = std::min(ay1, by1) - std::max(ay0, by0);
  const double iw = std::min(ax1, bx1) - std::max(ax0, bx0);
  if (!(ih > 0) || !(iw > 0)) return 0;
  const double inter = ih * iw;
  const double area_a = (ay1 - ay0) * (ax1 - ax0);
  const double area_b = (by1 - by0) * (bx1 - bx0);
  const double uni = area_a + area_b - inter;
  return uni > 0 ? inter / uni : 0;
}

// [ymin, xmin, ymax, xmax] boxes (TFLite_Detection_PostProcess).
double IouCorners(const float* a, const float* b) {
  return IouEdges(std::min(a[0], a[2]), std::min(a[1], a[3]),
                  std::max(a[0], a[2]), std::max(a[1], a[3]),
                  std::min(b[0], b[2]), std::min(b[1], b[3]),
                  std::max(b[0], b[2]), std::max(b[1], b[3]));
}

// [x_center, y_center, width, height] boxes relative to the same anchor:
// IoU does not change under the anchor's translation and a common scale,
// so the raw values give the decoded boxes' IoU.
double IouCenters(const float* a, const float* b) {
  auto edges = [](const float* v, double e[4]) {
    const double w = std::abs(static_cast<double>(v[2]));
    const double h = std::abs(static_cast<double>(v[3]));
    e[0] = v[1] - h / 2;
    e[1] = v[0] - w / 2;
    e[2] = v[1] + h / 2;
    e[3] = v[0] + w / 2;
  };
  double x[4], y[4];
  edges(a, x);
  edges(b, y);
  return IouEdges(x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]);
}

void AddRawDetection(const OutputTask& task, const OutputValues& boxes,
                     const OutputValues& scores, TaskSums& s) {
  const size_t n = scores.f->size();
  if (n == 0 || boxes.f->size() % n != 0) return;
  const size_t k = boxes.f->size() / n;
  if (k < 4) return;
  for (size_t i = 0; i < n; ++i) {
    const float sf = (*scores.f)[i], sq = (*scores.q)[i];
    if (!Positive(sf, task.logits)) continue;
    ++s.reference;
    if (!Positive(sq, task.logits)) continue;
    const double iou =
        IouCenters(boxes.f->data() + i * k, boxes.q->data() + i * k);
    if (!(iou >= kMatchIou)) continue;
    ++s.matched;
    s.match_iou.Add(iou);
    s.score_error.Add(
        std::abs(Probability(sq, task.logits) - Probability(sf, task.logits)));
  }
}

void AddPostProcess(const OutputTask& task,
                    const std::vector<OutputValues>& outputs, TaskSums& s) {
  auto values = [&](int j, bool quant) -> const std::vector<float>* {
    if (j < 0 || static_cast<size_t>(j) >= outputs.size()) return nullptr;
    return quant ? outputs[static_cast<size_t>(j)].q
                 : outputs[static_cast<size_t>(j)].f;
  };
  // The detections a user keeps: the first `count`, score > 0.5.
  auto kept = [&](bool quant) {
    std::vector<size_t> out;
    const std::vector<float>* boxes = values(task.boxes, quant);
    const std::vector<float>* scores = values(task.scores, quant);
    const std::vector<float>* count = values(task.count, quant);
    if (boxes == nullptr || scores == nullptr) return out;
    size_t n = std::min(scores->size(), boxes->size() / 4);
    if (count != nullptr && !count->empty() && (*count)[0] >= 0 &&
        (*count)[0] < static_cast<float>(n)) {
      n = static_cast<size_t>((*count)[0]);
    }
    for (size_t i = 0; i < n; ++i) {
      if ((*scores)[i] > kTaskThreshold) out.push_back(i);
    }
    return out;
  };
  const std::vector<size_t> ref = kept(false), cand = kept(true);
  s.reference += ref.size();
  const std::vector<float>& fb = *values(task.boxes, false);
  const std::vector<float>& qb = *values(task.boxes, true);
  const std::vector<float>* fc = values(task.classes, false);
  const std::vector<float>* qc = values(task.classes, true);
  // (IoU, float index, quantized index), best first; ties by index.
  std::vector<std::tuple<double, size_t, size_t>> pairs;
  for (size_t a : ref) {
    for (size_t b : cand) {
      if (fc != nullptr && qc != nullptr && a < fc->size() && b < qc->size() &&
          (*fc)[a] != (*qc)[b]) {
        continue;
      }
      const double iou = IouCorners(fb.data() + 4 * a, qb.data() + 4 * b);
      if (iou >= kMatchIou) pairs.emplace_back(iou, a, b);
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    if (std::get<0>(x) != std::get<0>(y))
      return std::get<0>(x) > std::get<0>(y);
    return std::make_pair(std::get<1>(x), std::get<2>(x)) <
           std::make_pair(std::get<1>(y), std::get<2>(y));
  });
  std::vector<bool> used_f(fb.size() / 4 + 1, false),
      used_q(qb.size() / 4 + 1, false);
  const std::vector<float>& fs = *values(task.scores, false);
  const std::vector<float>& qs = *values(task.scores, true);
  for (const auto& [iou, a, b] : pairs) {
    if (used_f[a] || used_q[b]) continue;
    used_f[a] = used_q[b] = true;
    ++s.matched;
    s.match_iou.Add(iou);
    s.score_error.Add(std::abs(static_cast<double>(qs[b]) - fs[a]));
  }
}

void AddScore(const OutputTask& task, const OutputValues& o, TaskSums& s) {
  const std::vector<float>& f = *o.f;
  const std::vector<float>& q = *o.q;
  for (size_t i = 0; i < f.size(); ++i) {
    const double pf = Probability(f[i], task.logits);
    const double pq = Probability(q[i], task.logits);
    if (!std::isfinite(pf) || !std::isfinite(pq)) continue;
    ++s.decisions;
    s.decisions_agree +=
        Positive(f[i], task.logits) == Positive(q[i], task.logits);
    s.abs_error.Add(std::abs(pq - pf));
  }
}

}  // namespace

int64_t SegmentationChannels(const std::vector<int64_t>& shape) {
  return shape.size() == 4 ? std::max<int64_t>(1, shape[3]) : 1;
}

int64_t PixelClass(const OutputTask& task, const float* v, int64_t channels) {
  if (channels >= 2) return ArgMaxOf(v, channels);
  return Positive(v[0], task.logits) ? 1 : 0;
}

void TaskSums::Merge(const TaskSums& o) {
  samples += o.samples;
  labeled += o.labeled;
  float_correct += o.float_correct;
  quant_correct += o.quant_correct;
  pixels += o.pixels;
  pixels_agree += o.pixels_agree;
  if (intersection.size() < o.intersection.size()) {
    intersection.resize(o.intersection.size(), 0);
    union_pixels.resize(o.intersection.size(), 0);
  }
  for (size_t c = 0; c < o.intersection.size(); ++c) {
    intersection[c] += o.intersection[c];
    union_pixels[c] += o.union_pixels[c];
  }
  label_pixels += o.label_pixels;
  label_ignored += o.label_ignored;
  auto add = [](std::vector<uint64_t>& into, const std::vector<uint64_t>& v) {
    if (into.size() < v.size()) into.resize(v.size(), 0);
    for (size_t c = 0; c < v.size(); ++c) into[c] += v[c];
  };
  add(label_float_intersection, o.label_float_intersection);
  add(label_float_union, o.label_float_union);
  add(label_quant_intersection, o.label_quant_intersection);
  add(label_quant_union, o.label_quant_union);
  points += o.points;
  point_error.Merge(o.point_error);
  point_errors.Merge(o.point_errors);
  reference += o.reference;
  matched += o.matched;
  match_iou.Merge(o.match_iou);
  score_error.Merge(o.score_error);
  decisions += o.decisions;
  decisions_agree += o.decisions_agree;
  abs_error.Merge(o.abs_error);
}

void AddTaskSample(const OutputTask& task, int output,
                   const std::vector<OutputValues>& outputs, int64_t label,
                   TaskSums& sums) {
  if (output < 0 || static_cast<size_t>(output) >= outputs.size()) return;
  const OutputValues& o = outputs[static_cast<size_t>(output)];
  if (o.f == nullptr || o.q == nullptr || o.f->size() != o.q->size()) return;
  switch (task.kind) {
    case TaskKind::kNone:
      return;
    case TaskKind::kClassification:
      AddClassification(o, label, sums);
      break;
    case TaskKind::kSegmentation:
      AddSegmentation(task, o, sums);
      break;
    case TaskKind::kLandmarks:
      AddLandmarks(task, o, sums);
      break;
    case TaskKind::kDetection: {
      if (task.role != DetectionRole::kBoxes) return;
      for (int j : {task.boxes, task.scores, task.classes, task.count}) {
        if (j < 0) continue;
        if (static_cast<size_t>(j) >= outputs.size()) return;
        const OutputValues& v = outputs[static_cast<size_t>(j)];
        if (v.f == nullptr || v.q == nullptr || v.f->size() != v.q->size())
          return;
      }
      if (task.postprocess) {
        AddPostProcess(task, outputs, sums);
      } else {
        AddRawDetection(task, o, outputs[static_cast<size_t>(task.scores)],
                        sums);
      }
      break;
    }
    case TaskKind::kScore:
      AddScore(task, o, sums);
      break;
  }
  ++sums.samples;
}

double MeanIou(const std::vector<uint64_t>& intersection,
               const std::vector<uint64_t>& union_pixels) {
  double iou = 0;
  int used = 0;
  for (size_t c = 0; c < intersection.size() && c < union_pixels.size(); ++c) {
    if (union_pixels[c] == 0) continue;
    iou += Ratio(intersection[c], union_pixels[c]);
    ++used;
  }
  return used > 0 ? iou / used : TaskResult::kNaN;
}

double HistogramP95(const calibration::Histogram& h) {
  const uint64_t total = h.Total();
  if (total == 0) return TaskResult::kNaN;
  // ceil(0.95 n) in integers.
  const uint64_t rank = (95 * total + 99) / 100;
  uint64_t seen = 0;
  for (const calibration::Bin& b : h.SortedBins()) {
    seen += b.count;
    if (seen >= rank) return b.lo < 0 ? 0.0 : b.hi;  // the zero bin: 0
  }
  return TaskResult::kNaN;
}

TaskResult FinishTask(const OutputTask& task, const TaskSums& s) {
  TaskResult r;
  r.kind = task.kind;
  r.overridden = task.overridden;
  r.role = task.role;
  r.boxes = task.boxes;
  r.logits = task.logits;
  r.samples = s.samples;
  r.labeled = s.labeled;
  r.float_accuracy = Ratio(s.float_correct, s.labeled);
  r.quant_accuracy = Ratio(s.quant_correct, s.labeled);
  r.pixels = s.pixels;
  r.classes = static_cast<int64_t>(s.intersection.size());
  r.mask_agreement = Ratio(s.pixels_agree, s.pixels);
  r.mean_iou = MeanIou(s.intersection, s.union_pixels);
  r.label_pixels = s.label_pixels;
  r.label_ignored = s.label_ignored;
  r.float_label_miou = MeanIou(s.label_float_intersection, s.label_float_union);
  r.quant_label_miou = MeanIou(s.label_quant_intersection, s.label_quant_union);
  r.points = s.points;
  r.point_stride = task.point_stride;
  if (s.points > 0) {
    r.point_error_mean = s.point_error.Value() / static_cast<double>(s.points);
    r.point_error_p95 = HistogramP95(s.point_errors);
  }
  r.reference_boxes = s.reference;
  r.matched_boxes = s.matched;
  r.recall = Ratio(s.matched, s.reference);
  if (s.matched > 0) {
    r.match_iou = s.match_iou.Value() / static_cast<double>(s.matched);
    r.score_error = s.score_error.Value() / static_cast<double>(s.matched);
  }
  r.decisions = s.decisions;
  r.decisions_agree = s.decisions_agree;
  r.decision_agreement = Ratio(s.decisions_agree, s.decisions);
  if (s.decisions > 0)
    r.mean_abs_error = s.abs_error.Value() / static_cast<double>(s.decisions);
  return r;
}

}  // namespace qforge::report
