// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Float LSTMs: UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM (full kernel), the float
// path of TFLite's kernels/unidirectional_sequence_lstm.cc, lstm.cc and
// lstm_eval.cc (EvalFloat / LstmStepFloat). Both ops share one prepare
// (weight checks, scratch) and one eval; they differ only in the input
// layout: the sequence op reads [B,T,I] ([T,B,I] when time_major), LSTM reads
// one step [B,I] and writes [B,O] (TFLite runs it as EvalFloat with
// max_time 1).
//
// Inputs (TFLite's lstm::full indices; * = optional, -1 in the file):
//   0 input [B,T,I] ([T,B,I] when time_major; LSTM: [B,I])
//   1* input_to_input  2 input_to_forget  3 input_to_cell  4 input_to_output
//      weights [N,I]; no input gate weights (1, 5) = CIFG: i = 1 - f
//   5* recurrent_to_input  6 .._forget  7 .._cell  8 .._output  [N,O]
//   9* cell_to_input  10* cell_to_forget  11* cell_to_output (peephole, [N])
//  12* input_gate_bias  13 forget_gate_bias  14 cell_gate_bias
//  15 output_gate_bias  [N]
//  16* projection_weights [O,N]  17* projection_bias [O]
//  18 output_state (variable, B*O values)  19 cell_state (variable, B*N)
//  20-23* layer-norm coefficients (input, forget, cell, output) [N]
// Output 0: [B,T,O] ([T,B,O] when time_major; LSTM: [B,O]).
//
// One step, per batch row b (x = input row, h = output state, c = cell):
//   pre_g = bias_g + W_g x + R_g h (+ p_g .* c for i, f)   (layer norm:
//           start from 0, then normalize, .* coefficients, + bias_g)
//   i = sigmoid(pre_i)  f = sigmoid(pre_f)  g = act(pre_c)
//   c = f .* c;  c += g .* i  (CIFG: g .* (1 - f));  clip to +-cell_clip
//   o = sigmoid(pre_o (+ p_o .* c, with the new c))
//   m = o .* act(c);  h = P m + proj_bias (clip +-proj_clip) or h = m
// `act` is the options' fused activation (TANH in practice). TFLite leaves
// the gate unwritten for activation NONE; here NONE is the identity.
// Layer norm: (v - mean) / sqrt(variance + 1e-8), as TFLite's
// MeanStddevNormalization. Every element is computed by one task in a fixed
// order, so results do not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/sequence/lstm_tensors.h"
#include "runtime/kernels/sequence/sequence.h"

