// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer TRANSPOSE_CONV (TFLite's reference_integer_ops::TransposeConv):
// inputs output_shape (int32 [4]), weights [out_c, k_h, k_w, in_c] (int8,
// per-channel along axis 0), input, optional bias.
//  - int8 activations: int32 bias and accumulators, double-rounding
//    requantization per output channel;
//  - int16 activations (zero point 0): int64 accumulators (an int32 bias is
//    widened, as TFLite Micro does), the int64 requantization.
// Padding is TFLite's: the output size plays the role of a convolution's
// input, pad = max(0, (out(padding, H) - 1) * stride + k - H) / 2.
// TFLite scatters every input element into the output; this kernel gathers
// the same products per output element (integer sums do not depend on the
// order), so output rows can be computed in parallel.
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using integer::QuantInfo;

struct TransposeConvState : KernelState, integer::WeightedQuant {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  ir::DataType type = ir::DataType::kInt8;
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t out_h = 0, out_w = 0, out_c = 0, k_h = 0, k_w = 0;
  int64_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
  std::vector<int32_t> multiplier;
  std::vector<int> shift;
};

template <typename TIn, typename TAcc, typename TBias>
void RunTransposeConv(OpContext& ctx, const TransposeConvState& s) {
  const auto io = integer::GetWeightedTensors<TIn, int8_t, TBias>(ctx, 2, 1, 3);
  ctx.pool().ParallelFor(s.batch * s.out_h, [&](int64_t r) {
    const int64_t b = r / s.out_h;
    const int64_t oy = r % s.out_h;
    for (int64_t ox = 0; ox < s.out_w; ++ox) {
      TIn* y = io.y + ((b * s.out_h + oy) * s.out_w + ox) * s.out_c;
      for (int64_t oc = 0; oc < s.out_c; ++oc) {
        TAcc acc = FoldTransposedTaps(
            oy, ox, s.k_h, s.k_w, s.stride_h, s.stride_w, s.pad_top, s.pad_left,
            s.in_h, s.in_w, TAcc{0},
            [&](TAcc acc, int64_t ky, int64_t kx, int64_t iy, int64_t ix) {
              const TIn* x = io.x + ((b * s.in_h + iy) * s.in_w + ix) * s.in_c;
              const int8_t* w =
                  io.w + ((oc * s.k_h + ky) * s.k_w + kx) * s.in_c;
              for (int64_t c = 0; c < s.in_c; ++c) {
                acc += (static_cast<int32_t>(x[c]) + s.input_offset) *
                       static_cast<int32_t>(w[c]);
              }
              return acc;
            });
        if (io.bias != nullptr) acc += static_cast<TAcc>(io.bias[oc]);
        const size_t k = static_cast<size_t>(oc);
        y[oc] = static_cast<TIn>(integer::RequantizeAcc(
            acc, s.multiplier[k], s.shift[k], s.output_offset, s.act_min,
            s.act_max, s.rounding));
      }
    }
  });
}

}  // namespace

