// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: shape_ops (named by the op table, ir/ops.def).
// Data movement and shape arithmetic: RESHAPE, SQUEEZE, EXPAND_DIMS, SHAPE,
// BROADCAST_ARGS, TRANSPOSE, REVERSE_V2, TILE, BROADCAST_TO, CONCATENATION,
// PACK, UNPACK, SPLIT, SPLIT_V, SLICE, STRIDED_SLICE, PAD, PADV2, MIRROR_PAD,
// GATHER, GATHER_ND, SCATTER_ND, DYNAMIC_UPDATE_SLICE, EMBEDDING_LOOKUP,
// RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, DEPTH_TO_SPACE,
// SPACE_TO_DEPTH, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, DENSIFY.
//
// Every op that only moves elements works for any fixed-size element type of
// at least one byte (float32, float16, int8/16/32/64, uint8, bool, ...): it
// copies bytes by element size. Ops whose output shape depends on a second
// input (sizes, axes, paddings) compute it in prepare when that input's value
// is known, otherwise mark the op data-dependent; eval always recomputes
// those parameters from the current values and resizes the output when they
// changed.
#ifndef QFORGE_RUNTIME_KERNELS_SHAPE_OPS_H_
#define QFORGE_RUNTIME_KERNELS_SHAPE_OPS_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

// shape_ops_reshape.cc
absl::Status PrepareReshape(OpContext& ctx);
absl::Status EvalReshape(OpContext& ctx);
absl::Status PrepareSqueeze(OpContext& ctx);
absl::Status EvalSqueeze(OpContext& ctx);
absl::Status PrepareExpandDims(OpContext& ctx);
absl::Status EvalExpandDims(OpContext& ctx);
absl::Status PrepareShape(OpContext& ctx);
absl::Status EvalShape(OpContext& ctx);
absl::Status PrepareBroadcastArgs(OpContext& ctx);
absl::Status EvalBroadcastArgs(OpContext& ctx);

// shape_ops_permute.cc
absl::Status PrepareTranspose(OpContext& ctx);
absl::Status EvalTranspose(OpContext& ctx);
absl::Status PrepareReverseV2(OpContext& ctx);
absl::Status EvalReverseV2(OpContext& ctx);
absl::Status PrepareTile(OpContext& ctx);
absl::Status EvalTile(OpContext& ctx);
absl::Status PrepareBroadcastTo(OpContext& ctx);
absl::Status EvalBroadcastTo(OpContext& ctx);

// shape_ops_concat.cc
absl::Status PrepareConcatenation(OpContext& ctx);
absl::Status EvalConcatenation(OpContext& ctx);
absl::Status PreparePack(OpContext& ctx);
absl::Status EvalPack(OpContext& ctx);
absl::Status PrepareUnpack(OpContext& ctx);
absl::Status EvalUnpack(OpContext& ctx);
absl::Status PrepareSplit(OpContext& ctx);
absl::Status EvalSplit(OpContext& ctx);
absl::Status PrepareSplitV(OpContext& ctx);
absl::Status EvalSplitV(OpContext& ctx);

// shape_ops_slice.cc
absl::Status PrepareSlice(OpContext& ctx);
absl::Status EvalSlice(OpContext& ctx);
absl::Status PrepareStridedSlice(OpContext& ctx);
absl::Status EvalStridedSlice(OpContext& ctx);

// shape_ops_pad.cc
absl::Status PreparePad(OpContext& ctx);
absl::Status EvalPad(OpContext& ctx);
absl::Status PrepareMirrorPad(OpContext& ctx);
absl::Status EvalMirrorPad(OpContext& ctx);

// shape_ops_gather.cc
absl::Status PrepareGather(OpContext& ctx);
absl::Status EvalGather(OpContext& ctx);
absl::Status PrepareGatherNd(OpContext& ctx);
absl::Status EvalGatherNd(OpContext& ctx);

// shape_ops_scatter.cc
absl::Status PrepareScatterNd(OpContext& ctx);
absl::Status EvalScatterNd(OpContext& ctx);
absl::Status PrepareDynamicUpdateSlice(OpContext& ctx);
absl::Status EvalDynamicUpdateSlice(OpContext& ctx);
absl::Status PrepareEmbeddingLookup(OpContext& ctx);
absl::Status EvalEmbeddingLookup(OpContext& ctx);
// shape_ops_resize.cc
absl::Status PrepareResize(OpContext& ctx);
absl::Status EvalResizeBilinear(OpContext& ctx);
absl::Status EvalResizeNearestNeighbor(OpContext& ctx);

// shape_ops_space.cc
absl::Status PrepareDepthToSpace(OpContext& ctx);
absl::Status EvalDepthToSpace(OpContext& ctx);
absl::Status PrepareSpaceToDepth(OpContext& ctx);
absl::Status EvalSpaceToDepth(OpContext& ctx);
absl::Status PrepareSpaceToBatchNd(OpContext& ctx);
absl::Status EvalSpaceToBatchNd(OpContext& ctx);
absl::Status PrepareBatchToSpaceNd(OpContext& ctx);
absl::Status EvalBatchToSpaceNd(OpContext& ctx);

