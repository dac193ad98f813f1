// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// DENSIFY: a sparse constant (TFLite SparsityParameters) to its dense form,
// following TFLite's FormatConverter::SparseToDense (kernels/internal/utils/
// sparsity_format_converter.cc): the compressed values are visited in
// traversal order, level by level; a DENSE level enumerates 0..size-1, a
// SPARSE_CSR level enumerates array_indices[segments[p] .. segments[p+1])
// where p is the position reached in the previous level. Levels past the
// tensor's rank are the inner block dims named by block_map. Unlike TFLite,
// every segment, index, value position and destination is checked: a
// malformed file is an error, never a wild read or write.
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

constexpr int kMaxLevels = 16;

struct Layout {
  const ir::Sparsity* sparsity = nullptr;
  int rank = 0, levels = 0;
  int64_t level_size[kMaxLevels] = {};  // extent of each traversal level
  int64_t block_size[kMaxLevels] = {};  // per block_map entry
  int64_t dense_strides[kMaxLevels] = {};
  int64_t dense_count = 1;
  int64_t num_values = 0;  // compressed values available
  size_t elem = 0;
};

absl::Status BuildLayout(const OpContext& ctx, Layout* l) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "input"));
  const RtTensor* in = ctx.input(0);
  if (!in->ir->sparsity.has_value()) {
    return ctx.Error(
        absl::StrCat("input '", in->name(), "' has no sparsity parameters"));
  }
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &l->elem));
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 0, 0));
  const ir::Sparsity& sp = *in->ir->sparsity;
  l->sparsity = &sp;
  l->rank = in->rank();
  l->levels = static_cast<int>(sp.traversal_order.size());
  const int rank = l->rank, levels = l->levels;
  const std::string where = absl::StrCat("sparse tensor '", in->name(), "' ",
                                         DimsString(in->shape), ": ");
  if (levels > kMaxLevels || levels < rank ||
      sp.dim_metadata.size() != sp.traversal_order.size() ||
      sp.block_map.size() != static_cast<size_t>(levels - rank)) {
    return ctx.Error(absl::StrCat(
        where, "traversal_order has ", levels, " entries, dim_metadata ",
        sp.dim_metadata.size(), ", block_map ", sp.block_map.size(),
        "; expected rank + blocks levels (at most ", kMaxLevels, ")"));
  }
  // traversal_order: the original dims first, then the block dims.
  bool seen[kMaxLevels] = {};
  for (int i = 0; i < levels; ++i) {
    const int32_t t = sp.traversal_order[static_cast<size_t>(i)];
    const bool ok = i < rank ? (t >= 0 && t < rank) : (t >= rank && t < levels);
    if (!ok || seen[t]) {
      return ctx.Error(absl::StrCat(where, "traversal_order entry ", i, " (", t,
                                    ") is invalid"));
    }
    seen[t] = true;
  }
  // block_map: increasing original dims; block k is traversal dim rank + k.
  int64_t blocks_of_dim[kMaxLevels];
  for (int d = 0; d < rank; ++d) blocks_of_dim[d] = 1;
  for (int k = 0; k < levels - rank; ++k) {
    const int32_t d = sp.block_map[static_cast<size_t>(k)];
    if (d < 0 || d >= rank ||
        (k > 0 && d <= sp.block_map[static_cast<size_t>(k) - 1])) {
      return ctx.Error(
          absl::StrCat(where, "block_map entry ", k, " (", d, ") is invalid"));
    }
    int level = 0;
    while (sp.traversal_order[static_cast<size_t>(level)] != rank + k) ++level;
    const ir::DimensionMetadata& m =
        sp.dim_metadata[static_cast<size_t>(level)];
    if (m.sparse_csr || m.dense_size < 1) {
      return ctx.Error(absl::StrCat(where, "block ", k,
                                    " must be a DENSE level of size >= 1"));
    }
    l->block_size[k] = m.dense_size;
    if (in->dim(d) % m.dense_size != 0) {
      return ctx.Error(absl::StrCat(where, "dim ", d,
                                    " is not a multiple of its block size ",
                                    m.dense_size));
    }
    blocks_of_dim[d] = m.dense_size;
  }
  for (int i = 0; i < levels; ++i) {
    const int32_t t = sp.traversal_order[static_cast<size_t>(i)];
    l->level_size[i] =
        t < rank ? in->dim(t) / blocks_of_dim[t] : l->block_size[t - rank];
    const ir::DimensionMetadata& m = sp.dim_metadata[static_cast<size_t>(i)];
    if (!m.sparse_csr && m.dense_size != l->level_size[i]) {
      return ctx.Error(absl::StrCat(where, "DENSE level ", i, " has size ",
                                    m.dense_size, " but the shape implies ",
                                    l->level_size[i]));
    }
  }
  const Dims strides = shape_ops::RowMajorStrides(in->shape);
  for (int d = 0; d < rank; ++d) {
    l->dense_strides[d] = strides[static_cast<size_t>(d)];
  }
  l->dense_count = in->NumElements();
  l->num_values =
      in->data == nullptr ? 0 : static_cast<int64_t>(in->bytes / l->elem);
  return shape_ops::CheckOutputDims(ctx, 0, in->shape);
}

