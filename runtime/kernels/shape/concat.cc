// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Joining and splitting along one axis: CONCATENATION, PACK (join with a new
// axis), UNPACK, SPLIT, SPLIT_V. All are block copies: with outer = product
// of the dims before the axis, each input/output contributes one contiguous
// block per outer index.
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::DimsProduct;
using shape_ops::IntValues;

// The fused activation of a float CONCATENATION (TFLite itself only accepts
// NONE; the others follow TFLite's activation definitions).
absl::Status CheckActivation(const OpContext& ctx, ir::Activation act,
                             ir::DataType type) {
  if (act == ir::Activation::kNone) return absl::OkStatus();
  if (type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat(
        "fused activation on a ", ir::DataTypeName(type), " concatenation"));
  }
  if (act == ir::Activation::kSignBit) {
    return ctx.Unsupported("fused activation SIGN_BIT");
  }
  if (act != ir::Activation::kRelu && act != ir::Activation::kReluN1To1 &&
      act != ir::Activation::kRelu6 && act != ir::Activation::kTanh) {
    return ctx.Error(
        absl::StrCat("unknown fused activation ", static_cast<int>(act)));
  }
  return absl::OkStatus();
}

void ApplyActivation(ir::Activation act, float* data, int64_t n) {
  switch (act) {
    case ir::Activation::kRelu:
      for (int64_t i = 0; i < n; ++i) data[i] = std::max(0.0f, data[i]);
      break;
    case ir::Activation::kReluN1To1:
      for (int64_t i = 0; i < n; ++i) {
        data[i] = std::min(1.0f, std::max(-1.0f, data[i]));
      }
      break;
    case ir::Activation::kRelu6:
      for (int64_t i = 0; i < n; ++i) {
        data[i] = std::min(6.0f, std::max(0.0f, data[i]));
      }
      break;
    case ir::Activation::kTanh:
      for (int64_t i = 0; i < n; ++i) data[i] = std::tanh(data[i]);
      break;
    default:
      break;
  }
}

// Checks inputs 0..n-1 of a join: all present, one element type, and the
// output of that type.
absl::Status CheckJoinInputs(const OpContext& ctx, size_t* elem) {
  if (ctx.num_inputs() < 1) return ctx.Error("needs at least one input");
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    RETURN_IF_ERROR(shape_ops::RequireInput(ctx, i, "value"));
    if (ctx.input(i)->type != ctx.input(0)->type) {
      return ctx.Error(absl::StrCat(
          "input ", i, " '", ctx.input(i)->name(), "' is ",
          ir::DataTypeName(ctx.input(i)->type), " but input 0 '",
          ctx.input(0)->name(), "' is ", ir::DataTypeName(ctx.input(0)->type)));
    }
  }
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), elem));
  return shape_ops::ExpectSameType(ctx, 0, 0);
}

// Eval of a join: output 0's shape from resolve(ctx, &axis, &shape) and the
// current inputs, then per outer index (the dims before the axis) one block
// of each input in order; input i's block is block_elems(i) elements.
template <typename Resolve, typename BlockElems>
absl::Status EvalJoin(OpContext& ctx, Resolve resolve,
                      const BlockElems& block_elems) {
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), &elem));
  int axis = 0;
  Dims shape;
  RETURN_IF_ERROR(shape_ops::SetResolvedShape(
      ctx, /*in_eval=*/true, [&](Dims* s) { return resolve(ctx, &axis, s); },
      &shape));
  absl::InlinedVector<size_t, 8> bytes(static_cast<size_t>(ctx.num_inputs()));
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    bytes[static_cast<size_t>(i)] =
        static_cast<size_t>(block_elems(i, axis, shape)) * elem;
  }
  const int64_t outer = DimsProduct(shape, 0, axis);
  uint8_t* dst = ctx.output(0)->data;
  for (int64_t o = 0; o < outer; ++o) {
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      const size_t n = bytes[static_cast<size_t>(i)];
      if (n == 0) continue;
      std::memcpy(dst, ctx.input(i)->data + static_cast<size_t>(o) * n, n);
      dst += n;
    }
  }
  return absl::OkStatus();
}

