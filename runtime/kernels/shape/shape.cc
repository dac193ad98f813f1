// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the shape_ops kernels: reading integer parameter
// tensors, output sizing, and the strided copy most of them reduce to.
#include "runtime/kernels/shape/shape.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace qforge::runtime::shape_ops {

absl::Status RequireInput(const OpContext& ctx, int i, absl::string_view what) {
  if (ctx.input(i) == nullptr) {
    return ctx.Error(absl::StrCat("input ", i, " (", what, ") is missing"));
  }
  return absl::OkStatus();
}

absl::Status ElementBytes(const OpContext& ctx, const RtTensor& t,
                          size_t* bytes) {
  const std::optional<int> bits = ir::DataTypeBits(t.type);
  if (!bits.has_value() || *bits < 8 || *bits % 8 != 0 || *bits > 64) {
    return ctx.Unsupported(absl::StrCat("tensor '", t.name(), "' has type ",
                                        ir::DataTypeName(t.type),
                                        "; this op moves whole elements of "
                                        "1, 2, 4 or 8 bytes"));
  }
  *bytes = static_cast<size_t>(*bits / 8);
  return absl::OkStatus();
}

absl::Status ExpectSameType(const OpContext& ctx, int i, int o) {
  const RtTensor* in = ctx.input(i);
  const RtTensor* out = ctx.output(o);
  if (in->type != out->type) {
    return ctx.Error(absl::StrCat(
        "output ", o, " '", out->name(), "' is ", ir::DataTypeName(out->type),
        " but input ", i, " '", in->name(), "' is ", ir::DataTypeName(in->type),
        "; the types must match"));
  }
  return absl::OkStatus();
}

absl::Status CheckMoveOp(const OpContext& ctx, size_t* elem_bytes) {
  RETURN_IF_ERROR(RequireInput(ctx, 0, "input"));
  size_t elem = 0;
  RETURN_IF_ERROR(ElementBytes(ctx, *ctx.input(0), &elem));
  if (elem_bytes != nullptr) *elem_bytes = elem;
  return ExpectSameType(ctx, 0, 0);
}

absl::Status ExpectIndexType(const OpContext& ctx, int i,
                             absl::string_view what) {
  RETURN_IF_ERROR(RequireInput(ctx, i, what));
  const RtTensor* t = ctx.input(i);
  if (t->type != ir::DataType::kInt32 && t->type != ir::DataType::kInt64) {
    return ctx.Error(absl::StrCat("input ", i, " (", what, ") '", t->name(),
                                  "' is ", ir::DataTypeName(t->type),
                                  "; it must be int32 or int64"));
  }
  return absl::OkStatus();
}

absl::Status ReadInts(const OpContext& ctx, int i, absl::string_view what,
                      IntValues* out) {
  RETURN_IF_ERROR(ExpectIndexType(ctx, i, what));
  const RtTensor* t = ctx.input(i);
  const int64_t n = t->NumElements();
  const size_t elem = t->type == ir::DataType::kInt32 ? 4 : 8;
  if (n < 0 || (n > 0 && (t->data == nullptr ||
                          t->bytes < static_cast<size_t>(n) * elem))) {
    return ctx.Error(absl::StrCat("input ", i, " (", what, ") '", t->name(),
                                  "' holds ", t->bytes, " bytes, fewer than ",
                                  DimsString(t->shape), " needs"));
  }
  out->resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    if (elem == 4) {
      int32_t v;
      std::memcpy(&v, t->data + k * 4, 4);
      (*out)[static_cast<size_t>(k)] = v;
    } else {
      int64_t v;
      std::memcpy(&v, t->data + k * 8, 8);
      (*out)[static_cast<size_t>(k)] = v;
    }
  }
  return absl::OkStatus();
}

absl::Status ReadScalarInt(const OpContext& ctx, int i, absl::string_view what,
                           int64_t* out) {
  IntValues v;
  RETURN_IF_ERROR(ReadInts(ctx, i, what, &v));
  if (v.size() != 1) {
    return ctx.Error(absl::StrCat(
        "input ", i, " (", what, ") '", ctx.input(i)->name(), "' has shape ",
        DimsString(ctx.input(i)->shape), "; it must hold exactly one value"));
  }
  *out = v[0];
  return absl::OkStatus();
}

