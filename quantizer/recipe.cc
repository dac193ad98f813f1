// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/recipe.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "calibration/range.h"
#include "nlohmann/json.hpp"

namespace qforge::quantizer {
namespace {

using json = nlohmann::ordered_json;

constexpr int kVersion = 1;

absl::Status Bad(const std::string& path, const std::string& field,
                 const std::string& rule) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": ", field, ": ", rule));
}

// The whole-job settings (RecipeSettings), each checked as its flag is.
absl::Status ParseSettings(const json& doc, const std::string& path,
                           RecipeSettings& s) {
  if (doc.contains("method")) {
    const json& m = doc["method"];
    if (!m.is_string() ||
        (m.get<std::string>() != "auto" &&
         !calibration::ParseRangeMethod(m.get<std::string>()).ok())) {
      return Bad(path, "method",
                 "must be minmax, percentile:P, kl, mse or auto (a string)");
    }
    s.method = m.get<std::string>();
  }
  if (doc.contains("weight_bits")) {
    const json& b = doc["weight_bits"];
    if (!b.is_number_integer() ||
        (b.get<int64_t>() != 4 && b.get<int64_t>() != 8)) {
      return Bad(path, "weight_bits", "must be the integer 4 or 8");
    }
    s.weight_bits = static_cast<int>(b.get<int64_t>());
  }
  if (doc.contains("block_size")) {
    const json& b = doc["block_size"];
    const int64_t n = b.is_number_integer() ? b.get<int64_t>() : -1;
    if (n != 0 && n != 32 && n != 64 && n != 128 && n != 256) {
      return Bad(path, "block_size",
                 "must be the integer 0 (per channel), 32, 64, 128 or 256");
    }
    s.block_size = static_cast<int>(n);
  }
  if (doc.contains("fc_granularity")) {
    const json& g = doc["fc_granularity"];
    const std::string v = g.is_string() ? g.get<std::string>() : "";
    if (v != "per-channel" && v != "per-tensor") {
      return Bad(path, "fc_granularity",
                 "must be \"per-channel\" or \"per-tensor\"");
    }
    s.fc_per_tensor = v == "per-tensor";
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Recipe> ParseRecipe(std::string_view text,
                                   const std::string& path) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Bad(path, "file", "not valid JSON");
  if (!doc.is_object()) return Bad(path, "file", "must be a JSON object");
  for (const auto& [key, value] : doc.items()) {
    if (key != "format" && key != "version" && key != "scheme" &&
        key != "holdout_every" && key != "method" && key != "weight_bits" &&
        key != "block_size" && key != "fc_granularity" && key != "rules") {
      return Bad(path, key,
                 "unknown key (expected format, version, scheme, "
                 "holdout_every, method, weight_bits, block_size, "
                 "fc_granularity, rules)");
    }
  }
  if (!doc.contains("format") || !doc["format"].is_string() ||
      doc["format"].get<std::string>() != "qforge-recipe") {
    return Bad(path, "format", "must be the string \"qforge-recipe\"");
  }
  if (!doc.contains("version") || !doc["version"].is_number_integer()) {
    return Bad(path, "version", "must be an integer");
  }
  if (doc["version"].get<int64_t>() != kVersion) {
    return Bad(
        path, "version",
        absl::StrCat(doc["version"].get<int64_t>(),
                     " is not supported (this qforge reads ", kVersion, ")"));
  }
  Recipe recipe;
  if (doc.contains("scheme")) {
    if (!doc["scheme"].is_string()) {
      return Bad(path, "scheme", "must be a string");
    }
    const std::string scheme = doc["scheme"].get<std::string>();
    if (scheme != "int8" && scheme != "int16x8" && scheme != "weight-only" &&
        scheme != "dynamic") {
      return Bad(path, "scheme",
                 absl::StrCat("'", scheme,
                              "': expected int8, int16x8, weight-only or "
                              "dynamic"));
    }
    recipe.scheme = scheme;
  }
  RETURN_IF_ERROR(ParseSettings(doc, path, recipe.settings));
  if (doc.contains("holdout_every")) {
    const json& h = doc["holdout_every"];
    if (!h.is_number_integer() || h.get<int64_t>() < 2 ||
        h.get<int64_t>() > 1000000) {
      return Bad(path, "holdout_every", "must be an integer >= 2");
    }
    recipe.holdout_every = static_cast<int>(h.get<int64_t>());
  }
  if (!doc.contains("rules") || !doc["rules"].is_array()) {
    return Bad(path, "rules", "must be an array");
  }
  size_t k = 0;
  for (const json& r : doc["rules"]) {
    const std::string where = absl::StrCat("rules[", k, "]");
    if (!r.is_object()) return Bad(path, where, "must be an object");
    for (const auto& [key, value] : r.items()) {
      if (key != "select" && key != "precision" && key != "method" &&
          key != "op" && key != "output") {
        return Bad(path, absl::StrCat(where, ".", key),
                   "unknown key (expected select, precision, method; op and "
                   "output are comments)");
      }
    }
    for (const char* key : {"select", "precision", "method"}) {
      const bool optional = std::string_view(key) != "select";
      if ((!optional || r.contains(key)) &&
          (!r.contains(key) || !r[key].is_string())) {
        return Bad(path, absl::StrCat(where, ".", key), "must be a string");
      }
    }
    if (!r.contains("precision") && !r.contains("method")) {
      return Bad(path, where, "needs a precision, a method or both");
    }
    PrecisionRule rule{r["select"].get<std::string>(),
                       r.value("precision", std::string()),
                       absl::StrCat(path, " rule ", k)};
    if (r.contains("method")) {
      rule.method = r["method"].get<std::string>();
      if (rule.method == "auto" ||
          !calibration::ParseRangeMethod(rule.method).ok()) {
        return Bad(path, absl::StrCat(where, ".method"),
                   absl::StrCat("'", rule.method,
                                "': expected minmax, percentile:P, kl or "
                                "mse"));
      }
    }
    recipe.rules.push_back(std::move(rule));
    ++k;
  }
  return recipe;
}

std::string RecipeJson(const std::string& scheme,
                       const std::vector<QuantizeResult::OpChoice>& choices,
                       std::optional<int> holdout_every,
                       const RecipeSettings& settings) {
  json doc;
  doc["format"] = "qforge-recipe";
  doc["version"] = kVersion;
  doc["scheme"] = scheme;
  if (holdout_every.has_value()) doc["holdout_every"] = *holdout_every;
  if (settings.method.has_value()) doc["method"] = *settings.method;
  if (settings.weight_bits.has_value()) {
    doc["weight_bits"] = *settings.weight_bits;
  }
  if (settings.block_size.has_value()) doc["block_size"] = *settings.block_size;
  if (settings.fc_per_tensor.has_value()) {
    doc["fc_granularity"] =
        *settings.fc_per_tensor ? "per-tensor" : "per-channel";
  }
  json rules = json::array();
  for (size_t i = 0; i < choices.size(); ++i) {
    json r;
    r["select"] = std::to_string(i);
    r["precision"] = choices[i].precision;
    r["op"] = choices[i].op;
    r["output"] = choices[i].output;
    rules.push_back(std::move(r));
  }
  doc["rules"] = std::move(rules);
  // Names are bytes: replace invalid UTF-8 rather than fail.
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace qforge::quantizer
