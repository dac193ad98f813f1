// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Ops that change a tensor's shape but not its bytes (RESHAPE, SQUEEZE,
// EXPAND_DIMS) and ops that compute shapes (SHAPE, BROADCAST_ARGS).
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::IntValues;

// Copies input 0's bytes to output 0 (unless they share the buffer).
absl::Status CopyInputToOutput(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  RtTensor* out = ctx.output(0);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &elem));
  const size_t bytes = static_cast<size_t>(in->NumElements()) * elem;
  if (bytes == 0 || out->data == in->data) return absl::OkStatus();
  if (in->bytes < bytes || out->bytes < bytes) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' or output '",
                                  out->name(), "' holds fewer than ", bytes,
                                  " bytes"));
  }
  std::memmove(out->data, in->data, bytes);
  return absl::OkStatus();
}

// Eval of RESHAPE, SQUEEZE and EXPAND_DIMS: output 0 gets the shape resolve
// works out from the current values, and input 0's bytes.
template <typename Resolve>
absl::Status CopyReshaped(OpContext& ctx, Resolve resolve) {
  RETURN_IF_ERROR(shape_ops::SetResolvedShape(ctx, /*in_eval=*/true, resolve));
  return CopyInputToOutput(ctx);
}

// --- RESHAPE -------------------------------------------------------------

// TFLite takes the shape from input 1 when it is a vector of ints, else from
// ReshapeOptions.new_shape (where the legacy [0] means a scalar).
bool ShapeFromTensor(const OpContext& ctx) {
  const RtTensor* s = ctx.input(1);
  return s != nullptr && s->rank() == 1 &&
         (s->type == ir::DataType::kInt32 || s->type == ir::DataType::kInt64);
}

absl::Status ResolveReshape(const OpContext& ctx, Dims* out) {
  IntValues wanted;
  if (ShapeFromTensor(ctx)) {
    RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "shape", &wanted));
  } else {
    const auto opts = ir::OptionsOr<ir::ReshapeOptions>(ctx.op().options);
    wanted.assign(opts.new_shape.begin(), opts.new_shape.end());
    if (wanted.size() == 1 && wanted[0] == 0) wanted.clear();
  }
  const RtTensor* in = ctx.input(0);
  int64_t in_count = 1, in_nonzero = 1;
  for (int64_t d : in->shape) {
    in_count *= d;
    if (d != 0) in_nonzero *= d;
  }
  int stretch = -1;
  int64_t out_count = 1, out_nonzero = 1;
  out->assign(wanted.begin(), wanted.end());
  for (size_t i = 0; i < wanted.size(); ++i) {
    const int64_t v = wanted[i];
    if (v == -1) {
      if (stretch != -1) {
        return ctx.Error(absl::StrCat("new shape ", DimsString(wanted),
                                      " has more than one -1"));
      }
      stretch = static_cast<int>(i);
      continue;
    }
    if (v < 0 || v >= (int64_t{1} << 31)) {
      return ctx.Error(absl::StrCat("new shape ", DimsString(wanted),
                                    " has the invalid dim ", v));
    }
    if (v != 0) out_nonzero *= v;
    out_count *= v;
    if (out_nonzero > (int64_t{1} << 48)) {
      return ctx.Error(absl::StrCat("new shape ", DimsString(wanted),
                                    " has too many elements"));
    }
  }
  if (stretch != -1) {
    const int64_t s =
        (in_count == 0 && out_count != 0) ? 0 : in_nonzero / out_nonzero;
    (*out)[static_cast<size_t>(stretch)] = s;
    out_count *= s;
  }
  if (in_count != out_count) {
    return ctx.Error(absl::StrCat("cannot reshape '", in->name(), "' ",
                                  DimsString(in->shape), " (", in_count,
                                  " elements) to ", DimsString(wanted), " (",
                                  out_count, " elements)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareReshape(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  if (ShapeFromTensor(ctx) && !shape_ops::ValuesKnownOrDefer(ctx, {1})) {
    return absl::OkStatus();
  }
  return shape_ops::SetResolvedShape(ctx, /*in_eval=*/false, ResolveReshape);
}

QF_KERNEL_AS(EvalReshape, CopyReshaped(ctx, ResolveReshape))

// --- SQUEEZE -------------------------------------------------------------

namespace {

absl::Status ResolveSqueeze(const OpContext& ctx, Dims* out) {
  const RtTensor* in = ctx.input(0);
  const int rank = in->rank();
  const auto opts = ir::OptionsOr<ir::SqueezeOptions>(ctx.op().options);
  bool squeeze[64] = {};
  if (rank > 64) return ctx.Error("SQUEEZE input rank above 64");
  if (opts.squeeze_dims.empty()) {
    for (int d = 0; d < rank; ++d) squeeze[d] = in->dim(d) == 1;
  } else {
    for (int32_t sd : opts.squeeze_dims) {
      int d = 0;
      RETURN_IF_ERROR(
          shape_ops::NormalizeAxis(ctx, sd, rank, "squeeze dim", &d));
      if (in->dim(d) != 1) {
        return ctx.Error(absl::StrCat("squeeze dim ", sd, " of '", in->name(),
                                      "' ", DimsString(in->shape), " has size ",
                                      in->dim(d), ", not 1"));
      }
      squeeze[d] = true;
    }
  }
  out->clear();
  for (int d = 0; d < rank; ++d) {
    if (!squeeze[d]) out->push_back(in->dim(d));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareSqueeze(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  return shape_ops::SetResolvedShape(ctx, /*in_eval=*/false, ResolveSqueeze);
}

QF_KERNEL_AS(EvalSqueeze, CopyReshaped(ctx, ResolveSqueeze))

// --- EXPAND_DIMS ---------------------------------------------------------

namespace {

absl::Status ResolveExpandDims(const OpContext& ctx, Dims* out) {
  const RtTensor* in = ctx.input(0);
  // The new dim may go anywhere in [0, rank]; negative counts from the end.
  int a = 0;
  RETURN_IF_ERROR(shape_ops::ReadAxis(ctx, 1, in->rank() + 1, &a));
  *out = in->shape;
  out->insert(out->begin() + a, 1);
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareExpandDims(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "axis"));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1})) return absl::OkStatus();
  return shape_ops::SetResolvedShape(ctx, /*in_eval=*/false, ResolveExpandDims);
}

QF_KERNEL_AS(EvalExpandDims, CopyReshaped(ctx, ResolveExpandDims))

// --- SHAPE ---------------------------------------------------------------

absl::Status PrepareShape(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "input"));
  RtTensor* out = ctx.output(0);
  // ShapeOptions.out_type when the op carries it, else the output's type.
  ir::DataType type = out->type;
  if (const auto* o = std::get_if<ir::OutputTypeOptions>(&ctx.op().options)) {
    type = o->output_type;
  }
  if (type != ir::DataType::kInt32 && type != ir::DataType::kInt64) {
    return ctx.Error(absl::StrCat("output type ", ir::DataTypeName(type),
                                  " is not int32 or int64"));
  }
  if (type != out->type) {
    return ctx.Error(absl::StrCat("options ask for ", ir::DataTypeName(type),
                                  " but output '", out->name(), "' is ",
                                  ir::DataTypeName(out->type)));
  }
  return shape_ops::SetShape(ctx, 0, Dims{ctx.input(0)->rank()},
                             /*in_eval=*/false);
}

