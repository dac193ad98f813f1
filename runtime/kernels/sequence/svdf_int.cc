// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer SVDF, as TFLite's kernels/svdf.cc with
// reference_ops::EvalIntegerSVDF: int8 input (zero point zp_in), int8
// weights_feature, int16 weights_time, int32 bias (optional), int16 state
// (a variable, symmetric), int8 output; the shapes of the float kernel
// (svdf_shape.h). TFLite takes only the RELU activation here, which the
// output's zero point then carries (the clamp below is the int8 range).
//
// Two rescales, their multipliers from the float expressions
//   e1 = s_in * s_wf / s_state,  e2 = s_state * s_wt / s_out
// (QuantizeMultiplier of the double of each), with per batch row b:
//   state <- state shifted left by one value (the whole buffer, as TFLite)
//   state[b, f, M-1] = clamp16(MBQM(sum_i wf[f, i] (x[b, i] - zp_in), e1))
//   acc[b, f] = sum_m wt[f, m] state[b, f, m]            (int32)
//   out[b, u] = clamp8(MBQM(sum_r acc[b, u * rank + r] + bias[u], e2)
//                      + zp_out)
// MBQM is the int32 MultiplyByQuantizedMultiplier in the op's rounding
// (the interpreter picks double rounding: the op has int16 tensors).
//
// TFLite Micro also runs an 8-bit-state variant (int8 weights_time and
// state, e.g. int_refs keyword_scrambled_8bit; svdf_common.cc's
// EvalIntegerSvdfReference<int8_t>), which LiteRT has no kernel for (it
// reads those tensors as int16 whatever their type). qforge runs it as TFLite
// Micro does: the state has a zero point zp_s, added to the new state value
// before the int8 clamp and taken off in the time product,
//   state[b, f, M-1] = clamp8(MBQM(dot, e1) + zp_s)
//   acc[b, f] = sum_m wt[f, m] (state[b, f, m] - zp_s)
// and the activation is not checked (TFLite Micro ignores it). Under
// --rounding double it follows TFLite Micro's arithmetic (no TFLite Micro
// run is at hand to compare whole models with).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"
#include "runtime/kernels/sequence/svdf_shape.h"

namespace qforge::runtime {
namespace {

struct IntSvdfState : KernelState {
  SvdfShape shape;
  int32_t input_zp = 0, output_zp = 0;
  bool eight_bit_state = false;  // TFLite Micro's variant (see above)
  int32_t state_zp = 0;          // used by the 8-bit variant only
  int32_t m1 = 0, m2 = 0;
  int s1 = 0, s2 = 0;
  std::vector<int32_t> scratch;  // [B, F]
};

absl::Status ExpectIntType(const OpContext& ctx, int i, const char* role,
                           ir::DataType want) {
  const RtTensor* t = ctx.input(i);
  if (t->type == want) return absl::OkStatus();
  return ctx.Unsupported(
      absl::StrCat(role, " '", t->name(), "' is ", ir::DataTypeName(t->type),
                   "; the integer SVDF takes ", ir::DataTypeName(want),
                   i == 4 ? " (as weights_time)" : ""));
}

// The time step for state type T (int16: TFLite; int8: TFLite Micro's
// variant, with the state's zero point; zp_s is 0 for int16).
template <typename T>
void EvalIntSvdfTyped(OpContext& ctx, IntSvdfState& st) {
  const IntSvdfState& s = st;
  const SvdfShape& sh = s.shape;
  const auto io = GetSvdfTensors<int8_t, T, int32_t>(ctx);
  const int32_t zp_s = s.state_zp;
  const numerics::Rounding r = ctx.rounding();
  constexpr int32_t kStateMin = std::numeric_limits<T>::min();
  constexpr int32_t kStateMax = std::numeric_limits<T>::max();
  const int64_t B = sh.batch, I = sh.input_size, F = sh.filters, M = sh.memory;
  int32_t* scratch = st.scratch.data();
  SvdfStateSteps(
      sh, io,
      [&](const int8_t* x, const int8_t* w) {
        int32_t dot = 0;
        for (int64_t i = 0; i < I; ++i) {
          dot = numerics::WrappingAdd(
              dot, static_cast<int32_t>(w[i]) *
                       (static_cast<int32_t>(x[i]) - s.input_zp));
        }
        dot = numerics::MultiplyByQuantizedMultiplier(dot, s.m1, s.s1, r);
        return static_cast<T>(numerics::Clamp(numerics::WrappingAdd(dot, zp_s),
                                              kStateMin, kStateMax));
      },
      [&](int64_t b, int64_t f, const T* w, const T* mem) {
        int32_t acc = 0;
        for (int64_t m = 0; m < M; ++m) {
          acc = numerics::WrappingAdd(
              acc, static_cast<int32_t>(w[m]) *
                       (static_cast<int32_t>(mem[m]) - zp_s));
        }
        scratch[b * F + f] = acc;
      });
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t u = 0; u < sh.units; ++u) {
      const int32_t* v = scratch + b * F + u * sh.rank;
      int32_t sum = 0;
      for (int64_t r = 0; r < sh.rank; ++r) {
        sum = numerics::WrappingAdd(sum, v[r]);
      }
      if (io.bias != nullptr) sum = numerics::WrappingAdd(sum, io.bias[u]);
      const int32_t y =
          numerics::MultiplyByQuantizedMultiplier(sum, s.m2, s.s2, r) +
          s.output_zp;
      io.out[b * sh.units + u] =
          static_cast<int8_t>(numerics::Clamp(y, -128, 127));
    }
  }
}

}  // namespace