// Prepare's end of a join: output 0's shape from resolve(ctx, &axis, &shape).
template <typename Resolve>
absl::Status PrepareJoinShape(OpContext& ctx, Resolve resolve) {
  int axis = 0;
  return shape_ops::SetResolvedShape(
      ctx, /*in_eval=*/false, [&](Dims* s) { return resolve(ctx, &axis, s); });
}

// --- CONCATENATION -------------------------------------------------------

absl::Status ResolveConcat(const OpContext& ctx, int* axis_out, Dims* shape) {
  const RtTensor* t0 = ctx.input(0);
  const auto opts = ir::OptionsOr<ir::ConcatenationOptions>(ctx.op().options);
  if (t0->rank() == 0) {
    // Scalars join into a vector (TFLite does this for constant scalars).
    if (opts.axis != 0 && opts.axis != -1) {
      return ctx.Error(
          absl::StrCat("axis ", opts.axis, " is invalid for scalar inputs"));
    }
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      if (ctx.input(i)->rank() != 0) {
        return ctx.Error(absl::StrCat("input ", i, " '", ctx.input(i)->name(),
                                      "' is not a scalar like input 0"));
      }
    }
    *axis_out = 0;
    *shape = Dims{ctx.num_inputs()};
    return absl::OkStatus();
  }
  int axis = 0;
  RETURN_IF_ERROR(
      shape_ops::NormalizeAxis(ctx, opts.axis, t0->rank(), "axis", &axis));
  *shape = t0->shape;
  for (int i = 1; i < ctx.num_inputs(); ++i) {
    const RtTensor* t = ctx.input(i);
    bool ok = t->rank() == t0->rank();
    for (int d = 0; ok && d < t0->rank(); ++d) {
      ok = d == axis || t->dim(d) == t0->dim(d);
    }
    if (!ok) {
      return ctx.Error(
          absl::StrCat("input ", i, " '", t->name(), "' ", DimsString(t->shape),
                       " does not match input 0 '", t0->name(), "' ",
                       DimsString(t0->shape), " outside axis ", axis));
    }
    (*shape)[static_cast<size_t>(axis)] += t->dim(axis);
  }
  *axis_out = axis;
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

}  // namespace

absl::Status PrepareConcatenation(OpContext& ctx) {
  size_t elem = 0;
  RETURN_IF_ERROR(CheckJoinInputs(ctx, &elem));
  const auto opts = ir::OptionsOr<ir::ConcatenationOptions>(ctx.op().options);
  RETURN_IF_ERROR(CheckActivation(ctx, opts.activation, ctx.input(0)->type));
  return PrepareJoinShape(ctx, ResolveConcat);
}

absl::Status EvalConcatenation(OpContext& ctx) {
  RETURN_IF_ERROR(
      EvalJoin(ctx, ResolveConcat, [&](int i, int axis, const Dims& shape) {
        const RtTensor* t = ctx.input(i);
        return (t->rank() == 0 ? 1 : t->dim(axis)) *
               DimsProduct(shape, axis + 1, static_cast<int>(shape.size()));
      }));
  RtTensor* out = ctx.output(0);
  const auto opts = ir::OptionsOr<ir::ConcatenationOptions>(ctx.op().options);
  if (opts.activation != ir::Activation::kNone &&
      out->type == ir::DataType::kFloat32) {
    ApplyActivation(opts.activation, out->Data<float>(), out->NumElements());
  }
  return absl::OkStatus();
}

// --- PACK ----------------------------------------------------------------

