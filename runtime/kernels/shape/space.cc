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

// The block size and NHWC input dims of DEPTH_TO_SPACE / SPACE_TO_DEPTH.
struct BlockOp {
  int64_t bs = 1, b = 0, h = 0, w = 0, c = 0;
};
absl::Status ReadBlockOp(const OpContext& ctx, BlockOp* op) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  const RtTensor* in = ctx.input(0);
  if (in->rank() != 4) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' has shape ",
                                  DimsString(in->shape), "; it must be 4-D"));
  }
  op->bs = ir::OptionsOr<ir::BlockSizeOptions>(ctx.op().options).block_size;
  if (op->bs < 1) {
    return ctx.Error(absl::StrCat("block_size ", op->bs, " must be >= 1"));
  }
  op->b = in->dim(0);
  op->h = in->dim(1);
  op->w = in->dim(2);
  op->c = in->dim(3);
  return absl::OkStatus();
}

// out[b, h*bs + dy, w*bs + dx, c] = in[b, h, w, (dy*bs + dx)*C + c]
absl::Status ResolveDepthToSpace(const OpContext& ctx, AffineView* view,
                                 Dims* shape) {
  BlockOp op;
  RETURN_IF_ERROR(ReadBlockOp(ctx, &op));
  const int64_t bs = op.bs, b = op.b, h = op.h, w = op.w, d = op.c;
  if (d % (bs * bs) != 0) {
    const RtTensor* in = ctx.input(0);
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
  BlockOp op;
  RETURN_IF_ERROR(ReadBlockOp(ctx, &op));
  const int64_t bs = op.bs, b = op.b, h = op.h, w = op.w, c = op.c;
  if (h % bs != 0 || w % bs != 0) {
    const RtTensor* in = ctx.input(0);
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

// --- SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND ---------------------------------

struct BatchSpaceParams {
  int m = 0;              // spatial dims
  IntValues block, pads;  // block[m], pads[2m] (paddings or crops)
  int64_t depth = 1;      // product of the dims after the spatial ones
  Dims shape;             // output shape
  size_t elem = 0, block_bytes = 0;  // element, depth * element
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

// Output 0's shape from the current values (in_eval: resizes it), with
// the element and block sizes.
absl::Status SetBatchSpaceShape(OpContext& ctx, bool to_batch, bool in_eval,
                                BatchSpaceParams* p) {
  RETURN_IF_ERROR(ResolveBatchSpace(ctx, to_batch, p));
  RETURN_IF_ERROR(shape_ops::SetShape(ctx, 0, p->shape, in_eval));
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), &p->elem));
  p->block_bytes = static_cast<size_t>(p->depth) * p->elem;
  return absl::OkStatus();
}

absl::Status PrepareBatchSpace(OpContext& ctx, bool to_batch) {
  RETURN_IF_ERROR(CheckBatchSpaceInputs(ctx, to_batch));
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1, 2})) return absl::OkStatus();
  BatchSpaceParams p;
  return SetBatchSpaceShape(ctx, to_batch, /*in_eval=*/false, &p);
}

// The index map both ops walk. Batch-side batch b (the SPACE_TO_BATCH_ND
// output, the BATCH_TO_SPACE_ND input) is space-side batch b % space_batch
// at block offset b / space_batch; its spatial position k (row-major over
// the m dims `grid`) is space-side position k_s * block_s + offset_s -
// pad_s (spatial dims `space`). Calls fn(b, space batch, k, space-side
// spatial index, whether that lies inside the space-side tensor) for every
// b < batches and k.
template <typename Fn>
void ForEachBlockPosition(const BatchSpaceParams& p, int64_t batches,
                          int64_t space_batch, const int64_t* grid,
                          const int64_t* space, const Fn& fn) {
  int64_t grid_count = 1;
  for (int s = 0; s < p.m; ++s) grid_count *= grid[s];
  for (int64_t b = 0; b < batches; ++b) {
    int64_t offset[8];
    int64_t index = b / space_batch;
    for (int s = p.m - 1; s >= 0; --s) {
      offset[s] = index % p.block[static_cast<size_t>(s)];
      index /= p.block[static_cast<size_t>(s)];
    }
    for (int64_t k = 0; k < grid_count; ++k) {
      int64_t rem = k, at = 0, scale = 1;
      bool inside = true;
      for (int s = p.m - 1; s >= 0; --s) {
        const int64_t g = rem % grid[s];
        rem /= grid[s];
        const int64_t pos = g * p.block[static_cast<size_t>(s)] + offset[s] -
                            p.pads[static_cast<size_t>(2 * s)];
        inside = inside && pos >= 0 && pos < space[s];
        at += pos * scale;
        scale *= space[s];
      }
      fn(b, b % space_batch, k, at, inside);
    }
  }
}

