// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for recipe files (docs/recipe.md): parse; an accepted
// recipe's rules and settings quantize the bundled MNIST CNN (with its
// statistics, testdata/stats/mnist.json) in its scheme, and the recipe
// that reproduces the result (RecipeJson) must parse back. Op selectors
// reach the regular expression engine, so hostile patterns are fuzzed
// too. Seed with testdata/recipes; tests/fuzz/recipe.dict holds the
// format's keys. Refusals are statuses; crashes, sanitizer reports,
// uncaught exceptions and hangs are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "quantizer/quantize.h"
#include "quantizer/recipe.h"

namespace {

using namespace qforge;  // NOLINT: a fuzzer entry point

struct RecipeFixture {
  ir::Model model;
  calibration::StatsFile stats;
};

const RecipeFixture& GetRecipeFixture() {
  static const RecipeFixture* fixture = [] {
    auto* f = new RecipeFixture;
    const std::string dir = QFORGE_TESTDATA_DIR;
    absl::StatusOr<ir::Model> model =
        formats::ReadTfliteFile(dir + "/models/conv_fc_mnist.tflite");
    absl::StatusOr<calibration::StatsFile> stats =
        calibration::ReadStatsFile(dir + "/stats/mnist.json");
    if (!model.ok() || !stats.ok()) std::abort();
    f->model = *std::move(model);
    f->stats = *std::move(stats);
    return f;
  }();
  return *fixture;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const RecipeFixture& fixture = GetRecipeFixture();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<quantizer::Recipe> recipe =
      quantizer::ParseRecipe(text, "fuzz.json");
  if (!recipe.ok()) return 0;

  quantizer::QuantizeOptions options;
  absl::StatusOr<quantizer::Scheme> scheme =
      quantizer::ParseScheme(recipe->scheme.value_or("int8"));
  if (!scheme.ok()) return 0;
  options.scheme = *scheme;
  // Rules are for the integer schemes (pipeline/quantize_options.cc).
  if (options.scheme != quantizer::Scheme::kInt8 &&
      options.scheme != quantizer::Scheme::kInt16x8) {
    return 0;
  }
  options.range.num_bits =
      options.scheme == quantizer::Scheme::kInt16x8 ? 16 : 8;
  options.rules = recipe->rules;
  options.weight_bits = recipe->settings.weight_bits.value_or(8);
  if (options.weight_bits == 4 && options.scheme != quantizer::Scheme::kInt8) {
    return 0;
  }
  absl::StatusOr<quantizer::QuantizeResult> result =
      quantizer::Quantize(fixture.model, &fixture.stats, options);
  if (!result.ok()) return 0;
  const std::string again =
      quantizer::RecipeJson(recipe->scheme.value_or("int8"), result->op_choices,
                            recipe->holdout_every, recipe->settings);
  if (!quantizer::ParseRecipe(again, "again.json").ok()) std::abort();
  return 0;
}
