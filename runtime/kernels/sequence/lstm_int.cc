// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Eval of the integer LSTMs (UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM): TFLite's
// lstm_eval.cc EvalInteger8x8_16 / LstmStepInteger8x8_16 with the portable
// tensor_utils, bit for bit. One step, per batch row (x int8 input, h int8
// output state, c int16 cell state with scale 2^cell_scale):
//   gate g (Q3.12 int16), starting from 0, each stage saturated to int16:
//     g = sat16(MBQM(b_in + W_g x) + g);  g = sat16(MBQM(b_rec + R_g h) + g)
//     (+ peephole on i, f with the old c, on o with the new c:
//      g = sat16(MBQM(p_g * c) + g));  layer norm if present;
//     i, f, o = sigmoid(g) (Q0.15); cell gate = tanh(g) (Q0.15)
//   c = (f * c) >> 15 (rounded);  c = sat16(c + ((i * cell gate) >>
//     (30 + cell_scale)))  (CIFG: i = 32767 - f);  clip to +-cell_clip
//   m = int8 of MBQM(o * tanh(c)) - hidden_zp  (tanh with 15 + cell_scale
//     integer bits)
//   h = sat8(MBQM(b_proj + P m) + output_state_zp), clipped to +-proj_clip;
//     or h = m without projection.
// MBQM is MultiplyByQuantizedMultiplier with the op's multiplier; the
// effective biases hold the zero points times the weight row sums (and the
// gate biases unless layer norm adds them). The interpreter runs the op in
// double rounding (its int16 cell state), as LiteRT's builtin kernel.
// Elementwise maths are numerics/lstm_math.h.
#include "runtime/kernels/sequence/lstm_int.h"

#include <algorithm>
#include <cstdint>