absl::Status PrepareIntSvdf(OpContext& ctx) {
  auto state = std::make_unique<IntSvdfState>();
  IntSvdfState& s = *state;
  RETURN_IF_ERROR(ReadSvdfShape(ctx, &s.shape));
  RETURN_IF_ERROR(ExpectIntType(ctx, 0, "input", ir::DataType::kInt8));
  RETURN_IF_ERROR(
      ExpectIntType(ctx, 1, "weights_feature", ir::DataType::kInt8));
  const ir::DataType time_type = ctx.input(2)->type == ir::DataType::kInt8
                                     ? ir::DataType::kInt8
                                     : ir::DataType::kInt16;
  s.eight_bit_state = time_type == ir::DataType::kInt8;
  RETURN_IF_ERROR(ExpectIntType(ctx, 2, "weights_time", time_type));
  RETURN_IF_ERROR(ExpectIntType(ctx, 4, "state", time_type));
  const RtTensor* bias = ctx.input(3);
  if (bias != nullptr && bias->type != ir::DataType::kInt32) {
    return ctx.Unsupported(absl::StrCat("bias '", bias->name(), "' is ",
                                        ir::DataTypeName(bias->type),
                                        "; the integer SVDF takes int32"));
  }
  RtTensor* out = ctx.output(0);
  if (out->type != ir::DataType::kInt8) {
    return ctx.Unsupported(absl::StrCat("output '", out->name(), "' is ",
                                        ir::DataTypeName(out->type),
                                        "; the integer SVDF writes int8"));
  }
  const auto opts = ir::OptionsOr<ir::SvdfOptions>(ctx.op().options);
  if (!s.eight_bit_state && opts.activation != ir::Activation::kRelu) {
    return ctx.Unsupported(
        "the integer SVDF takes only the RELU activation (as TFLite)");
  }
  integer::QuantInfo q_in, q_wf, q_wt, q_state, q_out;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *ctx.input(0), "input", &q_in));
  RETURN_IF_ERROR(
      integer::ReadQuant(ctx, *ctx.input(1), "weights_feature", &q_wf));
  RETURN_IF_ERROR(
      integer::ReadQuant(ctx, *ctx.input(2), "weights_time", &q_wt));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *ctx.input(4), "state", &q_state));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &q_out));
  s.input_zp = q_in.zero_point;
  s.output_zp = q_out.zero_point;
  // TFLite's int16 state is symmetric (its kernel ignores a zero point).
  if (s.eight_bit_state) s.state_zp = q_state.zero_point;
  // TFLite: float products and quotients, then QuantizeMultiplier(double).
  const float e1 = q_in.scale * q_wf.scale / q_state.scale;
  const float e2 = q_state.scale * q_wt.scale / q_out.scale;
  numerics::QuantizeMultiplier(static_cast<double>(e1), &s.m1, &s.s1);
  numerics::QuantizeMultiplier(static_cast<double>(e2), &s.m2, &s.s2);
  if (s.s1 > 30 || s.s2 > 30) {
    return ctx.Error(
        absl::StrCat("rescaling factors ", e1, ", ", e2, " are too large"));
  }
  s.scratch.assign(static_cast<size_t>(s.shape.batch * s.shape.filters), 0);
  ctx.SetOutputShape(0, Dims{s.shape.batch, s.shape.units});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntSvdf(OpContext& ctx) {
  IntSvdfState* st = ctx.state<IntSvdfState>();
  if (st == nullptr) return ctx.Error("eval before prepare");
  if (st->eight_bit_state) {
    EvalIntSvdfTyped<int8_t>(ctx, *st);
  } else {
    EvalIntSvdfTyped<int16_t>(ctx, *st);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
