// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SVDF's shape checks, shared by the float (svdf.cc) and integer
// (svdf_int.cc) kernels: TFLite's svdf.cc Prepare.
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_SVDF_SHAPE_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_SVDF_SHAPE_H_

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

struct SvdfShape {
  int64_t batch = 0, input_size = 0;
  int64_t filters = 0, units = 0, rank = 0, memory = 0;
};

// Inputs 0-2 and 4 present, input [B, I], weights_feature [F, I],
// weights_time [F, M], bias (3, optional) [U], state (4) a writable variable
// [B, F * M], rank > 0 dividing F (U = F / rank); one output.
absl::Status ReadSvdfShape(const OpContext& ctx, SvdfShape* shape);

// The tensors of an SVDF eval: TIn input, feature weights and output,
// TState time weights and state (the variable input 4), TBias bias (null
// when absent).
template <typename TIn, typename TState, typename TBias>
struct SvdfTensors {
  const TIn* input;
  const TIn* w_feature;
  const TState* w_time;
  const TBias* bias;
  TState* state;
  TIn* out;
};
template <typename TIn, typename TState, typename TBias>
SvdfTensors<TIn, TState, TBias> GetSvdfTensors(const OpContext& ctx) {
  const RtTensor* bias = ctx.input(3);
  return {ctx.input(0)->Data<TIn>(),
          ctx.input(1)->Data<TIn>(),
          ctx.input(2)->Data<TState>(),
          bias == nullptr ? nullptr : bias->Data<TBias>(),
          ctx.input(4)->Data<TState>(),
          ctx.output(0)->Data<TIn>()};
}

// The state steps of both kernels, in TFLite's order, over the state
// [B, F, M]: every row shifts left by one and row (b, f)'s newest slot gets
// feature(x, w), the projection of input row b (x, I values) by filter f's
// weights (w); then time(b, f, w_time row f, state row (b, f)) for every
// row (the memory dot product).
template <typename TIn, typename TState, typename TBias, typename Feature,
          typename Time>
void SvdfStateSteps(const SvdfShape& sh,
                    const SvdfTensors<TIn, TState, TBias>& io,
                    const Feature& feature, const Time& time) {
  const int64_t B = sh.batch, I = sh.input_size, F = sh.filters;
  const int64_t M = sh.memory;
  TState* state = io.state;
  const int64_t total = B * F * M;
  if (total > 0) std::copy(state + 1, state + total, state);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t f = 0; f < F; ++f) {
      state[(b * F + f) * M + M - 1] =
          feature(io.input + b * I, io.w_feature + f * I);
    }
  }
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t f = 0; f < F; ++f) {
      time(b, f, io.w_time + f * M, state + (b * F + f) * M);
    }
  }
}

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_SEQUENCE_SVDF_SHAPE_H_