#include "numerics/fixed_point.h"
#include "numerics/lstm_math.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace integer_lstm {
namespace {

namespace lstm = numerics::lstm;

struct StepArgs
    : LstmStepTensors<int8_t, int16_t, int32_t, int16_t, int8_t, int16_t> {
  IntLstmState* s;
  int64_t t;
  numerics::Rounding r;  // the op's requantization rounding
};

int64_t RowIndex(const IntLstmState& s, int64_t t, int64_t b) {
  return s.time_major ? t * s.n_batch + b : b * s.max_time + t;
}

// Accumulates one int8 product into the int16 gate value:
// sat16(MBQM(bias + w . x) + prev) (TFLite's MatrixBatchVectorMultiply-
// Accumulate into int16).
inline int16_t AccumulateProduct(const int8_t* w, const int8_t* x, int64_t n,
                                 int32_t bias, int32_t mult, int shift,
                                 int16_t prev, numerics::Rounding r) {
  int32_t acc = bias;
  for (int64_t k = 0; k < n; ++k) {
    acc += static_cast<int32_t>(w[k]) * static_cast<int32_t>(x[k]);
  }
  const int32_t v =
      numerics::MultiplyByQuantizedMultiplier(acc, mult, shift, r);
  return numerics::SaturatingCast<int16_t>(int64_t{v} + prev);
}

// Phase 1 for cells [j0, j1): the input and recurrent products of every
// gate and batch row (they do not depend on the cell state).
void GateProducts(const StepArgs& a, int64_t j0, int64_t j1) {
  IntLstmState& s = *a.s;
  const int64_t B = s.n_batch, N = s.n_cell, I = s.n_input, O = s.n_output;
  for (int g = 0; g < 4; ++g) {
    if (g == kGateI && s.use_cifg) continue;
    const GateParams& p = s.gate[g];
    int16_t* gate = s.gates.data() + g * B * N;
    for (int64_t b = 0; b < B; ++b) {
      const int8_t* x = a.input + RowIndex(s, a.t, b) * I;
      const int8_t* h = a.h + b * O;
      for (int64_t j = j0; j < j1; ++j) {
        int16_t v = AccumulateProduct(a.w_in[g] + j * I, x, I,
                                      p.input_bias[static_cast<size_t>(j)],
                                      p.input_mult, p.input_shift, 0, a.r);
        v = AccumulateProduct(a.w_rec[g] + j * O, h, O,
                              p.recurrent_bias[static_cast<size_t>(j)],
                              p.recurrent_mult, p.recurrent_shift, v, a.r);
        gate[b * N + j] = v;
      }
    }
  }
}

// Peephole (if any), layer norm (if any) and activation of gate g, row b.
void FinishGate(const StepArgs& a, int g, int64_t b) {
  const IntLstmState& s = *a.s;
  const int64_t N = s.n_cell;
  const GateParams& p = s.gate[g];
  int16_t* v = a.s->gates.data() + (g * s.n_batch + b) * N;
  const int16_t* c = a.c + b * N;
  if (s.use_peephole && a.peep[g] != nullptr) {
    for (int64_t j = 0; j < N; ++j) {
      const int32_t prod = numerics::MultiplyByQuantizedMultiplier(
          static_cast<int32_t>(a.peep[g][j]) * static_cast<int32_t>(c[j]),
          p.cell_mult, p.cell_shift, a.r);
      v[j] = numerics::SaturatingCast<int16_t>(int64_t{prod} + v[j]);
    }
  }
  if (s.use_layer_norm) {
    lstm::LayerNormRow(v, a.ln[g], a.bias[g], p.ln_mult, p.ln_shift,
                       p.variance_guard, static_cast<int>(N), v, a.r);
  }
  if (g == kGateC) {
    for (int64_t j = 0; j < N; ++j) v[j] = lstm::Tanh(3, v[j]);
  } else {
    for (int64_t j = 0; j < N; ++j) v[j] = lstm::SigmoidQ3(v[j]);
  }
}

// Phase 2 for batch row b: gates, cell update, hidden m (int8).
void UpdateCell(const StepArgs& a, int64_t b) {
  IntLstmState& s = *a.s;
  const int64_t B = s.n_batch, N = s.n_cell;
  if (!s.use_cifg) FinishGate(a, kGateI, b);
  FinishGate(a, kGateF, b);
  FinishGate(a, kGateC, b);
  const int16_t* ig = s.gates.data() + (kGateI * B + b) * N;
  const int16_t* fg = s.gates.data() + (kGateF * B + b) * N;
  const int16_t* cg = s.gates.data() + (kGateC * B + b) * N;
  const int16_t* og = s.gates.data() + (kGateO * B + b) * N;
  int16_t* c = a.c + b * N;
  const int in_shift = 30 + s.cell_scale;
  for (int64_t j = 0; j < N; ++j) {
    const int16_t kept = lstm::MulShift(fg[j], c[j], 15);
    const int16_t in_gate =
        s.use_cifg ? static_cast<int16_t>(32767 - fg[j]) : ig[j];
    int16_t next = lstm::AddSat(kept, lstm::MulShift(in_gate, cg[j], in_shift));
    if (s.cell_clip > 0) {
      next = std::max<int16_t>(static_cast<int16_t>(-s.cell_clip),
                               std::min<int16_t>(next, s.cell_clip));
    }
    c[j] = next;
  }
  FinishGate(a, kGateO, b);  // peephole sees the new cell state
  int16_t* tc = s.tanh_c.data() + b * N;
  int8_t* m = s.hidden.data() + b * N;
  for (int64_t j = 0; j < N; ++j) {
    tc[j] = lstm::Tanh(s.tanh_integer_bits, c[j]);
    m[j] = lstm::MulRequantize(og[j], tc[j], s.hidden_mult, s.hidden_shift,
                               s.hidden_zp, a.r);
  }
}

// Phase 3 for batch row b: the output state.
void Project(const StepArgs& a, int64_t b) {
  const IntLstmState& s = *a.s;
  const int64_t N = s.n_cell, O = s.n_output;
  const int8_t* m = s.hidden.data() + b * N;
  int8_t* h = a.h + b * O;
  if (!s.use_projection) {
    std::copy_n(m, O, h);
    return;
  }
  for (int64_t k = 0; k < O; ++k) {
    int32_t acc = s.proj_bias[static_cast<size_t>(k)];
    const int8_t* w = a.proj_w + k * N;
    for (int64_t j = 0; j < N; ++j) {
      acc += static_cast<int32_t>(w[j]) * static_cast<int32_t>(m[j]);
    }
    int32_t v = numerics::MultiplyByQuantizedMultiplier(acc, s.proj_mult,
                                                        s.proj_shift, a.r);
    v = std::min<int32_t>(std::max<int32_t>(v + s.output_state_zp, -128), 127);
    if (s.proj_clip > 0)
      v = std::min<int32_t>(std::max<int32_t>(v, -s.proj_clip), s.proj_clip);
    h[k] = static_cast<int8_t>(v);
  }
}

}  // namespace

absl::Status Eval(OpContext& ctx) {
  IntLstmState* s = ctx.state<IntLstmState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  StepArgs a;
  a.s = s;
  a.r = ctx.rounding();
  a.Read(ctx, s->use_layer_norm);
  RunLstmSteps(
      ctx, *s, &a.t, [&](int64_t j0, int64_t j1) { GateProducts(a, j0, j1); },
      [&](int64_t t) {
        for (int64_t b = 0; b < s->n_batch; ++b) {
          UpdateCell(a, b);
          Project(a, b);
          std::copy_n(a.h + b * s->n_output, s->n_output,
                      a.output + RowIndex(*s, t, b) * s->n_output);
        }
      });
  return absl::OkStatus();
}

}  // namespace integer_lstm

absl::Status EvalIntLstm(OpContext& ctx) { return integer_lstm::Eval(ctx); }

}  // namespace qforge::runtime