namespace {

absl::Status ResolvePack(const OpContext& ctx, int* axis_out, Dims* shape) {
  const RtTensor* t0 = ctx.input(0);
  const auto opts = ir::OptionsOr<ir::PackOptions>(ctx.op().options);
  if (opts.values_count != 0 && opts.values_count != ctx.num_inputs()) {
    return ctx.Error(absl::StrCat("values_count is ", opts.values_count,
                                  " but the op has ", ctx.num_inputs(),
                                  " inputs"));
  }
  for (int i = 1; i < ctx.num_inputs(); ++i) {
    if (ctx.input(i)->shape != t0->shape) {
      return ctx.Error(absl::StrCat("input ", i, " '", ctx.input(i)->name(),
                                    "' ", DimsString(ctx.input(i)->shape),
                                    " differs from input 0 '", t0->name(), "' ",
                                    DimsString(t0->shape)));
    }
  }
  int axis = 0;
  RETURN_IF_ERROR(
      shape_ops::NormalizeAxis(ctx, opts.axis, t0->rank() + 1, "axis", &axis));
  *shape = t0->shape;
  shape->insert(shape->begin() + axis, ctx.num_inputs());
  *axis_out = axis;
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

}  // namespace

absl::Status PreparePack(OpContext& ctx) {
  size_t elem = 0;
  RETURN_IF_ERROR(CheckJoinInputs(ctx, &elem));
  return PrepareJoinShape(ctx, ResolvePack);
}

absl::Status EvalPack(OpContext& ctx) {
  // Each input is one block of its whole size per index before the new axis.
  return EvalJoin(ctx, ResolvePack, [&](int, int axis, const Dims&) {
    const Dims& in_shape = ctx.input(0)->shape;
    return DimsProduct(in_shape, axis, static_cast<int>(in_shape.size()));
  });
}

// --- Splitting: UNPACK, SPLIT, SPLIT_V -------------------------------------

namespace {

// Output j takes sizes[j] entries of input `in` along `axis` (dropped from
// its shape when `drop_axis`, as UNPACK does).
absl::Status SplitShapes(OpContext& ctx, int in, int axis,
                         const IntValues& sizes, bool drop_axis, bool in_eval) {
  const RtTensor* t = ctx.input(in);
  for (int j = 0; j < ctx.num_outputs(); ++j) {
    Dims shape = t->shape;
    if (drop_axis) {
      shape.erase(shape.begin() + axis);
    } else {
      shape[static_cast<size_t>(axis)] = sizes[static_cast<size_t>(j)];
    }
    RETURN_IF_ERROR(shape_ops::SetShape(ctx, j, shape, in_eval));
  }
  return absl::OkStatus();
}

absl::Status SplitCopy(OpContext& ctx, int in, int axis,
                       const IntValues& sizes) {
  const RtTensor* t = ctx.input(in);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *t, &elem));
  const int64_t outer = DimsProduct(t->shape, 0, axis);
  const int64_t inner =
      DimsProduct(t->shape, axis + 1, t->rank()) * static_cast<int64_t>(elem);
  const int64_t row = t->dim(axis) * inner;
  int64_t start = 0;
  for (int j = 0; j < ctx.num_outputs(); ++j) {
    const int64_t block = sizes[static_cast<size_t>(j)] * inner;
    uint8_t* dst = ctx.output(j)->data;
    if (block > 0) {
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(dst + o * block, t->data + o * row + start,
                    static_cast<size_t>(block));
      }
    }
    start += block;
  }
  return absl::OkStatus();
}

absl::Status CheckSplitTypes(const OpContext& ctx, int in) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, in, "input"));
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(in), &elem));
  for (int j = 0; j < ctx.num_outputs(); ++j) {
    RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, in, j));
  }
  return absl::OkStatus();
}

absl::Status ResolveUnpack(const OpContext& ctx, int* axis, IntValues* sizes) {
  const RtTensor* t = ctx.input(0);
  const auto opts = ir::OptionsOr<ir::UnpackOptions>(ctx.op().options);
  RETURN_IF_ERROR(
      shape_ops::NormalizeAxis(ctx, opts.axis, t->rank(), "axis", axis));
  const int64_t n = t->dim(*axis);
  if (n != ctx.num_outputs() || (opts.num != 0 && opts.num != n)) {
    return ctx.Error(
        absl::StrCat("input '", t->name(), "' ", DimsString(t->shape), " has ",
                     n, " entries on axis ", *axis, " but num is ", opts.num,
                     " and the op has ", ctx.num_outputs(), " outputs"));
  }
  sizes->assign(static_cast<size_t>(n), 1);
  return absl::OkStatus();
}

// SPLIT: inputs (axis, value); num_splits equal parts.
absl::Status ResolveSplit(const OpContext& ctx, int* axis, IntValues* sizes) {
  const RtTensor* t = ctx.input(1);
  RETURN_IF_ERROR(shape_ops::ReadAxis(ctx, 0, t->rank(), axis));
  const auto opts = ir::OptionsOr<ir::SplitOptions>(ctx.op().options);
  const int n = ctx.num_outputs();
  if (opts.num_splits != 0 && opts.num_splits != n) {
    return ctx.Error(absl::StrCat("num_splits is ", opts.num_splits,
                                  " but the op has ", n, " outputs"));
  }
  const int64_t dim = t->dim(*axis);
  if (dim % n != 0) {
    return ctx.Error(absl::StrCat("axis ", *axis, " of '", t->name(), "' ",
                                  DimsString(t->shape), " does not split into ",
                                  n, " equal parts"));
  }
  sizes->assign(static_cast<size_t>(n), dim / n);
  return absl::OkStatus();
}

