// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: shape (named by the op table, ir/ops.def; the functions
// are declared from it, kernel_functions.h). Data movement and shape
// arithmetic; an op's float (or any-type) kernel is in <stem>.cc, its
// integer kernel in <stem>_int.cc:
//   reshape.cc     RESHAPE, SQUEEZE, EXPAND_DIMS, SHAPE, BROADCAST_ARGS
//   permute.cc     TRANSPOSE, REVERSE_V2, TILE, BROADCAST_TO
//   concat.cc      CONCATENATION, PACK, UNPACK, SPLIT, SPLIT_V
//   concat_int.cc  integer CONCATENATION (inputs of other scales)
//   slice.cc       SLICE, STRIDED_SLICE
//   pad.cc         PAD, PADV2, MIRROR_PAD
//   gather.cc      GATHER, GATHER_ND
//   scatter.cc     SCATTER_ND, DYNAMIC_UPDATE_SLICE, EMBEDDING_LOOKUP
//   resize.cc      RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR
//   resize_int.cc  integer RESIZE_BILINEAR
//   space.cc       DEPTH_TO_SPACE, SPACE_TO_DEPTH, SPACE_TO_BATCH_ND,
//                  BATCH_TO_SPACE_ND
//   densify.cc     DENSIFY
//   matrix_set_diag.cc  MATRIX_SET_DIAG (types TFLite's kernel takes)
//
// Every op that only moves elements works for any fixed-size element type of
// at least one byte (float32, float16, int8/16/32/64, uint8, bool, ...): it
// copies bytes by element size. Ops whose output shape depends on a second
// input (sizes, axes, paddings) compute it in prepare when that input's value
// is known, otherwise mark the op data-dependent; eval always recomputes
// those parameters from the current values and resizes the output when they
// changed.
#ifndef QFORGE_RUNTIME_KERNELS_SHAPE_SHAPE_H_
#define QFORGE_RUNTIME_KERNELS_SHAPE_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/parallel.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {

// Helpers shared by the shape/*.cc files (shape.cc).
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

// Checks of an op that moves input 0's elements into output 0: input 0 is
// present with a whole number of bytes per element (`elem_bytes`, may be
// nullptr), and output 0 has its type.
absl::Status CheckMoveOp(const OpContext& ctx, size_t* elem_bytes);

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

// Sets output 0 to the shape resolve works out from the inputs' current
// values (resolve(ctx, &shape) or resolve(&shape)): in prepare, or by
// resizing it in eval (SetShape). The shape is also returned in *shape when
// that is given.
template <typename Resolve>
absl::Status SetResolvedShape(OpContext& ctx, bool in_eval,
                              const Resolve& resolve, Dims* shape = nullptr) {
  Dims local;
  Dims* s = shape != nullptr ? shape : &local;
  if constexpr (std::is_invocable_v<const Resolve&, const OpContext&, Dims*>) {
    RETURN_IF_ERROR(resolve(ctx, s));
  } else {
    RETURN_IF_ERROR(resolve(s));
  }
  return SetShape(ctx, 0, *s, in_eval);
}

// Normalizes an axis in [-rank, rank) to [0, rank).
absl::Status NormalizeAxis(const OpContext& ctx, int64_t axis, int rank,
                           absl::string_view what, int* out);
// Reads input i as one axis (ReadScalarInt) of a tensor of rank `rank`
// (NormalizeAxis).
absl::Status ReadAxis(const OpContext& ctx, int i, int rank, int* axis);

// The product of dims [begin, end) of `shape` (1 when empty).
inline int64_t DimsProduct(const Dims& shape, int begin, int end) {
  int64_t n = 1;
  for (int d = begin; d < end; ++d) n *= shape[static_cast<size_t>(d)];
  return n;
}

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

// Prepare and eval of an op whose output is a view of input 0 that
// resolve(ctx, &view, &shape) computes from the current parameter values:
// prepare sets output 0's shape; eval resizes it and copies the view.
template <typename Resolve>
absl::Status PrepareAffineCopy(OpContext& ctx, Resolve resolve) {
  AffineView view;
  return SetResolvedShape(ctx, /*in_eval=*/false, [&](Dims* shape) {
    return resolve(ctx, &view, shape);
  });
}
template <typename Resolve>
absl::Status EvalAffineCopy(OpContext& ctx, Resolve resolve) {
  size_t elem = 0;
  RETURN_IF_ERROR(CheckMoveOp(ctx, &elem));
  AffineView view;
  Dims shape;
  RETURN_IF_ERROR(resolve(ctx, &view, &shape));
  RETURN_IF_ERROR(SetShape(ctx, 0, shape, /*in_eval=*/true));
  AffineCopy(ctx, view, ctx.input(0)->data, ctx.output(0)->data, elem);
  return absl::OkStatus();
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

#endif  // QFORGE_RUNTIME_KERNELS_SHAPE_SHAPE_H_
