// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/clamp.h"

#include <type_traits>
#include <utility>
#include <variant>

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

namespace {

template <typename T, typename = void>
struct HasActivation : std::false_type {};
template <typename T>
struct HasActivation<T, std::void_t<decltype(std::declval<T>().activation)>>
    : std::true_type {};

}  // namespace

Activation FusedActivationOf(const Options& options) {
  return std::visit(
      [](const auto& o) -> Activation {
        using T = std::decay_t<decltype(o)>;
        if constexpr (HasActivation<T>::value) {
          return static_cast<Activation>(o.activation);
        } else {
          return Activation::kNone;
        }
      },
      options);
}

std::optional<Activation> FusedActivationWithClamp(const ClampRange& clamp) {
  for (Activation a :
       {Activation::kRelu, Activation::kRelu6, Activation::kReluN1To1}) {
    const std::optional<ClampRange> c = FusedActivationClamp(a);
    if (c.has_value() && c->lo == clamp.lo && c->hi == clamp.hi) return a;
  }
  return std::nullopt;
}

bool SetFusedActivation(Options& options, Activation activation) {
  return std::visit(
      [activation](auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (HasActivation<T>::value) {
          o.activation = static_cast<decltype(o.activation)>(activation);
          return true;
        } else {
          return false;
        }
      },
      options);
}

}  // namespace qforge::ir
