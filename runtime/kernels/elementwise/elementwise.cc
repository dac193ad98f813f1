// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared prepare helpers of the elementwise family: arity and type checks,
// broadcast plans, fused activation ranges.
#include "runtime/kernels/elementwise/elementwise.h"

#include <memory>

#include "absl/strings/str_cat.h"

namespace qforge::runtime::elementwise {

absl::Status CheckArity(const OpContext& ctx, int inputs, int outputs) {
  if (ctx.num_inputs() != inputs || ctx.num_outputs() != outputs) {
    return ctx.Error(absl::StrCat("takes ", inputs, " inputs and ", outputs,
                                  " outputs, has ", ctx.num_inputs(), " and ",
                                  ctx.num_outputs()));
  }
  return CheckInputsPresent(ctx, inputs);
}

absl::Status CheckInputsPresent(const OpContext& ctx, int count) {
  for (int i = 0; i < count; ++i) {
    if (ctx.input(i) == nullptr) {
      return ctx.Error(absl::StrCat("input ", i, " is missing"));
    }
  }
  for (int i = 0; i < ctx.num_outputs(); ++i) {
    if (ctx.output(i) == nullptr) {
      return ctx.Error(absl::StrCat("output ", i, " is missing"));
    }
  }
  return absl::OkStatus();
}

absl::Status ExpectOutputType(const OpContext& ctx, int i, ir::DataType type) {
  const RtTensor* t = ctx.output(i);
  if (t->type != type) {
    return ctx.Error(absl::StrCat("output ", i, " '", t->name(), "' is ",
                                  ir::DataTypeName(t->type), "; the op yields ",
                                  ir::DataTypeName(type), " here"));
  }
  return absl::OkStatus();
}

absl::Status ExpectSameType(const OpContext& ctx, int a, int b) {
  const RtTensor* ta = ctx.input(a);
  const RtTensor* tb = ctx.input(b);
  if (ta->type != tb->type) {
    return ctx.Error(absl::StrCat(
        "input ", a, " '", ta->name(), "' is ", ir::DataTypeName(ta->type),
        " but input ", b, " '", tb->name(), "' is ", ir::DataTypeName(tb->type),
        "; they must match"));
  }
  return absl::OkStatus();
}

absl::Status UnsupportedType(const OpContext& ctx, int i) {
  const RtTensor* t = ctx.input(i);
  return ctx.Unsupported(absl::StrCat("input ", i, " '", t->name(),
                                      "' has type ", ir::DataTypeName(t->type),
                                      ", which this kernel does not take"));
}

absl::Status PrepareBroadcast2(OpContext& ctx, BinaryState** state) {
  absl::Status s = CheckArity(ctx, 2, 1);
  if (!s.ok()) return s;
  s = ExpectSameType(ctx, 0, 1);
  if (!s.ok()) return s;
  Dims out;
  s = BroadcastShapes(ctx, ctx.input(0)->shape, ctx.input(1)->shape, &out);
  if (!s.ok()) return s;
  BinaryState* st = ctx.state<BinaryState>();
  if (st == nullptr) {
    auto fresh = std::make_unique<BinaryState>();
    st = fresh.get();
    ctx.set_state(std::move(fresh));
  }
  const Dims* shapes[2] = {&ctx.input(0)->shape, &ctx.input(1)->shape};
  s = MakeBroadcastPlan(ctx, shapes, out, &st->plan);
  if (!s.ok()) return s;
  ctx.SetOutputShape(0, std::move(out));
  *state = st;
  return absl::OkStatus();
}

void SetActivation(ir::Activation act, int bits, BinaryState* state) {
  const float inf = std::numeric_limits<float>::infinity();
  const int64_t int_max = bits >= 64 ? std::numeric_limits<int64_t>::max()
                                     : (int64_t{1} << (bits - 1)) - 1;
  const int64_t int_min = bits >= 64 ? std::numeric_limits<int64_t>::lowest()
                                     : -(int64_t{1} << (bits - 1));
  state->has_activation = true;
  switch (act) {
    case ir::Activation::kRelu:
      state->act_min = 0.0f;
      state->act_max = inf;
      state->int_act_min = 0;
      state->int_act_max = int_max;
      return;
    case ir::Activation::kRelu6:
      state->act_min = 0.0f;
      state->act_max = 6.0f;
      state->int_act_min = 0;
      state->int_act_max = 6;
      return;
    case ir::Activation::kReluN1To1:
      state->act_min = -1.0f;
      state->act_max = 1.0f;
      state->int_act_min = -1;
      state->int_act_max = 1;
      return;
    case ir::Activation::kNone:
    case ir::Activation::kTanh:
    case ir::Activation::kSignBit:
      break;
  }
  state->has_activation = false;
  state->act_min = -inf;
  state->act_max = inf;
  state->int_act_min = int_min;
  state->int_act_max = int_max;
}

ir::Activation FusedActivationOf(const ir::Operator& op) {
  if (const auto* o = std::get_if<ir::AddSubOptions>(&op.options)) {
    return o->activation;
  }
  if (const auto* o = std::get_if<ir::ActivationOptions>(&op.options)) {
    return o->activation;
  }
  return ir::Activation::kNone;
}

}  // namespace qforge::runtime::elementwise
