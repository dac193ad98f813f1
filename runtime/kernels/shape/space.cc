// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Moving blocks between space and depth/batch: DEPTH_TO_SPACE,
// SPACE_TO_DEPTH (NHWC, TFLite's channel order: the block offset (dy, dx)
// is the major part of the depth index), SPACE_TO_BATCH_ND and
// BATCH_TO_SPACE_ND (the block offset is the major part of the batch index:
// batch = (dy * block_w + dx) * in_batch + b). The ND ops accept any number
// M of spatial dims (input [batch, spatial..., rest...]); TFLite's kernels
// are the M = 1 and M = 2 cases.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::AffineView;
using shape_ops::IntValues;

absl::Status CheckBlockOp(const OpContext& ctx, int64_t* block) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  const RtTensor* in = ctx.input(0);
  if (in->rank() != 4) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' has shape ",
                                  DimsString(in->shape), "; it must be 4-D"));
  }
  *block = ir::OptionsOr<ir::BlockSizeOptions>(ctx.op().options).block_size;
  if (*block < 1) {
    return ctx.Error(absl::StrCat("block_size ", *block, " must be >= 1"));
  }
  return absl::OkStatus();
}

// out[b, h*bs + dy, w*bs + dx, c] = in[b, h, w, (dy*bs + dx)*C + c]
absl::Status ResolveDepthToSpace(const OpContext& ctx, AffineView* view,
                                 Dims* shape) {
  int64_t bs = 0;
  RETURN_IF_ERROR(CheckBlockOp(ctx, &bs));
  const RtTensor* in = ctx.input(0);
  const int64_t b = in->dim(0), h = in->dim(1), w = in->dim(2), d = in->dim(3);
  if (d % (bs * bs) != 0) {
    return ctx.Error(
        absl::StrCat("depth ", d, " of '", in->name(),
                     "' is not a multiple of block_size^2 = ", bs * bs));
  }
  const int64_t c = d / (bs * bs);
  *shape = Dims{b, h * bs, w * bs, c};
  view->Push(b, h * w * d);
  view->Push(h, w * d);
  view->Push(bs, bs * c);
  view->Push(w, d);
  view->Push(bs, c);
  view->Push(c, 1);
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

// out[b, h, w, (dy*bs + dx)*C + c] = in[b, h*bs + dy, w*bs + dx, c]
absl::Status ResolveSpaceToDepth(const OpContext& ctx, AffineView* view,
                                 Dims* shape) {
  int64_t bs = 0;
  RETURN_IF_ERROR(CheckBlockOp(ctx, &bs));
  const RtTensor* in = ctx.input(0);
  const int64_t b = in->dim(0), h = in->dim(1), w = in->dim(2), c = in->dim(3);
  if (h % bs != 0 || w % bs != 0) {
    return ctx.Error(absl::StrCat("height and width of '", in->name(), "' ",
                                  DimsString(in->shape),
                                  " must be multiples of block_size ", bs));
  }
  *shape = Dims{b, h / bs, w / bs, bs * bs * c};
  view->Push(b, h * w * c);
  view->Push(h / bs, bs * w * c);
  view->Push(w / bs, bs * c);
  view->Push(bs, w * c);
  view->Push(bs, c);
  view->Push(c, 1);
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

template <typename Resolve>
absl::Status PrepareBlock(OpContext& ctx, Resolve resolve) {
  AffineView view;
  Dims shape;
  RETURN_IF_ERROR(resolve(ctx, &view, &shape));
  return shape_ops::SetShape(ctx, 0, shape, /*in_eval=*/false);
}

template <typename Resolve>
absl::Status EvalBlock(OpContext& ctx, Resolve resolve) {
  AffineView view;
  Dims shape;
  RETURN_IF_ERROR(resolve(ctx, &view, &shape));
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, shape, /*in_eval=*/true));
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), &elem));
  shape_ops::AffineCopy(ctx, view, ctx.input(0)->data, ctx.output(0)->data,
                        elem);
  return absl::OkStatus();
}

// --- SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND ---------------------------------

struct BatchSpaceParams {
  int m = 0;              // spatial dims
  IntValues block, pads;  // block[m], pads[2m] (paddings or crops)
  int64_t depth = 1;      // product of the dims after the spatial ones
  Dims shape;             // output shape
};