namespace qforge::runtime {
namespace {

enum Gate : int {
  kGateInput = 0,
  kGateForget = 1,
  kGateCell = 2,
  kGateOutput = 3
};

struct LstmState : KernelState, LstmShape {
  ir::Activation activation = ir::Activation::kTanh;
  float cell_clip = 0.f, proj_clip = 0.f;
  // Scratch: gate pre-activations / activations [4][B][N], m [B][N].
  std::vector<float> gates;
  std::vector<float> hidden;
  int64_t cells_per_task = 1, cell_tasks = 1;
  int64_t outputs_per_task = 1, output_tasks = 1;
};

// Checks that optional input `i` is absent, or a float32 tensor of `dims`.
absl::Status CheckWeight(const OpContext& ctx, int i, absl::string_view role,
                         std::initializer_list<int64_t> dims, bool required) {
  const RtTensor* t = ctx.input(i);
  if (t == nullptr) {
    if (!required) return absl::OkStatus();
    return ctx.Error(absl::StrCat("input ", i, " (", role, ") is missing"));
  }
  if (t->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat(
        "input ", i, " (", role, ") '", t->name(), "' is ",
        ir::DataTypeName(t->type),
        "; only the float32 LSTM is implemented (hybrid/integer LSTMs are "
        "not)"));
  }
  const Dims want(dims.begin(), dims.end());
  if (t->shape != want) {
    return ctx.Error(absl::StrCat("input ", i, " (", role, ") '", t->name(),
                                  "' has shape ", DimsString(t->shape),
                                  "; expected ", DimsString(want)));
  }
  return absl::OkStatus();
}

inline float Sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

inline float Dot(const float* a, const float* b, int64_t n) {
  float s = 0.f;
  for (int64_t k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

// In place: (v - mean) / sqrt(variance + 1e-8), TFLite's
// MeanStddevNormalization.
void MeanStddevNormalize(float* v, int64_t n) {
  float sum = 0.f;
  for (int64_t i = 0; i < n; ++i) sum += v[i];
  const float mean = sum / static_cast<float>(n);
  float sum_diff_sq = 0.f;
  for (int64_t i = 0; i < n; ++i) {
    const float d = v[i] - mean;
    sum_diff_sq += d * d;
  }
  const float variance = sum_diff_sq / static_cast<float>(n);
  const float stddev_inv = 1.f / std::sqrt(variance + 1e-8f);
  for (int64_t i = 0; i < n; ++i) v[i] = (v[i] - mean) * stddev_inv;
}

// Everything one step reads, resolved once per eval.
struct StepArgs : LstmStepTensors<float, float, float, float, float, float> {
  LstmState* s;
  int64_t t;
};

int64_t RowIndex(const LstmState& s, int64_t t, int64_t b) {
  return s.time_major ? t * s.n_batch + b : b * s.max_time + t;
}

// Phase 1 for cells [j0, j1): pre-activations of every gate and batch row.
void GatePreactivations(const StepArgs& a, int64_t j0, int64_t j1) {
  LstmState& s = *a.s;
  const int64_t B = s.n_batch, N = s.n_cell, I = s.n_input, O = s.n_output;
  for (int g = 0; g < 4; ++g) {
    if (g == kGateInput && s.use_cifg) continue;
    float* pre = s.gates.data() + g * B * N;
    for (int64_t b = 0; b < B; ++b) {
      const float* x = a.input + RowIndex(s, a.t, b) * I;
      const float* h = a.h + b * O;
      const float* c = a.c + b * N;
      for (int64_t j = j0; j < j1; ++j) {
        float acc = s.use_layer_norm ? 0.f : a.bias[g][j];
        acc += Dot(a.w_in[g] + j * I, x, I);
        acc += Dot(a.w_rec[g] + j * O, h, O);
        // Peephole on the previous cell state (output gate: later, on the
        // new one).
        if (s.use_peephole && (g == kGateInput || g == kGateForget)) {
          acc += a.peep[g][j] * c[j];
        }
        pre[b * N + j] = acc;
      }
    }
  }
}

// Layer norm (if any) and activation of gate g, batch row b, in place.
void FinishGate(const StepArgs& a, int g, int64_t b) {
  const LstmState& s = *a.s;
  const int64_t N = s.n_cell;
  float* v = a.s->gates.data() + (g * s.n_batch + b) * N;
  if (s.use_layer_norm) {
    MeanStddevNormalize(v, N);
    for (int64_t j = 0; j < N; ++j) v[j] = v[j] * a.ln[g][j] + a.bias[g][j];
  }
  if (g == kGateCell) {
    for (int64_t j = 0; j < N; ++j)
      v[j] = sequence::ApplyActivation(s.activation, v[j]);
  } else {
    for (int64_t j = 0; j < N; ++j) v[j] = Sigmoid(v[j]);
  }
}

// Phase 2 for batch row b: gates, cell update, m = o .* act(c).
void UpdateCell(const StepArgs& a, int64_t b) {
  LstmState& s = *a.s;
  const int64_t B = s.n_batch, N = s.n_cell;
  if (!s.use_cifg) FinishGate(a, kGateInput, b);
  FinishGate(a, kGateForget, b);
  FinishGate(a, kGateCell, b);
  const float* ig = s.gates.data() + (kGateInput * B + b) * N;
  const float* fg = s.gates.data() + (kGateForget * B + b) * N;
  const float* cg = s.gates.data() + (kGateCell * B + b) * N;
  float* og = s.gates.data() + (kGateOutput * B + b) * N;
  float* c = a.c + b * N;
  for (int64_t j = 0; j < N; ++j) {
    c[j] = fg[j] * c[j];
    const float in_gate = s.use_cifg ? 1.f - fg[j] : ig[j];
    c[j] += cg[j] * in_gate;
    if (s.cell_clip > 0.f)
      c[j] = std::max(-s.cell_clip, std::min(c[j], s.cell_clip));
  }
  if (s.use_peephole) {
    for (int64_t j = 0; j < N; ++j) og[j] += a.peep[kGateOutput][j] * c[j];
  }
  FinishGate(a, kGateOutput, b);
  float* m = s.hidden.data() + b * N;
  for (int64_t j = 0; j < N; ++j)
    m[j] = og[j] * sequence::ApplyActivation(s.activation, c[j]);
}

// Phase 3 for output units [k0, k1): projection into the output state.
void Project(const StepArgs& a, int64_t k0, int64_t k1) {
  const LstmState& s = *a.s;
  const int64_t N = s.n_cell, O = s.n_output;
  for (int64_t b = 0; b < s.n_batch; ++b) {
    const float* m = s.hidden.data() + b * N;
    float* h = a.h + b * O;
    for (int64_t k = k0; k < k1; ++k) {
      float acc = a.proj_b != nullptr ? a.proj_b[k] : 0.f;
      acc += Dot(a.proj_w + k * N, m, N);
      if (s.proj_clip > 0.f)
        acc = std::max(-s.proj_clip, std::min(acc, s.proj_clip));
      h[k] = acc;
    }
  }
}

// Shared prepare: weights, states, scratch, task split, output shape.
absl::Status PrepareLstmCell(OpContext& ctx, const LstmSequence& layout) {
  ASSIGN_OR_RETURN(const LstmCellSize size, ReadLstmCellSize(ctx));
  auto state = std::make_unique<LstmState>();
  LstmState& s = *state;
  s.SetDims(layout, size);
  s.activation = layout.activation;
  s.cell_clip = layout.cell_clip;
  s.proj_clip = layout.proj_clip;
  const int64_t N = s.n_cell, I = s.n_input, O = s.n_output;

  s.use_cifg = ctx.input(kInputToInput) == nullptr;
  RETURN_IF_ERROR(
      CheckWeight(ctx, kInputToInput, "input_to_input weights", {N, I}, false));
  RETURN_IF_ERROR(CheckWeight(ctx, kInputToForget, "input_to_forget weights",
                              {N, I}, true));
  RETURN_IF_ERROR(
      CheckWeight(ctx, kInputToCell, "input_to_cell weights", {N, I}, true));
  RETURN_IF_ERROR(CheckWeight(ctx, kInputToOutput, "input_to_output weights",
                              {N, I}, true));
  RETURN_IF_ERROR(CheckWeight(ctx, kRecurrentToInput,
                              "recurrent_to_input weights", {N, O}, false));
  RETURN_IF_ERROR(CheckWeight(ctx, kRecurrentToForget,
                              "recurrent_to_forget weights", {N, O}, true));
  RETURN_IF_ERROR(CheckWeight(ctx, kRecurrentToCell,
                              "recurrent_to_cell weights", {N, O}, true));
  RETURN_IF_ERROR(CheckWeight(ctx, kRecurrentToOutput,
                              "recurrent_to_output weights", {N, O}, true));
  if (s.use_cifg != (ctx.input(kRecurrentToInput) == nullptr)) {
    return ctx.Error(
        "input_to_input (1) and recurrent_to_input (5) weights must be both "
        "present or both absent (CIFG)");
  }
  for (int i : {kCellToInput, kCellToForget, kCellToOutput}) {
    RETURN_IF_ERROR(CheckWeight(ctx, i, "peephole weights", {N}, false));
  }
  const bool has_ci = ctx.input(kCellToInput) != nullptr;
  const bool has_cf = ctx.input(kCellToForget) != nullptr;
  const bool has_co = ctx.input(kCellToOutput) != nullptr;
  s.use_peephole = has_co;
  const bool all = (has_ci || s.use_cifg) && has_cf && has_co;
  const bool none = !has_ci && !has_cf && !has_co;
  if (!all && !none) {
    return ctx.Error(
        "peephole weights (9, 10, 11) must be all present (9 may be absent "
        "with CIFG) or all absent");
  }
  if (s.use_cifg) {
    if (ctx.input(kInputGateBias) != nullptr) {
      return ctx.Error("input_gate_bias (12) must be absent with CIFG");
    }
  } else {
    RETURN_IF_ERROR(
        CheckWeight(ctx, kInputGateBias, "input_gate_bias", {N}, true));
  }
  RETURN_IF_ERROR(
      CheckWeight(ctx, kForgetGateBias, "forget_gate_bias", {N}, true));
  RETURN_IF_ERROR(CheckWeight(ctx, kCellGateBias, "cell_gate_bias", {N}, true));
  RETURN_IF_ERROR(
      CheckWeight(ctx, kOutputGateBias, "output_gate_bias", {N}, true));
  RETURN_IF_ERROR(CheckWeight(ctx, kProjectionWeights, "projection_weights",
                              {O, N}, false));
  RETURN_IF_ERROR(
      CheckWeight(ctx, kProjectionBias, "projection_bias", {O}, false));
  LstmParts parts;
  RETURN_IF_ERROR(ReadLstmParts(ctx, s.use_cifg, O, N, &parts));
  s.use_projection = parts.use_projection;
  s.use_layer_norm = parts.use_layer_norm;
  if (s.use_layer_norm) {
    if (!s.use_cifg) {
      RETURN_IF_ERROR(CheckWeight(ctx, kInputLayerNorm,
                                  "input layer-norm coefficients", {N}, true));
    }
    RETURN_IF_ERROR(CheckWeight(ctx, kForgetLayerNorm,
                                "forget layer-norm coefficients", {N}, true));
    RETURN_IF_ERROR(CheckWeight(ctx, kCellLayerNorm,
                                "cell layer-norm coefficients", {N}, true));
    RETURN_IF_ERROR(CheckWeight(ctx, kOutputLayerNorm,
                                "output layer-norm coefficients", {N}, true));
  }
  const int64_t want_state[2] = {s.n_batch * O, s.n_batch * N};
  const ir::DataType state_type[2] = {ir::DataType::kFloat32,
                                      ir::DataType::kFloat32};
  RETURN_IF_ERROR(CheckLstmStates(ctx, want_state, state_type, ""));
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' is ",
                                  ir::DataTypeName(ctx.output(0)->type),
                                  "; it must be float32"));
  }
  s.gates.assign(static_cast<size_t>(4 * s.n_batch * N), 0.f);
  s.hidden.assign(static_cast<size_t>(s.n_batch * N), 0.f);
  // Parallel phases only when a step is big enough; about 64K multiply-adds
  // per task. Boundaries depend on the sizes only.
  constexpr int64_t kWorkPerTask = 64 * 1024;
  const int64_t per_cell = 4 * s.n_batch * (I + O) + 1;
  s.cells_per_task = std::max<int64_t>(1, kWorkPerTask / per_cell);
  s.cell_tasks = N == 0 ? 0 : (N + s.cells_per_task - 1) / s.cells_per_task;
  const int64_t per_output = s.n_batch * N + 1;
  s.outputs_per_task = std::max<int64_t>(1, kWorkPerTask / per_output);
  s.output_tasks =
      O == 0 ? 0 : (O + s.outputs_per_task - 1) / s.outputs_per_task;
  Dims out_shape = ctx.input(kInput)->shape;
  out_shape.back() = O;
  ctx.SetOutputShape(0, std::move(out_shape));
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status PrepareFloatLstm(OpContext& ctx, bool sequence) {
  LstmSequence layout;
  RETURN_IF_ERROR(ReadLstmSequence(ctx, sequence, &layout));
  const RtTensor& input = *ctx.input(kInput);
  if (input.type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat("input '", input.name(), "' is ",
                                        ir::DataTypeName(input.type),
                                        "; this kernel takes float32"));
  }
  return PrepareLstmCell(ctx, layout);
}

}  // namespace

