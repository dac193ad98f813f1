// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// GATHER (axis, batch_dims) and GATHER_ND. Indices are int16, int32 or int64;
// every index is checked against its axis before it is used, and an
// out-of-range (or negative) index is an error naming the value.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::DimsProduct;

absl::Status CheckIndices(const OpContext& ctx, int i) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, i, "indices"));
  const RtTensor* t = ctx.input(i);
  if (t->type != ir::DataType::kInt16 && t->type != ir::DataType::kInt32 &&
      t->type != ir::DataType::kInt64) {
    return ctx.Error(absl::StrCat("indices '", t->name(), "' are ",
                                  ir::DataTypeName(t->type),
                                  "; they must be int16, int32 or int64"));
  }
  return absl::OkStatus();
}

// --- GATHER --------------------------------------------------------------

struct GatherParams {
  int axis = 0, batch_dims = 0;
  Dims shape;
};

absl::Status ResolveGather(const OpContext& ctx, GatherParams* p) {
  const RtTensor* in = ctx.input(0);
  const RtTensor* pos = ctx.input(1);
  const auto opts = ir::OptionsOr<ir::GatherOptions>(ctx.op().options);
  RETURN_IF_ERROR(
      shape_ops::NormalizeAxis(ctx, opts.axis, in->rank(), "axis", &p->axis));
  int64_t bd = opts.batch_dims;
  if (bd < 0) bd += pos->rank();
  if (bd < 0 || bd > p->axis || bd >= in->rank() || bd > pos->rank()) {
    return ctx.Error(absl::StrCat(
        "batch_dims ", opts.batch_dims, " is invalid for axis ", p->axis,
        ", input rank ", in->rank(), " and indices rank ", pos->rank()));
  }
  p->batch_dims = static_cast<int>(bd);
  for (int d = 0; d < p->batch_dims; ++d) {
    if (in->dim(d) != pos->dim(d)) {
      return ctx.Error(absl::StrCat("batch dim ", d, " differs: input '",
                                    in->name(), "' ", DimsString(in->shape),
                                    ", indices '", pos->name(), "' ",
                                    DimsString(pos->shape)));
    }
  }
  p->shape.clear();
  for (int d = 0; d < p->axis; ++d) p->shape.push_back(in->dim(d));
  for (int d = p->batch_dims; d < pos->rank(); ++d) {
    p->shape.push_back(pos->dim(d));
  }
  for (int d = p->axis + 1; d < in->rank(); ++d) p->shape.push_back(in->dim(d));
  return shape_ops::CheckOutputDims(ctx, 0, p->shape);
}

}  // namespace

absl::Status PrepareGather(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  RETURN_IF_ERROR(CheckIndices(ctx, 1));
  GatherParams p;
  RETURN_IF_ERROR(ResolveGather(ctx, &p));
  return shape_ops::SetShape(ctx, 0, p.shape, /*in_eval=*/false);
}

absl::Status EvalGather(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  const RtTensor* pos = ctx.input(1);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &elem));
  GatherParams p;
  RETURN_IF_ERROR(ResolveGather(ctx, &p));
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, p.shape, /*in_eval=*/true));
  const int64_t batches = DimsProduct(in->shape, 0, p.batch_dims);
  const int64_t outer = DimsProduct(in->shape, p.batch_dims, p.axis);
  const int64_t axis_size = in->dim(p.axis);
  const int64_t inner = DimsProduct(in->shape, p.axis + 1, in->rank());
  const int64_t coords = DimsProduct(pos->shape, p.batch_dims, pos->rank());
  const size_t block = static_cast<size_t>(inner) * elem;
  // Check every index first: no read ever leaves the input.
  const int64_t num_indices = pos->NumElements();
  for (int64_t k = 0; k < num_indices; ++k) {
    const int64_t idx = shape_ops::IndexAt(*pos, k);
    if (idx < 0 || idx >= axis_size) {
      return ctx.Error(absl::StrCat(
          "index ", idx, " (entry ", k, " of indices '", pos->name(),
          "') is out of range [0, ", axis_size, ") for axis ", p.axis, " of '",
          in->name(), "' ", DimsString(in->shape)));
    }
  }
  if (block == 0) return absl::OkStatus();
  uint8_t* out = ctx.output(0)->data;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const uint8_t* src =
          in->data + static_cast<size_t>((b * outer + o) * axis_size) * block;
      for (int64_t c = 0; c < coords; ++c) {
        const int64_t idx = shape_ops::IndexAt(*pos, b * coords + c);
        std::memcpy(out, src + static_cast<size_t>(idx) * block, block);
        out += block;
      }
    }
  }
  return absl::OkStatus();
}

// --- GATHER_ND -----------------------------------------------------------

namespace {

absl::Status ResolveGatherNd(const OpContext& ctx, int* nd, Dims* shape) {
  const RtTensor* params = ctx.input(0);
  const RtTensor* idx = ctx.input(1);
  if (params->rank() < 1 || idx->rank() < 1) {
    return ctx.Error(absl::StrCat("params '", params->name(), "' ",
                                  DimsString(params->shape), " and indices '",
                                  idx->name(), "' ", DimsString(idx->shape),
                                  " must both have rank >= 1"));
  }
  const int64_t n = idx->dim(idx->rank() - 1);
  if (n > params->rank()) {
    return ctx.Error(absl::StrCat(
        "indices '", idx->name(), "' ", DimsString(idx->shape), " address ", n,
        " dims but params '", params->name(), "' has rank ", params->rank()));
  }
  *nd = static_cast<int>(n);
  shape->clear();
  for (int d = 0; d + 1 < idx->rank(); ++d) shape->push_back(idx->dim(d));
  for (int d = *nd; d < params->rank(); ++d) shape->push_back(params->dim(d));
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

}  // namespace

absl::Status PrepareGatherNd(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  RETURN_IF_ERROR(CheckIndices(ctx, 1));
  int nd = 0;
  Dims shape;
  RETURN_IF_ERROR(ResolveGatherNd(ctx, &nd, &shape));
  return shape_ops::SetShape(ctx, 0, shape, /*in_eval=*/false);
}

absl::Status EvalGatherNd(OpContext& ctx) {
  const RtTensor* params = ctx.input(0);
  const RtTensor* idx = ctx.input(1);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *params, &elem));
  int nd = 0;
  Dims shape;
  RETURN_IF_ERROR(ResolveGatherNd(ctx, &nd, &shape));
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, shape, /*in_eval=*/true));
  const Dims strides = shape_ops::RowMajorStrides(params->shape);
  const int64_t slice = DimsProduct(params->shape, nd, params->rank());
  const int64_t slices = DimsProduct(idx->shape, 0, idx->rank() - 1);
  const size_t block = static_cast<size_t>(slice) * elem;
  uint8_t* out = ctx.output(0)->data;
  for (int64_t s = 0; s < slices; ++s) {
    int64_t from = 0;
    for (int j = 0; j < nd; ++j) {
      const int64_t v = shape_ops::IndexAt(*idx, s * nd + j);
      if (v < 0 || v >= params->dim(j)) {
        return ctx.Error(absl::StrCat(
            "index ", v, " (entry ", s * nd + j, " of indices '", idx->name(),
            "') is out of range [0, ", params->dim(j), ") for dim ", j,
            " of params '", params->name(), "' ", DimsString(params->shape)));
      }
      from += v * strides[static_cast<size_t>(j)];
    }
    if (block == 0) continue;
    std::memcpy(out + static_cast<size_t>(s) * block,
                params->data + static_cast<size_t>(from) * elem, block);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