absl::Status CheckBatchSpaceInputs(const OpContext& ctx, bool to_batch) {
  RETURN_IF_ERROR(shape_ops::RequireInput(ctx, 0, "input"));
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), &elem));
  RETURN_IF_ERROR(shape_ops::ExpectSameType(ctx, 0, 0));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "block_shape"));
  RETURN_IF_ERROR(
      shape_ops::ExpectIndexType(ctx, 2, to_batch ? "paddings" : "crops"));
  const RtTensor* block = ctx.input(1);
  const RtTensor* pads = ctx.input(2);
  const RtTensor* in = ctx.input(0);
  if (block->rank() != 1 || block->dim(0) < 1 || block->dim(0) >= in->rank()) {
    return ctx.Error(absl::StrCat(
        "block_shape '", block->name(), "' ", DimsString(block->shape),
        " must be 1-D with 1..", in->rank() - 1, " entries for input '",
        in->name(), "' ", DimsString(in->shape)));
  }
  if (pads->rank() != 2 || pads->dim(0) != block->dim(0) || pads->dim(1) != 2) {
    return ctx.Error(absl::StrCat(
        to_batch ? "paddings '" : "crops '", pads->name(), "' has shape ",
        DimsString(pads->shape), "; expected [", block->dim(0), ",2]"));
  }
  return absl::OkStatus();
}

absl::Status ResolveBatchSpace(const OpContext& ctx, bool to_batch,
                               BatchSpaceParams* p) {
  const RtTensor* in = ctx.input(0);
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "block_shape", &p->block));
  RETURN_IF_ERROR(
      shape_ops::ReadInts(ctx, 2, to_batch ? "paddings" : "crops", &p->pads));
  p->m = static_cast<int>(p->block.size());
  if (p->m > 8) return ctx.Unsupported("more than 8 spatial dims");
  int64_t block_count = 1;
  for (int64_t b : p->block) {
    if (b < 1 || b >= (int64_t{1} << 31)) {
      return ctx.Error(absl::StrCat("block_shape ", DimsString(p->block),
                                    " must be positive"));
    }
    block_count *= b;
    if (block_count >= (int64_t{1} << 31)) {
      return ctx.Error("block_shape product is too large");
    }
  }
  for (int64_t v : p->pads) {
    if (v < 0 || v >= (int64_t{1} << 31)) {
      return ctx.Error(absl::StrCat(to_batch ? "paddings " : "crops ",
                                    DimsString(p->pads), " must be >= 0"));
    }
  }
  p->shape = in->shape;
  if (to_batch) {
    p->shape[0] = in->dim(0) * block_count;
  } else {
    if (in->dim(0) % block_count != 0) {
      return ctx.Error(absl::StrCat("batch ", in->dim(0), " of '", in->name(),
                                    "' is not a multiple of the block size ",
                                    block_count));
    }
    p->shape[0] = in->dim(0) / block_count;
  }
  for (int s = 0; s < p->m; ++s) {
    const int64_t size = in->dim(s + 1);
    const int64_t before = p->pads[static_cast<size_t>(2 * s)];
    const int64_t after = p->pads[static_cast<size_t>(2 * s + 1)];
    const int64_t block = p->block[static_cast<size_t>(s)];
    if (to_batch) {
      const int64_t padded = size + before + after;
      if (padded % block != 0) {
        return ctx.Error(
            absl::StrCat("padded size ", padded, " of spatial dim ", s, " of '",
                         in->name(), "' is not a multiple of block ", block));
      }
      p->shape[static_cast<size_t>(s) + 1] = padded / block;
    } else {
      const int64_t out = size * block - before - after;
      if (out < 0) {
        return ctx.Error(absl::StrCat("crops ", DimsString(p->pads),
                                      " remove more than spatial dim ", s,
                                      " holds (", size * block, ")"));
      }
      p->shape[static_cast<size_t>(s) + 1] = out;
    }
  }
  p->depth = 1;
  for (int d = p->m + 1; d < in->rank(); ++d) p->depth *= in->dim(d);
  return shape_ops::CheckOutputDims(ctx, 0, p->shape);
}

// Shift of each spatial dim encoded in `index` (row-major over the block).
void BlockShifts(const BatchSpaceParams& p, int64_t index, int64_t* shift) {
  for (int s = p.m - 1; s >= 0; --s) {
    shift[s] = index % p.block[static_cast<size_t>(s)];
    index /= p.block[static_cast<size_t>(s)];
  }
}

absl::Status PrepareBatchSpace(OpContext& ctx, bool to_batch) {
  RETURN_IF_ERROR(CheckBatchSpaceInputs(ctx, to_batch));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1, 2})) return absl::OkStatus();
  BatchSpaceParams p;
  RETURN_IF_ERROR(ResolveBatchSpace(ctx, to_batch, &p));
  return shape_ops::SetShape(ctx, 0, p.shape, /*in_eval=*/false);
}

}  // namespace

absl::Status PrepareDepthToSpace(OpContext& ctx) {
  return PrepareBlock(ctx, ResolveDepthToSpace);
}
absl::Status EvalDepthToSpace(OpContext& ctx) {
  return EvalBlock(ctx, ResolveDepthToSpace);
}
absl::Status PrepareSpaceToDepth(OpContext& ctx) {
  return PrepareBlock(ctx, ResolveSpaceToDepth);
}
absl::Status EvalSpaceToDepth(OpContext& ctx) {
  return EvalBlock(ctx, ResolveSpaceToDepth);
}

