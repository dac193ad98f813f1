// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// PAD, PADV2 (constant padding) and MIRROR_PAD (REFLECT / SYMMETRIC).
// paddings is an int32/int64 [rank, 2] tensor of (before, after) pairs.
#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/shape/shape.h"

namespace qforge::runtime {
namespace {

using shape_ops::IntValues;

absl::Status CheckPadInputs(const OpContext& ctx) {
  RETURN_IF_ERROR(shape_ops::CheckMoveOp(ctx, nullptr));
  RETURN_IF_ERROR(shape_ops::ExpectIndexType(ctx, 1, "paddings"));
  const RtTensor* p = ctx.input(1);
  const int rank = ctx.input(0)->rank();
  if (p->rank() != 2 || p->dim(0) != rank || p->dim(1) != 2) {
    return ctx.Error(absl::StrCat("paddings '", p->name(), "' has shape ",
                                  DimsString(p->shape), "; expected [", rank,
                                  ",2]"));
  }
  if (rank > shape_ops::kMaxViewRank) {
    return ctx.Unsupported(absl::StrCat("input rank ", rank, " is too high"));
  }
  return absl::OkStatus();
}

// Reads the paddings (non-negative) and the padded shape.
absl::Status ResolvePad(const OpContext& ctx, IntValues* pads, Dims* shape) {
  RETURN_IF_ERROR(shape_ops::ReadInts(ctx, 1, "paddings", pads));
  const RtTensor* in = ctx.input(0);
  *shape = in->shape;
  for (int d = 0; d < in->rank(); ++d) {
    const int64_t before = (*pads)[static_cast<size_t>(2 * d)];
    const int64_t after = (*pads)[static_cast<size_t>(2 * d + 1)];
    if (before < 0 || after < 0 || before >= (int64_t{1} << 31) ||
        after >= (int64_t{1} << 31)) {
      return ctx.Error(absl::StrCat("paddings ", DimsString(*pads),
                                    " has an invalid pair for axis ", d,
                                    " (pads must be >= 0)"));
    }
    (*shape)[static_cast<size_t>(d)] += before + after;
  }
  return shape_ops::CheckOutputDims(ctx, 0, *shape);
}

// TFLite's GetInputDimension: the input index an output index reads.
// offset is 1 for REFLECT (the edge is not repeated), 0 for SYMMETRIC.
int64_t MirrorIndex(int64_t i, int64_t before, int64_t size, int64_t offset) {
  if (i < before) {
    const int64_t original = before + offset - 1;
    return original - std::min(i, original - offset);
  }
  i -= before;
  if (i >= size) {
    i -= size;
    const int64_t original = size - (1 + offset);
    return original - std::min(i, original);
  }
  return i;
}

absl::Status ResolveMirrorPad(const OpContext& ctx, IntValues* pads,
                              Dims* shape, int64_t* offset) {
  const auto opts = ir::OptionsOr<ir::MirrorPadOptions>(ctx.op().options);
  if (opts.mode != 0 && opts.mode != 1) {
    return ctx.Error(absl::StrCat("mode ", static_cast<int>(opts.mode),
                                  " is neither REFLECT (0) nor SYMMETRIC (1)"));
  }
  *offset = opts.mode == 0 ? 1 : 0;
  RETURN_IF_ERROR(ResolvePad(ctx, pads, shape));
  const RtTensor* in = ctx.input(0);
  for (int d = 0; d < in->rank(); ++d) {
    // REFLECT pads at most dim - 1, SYMMETRIC at most dim (TensorFlow's
    // rule; beyond it the mirrored index would leave the input).
    const int64_t limit = in->dim(d) - *offset;
    const int64_t before = (*pads)[static_cast<size_t>(2 * d)];
    const int64_t after = (*pads)[static_cast<size_t>(2 * d + 1)];
    if (before > limit || after > limit) {
      return ctx.Error(absl::StrCat("paddings ", DimsString(*pads), " exceed ",
                                    *offset ? "dim - 1" : "dim", " (", limit,
                                    ") on axis ", d, " of input '", in->name(),
                                    "' ", DimsString(in->shape)));
    }
  }
  return absl::OkStatus();
}

// What PAD / PADV2 (and with `mirror`, MIRROR_PAD) work out from the current
// values.
struct PadParams {
  size_t elem = 0;
  IntValues pads;
  Dims shape;
  int64_t offset = 0;  // MIRROR_PAD: 1 for REFLECT, 0 for SYMMETRIC
};

// Fills *p and sets output 0's shape (in_eval: resizes it).
absl::Status SetPadShape(OpContext& ctx, bool mirror, bool in_eval,
                         PadParams* p) {
  RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), &p->elem));
  if (mirror) {
    RETURN_IF_ERROR(ResolveMirrorPad(ctx, &p->pads, &p->shape, &p->offset));
  } else {
    RETURN_IF_ERROR(ResolvePad(ctx, &p->pads, &p->shape));
  }
  return shape_ops::SetShape(ctx, 0, p->shape, in_eval);
}

// A scalar pads to itself: copies it and returns true.
bool CopiedScalar(const RtTensor& in, RtTensor* out, size_t elem) {
  if (in.rank() != 0) return false;
  std::memcpy(out->data, in.data, elem);
  return true;
}