// shape_ops_densify.cc
absl::Status PrepareDensify(OpContext& ctx);
absl::Status EvalDensify(OpContext& ctx);

// Helpers shared by the shape_ops_*.cc files (shape_ops_common.cc).
namespace shape_ops {

// Integer values read from a shape/axis/paddings tensor (int32 or int64).
using IntValues = absl::InlinedVector<int64_t, 12>;

// Largest view rank AffineCopy handles (TILE of a rank-8 tensor needs 16).
inline constexpr int kMaxViewRank = 16;

// Checks that input i is present; `what` names its role in the message.
absl::Status RequireInput(const OpContext& ctx, int i, absl::string_view what);

// Bytes per element of `t`, or Unsupported for types that are not a whole
// number of bytes (int4, string, resource, ...).
absl::Status ElementBytes(const OpContext& ctx, const RtTensor& t,
                          size_t* bytes);

// Output `o` must have input `i`'s element type (data movement ops).
absl::Status ExpectSameType(const OpContext& ctx, int i, int o);

// Input i must be int32 or int64 (`what`: "shape", "axis", ...).
absl::Status ExpectIndexType(const OpContext& ctx, int i,
                             absl::string_view what);

// Reads every element of input i (int32 or int64) into `out`. The input's
// value must be available.
absl::Status ReadInts(const OpContext& ctx, int i, absl::string_view what,
                      IntValues* out);

// Element k of an int16, int32 or int64 tensor (whose data is available).
int64_t IndexAt(const RtTensor& t, int64_t k);
// Reads input i as one integer (a scalar or a 1-element tensor).
absl::Status ReadScalarInt(const OpContext& ctx, int i, absl::string_view what,
                           int64_t* out);

// Prepare: true when the values of all `inputs` are known. Otherwise marks
// the op data-dependent, gives every output the placeholder shape [0] (eval
// resizes them) and returns false.
bool ValuesKnownOrDefer(OpContext& ctx, std::initializer_list<int> inputs);

// Every dim of `shape` must be in [0, 2^31) and the element count must stay
// below 2^48: the rule for every output shape this family computes.
absl::Status CheckOutputDims(const OpContext& ctx, int o,
                             absl::Span<const int64_t> shape);

// Gives output o `shape`: in prepare sets it, in eval resizes the buffer if
// the shape (or the buffer) is not already right.
absl::Status SetShape(OpContext& ctx, int o, const Dims& shape, bool in_eval);

// Normalizes an axis in [-rank, rank) to [0, rank).
absl::Status NormalizeAxis(const OpContext& ctx, int64_t axis, int rank,
                           absl::string_view what, int* out);

// Row-major strides (in elements) of `shape`.
Dims RowMajorStrides(absl::Span<const int64_t> shape);

// out[view index] = in[base + sum(coord[k] * stride[k])]: a copy whose
// source walks an affine pattern (transpose, reverse, slices, tiling,
// broadcasting, depth/space shuffles). Strides may be negative or zero.
struct AffineView {
  int rank = 0;
  int64_t shape[kMaxViewRank] = {};
  int64_t stride[kMaxViewRank] = {};
  int64_t base = 0;
  // Appends one view dimension.
  void Push(int64_t size, int64_t in_stride) {
    shape[rank] = size;
    stride[rank] = in_stride;
    ++rank;
  }
};
// Writes NumElements(view) elements of `elem_bytes` bytes to `out`, in view
// order. Parallel over rows; results do not depend on the thread count.
void AffineCopy(const OpContext& ctx, const AffineView& view, const uint8_t* in,
                uint8_t* out, size_t elem_bytes);

// Runs fn(begin, end) over [0, n) in tasks of `grain` items (boundaries
// depend on n and grain only).
template <typename Fn>
void ParallelRange(const OpContext& ctx, int64_t n, int64_t grain,
                   const Fn& fn) {
  if (grain < 1) grain = 1;
  const int64_t tasks = (n + grain - 1) / grain;
  if (tasks <= 1 || ctx.pool().num_threads() <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  struct Job {
    const Fn* fn;
    int64_t n, grain;
  } job{&fn, n, grain};
  const Job* j = &job;
  ctx.pool().ParallelFor(tasks, [j](int64_t t) {
    const int64_t begin = t * j->grain;
    const int64_t end = begin + j->grain < j->n ? begin + j->grain : j->n;
    (*j->fn)(begin, end);
  });
}

// The value padding ops write where no input element lands: zero, or the
// output's zero point for quantized integer tensors (as TFLite does).
// Writes `elem_bytes` bytes to `value` (the constant PADV2 value when
// `constant_input` >= 0 is present).
absl::Status PadValue(const OpContext& ctx, int constant_input,
                      size_t elem_bytes, uint8_t value[16]);

// Fills `count` elements of `elem_bytes` at `out` with `value`.
void FillElements(uint8_t* out, int64_t count, const uint8_t* value,
                  size_t elem_bytes);

}  // namespace shape_ops
}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_SHAPE_OPS_H_
