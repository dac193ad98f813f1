// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Float SVDF, as TFLite's kernels/svdf.cc with reference_ops::EvalFloatSVDF:
// a fully connected layer factored into a feature filter and a time filter
// over a memory of the last M steps.
//
// Inputs: 0 input [B, I]; 1 weights_feature [F, I]; 2 weights_time [F, M];
// 3 bias [U] (optional); 4 state [B, F * M] (variable). F = U * rank.
// Output 0: [B, U].
//
// One step, per batch row b (state row b holds F memories of M values,
// oldest first):
//   state <- state shifted left by one value (TFLite shifts the whole
//            buffer; each filter's oldest value falls out, its newest slot
//            is then overwritten)
//   state[b, f, M - 1] = weights_feature[f] . input[b]
//   s[b, f] = weights_time[f] . state[b, f, :]
//   out[b, u] = act(sum_{r < rank} s[b, u * rank + r] + bias[u])
// Dot products and sums run in index order, as TFLite's portable
// tensor_utils.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/sequence/sequence.h"
#include "runtime/kernels/sequence/svdf_shape.h"

namespace qforge::runtime {
namespace {

struct SvdfState : KernelState {
  SvdfShape shape;
  ir::Activation activation = ir::Activation::kNone;
  std::vector<float> scratch;  // [B, F]
};

}  // namespace

absl::Status PrepareSvdf(OpContext& ctx) {
  auto state = std::make_unique<SvdfState>();
  RETURN_IF_ERROR(ReadSvdfShape(ctx, &state->shape));
  for (int i : {0, 1, 2, 3, 4}) {
    const RtTensor* t = ctx.input(i);
    if (t != nullptr && t->type != ir::DataType::kFloat32) {
      return ctx.Unsupported(absl::StrCat(
          "input ", i, " '", t->name(), "' is ", ir::DataTypeName(t->type),
          "; the float SVDF takes float32 (hybrid SVDF is not implemented)"));
    }
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' is ",
                                  ir::DataTypeName(ctx.output(0)->type),
                                  "; it must be float32"));
  }
  state->activation =
      ir::OptionsOr<ir::SvdfOptions>(ctx.op().options).activation;
  const SvdfShape& s = state->shape;
  state->scratch.assign(static_cast<size_t>(s.batch * s.filters), 0.f);
  ctx.SetOutputShape(0, Dims{s.batch, s.units});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalSvdfFloat(OpContext& ctx) {
  SvdfState* st = ctx.state<SvdfState>();
  if (st == nullptr) return ctx.Error("eval before prepare");
  const SvdfShape& s = st->shape;
  const auto io = GetSvdfTensors<float, float, float>(ctx);
  const int64_t B = s.batch, I = s.input_size, F = s.filters, M = s.memory;
  float* scratch = st->scratch.data();
  SvdfStateSteps(
      s, io,
      [&](const float* x, const float* w) {
        float acc = 0.f;
        for (int64_t i = 0; i < I; ++i) acc += w[i] * x[i];
        return acc;
      },
      [&](int64_t b, int64_t f, const float* w, const float* mem) {
        float acc = 0.f;
        for (int64_t m = 0; m < M; ++m) acc += w[m] * mem[m];
        scratch[b * F + f] = acc;
      });
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t u = 0; u < s.units; ++u) {
      const float* v = scratch + b * F + u * s.rank;
      float sum = 0.f;
      for (int64_t r = 0; r < s.rank; ++r) sum += v[r];
      if (io.bias != nullptr) sum += io.bias[u];
      io.out[b * s.units + u] = sequence::ApplyActivation(st->activation, sum);
    }
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
