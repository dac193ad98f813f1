// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/outcome_json.h"

#include <cmath>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "pipeline/fast_path_plan.h"

namespace qforge::pipeline {
namespace {

using OJson = nlohmann::ordered_json;

// Numbers that are not finite (an exact SQNR) are null.
OJson Finite(double v) { return std::isfinite(v) ? OJson(v) : OJson(nullptr); }

OJson OpNotes(const std::vector<RuntimeOpNote>& notes) {
  OJson out = OJson::array();
  for (const RuntimeOpNote& n : notes) {
    out.push_back(
        {{"op_index", n.op_index}, {"op", n.op}, {"reason", n.reason}});
  }
  return out;
}

OJson LatencyJson(const LatencyOutcome& l) {
  OJson j;
  j["estimated_float_ms"] = Finite(l.float_ms);
  j["estimated_quantized_ms"] = Finite(l.quantized_ms);
  j["ops"] = l.ops;
  j["xnnpack_ops"] = l.xnnpack_ops;
  j["xnnpack_partitions"] = l.partitions;
  j["off_fast_path"] = OpNotes(l.off_fast_path);
  return j;
}

OJson TargetJson(const TargetSettings& settings, const TargetOutcome& t) {
  OJson j;
  j["metric"] = settings.metric;
  j["target"] = Finite(settings.bound());
  j["reached"] = Finite(t.check_db);
  j["check_samples"] = t.check_samples;
  j["steps"] = t.steps;
  OJson plan = OJson::array();
  for (const PlanRow& r : t.plan) {
    OJson row;
    row["op_index"] = r.op;
    row["op"] = r.type;
    row["precision"] = r.precision;
    row["gain"] = r.gain_known ? Finite(r.gain_db) : OJson(nullptr);
    row["bytes"] = r.gain_known ? OJson(r.bytes) : OJson(nullptr);
    row["estimated_ms"] = r.gain_known ? Finite(r.latency_ms) : OJson(nullptr);
    plan.push_back(std::move(row));
  }
  j["plan"] = std::move(plan);
  return j;
}

OJson EvalJson(const EvalSettings& settings, const TargetOutcome& t) {
  OJson j;
  j["command"] = settings.cmd;
  j["min"] = Finite(settings.min);
  j["max"] = Finite(settings.max);
  j["budget"] = settings.budget;
  OJson runs = OJson::array();
  for (const EvalRun& r : t.eval_runs) {
    runs.push_back({{"candidate", r.candidate},
                    {"label", r.label},
                    {"score", Finite(r.score)},
                    {"accepted", r.accepted}});
  }
  j["runs"] = std::move(runs);
  j["accepted_score"] =
      t.eval_score.has_value() ? Finite(*t.eval_score) : OJson(nullptr);
  j["budget_spent"] = t.eval_budget_spent;
  return j;
}

OJson RangesJson(const RangeSearchOutcome& r) {
  OJson j;
  j["tensors_moved"] = r.overrides.size();
  j["tensors"] = r.tensors;
  j["start_mean_sqnr_db"] = Finite(r.start_db);
  j["final_mean_sqnr_db"] = Finite(r.final_db);
  j["samples"] = r.samples;
  j["trials"] = r.trials;
  return j;
}

OJson RoundingJson(const RoundingChoice& c) {
  OJson candidates = OJson::array();
  for (const RoundingCandidate& k : c.candidates) {
    candidates.push_back(
        {{"name", k.name}, {"worst_output_sqnr_db", Finite(k.worst_sqnr_db)}});
  }
  return {{"chosen", c.candidates[static_cast<size_t>(c.chosen)].name},
          {"check_samples", c.check_samples},
          {"fit_samples", c.fit_samples},
          {"refit_samples", c.refit_samples},
          {"candidates", std::move(candidates)}};
}

}  // namespace

std::string QuantizeOutcomeJson(const QuantizeJob& job,
                                const QuantizeOutcome& o) {
  OJson j;
  j["format"] = "qforge-quantize-outcome";
  j["version"] = kOutcomeJsonVersion;
  j["model"] = job.model;
  j["output"] = job.output;
  j["scheme"] = o.scheme;
  j["method"] = o.method;
  j["runtime"] = o.runtime;
  j["ops_quantized"] = o.ops_quantized;
  OJson kept = OJson::array();
  for (const quantizer::KeptFloat& k : o.kept_float) {
    kept.push_back({{"op_index", k.op_index},
                    {"op", k.op_name},
                    {"reason", k.reason},
                    {"fast_path", KeptFloatForSpeed(k.reason)}});
  }
  j["kept_float"] = std::move(kept);
  OJson repairs = OJson::array();
  for (const quantizer::Repair& r : o.repairs) {
    repairs.push_back(
        {{"op_index", r.op_index}, {"op", r.op_name}, {"what", r.what}});
  }
  j["repairs"] = std::move(repairs);
  j["calibration_samples"] =
      o.calibration_samples > 0 ? OJson(o.calibration_samples) : nullptr;
  j["calibration_source"] = o.calibration_samples == 0 ? OJson(nullptr)
                            : o.calibrated_here        ? OJson("data")
                                                       : OJson("stats");
  j["input_bytes"] = o.input_bytes;
  j["output_bytes"] = o.output_bytes;
  j["latency"] = o.latency.has_value() ? LatencyJson(*o.latency) : nullptr;
  const bool litert = o.runtime == "litert";
  j["unsupported"] = litert ? OJson(nullptr) : OpNotes(o.unsupported);
  j["not_integer"] = o.runtime == "tflm" ? OpNotes(o.not_integer) : nullptr;
  j["method_auto"] = o.ranges.has_value() ? RangesJson(*o.ranges) : nullptr;
  j["weight_rounding"] =
      o.rounding.has_value() ? RoundingJson(*o.rounding) : nullptr;
  j["target"] =
      o.target.has_value() ? TargetJson(job.target, *o.target) : nullptr;
  j["eval_cmd"] = job.eval.active() && o.target.has_value()
                      ? EvalJson(job.eval, *o.target)
                      : nullptr;
  if (o.report.has_value()) {
    const ReportOutcome& r = *o.report;
    j["report"] = {
        {"path", r.path},
        {"samples", r.samples},
        {"worst_output",
         r.worst_output.empty() ? OJson(nullptr) : OJson(r.worst_output)},
        {"worst_output_sqnr_db", Finite(r.worst_sqnr_db)}};
  } else {
    j["report"] = nullptr;
  }
  // Paths and reasons are the user's bytes: replacing keeps a name that is
  // not UTF-8 from aborting.
  return j.dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

}  // namespace qforge::pipeline