QF_KERNEL_AS(PrepareLstmFloat, PrepareFloatLstm(ctx, /*sequence=*/false))
QF_KERNEL_AS(PrepareSequenceLstmFloat, PrepareFloatLstm(ctx, /*sequence=*/true))

absl::Status EvalLstmFloat(OpContext& ctx) {
  LstmState* s = ctx.state<LstmState>();
  if (s == nullptr) return ctx.Error("eval before prepare");
  StepArgs a;
  a.s = s;
  a.Read(ctx, s->use_layer_norm);
  RunLstmSteps(
      ctx, *s, &a.t,
      [&](int64_t j0, int64_t j1) { GatePreactivations(a, j0, j1); },
      [&](int64_t t) {
        for (int64_t b = 0; b < s->n_batch; ++b) UpdateCell(a, b);
        if (s->use_projection) {
          ctx.pool().ParallelFor(s->output_tasks, [&](int64_t task) {
            const int64_t k0 = task * s->outputs_per_task;
            Project(a, k0, std::min(s->n_output, k0 + s->outputs_per_task));
          });
        } else {
          std::copy_n(s->hidden.data(), s->n_batch * s->n_output, a.h);
        }
        for (int64_t b = 0; b < s->n_batch; ++b) {
          std::copy_n(a.h + b * s->n_output, s->n_output,
                      a.output + RowIndex(*s, t, b) * s->n_output);
        }
      });
  return absl::OkStatus();
}

}  // namespace qforge::runtime
