// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/quantize_options.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/exit_codes.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "pipeline/job_checks.h"
#include "quantizer/recipe.h"
#include "runtime/profile.h"

namespace qforge::pipeline {
namespace {

// --target-sqnr's check set: every 4th sample (3, 7, 11, ...).
constexpr int kTargetHoldout = 4;

absl::StatusOr<ir::DataType> ParseIoType(const std::string& flag,
                                         const std::string& text) {
  if (text == "float32") return ir::DataType::kFloat32;
  if (text == "int8") return ir::DataType::kInt8;
  if (text == "int16") return ir::DataType::kInt16;
  if (text == "uint8") return ir::DataType::kUInt8;
  return absl::InvalidArgumentError(absl::StrCat(
      flag, " ", text, ": expected float32, int8, uint8 or int16"));
}

// The schemes and forms a runtime profile has no kernels for.
absl::Status CheckRuntime(const QuantizeJob& job,
                          const quantizer::QuantizeOptions& options) {
  if (options.runtime == runtime::Runtime::kLitert) return absl::OkStatus();
  const char* who = options.runtime == runtime::Runtime::kTflm ? "TFLite Micro"
                                                               : "Arm NN 20.08";
  if (options.scheme == quantizer::Scheme::kWeightOnly) {
    return UsageError(absl::StrCat("--runtime ", job.runtime, ": ", who,
                                   " has no int weights beside float "
                                   "activations; use --scheme int8"));
  }
  if (options.scheme == quantizer::Scheme::kDynamic ||
      options.scheme == quantizer::Scheme::kFloat16) {
    return UsageError(absl::StrCat("--runtime ", job.runtime, ": ", who,
                                   " has no ",
                                   options.scheme == quantizer::Scheme::kDynamic
                                       ? "dynamic-range (hybrid) kernels"
                                       : "float16 weights",
                                   "; use --scheme int8 or int16x8"));
  }
  if (options.float16_float_weights) {
    return UsageError(absl::StrCat("--float-weights float16: ", who,
                                   " has no float16 tensors"));
  }
  if (options.runtime == runtime::Runtime::kArmnn && options.weight_bits == 4) {
    return UsageError("--weight-bits 4: Arm NN 20.08 has no int4 tensors");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Resolved> ResolveOptions(const QuantizeJob& job) {
  Resolved r;
  quantizer::QuantizeOptions& options = r.options;
  r.scheme = job.scheme;
  r.holdout = Searches(job) ? kTargetHoldout : 0;
  r.method = job.method;
  // A recipe's settings, unless the flag is given (at a value other than
  // its default).
  int weight_bits = job.weight_bits;
  int block_size = job.block_size;
  bool fc_per_tensor = job.fc_per_tensor;
  if (!job.recipe.empty()) {
    ASSIGN_OR_RETURN(std::vector<uint8_t> text, ReadFileBytes(job.recipe));
    ASSIGN_OR_RETURN(
        quantizer::Recipe recipe,
        quantizer::ParseRecipe(
            std::string_view(reinterpret_cast<const char*>(text.data()),
                             text.size()),
            job.recipe));
    if (recipe.scheme.has_value()) {
      if (!r.scheme.empty() && r.scheme != *recipe.scheme) {
        return UsageError(absl::StrCat("--scheme ", r.scheme, " contradicts ",
                                       job.recipe, "'s scheme ",
                                       *recipe.scheme));
      }
      r.scheme = *recipe.scheme;
    }
    options.rules = std::move(recipe.rules);
    const quantizer::RecipeSettings& set = recipe.settings;
    if (r.method.empty()) r.method = set.method.value_or("");
    if (weight_bits == 8) weight_bits = set.weight_bits.value_or(8);
    if (block_size == 0) block_size = set.block_size.value_or(0);
    fc_per_tensor = fc_per_tensor || set.fc_per_tensor.value_or(false);
    if (!Searches(job) && recipe.holdout_every.has_value()) {
      r.holdout = *recipe.holdout_every;
    }
  }
  if (r.scheme.empty()) r.scheme = "int8";
  for (const std::string& s : job.int8_ops) {
    options.rules.push_back({s, "int8", "--int8-op"});
  }
  for (const std::string& s : job.int4_ops) {
    options.rules.push_back({s, "int4", "--int4-op"});
  }
  for (const std::string& s : job.int16_ops) {
    options.rules.push_back({s, "int16", "--int16-op"});
  }
  ASSIGN_OR_RETURN(options.scheme, quantizer::ParseScheme(r.scheme));
  ASSIGN_OR_RETURN(options.runtime, runtime::ParseRuntime(job.runtime));
  const bool integer = options.scheme == quantizer::Scheme::kInt8 ||
                       options.scheme == quantizer::Scheme::kInt16x8;
  if (job.eval.active() && !integer) {
    return UsageError(absl::StrCat(
        "--eval-cmd chooses a precision per op: it needs scheme int8 or "
        "int16x8, not ",
        r.scheme));
  }
  if (!options.rules.empty() && !integer) {
    return absl::InvalidArgumentError(
        absl::StrCat("--recipe/--int8-op/--int4-op/--int16-op need scheme "
                     "int8 or int16x8, not ",
                     r.scheme));
  }
  // Weight forms (quantizer/weight_forms.h).
  const bool weight_forms = options.scheme == quantizer::Scheme::kWeightOnly ||
                            options.scheme == quantizer::Scheme::kDynamic;
  // --optimize accuracy there scores its rounding candidates on samples
  // they were not fitted on (pipeline/rounding_choice.h).
  if (weight_forms && job.recovery.optimize == "accuracy") {
    r.holdout = kTargetHoldout;
  }
  if (weight_bits == 4 && options.scheme != quantizer::Scheme::kInt8 &&
      !weight_forms) {
    return UsageError(absl::StrCat(
        "--weight-bits 4 needs --scheme int8, dynamic or weight-only (LiteRT "
        "has no int4 weights with ",
        r.scheme, "); use --int4-op for int8 ops inside it"));
  }
  if (block_size != 0) {
    if (!weight_forms) {
      return UsageError(absl::StrCat(
          "--block-size is for --scheme weight-only and dynamic, not ",
          r.scheme));
    }
    if (options.scheme == quantizer::Scheme::kDynamic && weight_bits != 4) {
      return UsageError(
          "--block-size with --scheme dynamic needs --weight-bits 4 (LiteRT "
          "has blockwise kernels for int4 weights only)");
    }
  }
  options.weight_bits = weight_bits;
  options.block_size = block_size;
  options.float16_float_weights = job.float_weights == "float16";
  options.int16_headroom = job.int16_headroom;
  if (options.float16_float_weights && !integer) {
    return UsageError(absl::StrCat(
        "--float-weights float16 is for the ops int8 / int16x8 keep float; "
        "use --scheme float16 instead of ",
        r.scheme));
  }
  ASSIGN_OR_RETURN(options.input_type,
                   ParseIoType("--input-type", job.input_type));
  ASSIGN_OR_RETURN(options.output_type,
                   ParseIoType("--output-type", job.output_type));
  options.exclude = job.float_ops;
  options.strict = job.strict;
  options.fc_per_tensor = fc_per_tensor;
  RETURN_IF_ERROR(CheckRuntime(job, options));
  // Arm NN 20.08 aborts on per-channel FULLY_CONNECTED weights.
  if (options.runtime == runtime::Runtime::kArmnn) options.fc_per_tensor = true;
  r.needs_stats = integer;
  return r;
}

}  // namespace qforge::pipeline
