// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Markdown: the same tables as the text report, for pull requests and
// wikis.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "report/render.h"

namespace qforge::report {
namespace {

// Table cells: pipes and backticks would break the table.
std::string Cell(const std::string& s) {
  return absl::StrReplaceAll(s, {{"|", "\\|"}, {"`", "'"}, {"\n", " "}});
}

// The runtime section: the headline, then a table of the ops off the fast
// path, that the runtime cannot run, or (tflm) that are not integer.
std::string RuntimeMarkdown(const std::optional<RuntimeSection>& section) {
  if (!section.has_value()) return "";
  const RuntimeSection& s = *section;
  std::string out =
      absl::StrCat("\n## Runtime: ", runtime::RuntimeName(s.profile), "\n\n",
                   Cell(RuntimeHeadline(s)), ".\n");
  auto table = [&out](const char* title,
                      const std::vector<RuntimeOpGroup>& groups) {
    if (groups.empty()) return;
    absl::StrAppend(&out, "\n", title,
                    ":\n\n| type | count | ops | reason |\n"
                    "| --- | ---: | --- | --- |\n");
    for (const RuntimeOpGroup& g : groups) {
      absl::StrAppend(&out, "| ", g.op.empty() ? "model" : Cell(g.op), " | ",
                      g.op_indices.size(), " | ",
                      g.op_indices.empty() ? "" : OpIndexList(g.op_indices),
                      " | ", Cell(g.reason), " |\n");
    }
  };
  table("Off XNNPACK, in TFLite's builtin kernels", s.off_xnnpack);
  table("Cannot run", s.unsupported);
  table("Not integer", s.not_integer);
  return out;
}

// What to try next (Suggestions), as the text report's list: a table of
// the layers adding the most noise and the quantize flag for each.
std::string NextMarkdown(const Report& r) {
  const std::vector<Suggestion> next = Suggestions(r);
  if (next.empty()) return "";
  std::string out =
      "\n## To try next\n\nQuantize flags for the layers adding the most "
      "noise themselves; ops by the float model's index.\n\n"
      "| op | type | tensor | added (dB) | flag |\n"
      "| ---: | --- | --- | ---: | --- |\n";
  for (const Suggestion& g : next) {
    absl::StrAppendFormat(&out, "| %d | %s | `%s` | %s | `%s` |\n", g.float_op,
                          Cell(g.op), Cell(g.output), FormatDb(g.added_db),
                          Cell(g.flag));
  }
  return out;
}

}  // namespace

std::string RenderMarkdown(const Report& r) {
  std::string out = "# Quantization report\n\n";
  absl::StrAppend(&out, "`", Cell(r.float_model), "` vs `", Cell(r.quant_model),
                  "`, ", r.samples, " samples.\n\n## Outputs\n\n");
  absl::StrAppend(
      &out,
      "| # | output | SQNR (dB) | cosine | max abs error | top-1 | "
      "top-5 | task |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- "
      "|\n");
  for (const OutputReport& o : r.outputs) {
    absl::StrAppendFormat(
        &out, "| %d | %s | %s | %.6f | %s | %s | %s | %s |\n", o.index,
        Cell(o.name), FormatDb(o.metrics.sqnr_db), o.metrics.cosine,
        FormatNumber(o.metrics.max_abs_error),
        o.classifier ? Agreement(o.top1_agree, o.samples) : "",
        o.top5_agree.has_value() ? Agreement(*o.top5_agree, o.samples) : "",
        Cell(TaskSummary(o)));
  }
  if (r.weight_only) {
    absl::StrAppend(&out,
                    "\nWeight-only quantization: activations are float, no "
                    "quantized layers to compare.\n");
    return out + RuntimeMarkdown(r.runtime);
  }
  absl::StrAppend(
      &out,
      "\n## Layers, worst first\n\n"
      "*Added*: the SQNR of the noise the layer adds itself "
      "(inf: none); *channel*: the median SQNR of its channels.\n\n");
  absl::StrAppend(&out,
                  "| added (dB) | SQNR (dB) | channel (dB) | cosine | MSE | "
                  "max abs error | RMSE/scale | clipped | range used | op | "
                  "tensor |\n"
                  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
                  "---: | --- | --- |\n");
  for (const LayerReport& l : r.layers) {
    const Metrics& m = l.metrics;
    absl::StrAppendFormat(
        &out,
        "| %s | %s | %s | %.6f | %s | %s | %.3f | %s | %s | %s %s | `%s` |\n",
        FormatDb(l.introduced_db), FormatDb(m.sqnr_db),
        FormatDb(m.channel_sqnr_db), m.cosine, FormatNumber(m.mse),
        FormatNumber(m.max_abs_error), m.rmse_over_scale,
        FormatPercent(m.clipped_fraction), FormatPercent(m.range_used),
        l.op_index >= 0 ? absl::StrCat(l.op_index) : "", l.op, Cell(l.name));
  }
  if (const std::string masked = MaskedNote(r); !masked.empty()) {
    absl::StrAppend(&out, "\n", Cell(masked), ".\n");
  }
  if (!r.repairs.empty()) {
    absl::StrAppend(&out, "\n## Repairs by the quantizer\n\n");
    for (const std::string& s : r.repairs) {
      absl::StrAppend(&out, "- ", Cell(s), "\n");
    }
  }
  absl::StrAppend(&out, "\n## Ops kept float\n\n");
  if (r.float_ops.empty()) {
    absl::StrAppend(&out, "None.\n");
    return out + NextMarkdown(r) + RuntimeMarkdown(r.runtime);
  }
  absl::StrAppend(&out,
                  "| op | type | output | reason | output SQNR (dB) |\n"
                  "| ---: | --- | --- | --- | ---: |\n");
  for (const FloatOp& f : r.float_ops) {
    absl::StrAppendFormat(
        &out, "| %d | %s | `%s` | %s | %s |\n", f.op_index, Cell(f.op),
        Cell(f.output), Cell(f.reason),
        f.output_metrics ? FormatDb(f.output_metrics->sqnr_db) : "");
  }
  return out + NextMarkdown(r) + RuntimeMarkdown(r.runtime);
}

}  // namespace qforge::report
