// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// One self-contained HTML page: inline CSS and SVG, no scripts, nothing
// fetched. Per-layer SQNR bars in graph order, the tables of the text
// report, and for the worst layers the float activation histogram with the
// quantized range [scale (qmin - zp), scale (qmax - zp)] marked.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "report/render.h"

namespace qforge::report {
namespace {

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Shorten(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  size_t start = s.size() - (n - 3);
  // Not inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (start < s.size() && (static_cast<uint8_t>(s[start]) & 0xC0) == 0x80)
    ++start;
  return "..." + s.substr(start);
}

const char* SqnrColor(double db) {
  if (db < 20) return "#d62728";
  if (db < 30) return "#ff7f0e";
  return "#2ca02c";
}

constexpr const char* kStyle = R"(<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}
table{border-collapse:collapse;font-size:13px;max-width:100%}
th,td{border:1px solid #ccc;padding:3px 8px}th{background:#f2f2f2}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code{font-size:12px;overflow-wrap:anywhere}.note{color:#555;font-size:13px}
p,li,h3{overflow-wrap:anywhere}
svg text{font-family:monospace;font-size:11px}
</style>
)";

// Horizontal SQNR bars, one per layer, in graph order.
std::string SqnrBars(const Report& r) {
  std::vector<const LayerReport*> layers;
  for (const LayerReport& l : r.layers) layers.push_back(&l);
  std::stable_sort(layers.begin(), layers.end(),
                   [](const LayerReport* a, const LayerReport* b) {
                     return a->op_index < b->op_index;
                   });
  double top = 60;
  for (const LayerReport* l : layers) {
    if (std::isfinite(l->metrics.sqnr_db))
      top = std::max(top, l->metrics.sqnr_db);
  }
  top = std::ceil(top / 10) * 10;
  const int label_w = 330, bar_w = 420, row = 16, head = 20;
  const int width = label_w + bar_w + 70;
  const int height = head + row * static_cast<int>(layers.size()) + 6;
  std::string s = absl::StrFormat(
      "<svg id=\"sqnr-bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
      "height=\"%d\" role=\"img\" aria-label=\"SQNR per layer\">\n",
      width, height);
  for (double db = 0; db <= top; db += 10) {
    const double x = label_w + bar_w * db / top;
    absl::StrAppendFormat(&s,
                          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                          "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"12\" "
                          "text-anchor=\"middle\">%g</text>\n",
                          x, head - 4, x, height, x, db);
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerReport& l = *layers[i];
    const double db = l.metrics.sqnr_db;
    const int y = head + row * static_cast<int>(i);
    const double len = std::isinf(db) ? (db > 0 ? bar_w : 0)
                                      : bar_w * std::clamp(db, 0.0, top) / top;
    const std::string label = Shorten(
        absl::StrCat(l.op_index >= 0 ? absl::StrCat(l.op_index, " ") : "", l.op,
                     " ", l.name),
        46);
    absl::StrAppendFormat(
        &s,
        "<g><title>%s: %s dB</title><text x=\"%d\" y=\"%d\" "
        "text-anchor=\"end\">%s</text><rect class=\"bar\" x=\"%d\" y=\"%d\" "
        "width=\"%.1f\" height=\"%d\" fill=\"%s\"/><text x=\"%.1f\" "
        "y=\"%d\">%s</text></g>\n",
        Esc(l.name), FormatDb(db), label_w - 6, y + 11, Esc(label), label_w,
        y + 2, len, row - 4,
        std::isinf(db) && db > 0 ? "#2ca02c" : SqnrColor(db), label_w + len + 4,
        y + 11, std::isinf(db) && db > 0 ? "exact" : FormatDb(db));
  }
  s += "</svg>\n";
  return s;
}

// The float activation histogram (log-scaled counts) with the quantized
// range shaded.
std::string HistogramSvg(const LayerReport& l, int id) {
  const Histogram& h = *l.histogram;
  const int w = 640, hgt = 190, left = 10, right = 10, top = 22, bottom = 34;
  const double plot_w = w - left - right, plot_h = hgt - top - bottom;
  auto x_of = [&](double v) {
    return left + plot_w * (v - h.lo) / (h.hi - h.lo);
  };
  double peak = 0;
  for (uint64_t c : h.counts) peak = std::max(peak, std::log10(1.0 + c));
  if (peak <= 0) peak = 1;
  std::string s = absl::StrFormat(
      "<svg class=\"histogram\" id=\"hist-%d\" "
      "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "role=\"img\" aria-label=\"activation histogram of %s\">\n",
      id, w, hgt, Esc(l.name));
  const double qlo = x_of(l.grid.lo()), qhi = x_of(l.grid.hi());
  absl::StrAppendFormat(&s,
                        "<rect class=\"qrange\" x=\"%.1f\" y=\"%d\" "
                        "width=\"%.1f\" height=\"%.1f\" fill=\"#dbe9f6\"/>\n",
                        qlo, top, std::max(1.0, qhi - qlo), plot_h);
  const double bin_w = plot_w / h.counts.size();
  for (size_t k = 0; k < h.counts.size(); ++k) {
    if (h.counts[k] == 0) continue;
    const double bh = plot_h * std::log10(1.0 + h.counts[k]) / peak;
    absl::StrAppendFormat(
        &s,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
        "fill=\"#555\"><title>%d values</title></rect>\n",
        left + bin_w * k, top + plot_h - bh, std::max(0.5, bin_w - 0.5), bh,
        h.counts[k]);
  }
  for (double x : {qlo, qhi}) {
    absl::StrAppendFormat(&s,
                          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
                          "stroke=\"#1f77b4\" stroke-dasharray=\"4 3\"/>\n",
                          x, top - 4, x, top + plot_h);
  }
  absl::StrAppendFormat(
      &s,
      "<text x=\"%.1f\" y=\"12\" fill=\"#1f77b4\" text-anchor=\"middle\">"
      "quantized range [%s, %s]</text>\n",
      std::clamp((qlo + qhi) / 2, 120.0, w - 120.0), FormatNumber(l.grid.lo()),
      FormatNumber(l.grid.hi()));
  absl::StrAppendFormat(&s,
                        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                        "stroke=\"#888\"/>\n",
                        left, top + plot_h, w - right, top + plot_h);
  absl::StrAppendFormat(&s,
                        "<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" "
                        "y=\"%d\" text-anchor=\"end\">%s</text>\n",
                        left, hgt - 16, FormatNumber(h.lo), w - right, hgt - 16,
                        FormatNumber(h.hi));
  absl::StrAppendFormat(&s,
                        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">float "
                        "value (counts on a log scale)</text>\n",
                        w / 2, hgt - 3);
  s += "</svg>\n";
  return s;
}

// The runtime section: the headline, then a table of the ops off the fast
// path, that the runtime cannot run, or (tflm) that are not integer.
std::string RuntimeHtml(const std::optional<RuntimeSection>& section) {
  if (!section.has_value()) return "";
  const RuntimeSection& s = *section;
  std::string out =
      absl::StrCat("<h2>Runtime: ", runtime::RuntimeName(s.profile),
                   "</h2>\n<p>", Esc(RuntimeHeadline(s)), ".</p>\n");
  auto table = [&out](const char* title,
                      const std::vector<RuntimeOpGroup>& groups) {
    if (groups.empty()) return;
    absl::StrAppend(&out, "<p>", title,
                    ":</p>\n<table><tr><th>type</th><th>count</th>"
                    "<th>ops</th><th>reason</th></tr>\n");
    for (const RuntimeOpGroup& g : groups) {
      absl::StrAppend(&out, "<tr><td>", g.op.empty() ? "model" : Esc(g.op),
                      "</td><td class=\"n\">", g.op_indices.size(), "</td><td>",
                      g.op_indices.empty() ? "" : OpIndexList(g.op_indices),
                      "</td><td>", Esc(g.reason), "</td></tr>\n");
    }
    out += "</table>\n";
  };
  table("Off XNNPACK, in TFLite's builtin kernels", s.off_xnnpack);
  table("Cannot run", s.unsupported);
  table("Not integer", s.not_integer);
  return out;
}

// What to try next (Suggestions), as the text report's list.
std::string NextHtml(const Report& r) {
  const std::vector<Suggestion> next = Suggestions(r);
  if (next.empty()) return "";
  std::string out =
      "<h2>To try next</h2>\n<p class=\"note\">Quantize flags for the layers "
      "adding the most noise themselves; ops by the float model's "
      "index.</p>\n<table id=\"next\"><tr><th>op</th><th>type</th>"
      "<th>tensor</th><th>added (dB)</th><th>flag</th></tr>\n";
  for (const Suggestion& g : next) {
    absl::StrAppendFormat(
        &out,
        "<tr><td class=\"n\">%d</td><td>%s</td><td><code>%s</code></td>"
        "<td class=\"n\">%s</td><td><code>%s</code></td></tr>\n",
        g.float_op, Esc(g.op), Esc(g.output), FormatDb(g.added_db),
        Esc(g.flag));
  }
  return out + "</table>\n";
}

}  // namespace

std::string RenderHtml(const Report& r) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
      "charset=\"utf-8\">\n<title>qforge quantization report</title>\n";
  s += kStyle;
  s += "</head>\n<body>\n<h1>Quantization report</h1>\n";
  absl::StrAppend(&s, "<p><code>", Esc(r.float_model), "</code> vs <code>",
                  Esc(r.quant_model), "</code>, ", r.samples,
                  " samples.</p>\n");
  s += "<h2>Outputs</h2>\n<table><tr><th>#</th><th>output</th><th>SQNR "
       "(dB)</th><th>cosine</th><th>max abs error</th><th>top-1</th>"
       "<th>top-5</th><th>task</th></tr>\n";
  for (const OutputReport& o : r.outputs) {
    absl::StrAppendFormat(
        &s,
        "<tr><td class=\"n\">%d</td><td><code>%s</code></td><td "
        "class=\"n\">%s</td><td class=\"n\">%.6f</td><td "
        "class=\"n\">%s</td><td class=\"n\">%s</td><td "
        "class=\"n\">%s</td><td>%s</td></tr>\n",
        o.index, Esc(o.name), FormatDb(o.metrics.sqnr_db), o.metrics.cosine,
        FormatNumber(o.metrics.max_abs_error),
        o.classifier ? Agreement(o.top1_agree, o.samples) : "",
        o.top5_agree ? Agreement(*o.top5_agree, o.samples) : "",
        Esc(TaskSummary(o)));
  }
  s += "</table>\n";
  if (r.weight_only) {
    s += "<p class=\"note\">Weight-only quantization: activations are float, "
         "no quantized layers to compare.</p>\n";
    return s + RuntimeHtml(r.runtime) + "</body>\n</html>\n";
  }
  s += "<h2>SQNR per layer</h2>\n<p class=\"note\">In graph order; red below "
       "20 dB, orange below 30 dB.</p>\n";
  s += SqnrBars(r);
  s += "<h2>Layers, worst first</h2>\n<p class=\"note\">Added: the SQNR "
       "of the noise the layer adds itself (inf: none); channel: the median "
       "SQNR of its channels.</p>\n<table><tr><th>added (dB)</th><th>SQNR "
       "(dB)</th><th>channel (dB)</th><th>cosine</th><th>MSE</th><th>max abs "
       "error</th><th>RMSE/scale</th><th>clipped</th><th>range used</th>"
       "<th>op</th><th>tensor</th></tr>\n";
  for (const LayerReport& l : r.layers) {
    const Metrics& m = l.metrics;
    absl::StrAppendFormat(
        &s,
        "<tr><td class=\"n\">%s</td><td class=\"n\">%s</td><td "
        "class=\"n\">%s</td><td class=\"n\">%.6f</td><td "
        "class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%.3f</td>"
        "<td class=\"n\">%s</td><td class=\"n\">%s</td><td>%s %s</td>"
        "<td><code>%s</code></td></tr>\n",
        FormatDb(l.introduced_db), FormatDb(m.sqnr_db),
        FormatDb(m.channel_sqnr_db), m.cosine, FormatNumber(m.mse),
        FormatNumber(m.max_abs_error), m.rmse_over_scale,
        FormatPercent(m.clipped_fraction), FormatPercent(m.range_used),
        l.op_index >= 0 ? absl::StrCat(l.op_index) : "", Esc(l.op),
        Esc(l.name));
  }
  s += "</table>\n";
  if (const std::string masked = MaskedNote(r); !masked.empty()) {
    absl::StrAppend(&s, "<p class=\"note\">", Esc(masked), ".</p>\n");
  }
  s += "<h2>Activation histograms of the worst layers</h2>\n"
       "<p class=\"note\">Float values of the float model; the shaded band "
       "is the range the quantized tensor can represent.</p>\n";
  int id = 0;
  for (const LayerReport& l : r.layers) {
    if (!l.histogram.has_value()) continue;
    absl::StrAppendFormat(&s,
                          "<h3><code>%s</code> (%s, SQNR %s dB, scale %s, "
                          "zero point %d)</h3>\n",
                          Esc(l.name), Esc(l.op), FormatDb(l.metrics.sqnr_db),
                          FormatNumber(l.grid.scale), l.grid.zero_point);
    s += HistogramSvg(l, id++);
  }
  if (!r.repairs.empty()) {
    s += "<h2>Repairs by the quantizer</h2>\n<ul>\n";
    for (const std::string& x : r.repairs) s += "<li>" + Esc(x) + "</li>\n";
    s += "</ul>\n";
  }
  s += "<h2>Ops kept float</h2>\n";
  if (r.float_ops.empty()) {
    s += "<p>None.</p>\n";
  } else {
    s += "<table><tr><th>op</th><th>type</th><th>output</th><th>reason</th>"
         "<th>output SQNR (dB)</th></tr>\n";
    for (const FloatOp& f : r.float_ops) {
      absl::StrAppendFormat(
          &s,
          "<tr><td class=\"n\">%d</td><td>%s</td><td><code>%s</code></td>"
          "<td>%s</td><td class=\"n\">%s</td></tr>\n",
          f.op_index, Esc(f.op), Esc(f.output), Esc(f.reason),
          f.output_metrics ? FormatDb(f.output_metrics->sqnr_db) : "");
    }
    s += "</table>\n";
  }
  s += NextHtml(r);
  s += RuntimeHtml(r.runtime);
  s += "</body>\n</html>\n";
  return s;
}

}  // namespace qforge::report