int64_t IndexAt(const RtTensor& t, int64_t k) {
  switch (t.type) {
    case ir::DataType::kInt16: {
      int16_t v;
      std::memcpy(&v, t.data + k * 2, 2);
      return v;
    }
    case ir::DataType::kInt32: {
      int32_t v;
      std::memcpy(&v, t.data + k * 4, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, t.data + k * 8, 8);
      return v;
    }
  }
}

absl::Status ReadAxis(const OpContext& ctx, int i, int rank, int* axis) {
  int64_t a = 0;
  RETURN_IF_ERROR(ReadScalarInt(ctx, i, "axis", &a));
  return NormalizeAxis(ctx, a, rank, "axis", axis);
}

bool ValuesKnownOrDefer(OpContext& ctx, std::initializer_list<int> inputs) {
  for (int i : inputs) {
    if (ctx.input(i) != nullptr && !ctx.InputValueKnown(i)) {
      ctx.SetShapeDependsOnData();
      // A placeholder that always allocates (the file's shape may hold -1);
      // eval sizes the outputs once the values are there.
      for (int o = 0; o < ctx.num_outputs(); ++o)
        ctx.SetOutputShape(o, Dims{int64_t{0}});
      return false;
    }
  }
  return true;
}

absl::Status CheckOutputDims(const OpContext& ctx, int o,
                             absl::Span<const int64_t> shape) {
  constexpr int64_t kMaxDim = int64_t{1} << 31;
  constexpr int64_t kMaxElements = int64_t{1} << 48;
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || d >= kMaxDim) {
      return ctx.Error(absl::StrCat("output ", o, " '", ctx.output(o)->name(),
                                    "' would have shape ", DimsString(shape),
                                    "; dims must be in [0, 2^31)"));
    }
    if (d != 0 && n > kMaxElements / d) {
      return ctx.Error(absl::StrCat("output ", o, " '", ctx.output(o)->name(),
                                    "' would have shape ", DimsString(shape),
                                    ", too many elements"));
    }
    n *= d;
  }
  return absl::OkStatus();
}

absl::Status SetShape(OpContext& ctx, int o, const Dims& shape, bool in_eval) {
  RETURN_IF_ERROR(CheckOutputDims(ctx, o, shape));
  if (!in_eval) {
    ctx.SetOutputShape(o, shape);
    return absl::OkStatus();
  }
  RtTensor* out = ctx.output(o);
  const std::optional<int64_t> need =
      ir::DenseByteSize(out->type, NumElements(shape));
  if (out->shape == shape && need.has_value() &&
      (*need == 0 ||
       (out->data != nullptr && out->bytes >= static_cast<size_t>(*need)))) {
    return absl::OkStatus();
  }
  return ctx.ResizeOutput(o, shape);
}

absl::Status NormalizeAxis(const OpContext& ctx, int64_t axis, int rank,
                           absl::string_view what, int* out) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    return ctx.Error(absl::StrCat(what, " ", axis, " is out of range for rank ",
                                  rank, " (must be in [", -rank, ", ", rank,
                                  "))"));
  }
  *out = static_cast<int>(a);
  return absl::OkStatus();
}

Dims RowMajorStrides(absl::Span<const int64_t> shape) {
  Dims strides(shape.size(), 1);
  for (int k = static_cast<int>(shape.size()) - 2; k >= 0; --k) {
    strides[static_cast<size_t>(k)] =
        strides[static_cast<size_t>(k) + 1] * shape[static_cast<size_t>(k) + 1];
  }
  return strides;
}

namespace {

// Copies `n` elements from `in` (stepping `stride` elements) to contiguous
// `out`.
template <size_t kBytes>
void StridedRow(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + i * static_cast<int64_t>(kBytes),
                in + i * stride * static_cast<int64_t>(kBytes), kBytes);
  }
}

void CopyRow(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out,
             size_t elem) {
  if (stride == 1) {
    std::memcpy(out, in, static_cast<size_t>(n) * elem);
    return;
  }
  switch (elem) {
    case 1:
      StridedRow<1>(in, stride, n, out);
      break;
    case 2:
      StridedRow<2>(in, stride, n, out);
      break;
    case 4:
      StridedRow<4>(in, stride, n, out);
      break;
    default:
      StridedRow<8>(in, stride, n, out);
      break;
  }
}

}  // namespace

