// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/clamp.h"

namespace qforge::ir {

std::optional<ClampRange> FusedActivationClamp(Activation activation) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (activation) {
    case Activation::kNone:
      return ClampRange{-kInf, kInf};
    case Activation::kRelu:
      return ClampRange{0.0f, kInf};
    case Activation::kReluN1To1:
      return ClampRange{-1.0f, 1.0f};
    case Activation::kRelu6:
      return ClampRange{0.0f, 6.0f};
    case Activation::kTanh:
    case Activation::kSignBit:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace qforge::ir