struct Walk {
  const OpContext* ctx;
  const Layout* l;
  const uint8_t* src;
  uint8_t* dst;
  int64_t next_value = 0;
  int64_t indices[kMaxLevels] = {};
};

absl::Status Populate(Walk& w, int level, int64_t prev) {
  const Layout& l = *w.l;
  const ir::Sparsity& sp = *l.sparsity;
  if (level == l.levels) {
    // traversal_order and block_map were validated by BuildLayout.
    int64_t orig[kMaxLevels] = {};
    const size_t rank = static_cast<size_t>(l.rank);
    const size_t levels = static_cast<size_t>(l.levels);
    for (size_t i = 0; i < rank; ++i) {
      orig[static_cast<size_t>(sp.traversal_order[i])] = w.indices[i];
    }
    for (size_t i = rank; i < levels; ++i) {
      const size_t k = static_cast<size_t>(sp.traversal_order[i]) - rank;
      const size_t d = static_cast<size_t>(sp.block_map[k]);
      orig[d] = orig[d] * l.block_size[k] + w.indices[i];
    }
    int64_t flat = 0;
    for (int d = 0; d < l.rank; ++d) flat += orig[d] * l.dense_strides[d];
    if (flat < 0 || flat >= l.dense_count) {
      return w.ctx->Error(absl::StrCat("densify: element lands at ", flat,
                                       ", outside the ", l.dense_count,
                                       " dense elements"));
    }
    if (w.next_value >= l.num_values) {
      return w.ctx->Error(
          absl::StrCat("densify: the sparsity structure names more than the ",
                       l.num_values, " stored values"));
    }
    std::memcpy(w.dst + static_cast<size_t>(flat) * l.elem,
                w.src + static_cast<size_t>(w.next_value) * l.elem, l.elem);
    ++w.next_value;
    return absl::OkStatus();
  }
  const ir::DimensionMetadata& m = sp.dim_metadata[static_cast<size_t>(level)];
  const int64_t size = l.level_size[level];
  if (!m.sparse_csr) {
    for (int64_t i = 0; i < size; ++i) {
      w.indices[level] = i;
      RETURN_IF_ERROR(Populate(w, level + 1, prev * size + i));
    }
    return absl::OkStatus();
  }
  const std::vector<int32_t>& seg = m.array_segments;
  const std::vector<int32_t>& ids = m.array_indices;
  if (prev < 0 || prev + 1 >= static_cast<int64_t>(seg.size())) {
    return w.ctx->Error(absl::StrCat("densify: level ", level, " has ",
                                     seg.size(), " segments; position ", prev,
                                     " needs ", prev + 2));
  }
  const int64_t begin = seg[static_cast<size_t>(prev)];
  const int64_t end = seg[static_cast<size_t>(prev) + 1];
  if (begin < 0 || end < begin || end > static_cast<int64_t>(ids.size())) {
    return w.ctx->Error(absl::StrCat("densify: level ", level, " segment [",
                                     begin, ", ", end, ") is invalid for ",
                                     ids.size(), " indices"));
  }
  for (int64_t i = begin; i < end; ++i) {
    const int64_t id = ids[static_cast<size_t>(i)];
    if (id < 0 || id >= size) {
      return w.ctx->Error(absl::StrCat("densify: level ", level, " index ", id,
                                       " is out of range [0, ", size, ")"));
    }
    w.indices[level] = id;
    RETURN_IF_ERROR(Populate(w, level + 1, i));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareDensify(OpContext& ctx) {
  Layout l;
  RETURN_IF_ERROR(BuildLayout(ctx, &l));
  return shape_ops::SetShape(ctx, 0, ctx.input(0)->shape, /*in_eval=*/false);
}

absl::Status EvalDensify(OpContext& ctx) {
  Layout l;
  RETURN_IF_ERROR(BuildLayout(ctx, &l));
  RETURN_IF_ERROR(
      shape_ops::SetShape(ctx, 0, ctx.input(0)->shape, /*in_eval=*/true));
  RtTensor* out = ctx.output(0);
  if (l.dense_count == 0) return absl::OkStatus();
  std::memset(out->data, 0, static_cast<size_t>(l.dense_count) * l.elem);
  Walk w;
  w.ctx = &ctx;
  w.l = &l;
  w.src = ctx.input(0)->data;
  w.dst = out->data;
  return Populate(w, 0, 0);
}

}  // namespace qforge::runtime
