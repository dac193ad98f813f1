// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer PRELU (int8, uint8; TFLite has no int16 form), as TFLite's
// activations.cc PreluPrepare / reference_ops::BroadcastPrelu4DSlow:
// with x = q_in - zp_in and a = q_alpha - zp_alpha,
//   x >= 0: zp_out + MultiplyByQuantizedMultiplier(x, M1, s1),
//           M1 = s_in / s_out;
//   x <  0: zp_out + MultiplyByQuantizedMultiplier(x * a, M2, s2),
//           M2 = s_in * s_alpha / s_out;
// the real multipliers are float expressions (as TFLite's), clamped to the
// type's range. Alpha broadcasts against the input (NumPy rules); the output
// has the input's shape.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct PreluState : KernelState {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  ir::DataType type = ir::DataType::kInt8;
  BroadcastPlan plan;
  int32_t in_offset = 0, alpha_offset = 0, out_offset = 0;
  int32_t m1 = 0, m2 = 0;
  int s1 = 0, s2 = 0;
  int32_t qmin = 0, qmax = 0;
};

template <typename T>
void RunPrelu(OpContext& ctx, const PreluState& s) {
  const T* x_data = ctx.input(0)->Data<T>();
  const T* alpha = ctx.input(1)->Data<T>();
  T* y = ctx.output(0)->Data<T>();
  ForEachElement(ctx, s.plan, [=, &s](int64_t i, int64_t ix, int64_t ia) {
    const int32_t x = s.in_offset + x_data[ix];
    int32_t v;
    if (x >= 0) {
      v = numerics::MultiplyByQuantizedMultiplier(x, s.m1, s.s1, s.rounding);
    } else {
      const int32_t a = s.alpha_offset + alpha[ia];
      v = numerics::MultiplyByQuantizedMultiplier(x * a, s.m2, s.s2,
                                                  s.rounding);
    }
    y[i] = static_cast<T>(numerics::Clamp(v + s.out_offset, s.qmin, s.qmax));
  });
}

}  // namespace

absl::Status PrepareIntPrelu(OpContext& ctx) {
  const RtTensor *in = nullptr, *alpha = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireBinaryInOut(ctx, &in, &alpha, &out));
  if (in->type == ir::DataType::kInt16) {
    return ctx.Unsupported("int16 PRELU (TFLite has int8 and uint8 forms)");
  }
  if (alpha->type != in->type || out->type != in->type) {
    return ctx.Unsupported(
        absl::StrCat("input ", ir::DataTypeName(in->type), ", alpha ",
                     ir::DataTypeName(alpha->type), " and output ",
                     ir::DataTypeName(out->type), " must be one type"));
  }
  integer::QuantInfo qi, qa, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *alpha, "alpha", &qa));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo));
  auto state = std::make_unique<PreluState>();
  PreluState& s = *state;
  s.rounding = ctx.rounding();
  s.type = in->type;
  Dims out_shape;
  RETURN_IF_ERROR(integer::PlanBroadcast2(ctx, in->shape, alpha->shape, &s.plan,
                                          &out_shape));
  if (out_shape != in->shape) {
    return ctx.Error(
        absl::StrCat("alpha '", alpha->name(), "' ", DimsString(alpha->shape),
                     " broadcasts the input ", DimsString(in->shape), " to ",
                     DimsString(out_shape)));
  }
  s.in_offset = -qi.zero_point;
  s.alpha_offset = -qa.zero_point;
  s.out_offset = qo.zero_point;
  s.qmin = integer::TypeMin(in->type);
  s.qmax = integer::TypeMax(in->type);
  // float quotient and product, then double, as TFLite's expressions.
  const double r1 = static_cast<double>(qi.scale / qo.scale);
  const double r2 = static_cast<double>(qi.scale * qa.scale / qo.scale);
  numerics::QuantizeMultiplier(r1, &s.m1, &s.s1);
  numerics::QuantizeMultiplier(r2, &s.m2, &s.s2);
  if (s.s1 > 30 || s.s2 > 30) {
    return ctx.Error(
        absl::StrCat("rescaling factors ", r1, ", ", r2, " are too large"));
  }
  ctx.SetOutputShape(0, out_shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntPrelu(OpContext& ctx) {
  const PreluState& s = *ctx.state<PreluState>();
  if (s.type == ir::DataType::kUInt8) {
    RunPrelu<uint8_t>(ctx, s);
  } else {
    RunPrelu<int8_t>(ctx, s);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
