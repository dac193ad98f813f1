// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/model.h"

#include <limits>

namespace qforge::ir {

bool Tensor::HasDynamicDims() const {
  for (int32_t d : shape_signature) {
    if (d < 0) return true;
  }
  return false;
}

std::optional<int64_t> Tensor::NumElements() const {
  int64_t n = 1;
  for (int32_t d : shape) {
    if (d < 0) return std::nullopt;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) {
      return std::nullopt;
    }
    n *= d;
  }
  return n;
}

std::string Operator::DisplayName() const {
  if (kind == OpKind::kCustom) return custom_code;
  if (kind == OpKind::kOtherBuiltin) {
    return "BUILTIN_" + std::to_string(builtin_code);
  }
  return std::string(GetOpInfo(kind).name);
}

}  // namespace qforge::ir