// Prepare's end: the output shape once the paddings are known.
absl::Status PreparePadShape(OpContext& ctx, bool mirror) {
  if (!shape_ops::ValuesKnownOrDefer(ctx, {1})) return absl::OkStatus();
  PadParams p;
  return SetPadShape(ctx, mirror, /*in_eval=*/false, &p);
}

// --- PAD / PADV2 ---------------------------------------------------------

// value_input: PADV2's constant value input (2); -1 for PAD, which pads
// with zero (the output's zero point when quantized).
absl::Status PrepareConstantPad(OpContext& ctx, int value_input) {
  RETURN_IF_ERROR(CheckPadInputs(ctx));
  if (value_input >= 0 && ctx.input(value_input) != nullptr) {
    size_t elem = 0;
    RETURN_IF_ERROR(shape_ops::ElementBytes(ctx, *ctx.input(0), &elem));
    if (ctx.InputValueKnown(value_input)) {
      uint8_t value[16];
      RETURN_IF_ERROR(shape_ops::PadValue(ctx, value_input, elem, value));
    }
  }
  return PreparePadShape(ctx, /*mirror=*/false);
}

absl::Status EvalConstantPad(OpContext& ctx, int value_input) {
  const RtTensor* in = ctx.input(0);
  PadParams p;
  RETURN_IF_ERROR(SetPadShape(ctx, /*mirror=*/false, /*in_eval=*/true, &p));
  uint8_t value[16];
  RETURN_IF_ERROR(shape_ops::PadValue(ctx, value_input, p.elem, value));
  RtTensor* out = ctx.output(0);
  const int64_t out_count = out->NumElements();
  if (out_count == 0) return absl::OkStatus();
  shape_ops::FillElements(out->data, out_count, value, p.elem);
  const int64_t in_count = in->NumElements();
  if (in_count == 0) return absl::OkStatus();

  if (CopiedScalar(*in, out, p.elem)) return absl::OkStatus();
  const int rank = in->rank();
  // Copy each input row (last axis) to its place inside the output.
  const Dims out_strides = shape_ops::RowMajorStrides(p.shape);
  const int64_t inner = in->dim(rank - 1);
  const int64_t rows = in_count / inner;
  int64_t coord[shape_ops::kMaxViewRank] = {};
  int64_t offset = 0;
  for (int d = 0; d < rank; ++d) {
    offset += p.pads[static_cast<size_t>(2 * d)] *
              out_strides[static_cast<size_t>(d)];
  }
  for (int64_t r = 0; r < rows; ++r) {
    std::memcpy(out->data + static_cast<size_t>(offset) * p.elem,
                in->data + static_cast<size_t>(r * inner) * p.elem,
                static_cast<size_t>(inner) * p.elem);
    for (int d = rank - 2; d >= 0; --d) {
      offset += out_strides[static_cast<size_t>(d)];
      if (++coord[d] < in->dim(d)) break;
      offset -= out_strides[static_cast<size_t>(d)] * in->dim(d);
      coord[d] = 0;
    }
  }
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PreparePad, PrepareConstantPad(ctx, /*value_input=*/-1))
QF_KERNEL_AS(EvalPad, EvalConstantPad(ctx, /*value_input=*/-1))
QF_KERNEL_AS(PreparePadV2, PrepareConstantPad(ctx, /*value_input=*/2))
QF_KERNEL_AS(EvalPadV2, EvalConstantPad(ctx, /*value_input=*/2))

// --- MIRROR_PAD ----------------------------------------------------------

absl::Status PrepareMirrorPad(OpContext& ctx) {
  RETURN_IF_ERROR(CheckPadInputs(ctx));
  return PreparePadShape(ctx, /*mirror=*/true);
}

absl::Status EvalMirrorPad(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  PadParams p;
  RETURN_IF_ERROR(SetPadShape(ctx, /*mirror=*/true, /*in_eval=*/true, &p));
  RtTensor* out = ctx.output(0);
  const int64_t out_count = out->NumElements();
  if (out_count == 0) return absl::OkStatus();
  if (CopiedScalar(*in, out, p.elem)) return absl::OkStatus();
  const int rank = in->rank();
  const Dims in_strides = shape_ops::RowMajorStrides(in->shape);
  const int last = rank - 1;
  const int64_t inner = p.shape[static_cast<size_t>(last)];
  const int64_t rows = out_count / inner;
  const int64_t before_last = p.pads[static_cast<size_t>(2 * last)];
  const int64_t size_last = in->dim(last);

  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      // Input p.offset of the row: map every outer coordinate.
      int64_t rem = r, src_row = 0;
      for (int d = last - 1; d >= 0; --d) {
        const int64_t c = rem % p.shape[static_cast<size_t>(d)];
        rem /= p.shape[static_cast<size_t>(d)];
        src_row += MirrorIndex(c, p.pads[static_cast<size_t>(2 * d)],
                               in->dim(d), p.offset) *
                   in_strides[static_cast<size_t>(d)];
      }
      uint8_t* dst = out->data + static_cast<size_t>(r * inner) * p.elem;
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t src =
            src_row + MirrorIndex(i, before_last, size_last, p.offset);
        std::memcpy(dst + static_cast<size_t>(i) * p.elem,
                    in->data + static_cast<size_t>(src) * p.elem, p.elem);
      }
    }
  };
  ParallelChunks(ctx, rows, std::max<int64_t>(1, (int64_t{1} << 14) / inner),
                 run);
  return absl::OkStatus();
}

}  // namespace qforge::runtime
