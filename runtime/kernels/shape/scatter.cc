// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Ops that write or look up whole slices by index, as TFLite's kernels of
// the same names:
//  - SCATTER_ND(indices [..., K], updates, shape): a zero tensor of `shape`
//    (updates' type) to which every update slice is added at its index
//    (duplicate indices accumulate, in index order). float32, int32, int64,
//    int8, uint8. An index outside `shape` is an error, as in TFLite.
//  - DYNAMIC_UPDATE_SLICE(operand, update, start): the operand with `update`
//    written at `start` (int32 or int64, one per dim), each start clamped to
//    [0, operand_dim - update_dim] as TFLite (and XLA) clamp. Any element
//    type of whole bytes.
//  - EMBEDDING_LOOKUP(ids [n] int32, table [rows, ...]): out[k] =
//    table[ids[k]]; an id outside [0, rows) is an error. The table and the
//    output have the same type (the hybrid uint8/int8 table with a float
//    output is not implemented).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/block_scales.h"
#include "runtime/kernels/common/type_dispatch.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

constexpr int kMaxRank = shape_ops::kMaxViewRank;

// ------------------------------------------------------------- SCATTER_ND

// Output shape of SCATTER_ND from the `shape` input, after checking that
// indices and updates fit it.
absl::Status ResolveScatterNd(const OpContext& ctx, Dims* shape) {
  const RtTensor& indices = *ctx.input(0);
  const RtTensor& updates = *ctx.input(1);
  shape_ops::IntValues values;
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 2, "shape", &values));
  shape->assign(values.begin(), values.end());
  if (ctx.input(2)->rank() != 1 || shape->empty()) {
    return ctx.Error(absl::StrCat("shape '", ctx.input(2)->name(),
                                  "' must be a non-empty 1-D tensor"));
  }
  if (indices.rank() < 1) {
    return ctx.Error(
        absl::StrCat("indices '", indices.name(), "' must have rank >= 1"));
  }
  const int64_t k = indices.shape.back();
  if (k < 1 || k > static_cast<int64_t>(shape->size())) {
    return ctx.Error(absl::StrCat("indices '", indices.name(), "' ",
                                  DimsString(indices.shape),
                                  " index 1 to rank(shape) = ", shape->size(),
                                  " dims; its last dim is ", k));
  }
  Dims want(indices.shape.begin(), indices.shape.end() - 1);
  want.insert(want.end(), shape->begin() + k, shape->end());
  if (updates.shape != want) {
    return ctx.Error(absl::StrCat(
        "updates '", updates.name(), "' has shape ", DimsString(updates.shape),
        "; indices ", DimsString(indices.shape), " and shape ",
        DimsString(*shape), " need ", DimsString(want)));
  }
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

// Offset in the output of index tuple i (already checked to be in range).
int64_t ScatterOffset(const RtTensor& indices, int64_t i, int64_t k,
                      const Dims& strides) {
  int64_t offset = 0;
  for (int64_t d = 0; d < k; ++d) {
    offset += shape_ops::IndexAt(indices, i * k + d) *
              strides[static_cast<size_t>(d)];
  }
  return offset;
}

// Calls fn(T{}) for the element types SCATTER_ND takes; false for others.
template <typename Fn>
bool ForScatterType(ir::DataType type, const Fn& fn) {
  return ForTypeIn<float, int32_t, int64_t, int8_t, uint8_t>(type, fn);
}

template <typename T>
void ScatterAdd(const RtTensor& indices, const RtTensor& updates, int64_t k,
                const Dims& strides, int64_t slice, RtTensor& out) {
  const int64_t n = indices.NumElements() / k;
  const T* up = updates.Data<T>();
  T* base = out.Data<T>();
  for (int64_t i = 0; i < n; ++i) {
    T* dst = base + ScatterOffset(indices, i, k, strides);
    const T* src = up + i * slice;
    for (int64_t j = 0; j < slice; ++j) {
      dst[j] = static_cast<T>(dst[j] + src[j]);
    }
  }
}

}  // namespace

absl::Status PrepareScatterNd(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "indices"));
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 1, "updates"));
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 2, "shape"));
  if (ctx.input(0)->type != ir::DataType::kInt32 &&
      ctx.input(0)->type != ir::DataType::kInt64) {
    return ctx.Error(absl::StrCat("indices '", ctx.input(0)->name(), "' are ",
                                  ir::DataTypeName(ctx.input(0)->type),
                                  "; they must be int32 or int64"));
  }
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 2, "shape"));
  if (!ForScatterType(ctx.input(1)->type, [](auto) {})) {
    return ctx.Unsupported(absl::StrCat(
        "updates '", ctx.input(1)->name(), "' are ",
        ir::DataTypeName(ctx.input(1)->type),
        "; SCATTER_ND takes float32, int32, int64, int8 or uint8"));
  }
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 1, 0));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {2})) return absl::OkStatus();
  return shape_ops::SetResolvedShape(ctx, /*in_eval=*/false, ResolveScatterNd);
}

