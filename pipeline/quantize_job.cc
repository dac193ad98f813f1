// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/quantize_job.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "absl/strings/str_cat.h"

namespace qforge::pipeline {
namespace {

using nlohmann::json;

// The version of the job format: a reader refuses newer jobs.
constexpr int kJobVersion = 1;

const char* RoundingName(numerics::RoundingPolicy r) {
  switch (r) {
    case numerics::RoundingPolicy::kSingle:
      return "single";
    case numerics::RoundingPolicy::kDouble:
      return "double";
    case numerics::RoundingPolicy::kLegacy:
      return "legacy";
  }
  return "single";
}

const char* ArithmeticName(numerics::Arithmetic a) {
  switch (a) {
    case numerics::Arithmetic::kTflite:
      return "tflite";
    case numerics::Arithmetic::kXnnpack:
      return "xnnpack";
  }
  return "tflite";
}

// Reads the members of one JSON object into fields, by name; a member that
// no field takes, or of the wrong type, is an error naming its path.
class Reader {
 public:
  Reader(const json& object, std::string path, std::string* error)
      : object_(object), path_(std::move(path)), error_(error) {
    if (!object_.is_object()) Fail(path_, "expected an object");
  }
  ~Reader() {
    if (!error_->empty()) return;
    for (auto it = object_.begin(); it != object_.end(); ++it) {
      if (taken_.count(it.key()) == 0) {
        Fail(Path(it.key()), "unknown key");
        return;
      }
    }
  }

  template <typename T>
  void Get(const char* key, T& field) {
    taken_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end() || !error_->empty()) return;
    try {
      field = it->get<T>();
    } catch (const json::exception&) {
      Fail(Path(key), absl::StrCat("expected ", TypeName(field)));
    }
  }
  // A nested object, read by `read(reader)`.
  template <typename F>
  void Object(const char* key, F read) {
    taken_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end() || !error_->empty()) return;
    Reader nested(*it, Path(key), error_);
    if (error_->empty()) read(nested);
  }
  void Fail(const std::string& where, const std::string& what) {
    if (error_->empty()) *error_ = absl::StrCat(where, ": ", what);
  }
  std::string Path(const std::string& key) const {
    return path_.empty() ? key : absl::StrCat(path_, ".", key);
  }

 private:
  static const char* TypeName(const std::string&) { return "a string"; }
  static const char* TypeName(bool) { return "true or false"; }
  static const char* TypeName(double) { return "a number"; }
  static const char* TypeName(float) { return "a number"; }
  static const char* TypeName(int) { return "an integer"; }
  static const char* TypeName(int64_t) { return "an integer"; }
  static const char* TypeName(uint64_t) { return "an integer"; }
  template <typename T>
  static const char* TypeName(const std::vector<T>&) {
    return "an array";
  }

  const json& object_;
  std::string path_;
  std::string* error_;
  std::set<std::string> taken_;
};

json DataToJson(const DataSpec& d) {
  return json{{"specs", d.specs},   {"resize", d.resize},
              {"mean", d.mean},     {"std", d.std},
              {"scale", d.scale},   {"color", d.color},
              {"layout", d.layout}, {"sample_rate", d.sample_rate},
              {"window", d.window}, {"hop", d.hop}};
}

void DataFromJson(Reader& r, DataSpec& d) {
  r.Get("specs", d.specs);
  r.Get("resize", d.resize);
  r.Get("mean", d.mean);
  r.Get("std", d.std);
  r.Get("scale", d.scale);
  r.Get("color", d.color);
  r.Get("layout", d.layout);
  r.Get("sample_rate", d.sample_rate);
  r.Get("window", d.window);
  r.Get("hop", d.hop);
}

}  // namespace

std::string QuantizeJobToJson(const QuantizeJob& job) {
  const RecoverySettings& rec = job.recovery;
  const TargetSettings& t = job.target;
  json target = {{"steps", t.steps},
                 {"metric", t.metric},
                 {"max_size", t.max_size},
                 {"max_float_ops", t.max_float_ops},
                 {"max_latency_ratio", t.max_latency_ratio}};
  // NaN has no JSON form: no "sqnr" member means no target.
  if (!std::isnan(t.sqnr)) target["sqnr"] = t.sqnr;
  if (!std::isnan(t.value)) target["value"] = t.value;
  const EvalSettings& e = job.eval;
  json eval = {{"cmd", e.cmd}, {"budget", e.budget}, {"timeout", e.timeout}};
  // The same for the bound not given.
  if (!std::isnan(e.min)) eval["min"] = e.min;
  if (!std::isnan(e.max)) eval["max"] = e.max;
  json j = {
      {"qforge_quantize_job", kJobVersion},
      {"model", job.model},
      {"stats", job.stats},
      {"data", DataToJson(job.data)},
      {"output", job.output},
      {"method", job.method},
      {"scheme", job.scheme},
      {"runtime", job.runtime},
      {"input_type", job.input_type},
      {"output_type", job.output_type},
      {"float_ops", job.float_ops},
      {"int8_ops", job.int8_ops},
      {"int4_ops", job.int4_ops},
      {"int16_ops", job.int16_ops},
      {"weight_bits", job.weight_bits},
      {"float_weights", job.float_weights},
      {"int16_headroom", job.int16_headroom},
      {"recipe", job.recipe},
      {"save_recipe", job.save_recipe},
      {"target", target},
      {"eval", eval},
      {"strict", job.strict},
      {"keep_integer", job.keep_integer},
      {"fc_per_tensor", job.fc_per_tensor},
      {"threads", job.threads},
      {"report", job.report},
      {"tasks", job.tasks},
      {"labels", job.labels},
      {"recovery",
       {{"optimize", rec.optimize},
        {"equalize", rec.equalize},
        {"bias_correction", rec.bias_correction},
        {"bias_one_pass", rec.bias_one_pass},
        {"adaround", rec.adaround},
        {"adaround_iterations", rec.adaround_iterations},
        {"adaround_batch", rec.adaround_batch},
        {"seed", rec.seed},
        {"samples", rec.samples}}},
      {"rounding", RoundingName(job.numerics.rounding)},
      {"arithmetic", ArithmeticName(job.numerics.arithmetic)},
  };
  // Written only when asked, so that jobs without them keep their bytes.
  const quantizer::WeightRounding& wr = rec.rounding;
  if (wr.Any()) {
    j["recovery"]["gptq"] = wr.gptq;
    j["recovery"]["gptq_damp"] = wr.gptq_damp;
    j["recovery"]["awq"] = wr.awq;
    if (wr.awq_mul) j["recovery"]["awq_mul"] = true;
    j["recovery"]["weight_clip"] = wr.clip_mse ? "mse" : "none";
  }
  if (job.block_size != 0) j["block_size"] = job.block_size;
  return j.dump(2) + "\n";
}

