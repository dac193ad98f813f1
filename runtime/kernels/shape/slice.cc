// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SLICE and STRIDED_SLICE. STRIDED_SLICE follows TFLite's kernel
// (kernels/strided_slice.cc BuildStridedSliceParams and
// reference/strided_slice.h StartForAxis/EndForAxis) step by step: the
// ellipsis and new-axis masks are first turned into an "effective" input
// shape with begin/end masks, then every effective axis gets a clamped start
// and stop. Both ops end in one AffineCopy.
#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::AffineView;
using shape_ops::IntValues;

// --- SLICE: out = in[begin : begin + size], size -1 = to the end. --------

absl::Status ResolveSlice(const OpContext& ctx, AffineView* view, Dims* shape) {
  const RtTensor* in = ctx.input(0);
  IntValues begin, size;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "begin", &begin));
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 2, "size", &size));
  const int rank = in->rank();
  if (static_cast<int>(begin.size()) != rank ||
      static_cast<int>(size.size()) != rank) {
    return ctx.Error(absl::StrCat("begin ", DimsString(begin), " and size ",
                                  DimsString(size), " must have ", rank,
                                  " entries (the input rank)"));
  }
  if (rank > shape_ops::kMaxViewRank) {
    return ctx.Unsupported(absl::StrCat("input rank ", rank, " is too high"));
  }
  const Dims strides = shape_ops::RowMajorStrides(in->shape);
  shape->clear();
  for (int d = 0; d < rank; ++d) {
    const int64_t b = begin[static_cast<size_t>(d)];
    int64_t s = size[static_cast<size_t>(d)];
    const int64_t n = in->dim(d);
    if (s == -1) s = n - b;
    if (b < 0 || s < 0 || b > n || s > n - b) {
      return ctx.Error(absl::StrCat("begin ", DimsString(begin), " and size ",
                                    DimsString(size), " leave input '",
                                    in->name(), "' ", DimsString(in->shape),
                                    " on axis ", d));
    }
    shape->push_back(s);
    view->base += b * strides[static_cast<size_t>(d)];
    view->Push(s, strides[static_cast<size_t>(d)]);
  }
  return absl::OkStatus();
}

// --- STRIDED_SLICE -------------------------------------------------------

bool Bit(uint64_t mask, int i) { return (mask >> i) & 1u; }

struct StridedParams {
  int dims = 0;  // effective dims (input rank + new axes)
  int64_t eff_shape[shape_ops::kMaxViewRank] = {};
  int64_t start[shape_ops::kMaxViewRank] = {};
  int64_t stop[shape_ops::kMaxViewRank] = {};
  int64_t stride[shape_ops::kMaxViewRank] = {};
  uint64_t begin_mask = 0, end_mask = 0, shrink_mask = 0;
};

// BuildStridedSliceParams: expands the ellipsis and new axes.
absl::Status BuildParams(const OpContext& ctx, StridedParams* p) {
  const RtTensor* in = ctx.input(0);
  const auto o = ir::OptionsOr<ir::StridedSliceOptions>(ctx.op().options);
  IntValues begin, end, strides;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "begin", &begin));
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 2, "end", &end));
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 3, "strides", &strides));
  const int count = static_cast<int>(begin.size());
  if (end.size() != begin.size() || strides.size() != begin.size()) {
    return ctx.Error(absl::StrCat(
        "begin ", DimsString(begin), ", end ", DimsString(end), " and strides ",
        DimsString(strides), " must have the same length"));
  }
  if (count > 31) {
    return ctx.Error(absl::StrCat("begin has ", count,
                                  " entries; at most 31 are supported"));
  }
  const uint64_t ellipsis = static_cast<uint32_t>(o.ellipsis_mask);
  const uint64_t new_axis = static_cast<uint32_t>(o.new_axis_mask);
  if ((ellipsis & (ellipsis - 1)) != 0) {
    return ctx.Error(absl::StrCat("ellipsis_mask ", o.ellipsis_mask,
                                  " sets more than one bit"));
  }
  const int rank = in->rank();
  int num_add_axis = 0;
  for (int i = 0; i < count; ++i) {
    if (!Bit(ellipsis, i) && Bit(new_axis, i)) ++num_add_axis;
  }
  const int dims = rank + num_add_axis;
  if (dims > shape_ops::kMaxViewRank) {
    return ctx.Unsupported(absl::StrCat("strided slice of rank ", dims,
                                        " (input rank plus new axes)"));
  }
  p->dims = dims;

  uint64_t eff_ellipsis = 0, eff_new_axis = 0;
  int ellipsis_start = dims, expanded = 0;
  for (int i = 0; i < dims;) {
    if (Bit(ellipsis, i)) {
      ellipsis_start = i;
      const int ellipsis_end =
          std::max(i + 1, std::min(i + 1 + num_add_axis + rank - count, dims));
      expanded = ellipsis_end - ellipsis_start - 1;
      for (; i < ellipsis_end; ++i) eff_ellipsis |= uint64_t{1} << i;
      continue;
    }
    if (Bit(new_axis, i - expanded)) eff_new_axis |= uint64_t{1} << i;
    ++i;
  }

  const uint64_t begin_mask = static_cast<uint32_t>(o.begin_mask);
  const uint64_t end_mask = static_cast<uint32_t>(o.end_mask);
  const uint64_t shrink = static_cast<uint32_t>(o.shrink_axis_mask);
  int added_ellipsis = 0, added_axes = 0;
  auto input_dim = [&](int i, int64_t* out) -> absl::Status {
    const int d = i - added_axes;
    if (d < 0 || d >= rank) {
      return ctx.Error(absl::StrCat(
          "the slice spec (", count, " entries, ellipsis_mask ",
          o.ellipsis_mask, ", new_axis_mask ", o.new_axis_mask,
          ") does not fit input '", in->name(), "' ", DimsString(in->shape)));
    }
    *out = in->dim(d);
    return absl::OkStatus();
  };
  for (int i = 0; i < dims; ++i) {
    p->start[i] = 0;
    p->stop[i] = 0;
    p->stride[i] = 1;
    const uint64_t bit = uint64_t{1} << i;
    if (eff_ellipsis & bit) {
      added_ellipsis = std::max(0, i - ellipsis_start);
      p->begin_mask |= bit;
      p->end_mask |= bit;
      RETURN_IF_ERROR(input_dim(i, &p->eff_shape[i]));
    } else if (eff_new_axis & bit) {
      p->stop[i] = 1;
      p->eff_shape[i] = 1;
      ++added_axes;
    } else if (i >= count + expanded) {
      p->begin_mask |= bit;
      p->end_mask |= bit;
      RETURN_IF_ERROR(input_dim(i, &p->eff_shape[i]));
    } else {
      const int k = i - added_ellipsis;
      if (k < 0 || k >= count) {
        return ctx.Error("the slice spec does not fit the input");
      }
      p->start[i] = begin[static_cast<size_t>(k)];
      p->stop[i] = end[static_cast<size_t>(k)];
      p->stride[i] = strides[static_cast<size_t>(k)];
      if (Bit(begin_mask, k)) p->begin_mask |= bit;
      if (Bit(end_mask, k)) p->end_mask |= bit;
      if (Bit(shrink, k)) p->shrink_mask |= bit;
      RETURN_IF_ERROR(input_dim(i, &p->eff_shape[i]));
    }
  }
  return absl::OkStatus();
}

