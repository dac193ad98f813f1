// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM with NumPy broadcasting.
//  - float32: plain IEEE arithmetic, then the fused activation clamp
//    (TFLite's ActivationFunctionWithMinMax: min(max(x, lo), hi)). Float DIV
//    by zero gives +-inf / NaN, as TFLite's does.
//  - int32 / int64 (shape arithmetic): wrap-around arithmetic, the same
//    clamp with integer bounds. Integer DIV truncates toward zero (C++ `/`,
//    as TFLite's reference Div) and fails on a zero divisor, which TFLite
//    would trap on; INT32_MIN / -1 wraps to INT32_MIN (TFLite traps too).
//  - MAXIMUM / MINIMUM use TFLite's `a > b ? a : b` / `a < b ? a : b`, so a
//    NaN in the second operand wins and one in the first loses. (LiteRT's
//    WebAssembly build returns the first operand when a NaN is involved.)
#include <algorithm>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

using elementwise::BinaryState;

template <typename T>
struct AddOp {
  T operator()(T a, T b) const { return elementwise::WrapAdd(a, b); }
};
template <typename T>
struct SubOp {
  T operator()(T a, T b) const { return elementwise::WrapSub(a, b); }
};
template <typename T>
struct MulOp {
  T operator()(T a, T b) const { return elementwise::WrapMul(a, b); }
};

template <typename T>
struct DivOp {
  T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a / b;
    } else {
      // b != 0 was checked; lowest / -1 overflows: wrap like the hardware
      // result of the negation.
      if (b == -1) return elementwise::WrapSub(T{0}, a);
      return a / b;
    }
  }
};

template <typename T>
struct MaxOp {
  T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T>
struct MinOp {
  T operator()(T a, T b) const { return a < b ? a : b; }
};

// Which types an op takes.
enum class Types { kFloatInt32Int64, kFloatInt32 };

absl::Status PrepareArith(OpContext& ctx, Types types, bool fused) {
  BinaryState* st = nullptr;
  RETURN_IF_ERROR(elementwise::PrepareBroadcast2(ctx, &st));
  const ir::DataType type = ctx.input(0)->type;
  int bits = 32;
  switch (type) {
    case ir::DataType::kFloat32:
    case ir::DataType::kInt32:
      break;
    case ir::DataType::kInt64:
      if (types != Types::kFloatInt32Int64) {
        return elementwise::UnsupportedType(ctx, 0);
      }
      bits = 64;
      break;
    default:
      return elementwise::UnsupportedType(ctx, 0);
  }
  RETURN_IF_ERROR(elementwise::ExpectOutputType(ctx, 0, type));
  elementwise::SetActivation(
      fused ? elementwise::FusedActivationOf(ctx.op()) : ir::Activation::kNone,
      bits, st);
  return absl::OkStatus();
}

template <typename T, typename Op>
void RunArith(OpContext& ctx, const Op& op) {
  const BinaryState& st = *ctx.state<BinaryState>();
  const T* a = ctx.input(0)->Data<T>();
  const T* b = ctx.input(1)->Data<T>();
  T* out = ctx.output(0)->Data<T>();
  if (!st.has_activation) {
    elementwise::EvalBinary(ctx, st.plan, a, b, out, op);
    return;
  }
  T lo, hi;
  if constexpr (std::is_floating_point_v<T>) {
    lo = st.act_min;
    hi = st.act_max;
  } else {
    lo = static_cast<T>(st.int_act_min);
    hi = static_cast<T>(st.int_act_max);
  }
  elementwise::EvalBinary(ctx, st.plan, a, b, out, [op, lo, hi](T x, T y) {
    return std::min(std::max(op(x, y), lo), hi);
  });
}

template <template <typename> class Op>
absl::Status DispatchArith(OpContext& ctx) {
  return elementwise::ForInputType<float, int32_t, int64_t>(ctx, [&](auto t) {
    using T = decltype(t);
    RunArith<T>(ctx, Op<T>{});
  });
}

}  // namespace

absl::Status PrepareAdd(OpContext& ctx) {
  return PrepareArith(ctx, Types::kFloatInt32Int64, /*fused=*/true);
}
absl::Status EvalAdd(OpContext& ctx) { return DispatchArith<AddOp>(ctx); }

absl::Status PrepareSub(OpContext& ctx) {
  return PrepareArith(ctx, Types::kFloatInt32Int64, /*fused=*/true);
}
absl::Status EvalSub(OpContext& ctx) { return DispatchArith<SubOp>(ctx); }

absl::Status PrepareMul(OpContext& ctx) {
  return PrepareArith(ctx, Types::kFloatInt32Int64, /*fused=*/true);
}
absl::Status EvalMul(OpContext& ctx) { return DispatchArith<MulOp>(ctx); }

absl::Status PrepareDiv(OpContext& ctx) {
  return PrepareArith(ctx, Types::kFloatInt32, /*fused=*/true);
}
absl::Status EvalDiv(OpContext& ctx) {
  if (ctx.input(1)->type == ir::DataType::kInt32) {
    for (int32_t v : ctx.input(1)->Flat<int32_t>()) {
      if (v == 0) {
        return ctx.Error(absl::StrCat("input 1 '", ctx.input(1)->name(),
                                      "' holds 0: integer division by zero"));
      }
    }
  }
  return DispatchArith<DivOp>(ctx);
}

absl::Status PrepareMaximumMinimum(OpContext& ctx) {
  return PrepareArith(ctx, Types::kFloatInt32Int64, /*fused=*/false);
}
absl::Status EvalMaximum(OpContext& ctx) { return DispatchArith<MaxOp>(ctx); }
absl::Status EvalMinimum(OpContext& ctx) { return DispatchArith<MinOp>(ctx); }

}  // namespace qforge::runtime
