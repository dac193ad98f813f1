// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/render.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/text.h"

namespace qforge::report {

absl::StatusOr<Format> ParseFormat(const std::string& name) {
  if (name == "text") return Format::kText;
  if (name == "json") return Format::kJson;
  if (name == "md" || name == "markdown") return Format::kMarkdown;
  if (name == "html") return Format::kHtml;
  return absl::InvalidArgumentError(
      absl::StrCat("--format ", name, ": expected text, json, md or html"));
}

Format FormatForPath(const std::string& path) {
  const std::string p = absl::AsciiStrToLower(path);
  if (absl::EndsWith(p, ".json")) return Format::kJson;
  if (absl::EndsWith(p, ".md") || absl::EndsWith(p, ".markdown"))
    return Format::kMarkdown;
  if (absl::EndsWith(p, ".html") || absl::EndsWith(p, ".htm"))
    return Format::kHtml;
  return Format::kText;
}

namespace {

// Names come from the models' files and paths from the command line: any
// bytes. Every format gets them as valid UTF-8 (base/text.h), so JSON
// serialisation cannot fail and HTML/Markdown stay well formed.
Report WithTextNames(const Report& report) {
  Report r = report;
  for (std::string* s : {&r.float_model, &r.quant_model}) {
    *s = EscapeInvalidUtf8(*s);
  }
  for (LayerReport& l : r.layers) {
    for (std::string* s : {&l.name, &l.float_name, &l.op, &l.dtype}) {
      *s = EscapeInvalidUtf8(*s);
    }
  }
  for (OutputReport& o : r.outputs) {
    for (std::string* s : {&o.name, &o.dtype}) *s = EscapeInvalidUtf8(*s);
  }
  for (FloatOp& f : r.float_ops) {
    for (std::string* s : {&f.op, &f.output, &f.reason}) {
      *s = EscapeInvalidUtf8(*s);
    }
  }
  for (std::string& s : r.repairs) s = EscapeInvalidUtf8(s);
  return r;
}

}  // namespace

std::string Render(const Report& report, Format format) {
  const Report r = WithTextNames(report);
  switch (format) {
    case Format::kText:
      return RenderText(r);
    case Format::kJson:
      return RenderJson(r);
    case Format::kMarkdown:
      return RenderMarkdown(r);
    case Format::kHtml:
      return RenderHtml(r);
  }
  return "";
}

std::string FormatDb(double db) {
  if (std::isnan(db)) return "n/a";
  if (std::isinf(db)) return db > 0 ? "inf" : "-inf";
  return absl::StrFormat("%.2f", db);
}

std::string FormatPercent(double fraction) {
  if (std::isnan(fraction)) return "n/a";
  return absl::StrFormat("%.1f%%", 100.0 * fraction);
}

std::string Agreement(uint64_t agree, uint64_t samples) {
  return absl::StrFormat(
      "%d/%d (%s)", agree, samples,
      FormatPercent(samples ? static_cast<double>(agree) /
                                  static_cast<double>(samples)
                            : 0.0));
}

std::string FormatNumber(double v) {
  if (std::isnan(v)) return "n/a";
  return absl::StrFormat("%.4g", v);
}

std::string MaskedNote(const Report& report) {
  uint64_t total = 0;
  std::string layers;
  for (const LayerReport& l : report.layers) {
    if (l.metrics.masked == 0) continue;
    total += l.metrics.masked;
    absl::StrAppend(&layers, layers.empty() ? "" : ", ", "'", l.name, "' ",
                    l.metrics.masked);
  }
  if (total == 0) return "";
  return absl::StrCat(
      total, " masked value", total == 1 ? "" : "s",
      " left out of the error figures (sentinels such as an attention mask's "
      "-1e9 or float lowest, far beyond the quantized tensor's range: "
      "|float| >= 1e30, or a million times the range's width beyond it): ",
      layers);
}

}  // namespace qforge::report

namespace qforge::report {

std::string TaskSummary(const OutputReport& o) {
  const TaskResult& t = o.task;
  switch (t.kind) {
    case TaskKind::kNone:
      return "";
    case TaskKind::kClassification:
      if (t.labeled == 0) return "";
      return absl::StrFormat("accuracy (%d labeled) float %s, quantized %s",
                             t.labeled, FormatPercent(t.float_accuracy),
                             FormatPercent(t.quant_accuracy));
    case TaskKind::kSegmentation: {
      std::string line = absl::StrFormat(
          "segmentation: mask agreement %s, mean IoU %s (%d classes)",
          std::isnan(t.mask_agreement)
              ? "n/a"
              : absl::StrFormat("%.2f%%", 100.0 * t.mask_agreement),
          FormatNumber(t.mean_iou), t.classes);
      if (t.label_pixels > 0 || t.label_ignored > 0) {
        absl::StrAppend(
            &line, absl::StrFormat("; mIoU against the labels (%d pixels, %d "
                                   "ignored) float %s, quantized %s",
                                   t.label_pixels, t.label_ignored,
                                   FormatNumber(t.float_label_miou),
                                   FormatNumber(t.quant_label_miou)));
      }
      return line;
    }
    case TaskKind::kLandmarks:
      return absl::StrFormat(
          "landmarks: point error mean %s, p95 %s (output units; %d points)",
          FormatNumber(t.point_error_mean), FormatNumber(t.point_error_p95),
          t.points);
    case TaskKind::kDetection:
      if (t.role != DetectionRole::kBoxes) {
        const char* role = t.role == DetectionRole::kScores    ? "scores"
                           : t.role == DetectionRole::kClasses ? "classes"
                           : t.role == DetectionRole::kCount   ? "count"
                                                               : "part";
        return absl::StrFormat("detection %s (metrics on output %d)", role,
                               t.boxes);
      }
      return absl::StrFormat(
          "detection: recall %s, match IoU %s, score error %s",
          Agreement(t.matched_boxes, t.reference_boxes),
          FormatNumber(t.match_iou), FormatNumber(t.score_error));
    case TaskKind::kScore:
      return absl::StrFormat("score: decision agreement %s, mean abs error %s",
                             Agreement(t.decisions_agree, t.decisions),
                             FormatNumber(t.mean_abs_error));
  }
  return "";
}

}  // namespace qforge::report