int64_t Clamp(int64_t v, int64_t lo, int64_t hi) {
  return v > hi ? hi : (v < lo ? lo : v);
}

int64_t StartForAxis(const StridedParams& p, int axis) {
  const int64_t size = p.eff_shape[axis];
  const int64_t stride = p.stride[axis];
  int64_t start = p.start[axis];
  if (start < 0) start += size;
  start = stride > 0 ? Clamp(start, 0, size) : Clamp(start, -1, size - 1);
  if (Bit(p.begin_mask, axis)) start = stride > 0 ? 0 : size - 1;
  return start;
}

int64_t EndForAxis(const StridedParams& p, int axis, int64_t start,
                   bool offset) {
  const int64_t size = p.eff_shape[axis];
  if (Bit(p.shrink_mask, axis)) return start >= size ? start : start + 1;
  const int64_t stride = p.stride[axis];
  int64_t end = p.stop[axis];
  if (offset) end += start;
  if (end < 0) end += size;
  end = stride > 0 ? Clamp(end, 0, size) : Clamp(end, -1, size - 1);
  if (Bit(p.end_mask, axis)) end = stride > 0 ? size : -1;
  return end;
}

absl::Status ResolveStridedSlice(const OpContext& ctx, AffineView* view,
                                 Dims* shape) {
  StridedParams p;
  RETURN_IF_ERROR(BuildParams(ctx, &p));
  const bool offset =
      ir::OptionsOr<ir::StridedSliceOptions>(ctx.op().options).offset;
  const Dims strides = shape_ops::RowMajorStrides(
      absl::Span<const int64_t>(p.eff_shape, static_cast<size_t>(p.dims)));
  shape->clear();
  for (int i = 0; i < p.dims; ++i) {
    const int64_t stride = p.stride[i];
    if (stride == 0) return ctx.Error("stride value has to be non-zero");
    if (stride == std::numeric_limits<int32_t>::min()) {
      return ctx.Error("stride value INT32_MIN is not supported");
    }
    const int64_t begin = StartForAxis(p, i);
    const int64_t end = EndForAxis(p, i, begin, offset);
    const int64_t in_stride = strides[static_cast<size_t>(i)];
    if (Bit(p.shrink_mask, i)) {
      // TFLite would write nothing here; an out-of-range index is an error.
      if (begin < 0 || begin >= p.eff_shape[i]) {
        return ctx.Error(absl::StrCat("shrink index ", p.start[i],
                                      " is out of range for axis ", i,
                                      " of size ", p.eff_shape[i]));
      }
      view->base += begin * in_stride;
      continue;
    }
    int64_t n = end - begin;
    if ((n < 0) != (stride < 0)) {
      n = 0;
    } else if (stride < 0) {
      n = (n + 1) / stride + 1;
    } else {
      n = n == 0 ? 0 : (n - 1) / stride + 1;
    }
    shape->push_back(n);
    if (n > 0) view->base += begin * in_stride;
    view->Push(n, stride * in_stride);
  }
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

}  // namespace

absl::Status PrepareSlice(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "begin"));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 2, "size"));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1, 2})) return absl::OkStatus();
  return shape_ops::PrepareAffineCopy(ctx, ResolveSlice);
}

absl::Status EvalSlice(OpContext& ctx) {
  return shape_ops::EvalAffineCopy(ctx, ResolveSlice);
}

absl::Status PrepareStridedSlice(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  for (int i = 1; i <= 3; ++i) {
    RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, i, "begin/end/strides"));
    if (ctx.input(i)->rank() != 1) {
      return ctx.Error(absl::StrCat("input ", i, " '", ctx.input(i)->name(),
                                    "' must be 1-D, not ",
                                    DimsString(ctx.input(i)->shape)));
    }
  }
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1, 2, 3})) return absl::OkStatus();
  return shape_ops::PrepareAffineCopy(ctx, ResolveStridedSlice);
}

absl::Status EvalStridedSlice(OpContext& ctx) {
  return shape_ops::EvalAffineCopy(ctx, ResolveStridedSlice);
}

}  // namespace qforge::runtime