absl::Status EvalScatterNd(OpContext& ctx) {
  Dims shape;
  RETURN_IF_ERROR(shape_ops::SetResolvedShape(ctx, /*in_eval=*/true,
                                              ResolveScatterNd, &shape));
  const RtTensor& indices = *ctx.input(0);
  const RtTensor& updates = *ctx.input(1);
  RtTensor& out = *ctx.output(0);
  const int64_t k = indices.shape.back();
  const int64_t n = k == 0 ? 0 : indices.NumElements() / k;
  const Dims strides = shape_ops::RowMajorStrides(shape);
  int64_t slice = 1;
  for (size_t d = static_cast<size_t>(k); d < shape.size(); ++d) {
    slice *= shape[d];
  }
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, out, &elem));
  std::memset(out.data, 0, static_cast<size_t>(NumElements(shape)) * elem);
  if (n == 0 || slice == 0) return absl::OkStatus();
  // Every index is checked before any write.
  for (int64_t i = 0; i < n * k; ++i) {
    const int64_t idx = shape_ops::IndexAt(indices, i);
    const int64_t dim = shape[static_cast<size_t>(i % k)];
    if (idx < 0 || idx >= dim) {
      return ctx.Error(absl::StrCat(
          "index ", idx, " (entry ", i, " of indices '", indices.name(),
          "') is out of range [0, ", dim, ") for dim ", i % k,
          " of the output ", DimsString(shape)));
    }
  }
  if (!ForScatterType(out.type, [&](auto t) {
        ScatterAdd<decltype(t)>(indices, updates, k, strides, slice, out);
      })) {
    return ctx.Error("unexpected output type");
  }
  return absl::OkStatus();
}

// --------------------------------------------------- DYNAMIC_UPDATE_SLICE

absl::Status PrepareDynamicUpdateSlice(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "operand"));
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 1, "update"));
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 2, "start indices"));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 2, "start indices"));
  const RtTensor& operand = *ctx.input(0);
  const RtTensor& update = *ctx.input(1);
  const RtTensor& start = *ctx.input(2);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, operand, &elem));
  if (update.type != operand.type) {
    return ctx.Error(absl::StrCat("update '", update.name(), "' is ",
                                  ir::DataTypeName(update.type), ", operand '",
                                  operand.name(), "' is ",
                                  ir::DataTypeName(operand.type)));
  }
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 0, 0));
  if (update.rank() != operand.rank() || operand.rank() > kMaxRank) {
    return ctx.Error(absl::StrCat(
        "update '", update.name(), "' ", DimsString(update.shape),
        " and operand '", operand.name(), "' ", DimsString(operand.shape),
        " must have the same rank (at most ", kMaxRank, ")"));
  }
  for (int d = 0; d < operand.rank(); ++d) {
    if (update.dim(d) > operand.dim(d)) {
      return ctx.Error(absl::StrCat(
          "update '", update.name(), "' ", DimsString(update.shape),
          " is larger than operand '", operand.name(), "' ",
          DimsString(operand.shape), " in dim ", d));
    }
  }
  if (start.NumElements() != operand.rank()) {
    return ctx.Error(absl::StrCat(
        "start indices '", start.name(), "' hold ", start.NumElements(),
        " values; operand '", operand.name(), "' has rank ", operand.rank()));
  }
  return shape_ops::SetShape(ctx, 0, operand.shape, /*in_eval=*/false);
}

absl::Status EvalDynamicUpdateSlice(OpContext& ctx) {
  const RtTensor& operand = *ctx.input(0);
  const RtTensor& update = *ctx.input(1);
  const RtTensor& start = *ctx.input(2);
  RtTensor& out = *ctx.output(0);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, operand, &elem));
  const size_t total = static_cast<size_t>(operand.NumElements()) * elem;
  if (total > 0 && out.data != operand.data) {
    std::memcpy(out.data, operand.data, total);
  }
  const int rank = operand.rank();
  if (update.NumElements() == 0) return absl::OkStatus();
  if (rank == 0) {
    std::memcpy(out.data, update.data, elem);
    return absl::OkStatus();
  }
  // Clamped start, output strides; then one memcpy per update row (the
  // innermost dim), walking the other dims with an odometer.
  int64_t first[kMaxRank], coord[kMaxRank] = {};
  const Dims strides = shape_ops::RowMajorStrides(operand.shape);
  int64_t base = 0;
  for (int d = 0; d < rank; ++d) {
    const int64_t hi = operand.dim(d) - update.dim(d);
    first[d] = std::max<int64_t>(
        0, std::min<int64_t>(shape_ops::IndexAt(start, d), hi));
    base += first[d] * strides[static_cast<size_t>(d)];
  }
  const size_t row = static_cast<size_t>(update.dim(rank - 1)) * elem;
  const int64_t rows = update.NumElements() / update.dim(rank - 1);
  const uint8_t* src = update.data;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = base;
    for (int d = 0; d < rank - 1; ++d) {
      offset += coord[d] * strides[static_cast<size_t>(d)];
    }
    std::memcpy(out.data + static_cast<size_t>(offset) * elem, src, row);
    src += row;
    for (int d = rank - 2; d >= 0; --d) {
      if (++coord[d] < update.dim(d)) break;
      coord[d] = 0;
    }
  }
  return absl::OkStatus();
}

