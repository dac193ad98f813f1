// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/options.h"

#include "absl/strings/str_cat.h"

namespace qforge::quantizer {

absl::StatusOr<Scheme> ParseScheme(const std::string& text) {
  if (text == "int8") return Scheme::kInt8;
  if (text == "int16x8") return Scheme::kInt16x8;
  if (text == "dynamic") return Scheme::kDynamic;
  if (text == "float16") return Scheme::kFloat16;
  if (text == "weight-only") return Scheme::kWeightOnly;
  return absl::InvalidArgumentError(absl::StrCat(
      "--scheme ", text,
      ": expected int8, int16x8, dynamic, float16 or weight-only"));
}

std::string SchemeName(Scheme scheme) {
  switch (scheme) {
    case Scheme::kInt8:
      return "int8";
    case Scheme::kInt16x8:
      return "int16x8";
    case Scheme::kDynamic:
      return "dynamic";
    case Scheme::kFloat16:
      return "float16";
    case Scheme::kWeightOnly:
      return "weight-only";
  }
  return "?";
}

}  // namespace qforge::quantizer
