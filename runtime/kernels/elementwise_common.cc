// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared prepare helpers of the elementwise family: arity and type checks,
// broadcast plans, fused activation ranges.
#include <memory>

#include "absl/strings/str_cat.h"
#include "runtime/kernels/elementwise_internal.h"

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

absl::Status MakeBroadcastPlan(const OpContext& ctx,
                               absl::Span<const Dims* const> shapes,
                               absl::Span<const int64_t> out,
                               BroadcastPlan* plan) {
  const int rank = static_cast<int>(out.size());
  if (rank > kMaxBroadcastRank) {
    return ctx.Unsupported(absl::StrCat("broadcast of rank ", rank, " (output ",
                                        DimsString(out), "); the limit is ",
                                        kMaxBroadcastRank));
  }
  const int n = static_cast<int>(shapes.size());
  *plan = BroadcastPlan{};
  plan->num_inputs = n;
  plan->total = NumElements(out);

  // Each input's own element strides, aligned to the output's dims.
  std::array<std::array<int64_t, kMaxBroadcastRank>, 3> in_size{};
  std::array<std::array<int64_t, kMaxBroadcastRank>, 3> in_stride{};
  for (int k = 0; k < n; ++k) {
    const Dims& s = *shapes[static_cast<size_t>(k)];
    const int offset = rank - static_cast<int>(s.size());
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t size = d >= offset ? s[static_cast<size_t>(d - offset)] : 1;
      in_size[k][d] = size;
      in_stride[k][d] = stride;
      stride *= size;
    }
  }

  // Collapse: drop size-1 output dims, merge neighbours that every input
  // treats the same way (present in full, or broadcast).
  int r = 0;
  std::array<bool, 3> prev_full{};
  for (int d = 0; d < rank; ++d) {
    if (out[static_cast<size_t>(d)] == 1) continue;
    std::array<bool, 3> full{};
    for (int k = 0; k < n; ++k) full[k] = in_size[k][d] != 1;
    const bool merge = r > 0 && full == prev_full;
    if (merge) {
      plan->dims[r - 1] *= out[static_cast<size_t>(d)];
      for (int k = 0; k < n; ++k) {
        plan->strides[k][r - 1] = full[k] ? in_stride[k][d] : 0;
      }
    } else {
      plan->dims[r] = out[static_cast<size_t>(d)];
      for (int k = 0; k < n; ++k) {
        plan->strides[k][r] = full[k] ? in_stride[k][d] : 0;
      }
      ++r;
    }
    prev_full = full;
  }
  if (r == 0) {  // every output dim is 1 (or the output is a scalar)
    plan->dims[0] = 1;
    r = 1;
  }
  plan->rank = r;
  plan->inner = plan->dims[r - 1];
  plan->outer = 1;
  for (int d = 0; d < r - 1; ++d) plan->outer *= plan->dims[d];
  if (plan->total == 0) plan->outer = 0;
  return absl::OkStatus();
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