absl::StatusOr<QuantizeJob> QuantizeJobFromJson(const std::string& text,
                                                const std::string& origin) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return absl::InvalidArgumentError(absl::StrCat(origin, ": not valid JSON"));
  }
  QuantizeJob job;
  std::string error;
  {
    Reader r(j, "", &error);
    int version = 0;
    r.Get("qforge_quantize_job", version);
    if (error.empty() && (version < 1 || version > kJobVersion)) {
      r.Fail("qforge_quantize_job",
             absl::StrCat("version ", version, " (this qforge reads 1 to ",
                          kJobVersion, ")"));
    }
    r.Get("model", job.model);
    r.Get("stats", job.stats);
    r.Object("data", [&](Reader& d) { DataFromJson(d, job.data); });
    r.Get("output", job.output);
    r.Get("method", job.method);
    r.Get("scheme", job.scheme);
    r.Get("runtime", job.runtime);
    r.Get("input_type", job.input_type);
    r.Get("output_type", job.output_type);
    r.Get("float_ops", job.float_ops);
    r.Get("int8_ops", job.int8_ops);
    r.Get("int4_ops", job.int4_ops);
    r.Get("int16_ops", job.int16_ops);
    r.Get("weight_bits", job.weight_bits);
    r.Get("block_size", job.block_size);
    r.Get("float_weights", job.float_weights);
    r.Get("int16_headroom", job.int16_headroom);
    r.Get("recipe", job.recipe);
    r.Get("save_recipe", job.save_recipe);
    r.Object("target", [&](Reader& t) {
      t.Get("sqnr", job.target.sqnr);
      t.Get("value", job.target.value);
      t.Get("steps", job.target.steps);
      t.Get("metric", job.target.metric);
      t.Get("max_size", job.target.max_size);
      t.Get("max_float_ops", job.target.max_float_ops);
      t.Get("max_latency_ratio", job.target.max_latency_ratio);
    });
    r.Object("eval", [&](Reader& e) {
      e.Get("cmd", job.eval.cmd);
      e.Get("min", job.eval.min);
      e.Get("max", job.eval.max);
      e.Get("budget", job.eval.budget);
      e.Get("timeout", job.eval.timeout);
    });
    r.Get("strict", job.strict);
    r.Get("keep_integer", job.keep_integer);
    r.Get("fc_per_tensor", job.fc_per_tensor);
    r.Get("threads", job.threads);
    r.Get("report", job.report);
    r.Get("tasks", job.tasks);
    r.Get("labels", job.labels);
    r.Object("recovery", [&](Reader& rec) {
      RecoverySettings& s = job.recovery;
      rec.Get("optimize", s.optimize);
      rec.Get("equalize", s.equalize);
      rec.Get("bias_correction", s.bias_correction);
      rec.Get("bias_one_pass", s.bias_one_pass);
      rec.Get("adaround", s.adaround);
      rec.Get("adaround_iterations", s.adaround_iterations);
      rec.Get("adaround_batch", s.adaround_batch);
      rec.Get("seed", s.seed);
      rec.Get("samples", s.samples);
      rec.Get("gptq", s.rounding.gptq);
      rec.Get("gptq_damp", s.rounding.gptq_damp);
      rec.Get("awq", s.rounding.awq);
      rec.Get("awq_mul", s.rounding.awq_mul);
      std::string clip = "none";
      rec.Get("weight_clip", clip);
      s.rounding.clip_mse = clip == "mse";
    });
    std::string rounding = "single", arithmetic = "tflite";
    r.Get("rounding", rounding);
    r.Get("arithmetic", arithmetic);
    if (rounding == "double") {
      job.numerics.rounding = numerics::RoundingPolicy::kDouble;
    } else if (rounding == "legacy") {
      job.numerics.rounding = numerics::RoundingPolicy::kLegacy;
    } else if (rounding != "single") {
      r.Fail("rounding", "expected single, double or legacy");
    }
    if (arithmetic == "xnnpack") {
      job.numerics.arithmetic = numerics::Arithmetic::kXnnpack;
    } else if (arithmetic != "tflite") {
      r.Fail("arithmetic", "expected tflite or xnnpack");
    }
  }  // the reader checks for unknown keys as it goes out of scope
  if (!error.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(origin, ": ", error));
  }
  return job;
}

}  // namespace qforge::pipeline
