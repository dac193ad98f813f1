// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer CONCATENATION (int8, uint8, int16). Inputs quantized like the
// output are copied; the others are requantized as TFLite's
// ConcatenationWithScaling does (TFLite applies it to uint8 and rejects
// int8/int16 inputs whose quantization differs from the output's; qforge
// requantizes them the same way): with s = s_in / s_out in float,
// q = round(x * s - zp_in * s) + zp_out, clamped to the type.
// int16 tensors need zero point 0; fused activations are not supported
// (as in TFLite).
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct ConcatInput {
  int64_t axis_size = 0;  // this input's extent along the axis
  bool copy = true;       // same quantization as the output
  float scale = 1.0f;     // s_in / s_out (requantized inputs)
  float bias = 0.0f;      // -zp_in * scale
};

struct ConcatState : KernelState {
  ir::DataType type = ir::DataType::kInt8;
  int64_t outer = 1, inner = 1, out_axis = 0;
  int32_t out_zp = 0;
  std::vector<ConcatInput> inputs;
};

template <typename T>
void RunConcat(OpContext& ctx, const ConcatState& s) {
  T* y = ctx.output(0)->Data<T>();
  const int32_t lo = integer::TypeMin(s.type), hi = integer::TypeMax(s.type);
  const OpContext* c = &ctx;
  // Chunks of whole outer slices, about kElementwiseChunk elements each.
  const int64_t slice = std::max<int64_t>(1, s.out_axis * s.inner);
  const int64_t chunk =
      std::max<int64_t>(1, integer::kElementwiseChunk / slice);
  ParallelChunks(ctx, s.outer, chunk, [&](int64_t o0, int64_t o1) {
    for (int64_t o = o0; o < o1; ++o) {
      T* dst = y + o * s.out_axis * s.inner;
      for (size_t i = 0; i < s.inputs.size(); ++i) {
        const ConcatInput& in = s.inputs[i];
        const int64_t n = in.axis_size * s.inner;
        const T* src = c->input(static_cast<int>(i))->Data<T>() + o * n;
        if (in.copy) {
          if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
        } else {
          for (int64_t j = 0; j < n; ++j) {
            const int32_t v =
                static_cast<int32_t>(std::round(
                    static_cast<float>(src[j]) * in.scale + in.bias)) +
                s.out_zp;
            dst[j] = static_cast<T>(std::max(lo, std::min(hi, v)));
          }
        }
        dst += n;
      }
    }
  });
}

}  // namespace

absl::Status PrepareIntConcatenation(OpContext& ctx) {
  const auto o = ir::OptionsOr<ir::ConcatenationOptions>(ctx.op().options);
  if (o.activation != ir::Activation::kNone) {
    return ctx.Unsupported("fused activation on a quantized CONCATENATION");
  }
  RtTensor* out = ctx.output(0);
  if (ctx.num_inputs() < 1) return ctx.Error("no inputs");
  const RtTensor* first = nullptr;
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 0, &first));
  const int rank = first->rank();
  int axis = o.axis;
  if (axis < -rank || axis >= rank) {
    return ctx.Error(
        absl::StrCat("axis ", o.axis, " is out of range for rank ", rank));
  }
  if (axis < 0) axis += rank;
  if (out->type != first->type) {
    return ctx.Unsupported(absl::StrCat(
        "input '", first->name(), "' is ", ir::DataTypeName(first->type),
        " but output '", out->name(), "' is ", ir::DataTypeName(out->type)));
  }
  const bool is_int16 = first->type == ir::DataType::kInt16;
  integer::QuantInfo qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, is_int16));
  auto state = std::make_unique<ConcatState>();
  ConcatState& s = *state;
  s.type = first->type;
  s.out_zp = qo.zero_point;
  Dims out_shape = first->shape;
  out_shape[static_cast<size_t>(axis)] = 0;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const RtTensor* t = nullptr;
    RETURN_IF_ERROR(integer::RequireActivation(ctx, i, &t));
    if (t->type != first->type || t->rank() != rank) {
      return ctx.Error(absl::StrCat(
          "input ", i, " '", t->name(), "' is ", ir::DataTypeName(t->type),
          DimsString(t->shape), "; expected ", ir::DataTypeName(first->type),
          " of rank ", rank));
    }
    for (int d = 0; d < rank; ++d) {
      if (d != axis && t->dim(d) != first->dim(d)) {
        return ctx.Error(
            absl::StrCat("input ", i, " '", t->name(), "' has shape ",
                         DimsString(t->shape), ", which differs from ",
                         DimsString(first->shape), " outside axis ", axis));
      }
    }
    integer::QuantInfo qi;
    RETURN_IF_ERROR(
        integer::ReadQuant(ctx, *t, absl::StrCat("input ", i), &qi, is_int16));
    ConcatInput in;
    in.axis_size = t->dim(axis);
    in.copy = qi.scale == qo.scale && qi.zero_point == qo.zero_point;
    if (!in.copy) {
      in.scale = qi.scale * (1.f / qo.scale);
      in.bias = static_cast<float>(-qi.zero_point) * in.scale;
    }
    s.inputs.push_back(in);
    out_shape[static_cast<size_t>(axis)] += in.axis_size;
  }
  for (int d = 0; d < axis; ++d) s.outer *= out_shape[static_cast<size_t>(d)];
  for (int d = axis + 1; d < rank; ++d) {
    s.inner *= out_shape[static_cast<size_t>(d)];
  }
  s.out_axis = out_shape[static_cast<size_t>(axis)];
  ctx.SetOutputShape(0, out_shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntConcatenation(OpContext& ctx) {
  const ConcatState& s = *ctx.state<ConcatState>();
  if (s.outer * s.out_axis * s.inner == 0) return absl::OkStatus();
  return integer::ForActivationType(
      ctx, s.type, "CONCATENATION type",
      [&](auto t) { RunConcat<decltype(t)>(ctx, s); });
}

}  // namespace qforge::runtime
