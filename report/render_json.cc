// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// JSON, schema_version 1 (docs/report-json.md). Numbers that are not
// finite (an exact layer's SQNR) are null.
#include <cmath>
#include <vector>

#include "nlohmann/json.hpp"
#include "report/render.h"

namespace qforge::report {
namespace {

using nlohmann::json;

constexpr int kSchemaVersion = 1;

json Num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json MetricsJson(const Metrics& m, bool quantized) {
  json j = {{"count", m.count},
            {"nonfinite", m.nonfinite},
            {"sqnr_db", Num(m.sqnr_db)},
            {"channel_sqnr_db", Num(m.channel_sqnr_db)},
            {"worst_channel", m.worst_channel},
            {"worst_channel_sqnr_db", Num(m.worst_channel_sqnr_db)},
            {"cosine", Num(m.cosine)},
            {"mse", Num(m.mse)},
            {"max_abs_error", Num(m.max_abs_error)},
            {"float_min", Num(m.float_min)},
            {"float_max", Num(m.float_max)}};
  if (quantized) {
    // Present only when some were left out (metrics.h), so that reports
    // without masked values keep their bytes.
    if (m.masked > 0) j["masked"] = m.masked;
    j["rmse_over_scale"] = Num(m.rmse_over_scale);
    j["clipped_fraction"] = Num(m.clipped_fraction);
    j["range_used"] = Num(m.range_used);
  }
  return j;
}

const char* RoleName(DetectionRole r) {
  switch (r) {
    case DetectionRole::kNone:
      return "none";
    case DetectionRole::kBoxes:
      return "boxes";
    case DetectionRole::kClasses:
      return "classes";
    case DetectionRole::kScores:
      return "scores";
    case DetectionRole::kCount:
      return "count";
  }
  return "none";
}

// The output's task and its metrics; only the kind's own members.
json TaskJson(const TaskResult& t) {
  json j = {{"kind", TaskKindName(t.kind)},
            {"overridden", t.overridden},
            {"samples", t.samples}};
  switch (t.kind) {
    case TaskKind::kNone:
      break;
    case TaskKind::kClassification:
      j["labeled"] = t.labeled;
      j["float_accuracy"] = Num(t.float_accuracy);
      j["quant_accuracy"] = Num(t.quant_accuracy);
      break;
    case TaskKind::kSegmentation:
      j["logits"] = t.logits;
      j["pixels"] = t.pixels;
      j["classes"] = t.classes;
      j["mask_agreement"] = Num(t.mask_agreement);
      j["mean_iou"] = Num(t.mean_iou);
      if (t.label_pixels > 0 || t.label_ignored > 0) {
        j["label_pixels"] = t.label_pixels;
        j["label_ignored"] = t.label_ignored;
        j["float_label_miou"] = Num(t.float_label_miou);
        j["quant_label_miou"] = Num(t.quant_label_miou);
      }
      break;
    case TaskKind::kLandmarks:
      j["point_stride"] = t.point_stride;
      j["points"] = t.points;
      j["point_error_mean"] = Num(t.point_error_mean);
      j["point_error_p95"] = Num(t.point_error_p95);
      break;
    case TaskKind::kDetection:
      j["role"] = RoleName(t.role);
      j["boxes_output"] = t.boxes;
      if (t.role == DetectionRole::kBoxes) {
        j["reference_boxes"] = t.reference_boxes;
        j["matched_boxes"] = t.matched_boxes;
        j["recall"] = Num(t.recall);
        j["match_iou"] = Num(t.match_iou);
        j["score_error"] = Num(t.score_error);
      }
      break;
    case TaskKind::kScore:
      j["logits"] = t.logits;
      j["decisions"] = t.decisions;
      j["decision_agreement"] = Num(t.decision_agreement);
      j["mean_abs_error"] = Num(t.mean_abs_error);
      break;
  }
  return j;
}

json GroupsJson(const std::vector<RuntimeOpGroup>& groups) {
  json out = json::array();
  for (const RuntimeOpGroup& g : groups) {
    out.push_back(
        {{"op", g.op}, {"op_indices", g.op_indices}, {"reason", g.reason}});
  }
  return out;
}

// null stands for what does not apply to the runtime.
json RuntimeJson(const RuntimeSection& s) {
  const bool litert = s.profile == runtime::Runtime::kLitert;
  const bool tflm = s.profile == runtime::Runtime::kTflm;
  json j;
  j["name"] = runtime::RuntimeName(s.profile);
  j["ops"] = s.ops;
  j["estimated_float_ms"] = litert ? Num(s.float_ms) : json(nullptr);
  j["estimated_quant_ms"] = litert ? Num(s.quant_ms) : json(nullptr);
  j["xnnpack_ops"] = litert ? json(s.xnnpack_ops) : json(nullptr);
  j["xnnpack_partitions"] = litert ? json(s.partitions) : json(nullptr);
  j["off_xnnpack"] = litert ? GroupsJson(s.off_xnnpack) : json(nullptr);
  j["unsupported"] = litert ? json(nullptr) : GroupsJson(s.unsupported);
  j["not_integer"] = tflm ? GroupsJson(s.not_integer) : json(nullptr);
  return j;
}

}  // namespace

std::string RenderJson(const Report& r) {
  json out;
  out["schema_version"] = kSchemaVersion;
  out["float_model"] = r.float_model;
  out["quant_model"] = r.quant_model;
  out["samples"] = r.samples;
  out["data_fingerprint"] = r.data_fingerprint;
  out["weight_only"] = r.weight_only;
  out["min_output_sqnr_db"] = Num(MinOutputSqnr(r));
  json outputs = json::array();
  for (const OutputReport& o : r.outputs) {
    json j = {{"index", o.index}, {"name", o.name}, {"dtype", o.dtype}};
    j.update(MetricsJson(o.metrics, false));
    j["classifier"] = o.classifier;
    if (o.classifier) {
      j["classes"] = o.classes;
      j["agreement_samples"] = o.samples;
      j["top1_agree"] = o.top1_agree;
      j["top5_agree"] =
          o.top5_agree.has_value() ? json(*o.top5_agree) : json(nullptr);
    }
    j["task"] = TaskJson(o.task);
    outputs.push_back(std::move(j));
  }
  out["outputs"] = std::move(outputs);
  json layers = json::array();
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerReport& l = r.layers[i];
    json j = {{"rank", i + 1},
              {"name", l.name},
              {"float_name", l.float_name},
              {"op_index", l.op_index},
              {"float_op", l.float_op},
              {"op", l.op},
              {"dtype", l.dtype},
              {"scale", l.grid.scale},
              {"zero_point", l.grid.zero_point},
              {"qmin", l.grid.qmin},
              {"qmax", l.grid.qmax},
              {"introduced_db", Num(l.introduced_db)},
              {"grid_db", Num(l.grid_db)},
              {"grid_reader_op", l.grid_reader_op}};
    j.update(MetricsJson(l.metrics, true));
    if (l.histogram.has_value()) {
      j["histogram"] = {{"lo", l.histogram->lo},
                        {"hi", l.histogram->hi},
                        {"counts", l.histogram->counts}};
    }
    layers.push_back(std::move(j));
  }
  out["layers"] = std::move(layers);
  json suggestions = json::array();
  for (const Suggestion& g : Suggestions(r)) {
    suggestions.push_back({{"float_op", g.float_op},
                           {"op", g.op},
                           {"output", g.output},
                           {"added_db", Num(g.added_db)},
                           {"grid_db", Num(g.grid_db)},
                           {"flag", g.flag}});
  }
  out["suggestions"] = std::move(suggestions);
  json float_ops = json::array();
  for (const FloatOp& f : r.float_ops) {
    json j = {{"op_index", f.op_index},
              {"op", f.op},
              {"output", f.output},
              {"reason", f.reason}};
    j["output_metrics"] = f.output_metrics.has_value()
                              ? MetricsJson(*f.output_metrics, false)
                              : json(nullptr);
    float_ops.push_back(std::move(j));
  }
  out["float_ops"] = std::move(float_ops);
  out["repairs"] = r.repairs;
  if (r.runtime.has_value()) out["runtime"] = RuntimeJson(*r.runtime);
  // Render() hands over valid UTF-8; replacing keeps a missed string from
  // aborting.
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace qforge::report
