// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Recipe files: per-op precision rules as JSON (schema in docs/recipe.md).
//   {"format": "qforge-recipe", "version": 1, "scheme": "int8",
//    "rules": [{"select": "CONV_2D", "precision": "int16"},
//              {"select": "re:^head/", "precision": "float"}]}
// Rules apply in order; a later rule wins for the ops both select.
#ifndef QFORGE_QUANTIZER_RECIPE_H_
#define QFORGE_QUANTIZER_RECIPE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/model.h"
#include "quantizer/options.h"

namespace qforge::quantizer {

struct Recipe {
  std::optional<std::string> scheme;  // "int8" | "int16x8", if stated
  std::vector<PrecisionRule> rules;   // origin: "PATH rule K"
  // --target-sqnr's check set, left out of calibration and weight recovery
  // on --data: every Nth sample (N - 1, 2N - 1, ...). Recorded so that the
  // recipe reproduces the model the search wrote.
  std::optional<int> holdout_every;
};

// Strict: unknown keys, wrong JSON types, a missing field, another format
// or a newer version are errors naming the file and the field.
absl::StatusOr<Recipe> ParseRecipe(std::string_view text,
                                   const std::string& path);

// The recipe that reproduces a quantization: one rule per op selecting it
// by index, with its precision and, as comments, its op type and output.
std::string RecipeJson(const std::string& scheme,
                       const std::vector<QuantizeResult::OpChoice>& choices,
                       std::optional<int> holdout_every = std::nullopt);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_RECIPE_H_
