// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// POW, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD, PRELU with NumPy
// broadcasting, following TFLite's kernels:
//  - POW: float32 std::pow; int32 through double pow like TFLite, results
//    beyond int32 saturating (as LiteRT gives them); a negative exponent is
//    an error, as in TFLite.
//  - SQUARED_DIFFERENCE: (a - b)^2; float32, int32 (wrapping).
//  - FLOOR_DIV: floor(a / b); float32 computes a / b in double first, as
//    TFLite does; int32 exactly (the same as TFLite's double route), with
//    INT32_MIN / -1 saturating to INT32_MAX. Any zero divisor is an error
//    (TFLite checks float and int alike).
//  - FLOOR_MOD: the remainder of FLOOR_DIV, sign of the divisor:
//    r = fmod(a, b) (or a % b); r + b when r != 0 and r, b differ in sign.
//    Integer zero divisors are an error; a float one gives NaN.
//  - PRELU: x >= 0 ? x : x * alpha, alpha broadcast against x.
//  - ATAN2: atan2(y = input 0, x = input 1), float32 (TFLite requires equal
//    shapes; broadcasting is a superset).
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

using elementwise::BinaryState;

// Broadcast prepare that accepts the listed element types.
absl::Status PrepareTyped(OpContext& ctx,
                          std::initializer_list<ir::DataType> types) {
  BinaryState* st = nullptr;
  RETURN_IF_ERROR(elementwise::PrepareBroadcast2(ctx, &st));
  const ir::DataType type = ctx.input(0)->type;
  bool ok = false;
  for (ir::DataType t : types) ok = ok || t == type;
  if (!ok) return elementwise::UnsupportedType(ctx, 0);
  return elementwise::ExpectOutputType(ctx, 0, type);
}

template <typename T>
absl::Status CheckNoZero(const OpContext& ctx, int i) {
  for (T v : ctx.input(i)->Flat<T>()) {
    if (v == T{0}) {
      return ctx.Error(absl::StrCat("input ", i, " '", ctx.input(i)->name(),
                                    "' holds 0: division by zero"));
    }
  }
  return absl::OkStatus();
}

// TFLite computes int32 POW as std::pow in double and converts back; the
// conversion saturates here (as LiteRT does; native TFLite leaves it
// undefined). Every exact result below 2^53 is exact in double.
int32_t IntPow(int32_t base, int32_t exponent) {
  const double r =
      std::pow(static_cast<double>(base), static_cast<double>(exponent));
  if (r >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (r <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(r);
}

template <typename T>
T FloorDivInt(T a, T b) {
  // lowest / -1 does not fit: saturate (TFLite's floor of the double
  // quotient, converted as LiteRT converts it).
  if (b == -1) {
    return a == std::numeric_limits<T>::lowest() ? std::numeric_limits<T>::max()
                                                 : static_cast<T>(-a);
  }
  T q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

template <typename T>
T FloorModOf(T a, T b) {
  T r;
  if constexpr (std::is_floating_point_v<T>) {
    r = std::fmod(a, b);
  } else {
    r = b == -1 ? T{0} : static_cast<T>(a % b);
  }
  return (r != 0 && ((b < 0) != (r < 0))) ? static_cast<T>(r + b) : r;
}

}  // namespace

absl::Status PreparePow(OpContext& ctx) {
  return PrepareTyped(ctx, {ir::DataType::kFloat32, ir::DataType::kInt32});
}

absl::Status EvalPow(OpContext& ctx) {
  if (ctx.input(0)->type == ir::DataType::kFloat32) {
    elementwise::RunBinary<float>(
        ctx, [](float a, float b) { return std::pow(a, b); });
    return absl::OkStatus();
  }
  for (int32_t e : ctx.input(1)->Flat<int32_t>()) {
    if (e < 0) {
      return ctx.Error(absl::StrCat("input 1 '", ctx.input(1)->name(),
                                    "' holds the negative exponent ", e,
                                    "; int32 POW takes exponents >= 0"));
    }
  }
  elementwise::RunBinary<int32_t>(ctx, IntPow);
  return absl::OkStatus();
}

absl::Status PrepareAtan2(OpContext& ctx) {
  return PrepareTyped(ctx, {ir::DataType::kFloat32});
}

absl::Status EvalAtan2(OpContext& ctx) {
  elementwise::RunBinary<float>(
      ctx, [](float y, float x) { return std::atan2(y, x); });
  return absl::OkStatus();
}

absl::Status PrepareSquaredDifference(OpContext& ctx) {
  return PrepareTyped(ctx, {ir::DataType::kFloat32, ir::DataType::kInt32});
}

absl::Status EvalSquaredDifference(OpContext& ctx) {
  if (ctx.input(0)->type == ir::DataType::kFloat32) {
    elementwise::RunBinary<float>(ctx, [](float a, float b) {
      const float d = a - b;
      return d * d;
    });
  } else {
    elementwise::RunBinary<int32_t>(ctx, [](int32_t a, int32_t b) {
      const int32_t d = elementwise::WrapSub(a, b);
      return elementwise::WrapMul(d, d);
    });
  }
  return absl::OkStatus();
}

absl::Status PrepareFloorDiv(OpContext& ctx) {
  return PrepareTyped(ctx, {ir::DataType::kFloat32, ir::DataType::kInt32});
}

absl::Status PrepareFloorMod(OpContext& ctx) {
  return PrepareTyped(ctx, {ir::DataType::kFloat32, ir::DataType::kInt32,
                            ir::DataType::kInt64});
}

absl::Status EvalFloorDiv(OpContext& ctx) {
  if (ctx.input(0)->type == ir::DataType::kFloat32) {
    RETURN_IF_ERROR(CheckNoZero<float>(ctx, 1));
    elementwise::RunBinary<float>(ctx, [](float a, float b) {
      return static_cast<float>(
          std::floor(static_cast<double>(a) / static_cast<double>(b)));
    });
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(CheckNoZero<int32_t>(ctx, 1));
  elementwise::RunBinary<int32_t>(ctx, FloorDivInt<int32_t>);
  return absl::OkStatus();
}

absl::Status EvalFloorMod(OpContext& ctx) {
  switch (ctx.input(0)->type) {
    case ir::DataType::kFloat32:
      elementwise::RunBinary<float>(ctx, FloorModOf<float>);
      return absl::OkStatus();
    case ir::DataType::kInt32:
      RETURN_IF_ERROR(CheckNoZero<int32_t>(ctx, 1));
      elementwise::RunBinary<int32_t>(ctx, FloorModOf<int32_t>);
      return absl::OkStatus();
    case ir::DataType::kInt64:
      RETURN_IF_ERROR(CheckNoZero<int64_t>(ctx, 1));
      elementwise::RunBinary<int64_t>(ctx, FloorModOf<int64_t>);
      return absl::OkStatus();
    default:
      return elementwise::UnsupportedType(ctx, 0);
  }
}

absl::Status PreparePrelu(OpContext& ctx) {
  return PrepareTyped(ctx, {ir::DataType::kFloat32});
}

absl::Status EvalPrelu(OpContext& ctx) {
  elementwise::RunBinary<float>(
      ctx, [](float x, float alpha) { return x >= 0 ? x : x * alpha; });
  return absl::OkStatus();
}

}  // namespace qforge::runtime