absl::Status EvalShape(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  RtTensor* out = ctx.output(0);
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, Dims{in->rank()}, true));
  for (int d = 0; d < in->rank(); ++d) {
    if (out->type == ir::DataType::kInt32) {
      out->Data<int32_t>()[d] = static_cast<int32_t>(in->dim(d));
    } else {
      out->Data<int64_t>()[d] = in->dim(d);
    }
  }
  return absl::OkStatus();
}

// --- BROADCAST_ARGS ------------------------------------------------------

absl::Status PrepareBroadcastArgs(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 0, "shape 0"));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "shape 1"));
  const RtTensor* a = ctx.input(0);
  const RtTensor* b = ctx.input(1);
  if (a->type != b->type) {
    return ctx.Error(absl::StrCat("shapes '", a->name(), "' (",
                                  ir::DataTypeName(a->type), ") and '",
                                  b->name(), "' (", ir::DataTypeName(b->type),
                                  ") must have the same type"));
  }
  if (a->rank() != 1 || b->rank() != 1) {
    return ctx.Error(absl::StrCat("shapes must be 1-D; got ",
                                  DimsString(a->shape), " and ",
                                  DimsString(b->shape)));
  }
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 0, 0));
  return shape_ops::SetShape(ctx, 0, Dims{std::max(a->dim(0), b->dim(0))},
                             /*in_eval=*/false);
}

absl::Status EvalBroadcastArgs(OpContext& ctx) {
  IntValues a, b;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 0, "shape 0", &a));
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "shape 1", &b));
  const size_t n = std::max(a.size(), b.size());
  RETURN_IF_ERROR(
      shape_ops::SetShape(ctx, 0, Dims{static_cast<int64_t>(n)}, true));
  RtTensor* out = ctx.output(0);
  // Right-aligned, NumPy rules: equal dims, or one of them is 1.
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      return ctx.Error(absl::StrCat("shapes ", DimsString(a), " and ",
                                    DimsString(b), " do not broadcast"));
    }
    const int64_t d = da == 1 ? db : da;
    if (out->type == ir::DataType::kInt32) {
      out->Data<int32_t>()[i] = static_cast<int32_t>(d);
    } else {
      out->Data<int64_t>()[i] = d;
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
