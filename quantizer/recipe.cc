// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/recipe.h"

#include "absl/strings/str_cat.h"
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

}  // namespace

absl::StatusOr<Recipe> ParseRecipe(std::string_view text,
                                   const std::string& path) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Bad(path, "file", "not valid JSON");
  if (!doc.is_object()) return Bad(path, "file", "must be a JSON object");
  for (const auto& [key, value] : doc.items()) {
    if (key != "format" && key != "version" && key != "scheme" &&
        key != "holdout_every" && key != "rules") {
      return Bad(path, key,
                 "unknown key (expected format, version, scheme, "
                 "holdout_every, rules)");
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
      return Bad(path, "scheme", "must be a string (int8 or int16x8)");
    }
    const std::string scheme = doc["scheme"].get<std::string>();
    if (scheme != "int8" && scheme != "int16x8") {
      return Bad(path, "scheme",
                 absl::StrCat("'", scheme, "': expected int8 or int16x8"));
    }
    recipe.scheme = scheme;
  }
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
      if (key != "select" && key != "precision" && key != "op" &&
          key != "output") {
        return Bad(path, absl::StrCat(where, ".", key),
                   "unknown key (expected select, precision; op and output "
                   "are comments)");
      }
    }
    for (const char* key : {"select", "precision"}) {
      if (!r.contains(key) || !r[key].is_string()) {
        return Bad(path, absl::StrCat(where, ".", key), "must be a string");
      }
    }
    recipe.rules.push_back({r["select"].get<std::string>(),
                            r["precision"].get<std::string>(),
                            absl::StrCat(path, " rule ", k)});
    ++k;
  }
  return recipe;
}

std::string RecipeJson(const std::string& scheme,
                       const std::vector<QuantizeResult::OpChoice>& choices,
                       std::optional<int> holdout_every) {
  json doc;
  doc["format"] = "qforge-recipe";
  doc["version"] = kVersion;
  doc["scheme"] = scheme;
  if (holdout_every.has_value()) doc["holdout_every"] = *holdout_every;
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
