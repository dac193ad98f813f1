// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Comparisons (LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL)
// with NumPy broadcasting into a bool tensor, and SELECT / SELECT_V2.
//  - Comparisons take float32, int32, int64; EQUAL / NOT_EQUAL also bool.
//    IEEE semantics: every comparison with NaN is false except NOT_EQUAL.
//  - SELECT (TFLite v1): x and y have the same shape; the condition has that
//    shape too (elementwise), or is a scalar (picks a whole tensor), or is
//    rank 1 with x's first dim (picks rows along dim 0).
//  - SELECT_V2: condition, x and y broadcast together (NumPy rules).
//  Selection copies element bits, so any 1/2/4/8-byte type works (bool,
//  float32, int8, uint8, int16, int32, int64).
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

using elementwise::BinaryState;

// Dispatches a comparison functor template over the input type; bools are
// read as bytes and normalised (a file may store any non-zero byte).
template <template <typename> class Cmp>
absl::Status DispatchCompare(OpContext& ctx) {
  if (ctx.input(0)->type == ir::DataType::kBool) {
    elementwise::RunBinary<uint8_t, bool>(
        ctx, [](uint8_t a, uint8_t b) { return Cmp<bool>{}(a != 0, b != 0); });
    return absl::OkStatus();
  }
  return elementwise::ForInputType<float, int32_t, int64_t>(ctx, [&](auto t) {
    using T = decltype(t);
    elementwise::RunBinary<T, bool>(ctx, Cmp<T>{});
  });
}

template <typename T>
struct LessOp {
  bool operator()(T a, T b) const { return a < b; }
};
template <typename T>
struct LessEqualOp {
  bool operator()(T a, T b) const { return a <= b; }
};
template <typename T>
struct GreaterOp {
  bool operator()(T a, T b) const { return a > b; }
};
template <typename T>
struct GreaterEqualOp {
  bool operator()(T a, T b) const { return a >= b; }
};
template <typename T>
struct EqualOp {
  bool operator()(T a, T b) const { return a == b; }
};
template <typename T>
struct NotEqualOp {
  bool operator()(T a, T b) const { return a != b; }
};

// Element types selection can copy.
bool Selectable(ir::DataType t) {
  switch (t) {
    case ir::DataType::kBool:
    case ir::DataType::kFloat32:
    case ir::DataType::kInt8:
    case ir::DataType::kUInt8:
    case ir::DataType::kInt16:
    case ir::DataType::kInt32:
    case ir::DataType::kInt64:
      return true;
    default:
      return false;
  }
}

enum class SelectMode { kElementwise, kWhole, kRows, kBroadcast };

struct SelectState : KernelState {
  SelectMode mode = SelectMode::kElementwise;
  int64_t rows = 0, row_elements = 0;  // kRows
  elementwise::BroadcastPlan plan;     // kBroadcast
};

// Common checks of SELECT and SELECT_V2.
absl::Status CheckSelectTypes(OpContext& ctx) {
  RETURN_IF_ERROR(elementwise::CheckArity(ctx, 3, 1));
  const RtTensor* cond = ctx.input(0);
  if (cond->type != ir::DataType::kBool) {
    return ctx.Error(absl::StrCat("condition '", cond->name(), "' is ",
                                  ir::DataTypeName(cond->type),
                                  "; it must be bool"));
  }
  RETURN_IF_ERROR(elementwise::ExpectSameType(ctx, 1, 2));
  if (!Selectable(ctx.input(1)->type)) {
    return elementwise::UnsupportedType(ctx, 1);
  }
  return elementwise::ExpectOutputType(ctx, 0, ctx.input(1)->type);
}

SelectState* GetSelectState(OpContext& ctx) {
  SelectState* st = ctx.state<SelectState>();
  if (st == nullptr) {
    auto fresh = std::make_unique<SelectState>();
    st = fresh.get();
    ctx.set_state(std::move(fresh));
  }
  return st;
}

template <typename T>
void SelectElementwise(const OpContext& ctx, const uint8_t* c, const T* x,
                       const T* y, T* out, int64_t n) {
  ParallelChunks(ctx, n, elementwise::kGrain, [=](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      out[i] = c[i] != 0 ? x[i] : y[i];
    }
  });
}

template <typename T>
void SelectBroadcast(const OpContext& ctx, const elementwise::BroadcastPlan& p,
                     const uint8_t* c, const T* x, const T* y, T* out) {
  const int last = p.rank - 1;
  const int64_t sc = p.strides[0][last], sx = p.strides[1][last],
                sy = p.strides[2][last];
  elementwise::ForEachRow(
      ctx, p,
      [=](const std::array<int64_t, 3>& off, int64_t out_off, int64_t n) {
        const uint8_t* cr = c + off[0];
        const T* xr = x + off[1];
        const T* yr = y + off[2];
        T* o = out + out_off;
        for (int64_t i = 0; i < n; ++i) {
          o[i] = cr[i * sc] != 0 ? xr[i * sx] : yr[i * sy];
        }
      });
}

