// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The terminal table.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "report/render.h"

namespace qforge::report {
namespace {

// The runtime section: the headline, then each group of ops off the fast
// path, that the runtime cannot run, or (tflm) that are not integer.
std::string RuntimeText(const std::optional<RuntimeSection>& section) {
  if (!section.has_value()) return "";
  const RuntimeSection& s = *section;
  std::string out = absl::StrCat("\nruntime ", runtime::RuntimeName(s.profile),
                                 ": ", RuntimeHeadline(s), "\n");
  auto list = [&out](const char* title,
                     const std::vector<RuntimeOpGroup>& groups) {
    if (groups.empty()) return;
    absl::StrAppend(&out, "  ", title, ":\n");
    for (const RuntimeOpGroup& g : groups) {
      absl::StrAppend(&out, "    ", GroupLine(g), "\n");
    }
  };
  list("off XNNPACK, in TFLite's builtin kernels", s.off_xnnpack);
  list("cannot run", s.unsupported);
  list("not integer", s.not_integer);
  return out;
}

}  // namespace

std::string RenderText(const Report& r) {
  std::string out = absl::StrCat("qforge report: ", r.float_model, " vs ",
                                 r.quant_model, ", ", r.samples, " samples\n");
  absl::StrAppend(&out, "\noutputs:\n");
  for (const OutputReport& o : r.outputs) {
    absl::StrAppendFormat(&out, "  %d  %s  SQNR %s dB  cosine %.6f  max|e| %s",
                          o.index, o.name, FormatDb(o.metrics.sqnr_db),
                          o.metrics.cosine,
                          FormatNumber(o.metrics.max_abs_error));
    if (o.classifier) {
      absl::StrAppend(&out, "  top-1 ", Agreement(o.top1_agree, o.samples));
      if (o.top5_agree.has_value()) {
        absl::StrAppend(&out, "  top-5 ", Agreement(*o.top5_agree, o.samples));
      }
    }
    if (const std::string task = TaskSummary(o); !task.empty()) {
      absl::StrAppend(&out, "  ", task);
    }
    absl::StrAppend(&out, "\n");
  }
  if (r.weight_only) {
    absl::StrAppend(&out,
                    "\nweight-only quantization: activations are float, no "
                    "quantized layers to compare\n");
    return out + RuntimeText(r.runtime);
  }
  absl::StrAppend(&out, "\nlayers, worst first (", r.layers.size(),
                  "; added = SQNR of the noise the layer adds itself, chan = "
                  "median SQNR of its channels):\n");
  absl::StrAppendFormat(
      &out, "  %8s %8s %8s %9s %10s %10s %7s %7s %7s  %-4s %-20s %s\n",
      "added dB", "SQNR dB", "chan dB", "cosine", "MSE", "max|e|", "RMSE/s",
      "clip", "range", "op#", "op", "tensor");
  for (const LayerReport& l : r.layers) {
    const Metrics& m = l.metrics;
    absl::StrAppendFormat(
        &out, "  %8s %8s %8s %9.6f %10s %10s %7.3f %7s %7s  %-4s %-20s %s\n",
        FormatDb(l.introduced_db), FormatDb(m.sqnr_db),
        FormatDb(m.channel_sqnr_db), m.cosine, FormatNumber(m.mse),
        FormatNumber(m.max_abs_error), m.rmse_over_scale,
        FormatPercent(m.clipped_fraction), FormatPercent(m.range_used),
        l.op_index >= 0 ? absl::StrCat(l.op_index) : "-", l.op, l.name);
  }
  if (const std::string masked = MaskedNote(r); !masked.empty()) {
    absl::StrAppend(&out, "  ", masked, "\n");
  }
  absl::StrAppend(&out, "\nops kept float (", r.float_ops.size(), ")",
                  r.float_ops.empty() ? "\n" : ":\n");
  for (const FloatOp& f : r.float_ops) {
    absl::StrAppendFormat(&out, "  op %d %s -> %s: %s", f.op_index, f.op,
                          f.output, f.reason);
    if (f.output_metrics.has_value()) {
      absl::StrAppend(&out, "; output SQNR ",
                      FormatDb(f.output_metrics->sqnr_db), " dB");
    }
    absl::StrAppend(&out, "\n");
  }
  if (!r.repairs.empty()) {
    absl::StrAppend(&out, "\nrepairs by the quantizer (", r.repairs.size(),
                    "):\n");
    for (const std::string& s : r.repairs) absl::StrAppend(&out, "  ", s, "\n");
  }
  const std::vector<Suggestion> next = Suggestions(r);
  if (!next.empty()) {
    absl::StrAppend(&out,
                    "\nto try next (quantize flags; ops by the float model's "
                    "index):\n");
    for (const Suggestion& g : next) {
      // Where the layer's grid, not its arithmetic, is most of the noise,
      // say so: raising the op that reads it would not help.
      const std::string grid =
          std::isfinite(g.grid_db) && g.grid_db < g.added_db + 3
              ? absl::StrCat(" (its grid, read by ", g.grid_reader_type, ": ",
                             FormatDb(g.grid_db), " dB)")
              : "";
      absl::StrAppendFormat(&out, "  op %d %s '%s' adds %s dB%s: %s\n",
                            g.float_op, g.op, g.output, FormatDb(g.added_db),
                            grid, g.flag);
    }
  }
  return out + RuntimeText(r.runtime);
}

}  // namespace qforge::report