// SPLIT_V: inputs (value, size_splits, axis); one size may be -1.
absl::Status ResolveSplitV(const OpContext& ctx, int* axis, IntValues* sizes) {
  const RtTensor* t = ctx.input(0);
  RETURN_IF_ERROR(shape_ops::ReadAxis(ctx, 2, t->rank(), axis));
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "size_splits", sizes));
  const int n = ctx.num_outputs();
  const auto opts = ir::OptionsOr<ir::SplitOptions>(ctx.op().options);
  if ((opts.num_splits != 0 && opts.num_splits != n) ||
      static_cast<int>(sizes->size()) != n) {
    return ctx.Error(absl::StrCat("size_splits ", DimsString(*sizes),
                                  " and num_splits ", opts.num_splits,
                                  " must both match the ", n, " outputs"));
  }
  const int64_t dim = t->dim(*axis);
  int minus_one = -1;
  int64_t sum = 0;
  for (int j = 0; j < n; ++j) {
    const int64_t s = (*sizes)[static_cast<size_t>(j)];
    if (s == -1 && minus_one == -1) {
      minus_one = j;
    } else if (s < 0 || s > dim) {
      return ctx.Error(absl::StrCat("size_splits ", DimsString(*sizes),
                                    " has the invalid size ", s));
    } else {
      sum += s;
    }
  }
  if (minus_one != -1) {
    if (sum > dim) {
      return ctx.Error(absl::StrCat("size_splits ", DimsString(*sizes),
                                    " exceed the axis size ", dim));
    }
    (*sizes)[static_cast<size_t>(minus_one)] = dim - sum;
    sum = dim;
  }
  if (sum != dim) {
    return ctx.Error(absl::StrCat("size_splits ", DimsString(*sizes),
                                  " sum to ", sum, ", not the axis size ", dim,
                                  " of '", t->name(), "'"));
  }
  return absl::OkStatus();
}

// Sets every output's shape from what resolve(ctx, &axis, &sizes) works
// out for the split input `in` (drop_axis: UNPACK drops the axis); in eval
// also copies the pieces.
template <typename Resolve>
absl::Status RunSplit(OpContext& ctx, Resolve resolve, int in, bool drop_axis,
                      bool in_eval) {
  int axis = 0;
  IntValues sizes;
  RETURN_IF_ERROR(resolve(ctx, &axis, &sizes));
  RETURN_IF_ERROR(SplitShapes(ctx, in, axis, sizes, drop_axis, in_eval));
  return in_eval ? SplitCopy(ctx, in, axis, sizes) : absl::OkStatus();
}

}  // namespace

absl::Status PrepareUnpack(OpContext& ctx) {
  RETURN_IF_ERROR(CheckSplitTypes(ctx, 0));
  return RunSplit(ctx, ResolveUnpack, 0, /*drop_axis=*/true, false);
}
QF_KERNEL_AS(EvalUnpack,
             RunSplit(ctx, ResolveUnpack, 0, /*drop_axis=*/true, true))

absl::Status PrepareSplit(OpContext& ctx) {
  RETURN_IF_ERROR(CheckSplitTypes(ctx, 1));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 0, "axis"));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {0})) return absl::OkStatus();
  return RunSplit(ctx, ResolveSplit, 1, false, /*in_eval=*/false);
}
QF_KERNEL_AS(EvalSplit, RunSplit(ctx, ResolveSplit, 1, false, /*in_eval=*/true))

absl::Status PrepareSplitV(OpContext& ctx) {
  RETURN_IF_ERROR(CheckSplitTypes(ctx, 0));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "size_splits"));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 2, "axis"));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1, 2})) return absl::OkStatus();
  return RunSplit(ctx, ResolveSplitV, 0, false, /*in_eval=*/false);
}
QF_KERNEL_AS(EvalSplitV,
             RunSplit(ctx, ResolveSplitV, 0, false, /*in_eval=*/true))

}  // namespace qforge::runtime
