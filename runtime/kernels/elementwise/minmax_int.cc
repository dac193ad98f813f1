// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer MAXIMUM and MINIMUM (int8, uint8, int16) with NumPy broadcasting,
// as TFLite's maximum_minimum.cc: the larger / smaller raw value. TFLite
// compares raw values whatever the parameters: the inputs and the output
// are meant to share one scale and zero point (qforge's quantizer
// requantizes the inputs to the output's parameters); like TFLite, other
// parameters are not refused.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct MinMaxState : KernelState {
  bool is_max = true;
  ir::DataType type = ir::DataType::kInt8;
  BroadcastPlan plan;
  Dims out_shape;
};

template <typename T>
void RunMinMax(OpContext& ctx, const MinMaxState& s) {
  const T* a = ctx.input(0)->Data<T>();
  const T* b = ctx.input(1)->Data<T>();
  T* y = ctx.output(0)->Data<T>();
  if (s.is_max) {
    ForEachElement(ctx, s.plan, [=](int64_t i, int64_t ia, int64_t ib) {
      y[i] = std::max(a[ia], b[ib]);
    });
  } else {
    ForEachElement(ctx, s.plan, [=](int64_t i, int64_t ia, int64_t ib) {
      y[i] = std::min(a[ia], b[ib]);
    });
  }
}

absl::Status PrepareMinMax(OpContext& ctx, bool is_max) {
  const RtTensor *a = nullptr, *b = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireBinaryInOut(ctx, &a, &b, &out));
  if (a->type != b->type || out->type != a->type) {
    return ctx.Unsupported(absl::StrCat(
        "inputs ", ir::DataTypeName(a->type), ", ", ir::DataTypeName(b->type),
        " and output ", ir::DataTypeName(out->type), " must be one type"));
  }
  integer::QuantInfo qa, qb, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *a, "input 0", &qa));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *b, "input 1", &qb));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo));
  auto state = std::make_unique<MinMaxState>();
  state->is_max = is_max;
  state->type = a->type;
  RETURN_IF_ERROR(integer::PlanBroadcast2(ctx, a->shape, b->shape, &state->plan,
                                          &state->out_shape));
  ctx.SetOutputShape(0, state->out_shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalMinMax(OpContext& ctx) {
  const MinMaxState& s = *ctx.state<MinMaxState>();
  return integer::ForActivationType(
      ctx, s.type, "MAXIMUM/MINIMUM activation type",
      [&](auto t) { RunMinMax<decltype(t)>(ctx, s); });
}

}  // namespace

QF_KERNEL_AS(PrepareIntMaximum, PrepareMinMax(ctx, /*is_max=*/true))
QF_KERNEL_AS(PrepareIntMinimum, PrepareMinMax(ctx, /*is_max=*/false))
QF_KERNEL_AS(EvalIntMinMax, EvalMinMax(ctx))

}  // namespace qforge::runtime