void AffineCopy(const OpContext& ctx, const AffineView& view, const uint8_t* in,
                uint8_t* out, size_t elem_bytes) {
  // Simplify: drop unit dims, merge dims that are contiguous in the input.
  AffineView v;
  v.base = view.base;
  for (int k = 0; k < view.rank; ++k) {
    if (view.shape[k] == 0) return;  // nothing to copy
    if (view.shape[k] == 1) continue;
    if (v.rank > 0 && v.stride[v.rank - 1] == view.stride[k] * view.shape[k]) {
      v.shape[v.rank - 1] *= view.shape[k];
      v.stride[v.rank - 1] = view.stride[k];
      continue;
    }
    v.Push(view.shape[k], view.stride[k]);
  }
  if (v.rank == 0) v.Push(1, 1);

  const int r = v.rank;
  const int64_t inner = v.shape[r - 1];
  const int64_t inner_stride = v.stride[r - 1];
  int64_t rows = 1;
  for (int k = 0; k < r - 1; ++k) rows *= v.shape[k];
  const int64_t elem = static_cast<int64_t>(elem_bytes);

  auto run = [&](int64_t begin, int64_t end) {
    int64_t coord[kMaxViewRank] = {};
    int64_t offset = v.base;
    int64_t rem = begin;
    for (int k = r - 2; k >= 0; --k) {
      coord[k] = rem % v.shape[k];
      rem /= v.shape[k];
      offset += coord[k] * v.stride[k];
    }
    for (int64_t row = begin; row < end; ++row) {
      CopyRow(in + offset * elem, inner_stride, inner, out + row * inner * elem,
              elem_bytes);
      for (int k = r - 2; k >= 0; --k) {
        offset += v.stride[k];
        if (++coord[k] < v.shape[k]) break;
        offset -= v.stride[k] * v.shape[k];
        coord[k] = 0;
      }
    }
  };
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 15) / inner);
  ParallelChunks(ctx, rows, grain, run);
}

absl::Status PadValue(const OpContext& ctx, int constant_input,
                      size_t elem_bytes, uint8_t value[16]) {
  std::memset(value, 0, 16);
  if (constant_input >= 0 && ctx.input(constant_input) != nullptr) {
    const RtTensor* c = ctx.input(constant_input);
    if (c->type != ctx.input(0)->type) {
      return ctx.Error(absl::StrCat(
          "constant value '", c->name(), "' is ", ir::DataTypeName(c->type),
          " but the input is ", ir::DataTypeName(ctx.input(0)->type)));
    }
    if (c->NumElements() != 1) {
      return ctx.Error(absl::StrCat("constant value '", c->name(),
                                    "' has shape ", DimsString(c->shape),
                                    "; it must hold exactly one value"));
    }
    if (c->data == nullptr || c->bytes < elem_bytes) {
      return ctx.Error(
          absl::StrCat("constant value '", c->name(), "' has no data"));
    }
    std::memcpy(value, c->data, elem_bytes);
    return absl::OkStatus();
  }
  const RtTensor* out = ctx.output(0);
  const ir::Tensor* t = out->ir;
  if (t != nullptr && t->quantization.has_value() &&
      !t->quantization->zero_point.empty()) {
    const int64_t zp = t->quantization->zero_point[0];
    switch (out->type) {
      case ir::DataType::kInt8: {
        const int8_t z = static_cast<int8_t>(zp);
        std::memcpy(value, &z, 1);
        break;
      }
      case ir::DataType::kUInt8: {
        const uint8_t z = static_cast<uint8_t>(zp);
        std::memcpy(value, &z, 1);
        break;
      }
      case ir::DataType::kInt16: {
        const int16_t z = static_cast<int16_t>(zp);
        std::memcpy(value, &z, 2);
        break;
      }
      default:
        break;
    }
  }
  return absl::OkStatus();
}

void FillElements(uint8_t* out, int64_t count, const uint8_t* value,
                  size_t elem_bytes) {
  bool zero = true;
  for (size_t b = 0; b < elem_bytes; ++b) zero = zero && value[b] == 0;
  if (zero || elem_bytes == 1) {
    std::memset(out, value[0], static_cast<size_t>(count) * elem_bytes);
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(out + static_cast<size_t>(i) * elem_bytes, value, elem_bytes);
  }
}

}  // namespace qforge::runtime::shape_ops