// ------------------------------------------------------- EMBEDDING_LOOKUP

namespace {

// An int8 or int4 table (int4 constants are widened to int8 when loaded)
// with a float32 output: TFLite's EvalHybrid (one scale per row) or
// EvalBlockwise (float16 scales per block of a row); each value is
// q * scale in float, as there (int4: (16 q) * (scale / 16), the same).
struct HybridLookupState : KernelState {
  int64_t cols = 0;
  integer::RowScales scales;
};

}  // namespace

absl::Status PrepareEmbeddingLookup(OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "ids"));
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 1, "table"));
  const RtTensor& ids = *ctx.input(0);
  const RtTensor& table = *ctx.input(1);
  if (ids.type != ir::DataType::kInt32 || ids.rank() != 1) {
    return ctx.Error(
        absl::StrCat("ids '", ids.name(), "' are ", ir::DataTypeName(ids.type),
                     DimsString(ids.shape), "; they must be 1-D int32"));
  }
  if (table.rank() < 2) {
    return ctx.Error(absl::StrCat("table '", table.name(), "' has shape ",
                                  DimsString(table.shape),
                                  "; it must have rank >= 2"));
  }
  if (table.type == ir::DataType::kInt8 &&
      ctx.output(0)->type == ir::DataType::kFloat32) {
    if (!table.is_constant) {
      return ctx.Unsupported(
          absl::StrCat("int8 table '", table.name(), "' must be a constant"));
    }
    auto* st = ctx.StateOrNew<HybridLookupState>();
    st->cols = table.NumElements() / std::max<int64_t>(table.dim(0), 1);
    RETURN_IF_ERROR(integer::ReadRowScales(ctx, table, "table", table.dim(0),
                                           st->cols, &st->scales));
    Dims shape = table.shape;
    shape[0] = ids.dim(0);
    return shape_ops::SetShape(ctx, 0, shape, /*in_eval=*/false);
  }
  if (ctx.output(0)->type != table.type) {
    return ctx.Unsupported(absl::StrCat(
        "table '", table.name(), "' is ", ir::DataTypeName(table.type),
        ", output '", ctx.output(0)->name(), "' is ",
        ir::DataTypeName(ctx.output(0)->type),
        "; only same-type lookups are implemented (not hybrid tables)"));
  }
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, table, &elem));
  Dims shape = table.shape;
  shape[0] = ids.dim(0);
  return shape_ops::SetShape(ctx, 0, shape, /*in_eval=*/false);
}

absl::Status EvalEmbeddingLookup(OpContext& ctx) {
  const RtTensor& ids = *ctx.input(0);
  const RtTensor& table = *ctx.input(1);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, table, &elem));
  const int64_t rows = table.dim(0);
  const size_t row =
      static_cast<size_t>(table.NumElements() / std::max<int64_t>(rows, 1)) *
      elem;
  const int32_t* id = ids.Data<int32_t>();
  for (int64_t k = 0; k < ids.dim(0); ++k) {
    if (id[k] < 0 || id[k] >= rows) {
      return ctx.Error(absl::StrCat("id ", id[k], " (entry ", k, " of '",
                                    ids.name(), "') is out of range [0, ", rows,
                                    ") for table '", table.name(), "' ",
                                    DimsString(table.shape)));
    }
  }
  if (table.type == ir::DataType::kInt8 &&
      ctx.output(0)->type == ir::DataType::kFloat32) {
    const HybridLookupState& st = *ctx.state<HybridLookupState>();
    const int8_t* q = table.Data<int8_t>();
    float* y = ctx.output(0)->Data<float>();
    const int64_t blocks = st.cols / st.scales.block;
    for (int64_t k = 0; k < ids.dim(0); ++k) {
      const int64_t r = id[k];
      for (int64_t j = 0; j < st.cols; ++j) {
        const float s =
            st.scales
                .scales[static_cast<size_t>(r * blocks + j / st.scales.block)];
        y[k * st.cols + j] = static_cast<float>(q[r * st.cols + j]) * s;
      }
    }
    return absl::OkStatus();
  }
  uint8_t* out = ctx.output(0)->data;
  for (int64_t k = 0; k < ids.dim(0); ++k) {
    if (row > 0) {
      std::memcpy(out + static_cast<size_t>(k) * row,
                  table.data + static_cast<size_t>(id[k]) * row, row);
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