template <typename T>
absl::Status RunSelect(OpContext& ctx) {
  const SelectState& st = *ctx.state<SelectState>();
  const uint8_t* c = ctx.input(0)->Data<uint8_t>();
  const T* x = ctx.input(1)->Data<T>();
  const T* y = ctx.input(2)->Data<T>();
  RtTensor* output = ctx.output(0);
  T* out = output->Data<T>();
  const int64_t n = output->NumElements();
  switch (st.mode) {
    case SelectMode::kElementwise:
      SelectElementwise(ctx, c, x, y, out, n);
      break;
    case SelectMode::kWhole:
      if (n > 0) {
        std::memcpy(out, c[0] != 0 ? x : y, static_cast<size_t>(n) * sizeof(T));
      }
      break;
    case SelectMode::kRows:
      for (int64_t r = 0; r < st.rows; ++r) {
        const int64_t off = r * st.row_elements;
        if (st.row_elements > 0) {
          std::memcpy(out + off, (c[r] != 0 ? x : y) + off,
                      static_cast<size_t>(st.row_elements) * sizeof(T));
        }
      }
      break;
    case SelectMode::kBroadcast:
      SelectBroadcast(ctx, st.plan, c, x, y, out);
      break;
  }
  return absl::OkStatus();
}

absl::Status DispatchSelect(OpContext& ctx) {
  switch (ir::DataTypeBits(ctx.input(1)->type).value_or(0)) {
    case 8:
      return RunSelect<uint8_t>(ctx);
    case 16:
      return RunSelect<uint16_t>(ctx);
    case 32:
      return RunSelect<uint32_t>(ctx);
    case 64:
      return RunSelect<uint64_t>(ctx);
    default:
      return elementwise::UnsupportedType(ctx, 1);
  }
}

// takes_bool: EQUAL and NOT_EQUAL also compare bools.
absl::Status PrepareCompare(OpContext& ctx, bool takes_bool) {
  BinaryState* st = nullptr;
  RETURN_IF_ERROR(elementwise::PrepareBroadcast2(ctx, &st));
  const ir::DataType type = ctx.input(0)->type;
  if (!(type == ir::DataType::kFloat32 || elementwise::IsShapeInt(type) ||
        (takes_bool && type == ir::DataType::kBool))) {
    return elementwise::UnsupportedType(ctx, 0);
  }
  return elementwise::ExpectOutputType(ctx, 0, ir::DataType::kBool);
}

}  // namespace

QF_KERNEL_AS(PrepareComparison, PrepareCompare(ctx, /*takes_bool=*/false))
QF_KERNEL_AS(PrepareEquality, PrepareCompare(ctx, /*takes_bool=*/true))

absl::Status EvalLess(OpContext& ctx) { return DispatchCompare<LessOp>(ctx); }
absl::Status EvalLessEqual(OpContext& ctx) {
  return DispatchCompare<LessEqualOp>(ctx);
}
absl::Status EvalGreater(OpContext& ctx) {
  return DispatchCompare<GreaterOp>(ctx);
}
absl::Status EvalGreaterEqual(OpContext& ctx) {
  return DispatchCompare<GreaterEqualOp>(ctx);
}
absl::Status EvalEqual(OpContext& ctx) { return DispatchCompare<EqualOp>(ctx); }
absl::Status EvalNotEqual(OpContext& ctx) {
  return DispatchCompare<NotEqualOp>(ctx);
}

absl::Status PrepareSelect(OpContext& ctx) {
  RETURN_IF_ERROR(CheckSelectTypes(ctx));
  const RtTensor* cond = ctx.input(0);
  const RtTensor* x = ctx.input(1);
  const RtTensor* y = ctx.input(2);
  if (x->shape != y->shape) {
    return ctx.Error(absl::StrCat("x '", x->name(), "' ", DimsString(x->shape),
                                  " and y '", y->name(), "' ",
                                  DimsString(y->shape),
                                  " must have the same shape (SELECT_V2 "
                                  "broadcasts, SELECT does not)"));
  }
  SelectState* st = GetSelectState(ctx);
  if (cond->shape == x->shape) {
    st->mode = SelectMode::kElementwise;
  } else if (cond->rank() == 0) {
    st->mode = SelectMode::kWhole;
  } else if (cond->rank() == 1 && x->rank() >= 1 && cond->dim(0) == x->dim(0)) {
    st->mode = SelectMode::kRows;
    st->rows = x->dim(0);
    st->row_elements = x->dim(0) == 0 ? 0 : x->NumElements() / x->dim(0);
  } else {
    return ctx.Error(
        absl::StrCat("condition '", cond->name(), "' ", DimsString(cond->shape),
                     " must have x's shape ", DimsString(x->shape),
                     ", be a scalar, or be rank 1 with x's first dim"));
  }
  ctx.SetOutputShape(0, x->shape);
  return absl::OkStatus();
}

absl::Status EvalSelect(OpContext& ctx) { return DispatchSelect(ctx); }

absl::Status PrepareSelectV2(OpContext& ctx) {
  RETURN_IF_ERROR(CheckSelectTypes(ctx));
  const Dims& c = ctx.input(0)->shape;
  const Dims& x = ctx.input(1)->shape;
  const Dims& y = ctx.input(2)->shape;
  Dims xy, out;
  RETURN_IF_ERROR(BroadcastShapes(ctx, x, y, &xy));
  RETURN_IF_ERROR(BroadcastShapes(ctx, c, xy, &out));
  SelectState* st = GetSelectState(ctx);
  if (c == x && x == y) {
    st->mode = SelectMode::kElementwise;
  } else {
    st->mode = SelectMode::kBroadcast;
    const Dims* shapes[3] = {&c, &x, &y};
    RETURN_IF_ERROR(
        elementwise::MakeBroadcastPlan(ctx, shapes, out, &st->plan));
  }
  ctx.SetOutputShape(0, std::move(out));
  return absl::OkStatus();
}

absl::Status EvalSelectV2(OpContext& ctx) { return DispatchSelect(ctx); }

}  // namespace qforge::runtime
