// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Recipe files: per-op precision rules and the job's settings as JSON
// (schema in docs/recipe.md).
//   {"format": "qforge-recipe", "version": 1, "scheme": "int8",
//    "method": "mse",
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

// Settings a recipe may give for the whole job, as the flags of the same
// name do; a flag given on the command line wins (docs/recipe.md).
struct RecipeSettings {
  std::optional<std::string> method;  // range method, as --method
  std::optional<int> weight_bits;     // 4 | 8, as --weight-bits
  std::optional<int> block_size;      // 0 | 32 | 64 | 128 | 256
  // FULLY_CONNECTED weights "per-channel" (false) or "per-tensor" (true),
  // as --fc-per-tensor.
  std::optional<bool> fc_per_tensor;
};

struct Recipe {
  // "int8" | "int16x8" | "weight-only" | "dynamic", if stated.
  std::optional<std::string> scheme;
  std::vector<PrecisionRule> rules;  // origin: "PATH rule K"
  RecipeSettings settings;
  // --target-sqnr's check set, left out of calibration and weight recovery
  // on --data: every Nth sample (N - 1, 2N - 1, ...). Recorded so that the
  // recipe reproduces the model the search wrote.
  std::optional<int> holdout_every;
};

// Strict: unknown keys, wrong JSON types, a missing field, another format
// or a newer version are errors naming the file and the field.
absl::StatusOr<Recipe> ParseRecipe(std::string_view text,
                                   const std::string& path);

// The recipe that reproduces a quantization: the job's settings, and one
// rule per op selecting it by index, with its precision and, as comments,
// its op type and output.
std::string RecipeJson(const std::string& scheme,
                       const std::vector<QuantizeResult::OpChoice>& choices,
                       std::optional<int> holdout_every = std::nullopt,
                       const RecipeSettings& settings = {});

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_RECIPE_H_
