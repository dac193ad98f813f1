// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Ops that reorder or replicate elements along whole axes: TRANSPOSE,
// REVERSE_V2, TILE, BROADCAST_TO. Each is one AffineCopy.
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::AffineView;
using shape_ops::IntValues;

// Prepare of an op whose output shape comes from input 1's values.
template <typename Resolve>
absl::Status PrepareWithParams(OpContext& ctx, absl::string_view what,
                               Resolve resolve) {
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, &elem));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, what));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1})) return absl::OkStatus();
  return shape_ops::PrepareAffineCopy(ctx, resolve);
}

// The per-dim values of input 1 (`what`: "perm", "multiples") for input
// 0, whose rank must be at most `max_rank` for `op`: one per dim.
absl::Status ReadPerDimInts(const OpContext& ctx, absl::string_view op,
                            int max_rank, absl::string_view what,
                            IntValues* values) {
  const RtTensor* in = ctx.input(0);
  const int rank = in->rank();
  if (rank > max_rank) {
    return ctx.Unsupported(absl::StrCat("input '", in->name(), "' has rank ",
                                        rank, "; ", op, " supports up to ",
                                        max_rank));
  }
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, what, values));
  if (static_cast<int>(values->size()) != rank) {
    return ctx.Error(absl::StrCat(what, " ", DimsString(*values), " has ",
                                  values->size(), " entries for rank ", rank));
  }
  return absl::OkStatus();
}

// --- TRANSPOSE: out[i0..in] = in[i_perm^-1...]; out dim k = in dim perm[k].

absl::Status ResolveTranspose(const OpContext& ctx, AffineView* view,
                              Dims* shape) {
  const RtTensor* in = ctx.input(0);
  const int rank = in->rank();
  IntValues perm;
  RETURN_IF_ERROR(ReadPerDimInts(ctx, "TRANSPOSE", 6, "perm", &perm));
  bool seen[6] = {};
  const Dims strides = shape_ops::RowMajorStrides(in->shape);
  shape->clear();
  for (int k = 0; k < rank; ++k) {
    const int64_t p = perm[static_cast<size_t>(k)];
    if (p < 0 || p >= rank || seen[p]) {
      return ctx.Error(absl::StrCat("perm ", DimsString(perm),
                                    " is not a permutation of 0..", rank - 1));
    }
    seen[p] = true;
    shape->push_back(in->dim(static_cast<int>(p)));
    view->Push(in->dim(static_cast<int>(p)), strides[static_cast<size_t>(p)]);
  }
  return absl::OkStatus();
}

// --- REVERSE_V2: out[.., i, ..] = in[.., n-1-i, ..] on every listed axis.

absl::Status ResolveReverse(const OpContext& ctx, AffineView* view,
                            Dims* shape) {
  const RtTensor* in = ctx.input(0);
  const int rank = in->rank();
  if (rank > shape_ops::kMaxViewRank) {
    return ctx.Unsupported(absl::StrCat("input rank ", rank, " is too high"));
  }
  IntValues axes;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "axis", &axes));
  bool flip[shape_ops::kMaxViewRank] = {};
  for (int64_t a : axes) {
    int d = 0;
    RETURN_IF_ERROR(shape_ops::NormalizeAxis(ctx, a, rank, "axis", &d));
    if (flip[d]) {
      return ctx.Error(
          absl::StrCat("axis ", a, " is listed twice in ", DimsString(axes)));
    }
    flip[d] = true;
  }
  const Dims strides = shape_ops::RowMajorStrides(in->shape);
  *shape = in->shape;
  for (int d = 0; d < rank; ++d) {
    const int64_t s = strides[static_cast<size_t>(d)];
    if (flip[d] && in->dim(d) > 0) {
      view->base += (in->dim(d) - 1) * s;
      view->Push(in->dim(d), -s);
    } else {
      view->Push(in->dim(d), s);
    }
  }
  return absl::OkStatus();
}

// --- TILE: out dim k = in dim k * multiples[k]; viewed as [m_k, d_k] pairs
// where the m_k axis has stride 0.