// Eval of both: SPACE_TO_BATCH_ND (to_batch) and BATCH_TO_SPACE_ND.
absl::Status EvalBatchSpace(OpContext& ctx, bool to_batch) {
  BatchSpaceParams p;
  RETURN_IF_ERROR(SetBatchSpaceShape(ctx, to_batch, /*in_eval=*/true, &p));
  uint8_t value[16];
  if (to_batch) RETURN_IF_ERROR(shape_ops::PadValue(ctx, -1, p.elem, value));
  if (p.block_bytes == 0 || ctx.output(0)->NumElements() == 0) {
    return absl::OkStatus();
  }
  const RtTensor* in = ctx.input(0);
  int64_t in_dims[8], out_dims[8];
  int64_t in_count = 1, out_count = 1;
  for (int s = 0; s < p.m; ++s) {
    in_dims[s] = in->dim(s + 1);
    out_dims[s] = p.shape[static_cast<size_t>(s) + 1];
    in_count *= in_dims[s];
    out_count *= out_dims[s];
  }
  const uint8_t* src = in->data;
  uint8_t* dst = ctx.output(0)->data;
  const size_t bytes = p.block_bytes;
  if (to_batch) {
    // Every output position reads its input position, or the padding value.
    ForEachBlockPosition(
        p, p.shape[0], in->dim(0), out_dims, in_dims,
        [&](int64_t ob, int64_t b, int64_t k, int64_t at, bool inside) {
          uint8_t* d = dst + static_cast<size_t>(ob * out_count + k) * bytes;
          if (inside) {
            std::memcpy(d, src + static_cast<size_t>(b * in_count + at) * bytes,
                        bytes);
          } else {
            shape_ops::FillElements(d, p.depth, value, p.elem);
          }
        });
  } else {
    // Every input position writes its output position unless cropped away.
    ForEachBlockPosition(
        p, in->dim(0), p.shape[0], in_dims, out_dims,
        [&](int64_t ib, int64_t ob, int64_t k, int64_t at, bool inside) {
          if (!inside) return;
          std::memcpy(dst + static_cast<size_t>(ob * out_count + at) * bytes,
                      src + static_cast<size_t>(ib * in_count + k) * bytes,
                      bytes);
        });
  }
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PrepareDepthToSpace,
             shape_ops::PrepareAffineCopy(ctx, ResolveDepthToSpace))
QF_KERNEL_AS(EvalDepthToSpace,
             shape_ops::EvalAffineCopy(ctx, ResolveDepthToSpace))
QF_KERNEL_AS(PrepareSpaceToDepth,
             shape_ops::PrepareAffineCopy(ctx, ResolveSpaceToDepth))
QF_KERNEL_AS(EvalSpaceToDepth,
             shape_ops::EvalAffineCopy(ctx, ResolveSpaceToDepth))
QF_KERNEL_AS(PrepareSpaceToBatchNd, PrepareBatchSpace(ctx, /*to_batch=*/true))
QF_KERNEL_AS(EvalSpaceToBatchNd, EvalBatchSpace(ctx, /*to_batch=*/true))
QF_KERNEL_AS(PrepareBatchToSpaceNd, PrepareBatchSpace(ctx, /*to_batch=*/false))
QF_KERNEL_AS(EvalBatchToSpaceNd, EvalBatchSpace(ctx, /*to_batch=*/false))

}  // namespace qforge::runtime