absl::Status PrepareIntTransposeConv(OpContext& ctx) {
  const RtTensor* shape_t = ctx.input(0);
  const RtTensor* w = nullptr;
  const RtTensor* in = nullptr;
  if (shape_t == nullptr) return ctx.Error("output_shape (input 0) is missing");
  if (shape_t->type != ir::DataType::kInt32 || shape_t->NumElements() != 4) {
    return ctx.Error(absl::StrCat("output_shape '", shape_t->name(), "' is ",
                                  ir::DataTypeName(shape_t->type),
                                  DimsString(shape_t->shape),
                                  "; expected int32[4]"));
  }
  RETURN_IF_ERROR(integer::RequireConstant(ctx, 1, "weights", &w));
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 2, &in));
  const RtTensor* bias = ctx.input(3);
  RtTensor* out = ctx.output(0);
  if (out->type != in->type || in->type == ir::DataType::kUInt8) {
    return ctx.Unsupported(absl::StrCat(
        "input '", in->name(), "' is ", ir::DataTypeName(in->type),
        ", output '", out->name(), "' is ", ir::DataTypeName(out->type),
        "; this kernel takes int8 or int16 for both"));
  }
  if (w->type != ir::DataType::kInt8 || w->rank() != 4 || in->rank() != 4) {
    return ctx.Error(absl::StrCat(
        "weights '", w->name(), "' must be int8 of rank 4 and input '",
        in->name(), "' of rank 4; got ", ir::DataTypeName(w->type),
        DimsString(w->shape), " and ", DimsString(in->shape)));
  }
  if (!ctx.InputValueKnown(0)) {
    // The output shape is only known at run time: prepare again then.
    ctx.SetShapeDependsOnData();
    ctx.set_state(nullptr);
    return absl::OkStatus();
  }
  if (!shape_t->is_constant) ctx.SetShapeDependsOnData();
  const int32_t* os = shape_t->Data<int32_t>();
  auto state = std::make_unique<TransposeConvState>();
  TransposeConvState& s = *state;
  s.rounding = ctx.rounding();
  s.type = in->type;
  s.batch = in->dim(0);
  s.in_h = in->dim(1);
  s.in_w = in->dim(2);
  s.in_c = in->dim(3);
  s.out_c = w->dim(0);
  s.k_h = w->dim(1);
  s.k_w = w->dim(2);
  s.out_h = os[1];
  s.out_w = os[2];
  if (os[0] != s.batch || os[3] != s.out_c || os[1] < 0 || os[2] < 0) {
    return ctx.Error(absl::StrCat("output_shape [", os[0], ",", os[1], ",",
                                  os[2], ",", os[3], "] does not match batch ",
                                  s.batch, " and weights '", w->name(), "' ",
                                  DimsString(w->shape)));
  }
  if (s.out_h > (int64_t{1} << 24) || s.out_w > (int64_t{1} << 24) ||
      s.batch * s.out_h * s.out_w * s.out_c > (int64_t{1} << 36)) {
    return ctx.Error(absl::StrCat("output_shape [", os[0], ",", os[1], ",",
                                  os[2], ",", os[3], "] is implausibly large"));
  }
  if (w->dim(3) != s.in_c) {
    return ctx.Error(absl::StrCat(
        "weights '", w->name(), "' ", DimsString(w->shape), " take ", w->dim(3),
        " input channels; input '", in->name(), "' has ", s.in_c));
  }
  const auto o = ir::OptionsOr<ir::TransposeConvOptions>(ctx.op().options);
  s.stride_h = o.stride_h;
  s.stride_w = o.stride_w;
  if (s.stride_h <= 0 || s.stride_w <= 0) {
    return ctx.Error(absl::StrCat("strides (", s.stride_h, ",", s.stride_w,
                                  ") must be positive"));
  }
  const int64_t conv_out_h =
      WindowOutSize(o.padding, s.out_h, s.k_h, s.stride_h, 1);
  const int64_t conv_out_w =
      WindowOutSize(o.padding, s.out_w, s.k_w, s.stride_w, 1);
  s.pad_top = WindowPadBefore(s.stride_h, 1, s.out_h, s.k_h, conv_out_h);
  s.pad_left = WindowPadBefore(s.stride_w, 1, s.out_w, s.k_w, conv_out_w);

  const bool is_int16 = in->type == ir::DataType::kInt16;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(
      integer::ReadWeightedQuant(ctx, *in, *out, o.activation, &qi, &qo, &s));
  std::vector<float> wscales;
  RETURN_IF_ERROR(
      integer::ReadWeightScales(ctx, *w, "weights", s.out_c, 0, &wscales));
  RETURN_IF_ERROR(integer::CheckBias(ctx, bias, s.out_c, is_int16, qi.scale,
                                     wscales, qo.scale));
  numerics::ChannelMultipliers cm = numerics::QuantizeChannelMultipliers(
      qi.scale, wscales.data(), static_cast<int>(wscales.size()), qo.scale,
      static_cast<int>(s.out_c));
  s.multiplier = std::move(cm.multiplier);
  s.shift = std::move(cm.shift);
  for (int sh : s.shift) {
    if (sh > (is_int16 ? 7 : 30)) {
      return ctx.Error(absl::StrCat(
          "requantization scale input*weights/output is too large (shift ", sh,
          ")"));
    }
  }
  ctx.SetOutputShape(0, Dims{s.batch, s.out_h, s.out_w, s.out_c});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntTransposeConv(OpContext& ctx) {
  const TransposeConvState* sp = ctx.state<TransposeConvState>();
  if (sp == nullptr) {
    return ctx.Error("output_shape was not known when the op was prepared");
  }
  const TransposeConvState& s = *sp;
  if (s.batch * s.out_h * s.out_w * s.out_c == 0) return absl::OkStatus();
  const RtTensor* bias = ctx.input(3);
  if (s.type == ir::DataType::kInt8) {
    RunTransposeConv<int8_t, int32_t, int32_t>(ctx, s);
  } else if (bias != nullptr && bias->type == ir::DataType::kInt32) {
    RunTransposeConv<int16_t, int64_t, int32_t>(ctx, s);
  } else {
    RunTransposeConv<int16_t, int64_t, int64_t>(ctx, s);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