absl::Status ResolveTile(const OpContext& ctx, AffineView* view, Dims* shape) {
  const RtTensor* in = ctx.input(0);
  const int rank = in->rank();
  IntValues mult;
  RETURN_IF_ERROR(ReadPerDimInts(ctx, "TILE", shape_ops::kMaxViewRank / 2,
                                 "multiples", &mult));
  const Dims strides = shape_ops::RowMajorStrides(in->shape);
  shape->clear();
  for (int d = 0; d < rank; ++d) {
    const int64_t m = mult[static_cast<size_t>(d)];
    if (m < 0 || m >= (int64_t{1} << 31)) {
      return ctx.Error(absl::StrCat("multiples ", DimsString(mult),
                                    " has the invalid value ", m));
    }
    shape->push_back(in->dim(d) * m);
    view->Push(m, 0);
    view->Push(in->dim(d), strides[static_cast<size_t>(d)]);
  }
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

// --- BROADCAST_TO: right-aligned NumPy broadcast of the input to `shape`.

absl::Status ResolveBroadcastTo(const OpContext& ctx, AffineView* view,
                                Dims* shape) {
  const RtTensor* in = ctx.input(0);
  IntValues target;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "shape", &target));
  const int out_rank = static_cast<int>(target.size());
  const int in_rank = in->rank();
  if (out_rank > 8) {
    return ctx.Unsupported(
        absl::StrCat("shape ", DimsString(target), " has rank above 8"));
  }
  if (out_rank < in_rank) {
    return ctx.Error(absl::StrCat("shape ", DimsString(target),
                                  " has lower rank than input '", in->name(),
                                  "' ", DimsString(in->shape)));
  }
  const Dims strides = shape_ops::RowMajorStrides(in->shape);
  shape->assign(target.begin(), target.end());
  RETURN_IF_ERROR(shape_ops::CheckOutputDims(ctx, 0, *shape));
  for (int j = 0; j < out_rank; ++j) {
    const int i = j - (out_rank - in_rank);
    const int64_t t = target[static_cast<size_t>(j)];
    if (i < 0) {
      view->Push(t, 0);
    } else if (in->dim(i) == t) {
      view->Push(t, strides[static_cast<size_t>(i)]);
    } else if (in->dim(i) == 1) {
      view->Push(t, 0);
    } else {
      return ctx.Error(
          absl::StrCat("input '", in->name(), "' ", DimsString(in->shape),
                       " does not broadcast to ", DimsString(target)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareTranspose(OpContext& ctx) {
  return PrepareWithParams(ctx, "perm", ResolveTranspose);
}
absl::Status EvalTranspose(OpContext& ctx) {
  return shape_ops::EvalAffineCopy(ctx, ResolveTranspose);
}

absl::Status PrepareReverseV2(OpContext& ctx) {
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, &elem));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "axis"));
  if (ctx.InputValueKnown(1)) {  // validate early; the shape never changes
    AffineView view;
    Dims shape;
    RETURN_IF_ERROR(ResolveReverse(ctx, &view, &shape));
  }
  return shape_ops::SetShape(ctx, 0, ctx.input(0)->shape, /*in_eval=*/false);
}
absl::Status EvalReverseV2(OpContext& ctx) {
  return shape_ops::EvalAffineCopy(ctx, ResolveReverse);
}

absl::Status PrepareTile(OpContext& ctx) {
  return PrepareWithParams(ctx, "multiples", ResolveTile);
}
absl::Status EvalTile(OpContext& ctx) {
  return shape_ops::EvalAffineCopy(ctx, ResolveTile);
}

absl::Status PrepareBroadcastTo(OpContext& ctx) {
  return PrepareWithParams(ctx, "shape", ResolveBroadcastTo);
}
absl::Status EvalBroadcastTo(OpContext& ctx) {
  return shape_ops::EvalAffineCopy(ctx, ResolveBroadcastTo);
}

}  // namespace qforge::runtime
