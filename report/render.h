// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The report as a terminal table (text), JSON (docs/report-json.md),
// Markdown, or one self-contained HTML page (inline CSS and SVG; no
// scripts, nothing fetched).
#ifndef QFORGE_REPORT_RENDER_H_
#define QFORGE_REPORT_RENDER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "report/report.h"

namespace qforge::report {

enum class Format { kText, kJson, kMarkdown, kHtml };

// "text", "json", "md" (or "markdown"), "html".
absl::StatusOr<Format> ParseFormat(const std::string& name);
// From a file name's extension: .json, .md/.markdown, .html/.htm; anything
// else is text.
Format FormatForPath(const std::string& path);

std::string Render(const Report& report, Format format);
std::string RenderText(const Report& report);
std::string RenderJson(const Report& report);
std::string RenderMarkdown(const Report& report);
std::string RenderHtml(const Report& report);

// Shared by the renderers: "38.21", "inf", "-inf".
std::string FormatDb(double db);
// A fraction as a percentage with one decimal, "n/a" for NaN.
std::string FormatPercent(double fraction);
// "7/12 (58.3%)".
std::string Agreement(uint64_t agree, uint64_t samples);
// "%.4g".
std::string FormatNumber(double v);
// The output's task metrics in one phrase ("segmentation: mask agreement
// 98.71%, mean IoU 0.9512"); "" when there are none to show.
std::string TaskSummary(const OutputReport& o);
// The layers' masked values (metrics.h) in one sentence without a final
// period: "N masked values left out of the error figures (...): 'a' 12,
// 'b' 4"; "" when there are none.
std::string MaskedNote(const Report& report);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_RENDER_H_