absl::Status PrepareSpaceToBatchNd(OpContext& ctx) {
  return PrepareBatchSpace(ctx, /*to_batch=*/true);
}

absl::Status EvalSpaceToBatchNd(OpContext& ctx) {
  BatchSpaceParams p;
  RETURN_IF_ERROR(ResolveBatchSpace(ctx, /*to_batch=*/true, &p));
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, p.shape, /*in_eval=*/true));
  const RtTensor* in = ctx.input(0);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &elem));
  uint8_t value[16];
  RETURN_IF_ERROR(shape_ops::PadValue(ctx, -1, elem, value));
  const size_t block_bytes = static_cast<size_t>(p.depth) * elem;
  if (block_bytes == 0 || ctx.output(0)->NumElements() == 0) {
    return absl::OkStatus();
  }
  const int64_t in_batch = in->dim(0);
  int64_t out_spatial = 1;
  for (int s = 0; s < p.m; ++s)
    out_spatial *= p.shape[static_cast<size_t>(s) + 1];
  uint8_t* out = ctx.output(0)->data;
  for (int64_t ob = 0; ob < p.shape[0]; ++ob) {
    const int64_t b = ob % in_batch;
    int64_t shift[8];
    BlockShifts(p, ob / in_batch, shift);
    for (int64_t k = 0; k < out_spatial; ++k) {
      // Input position of output spatial index k (row-major over m dims).
      int64_t rem = k, src = 0, scale = 1;
      bool inside = true;
      for (int s = p.m - 1; s >= 0; --s) {
        const int64_t os = rem % p.shape[static_cast<size_t>(s) + 1];
        rem /= p.shape[static_cast<size_t>(s) + 1];
        const int64_t pos = os * p.block[static_cast<size_t>(s)] + shift[s] -
                            p.pads[static_cast<size_t>(2 * s)];
        inside = inside && pos >= 0 && pos < in->dim(s + 1);
        src += pos * scale;
        scale *= in->dim(s + 1);
      }
      uint8_t* dst =
          out + static_cast<size_t>(ob * out_spatial + k) * block_bytes;
      if (inside) {
        std::memcpy(
            dst, in->data + static_cast<size_t>(b * scale + src) * block_bytes,
            block_bytes);
      } else {
        shape_ops::FillElements(dst, p.depth, value, elem);
      }
    }
  }
  return absl::OkStatus();
}

absl::Status PrepareBatchToSpaceNd(OpContext& ctx) {
  return PrepareBatchSpace(ctx, /*to_batch=*/false);
}

absl::Status EvalBatchToSpaceNd(OpContext& ctx) {
  BatchSpaceParams p;
  RETURN_IF_ERROR(ResolveBatchSpace(ctx, /*to_batch=*/false, &p));
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, p.shape, /*in_eval=*/true));
  const RtTensor* in = ctx.input(0);
  size_t elem = 0;
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *in, &elem));
  const size_t block_bytes = static_cast<size_t>(p.depth) * elem;
  if (block_bytes == 0 || ctx.output(0)->NumElements() == 0) {
    return absl::OkStatus();
  }
  const int64_t out_batch = p.shape[0];
  int64_t in_spatial = 1, out_spatial = 1;
  for (int s = 0; s < p.m; ++s) {
    in_spatial *= in->dim(s + 1);
    out_spatial *= p.shape[static_cast<size_t>(s) + 1];
  }
  uint8_t* out = ctx.output(0)->data;
  for (int64_t ib = 0; ib < in->dim(0); ++ib) {
    const int64_t ob = ib % out_batch;
    int64_t shift[8];
    BlockShifts(p, ib / out_batch, shift);
    for (int64_t k = 0; k < in_spatial; ++k) {
      int64_t rem = k, dst = 0, scale = 1;
      bool inside = true;
      for (int s = p.m - 1; s >= 0; --s) {
        const int64_t is = rem % in->dim(s + 1);
        rem /= in->dim(s + 1);
        const int64_t pos = is * p.block[static_cast<size_t>(s)] + shift[s] -
                            p.pads[static_cast<size_t>(2 * s)];
        const int64_t size = p.shape[static_cast<size_t>(s) + 1];
        inside = inside && pos >= 0 && pos < size;
        dst += pos * scale;
        scale *= size;
      }
      if (!inside) continue;  // cropped away
      std::memcpy(
          out + static_cast<size_t>(ob * out_spatial + dst) * block_bytes,
          in->data + static_cast<size_t>(ib * in_spatial + k) * block_bytes,
          block_bytes);
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
