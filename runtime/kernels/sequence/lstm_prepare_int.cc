// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Prepare of the integer LSTMs (UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM, full
// kernel): TFLite's 8x8_16 form, recognised as in TFLite by int8 input and
// five intermediate tensors. Checks the tensors as TFLite's lstm.cc /
// unidirectional_sequence_lstm.cc do, then derives the parameters as their
// PopulateQuantizedLstmParams8x8_16 and PopulatePrecomputedZPTimesWeights-
// WithBias do, with the same float / double arithmetic:
//   gate scale s_g = intermediate g's scale with layer norm, else 2^-12
//   (the Q3.12 gate format);
//   input / recurrent multipliers: float(s_w * s_in / s_g) (float maths),
//   peephole: float(2^cell_scale * s_w / s_g) (double maths),
//   hidden: float(2^-15 / s_hidden * 2^-15) (double), projection:
//   float(s_proj_w * s_hidden / s_output_state), layer norm: s_ln;
//   each decomposed by QuantizeMultiplier;
//   cell_scale = log2 of the cell state's scale (a power of two, <= -9);
//   variance guards max(1, int(10000 * s_ln)); clips quantized with the
//   cell state's / output's scale, truncated.
// The 12-intermediate 8x8_8 form (int8 gate products) is refused.
#include <algorithm>
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/fixed_point.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"
#include "runtime/kernels/sequence/lstm_int.h"

namespace qforge::runtime {
namespace integer_lstm {
namespace {

using integer::QuantInfo;

// Optional input i: absent, or of `type` and `dims`; constant when
// `constant`.
absl::Status CheckTensor(const OpContext& ctx, int i, absl::string_view role,
                         ir::DataType type, const Dims& dims, bool required,
                         bool constant = true) {
  const RtTensor* t = ctx.input(i);
  if (t == nullptr) {
    if (!required) return absl::OkStatus();
    return ctx.Error(absl::StrCat(role, " (input ", i, ") is missing"));
  }
  if (t->type != type) {
    return ctx.Unsupported(absl::StrCat(role, " (input ", i, ") '", t->name(),
                                        "' is ", ir::DataTypeName(t->type),
                                        "; the integer LSTM takes ",
                                        ir::DataTypeName(type), " here"));
  }
  if (t->shape != dims) {
    return ctx.Error(absl::StrCat(role, " (input ", i, ") '", t->name(),
                                  "' has shape ", DimsString(t->shape),
                                  "; expected ", DimsString(dims)));
  }
  if (constant && !ctx.InputValueKnown(i)) {
    return ctx.Unsupported(
        absl::StrCat(role, " '", t->name(), "' is not a constant"));
  }
  return absl::OkStatus();
}

// The single scale of input i (1.0 when absent, as TFLite's defaults).
absl::Status ScaleOf(const OpContext& ctx, int i, absl::string_view role,
                     float* scale) {
  *scale = 1.0f;
  const RtTensor* t = ctx.input(i);
  if (t == nullptr) return absl::OkStatus();
  QuantInfo q;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *t, role, &q));
  *scale = q.scale;
  return absl::OkStatus();
}

// TFLite's PrecomputeZeroPointTimesWeightWithBias: bias (or 0) plus the
// weight row sums times zero_point, in wrapping int32 arithmetic.
std::vector<int32_t> ZeroPointTimesWeightWithBias(const RtTensor* weights,
                                                  const RtTensor* bias,
                                                  int32_t zero_point) {
  const int64_t rows = weights->dim(0), cols = weights->dim(1);
  std::vector<int32_t> out(static_cast<size_t>(rows), 0);
  const int8_t* w = weights->Data<int8_t>();
  for (int64_t r = 0; r < rows; ++r) {
    int32_t row_sum = 0;
    for (int64_t c = 0; c < cols; ++c) row_sum += w[r * cols + c];
    const uint32_t b =
        bias != nullptr ? static_cast<uint32_t>(bias->Data<int32_t>()[r]) : 0u;
    out[static_cast<size_t>(r)] = static_cast<int32_t>(
        b + static_cast<uint32_t>(row_sum) * static_cast<uint32_t>(zero_point));
  }
  return out;
}

// A rescale factor as multiplier and shift. Factors of 2^31 and more (or
// not finite) come from absurd scales: the shift would pass 30, where the
// fixed-point multiply is undefined.
absl::Status Decompose(const OpContext& ctx, float real, const char* what,
                       int32_t* mult, int* shift) {
  if (!std::isfinite(real)) {
    return ctx.Error(absl::StrCat("the ", what, " rescale factor is ", real,
                                  "; the scales must give a finite one"));
  }
  numerics::QuantizeMultiplier(static_cast<double>(real), mult, shift);
  if (*shift > 30) {
    return ctx.Error(absl::StrCat("the ", what, " rescale factor ", real,
                                  " is out of range (at most 2^31)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrepareCell(OpContext& ctx, const LstmSequence& layout) {
  if (ctx.num_intermediates() == 12) {
    return ctx.Unsupported(
        "the 8x8_8 integer LSTM (12 intermediate tensors, int8 gate "
        "products) is not implemented; only 8x8_16 (5 intermediates)");
  }
  if (ctx.num_intermediates() != 5) {
    return ctx.Error(absl::StrCat(
        "an integer LSTM needs 5 intermediate tensors (TFLite's 8x8_16 "
        "form); this op has ",
        ctx.num_intermediates()));
  }
  ASSIGN_OR_RETURN(const LstmCellSize size, ReadLstmCellSize(ctx));
  auto state = std::make_unique<IntLstmState>();
  IntLstmState& s = *state;
  s.SetDims(layout, size);
  const int64_t N = s.n_cell, I = s.n_input, O = s.n_output;
  using ir::DataType;
  const DataType i8 = DataType::kInt8, i16 = DataType::kInt16,
                 i32 = DataType::kInt32;

  s.use_cifg = ctx.input(kInputToInput) == nullptr;
  if (s.use_cifg != (ctx.input(kRecurrentToInput) == nullptr)) {
    return ctx.Error(
        "input_to_input (1) and recurrent_to_input (5) weights must be both "
        "present or both absent (CIFG)");
  }
  RETURN_IF_ERROR(CheckTensor(ctx, kInputToInput, "input_to_input weights", i8,
                              {N, I}, false));
  RETURN_IF_ERROR(CheckTensor(ctx, kInputToForget, "input_to_forget weights",
                              i8, {N, I}, true));
  RETURN_IF_ERROR(CheckTensor(ctx, kInputToCell, "input_to_cell weights", i8,
                              {N, I}, true));
  RETURN_IF_ERROR(CheckTensor(ctx, kInputToOutput, "input_to_output weights",
                              i8, {N, I}, true));
  RETURN_IF_ERROR(CheckTensor(ctx, kRecurrentToInput,
                              "recurrent_to_input weights", i8, {N, O}, false));
  RETURN_IF_ERROR(CheckTensor(ctx, kRecurrentToForget,
                              "recurrent_to_forget weights", i8, {N, O}, true));
  RETURN_IF_ERROR(CheckTensor(ctx, kRecurrentToCell,
                              "recurrent_to_cell weights", i8, {N, O}, true));
  RETURN_IF_ERROR(CheckTensor(ctx, kRecurrentToOutput,
                              "recurrent_to_output weights", i8, {N, O}, true));
  for (int i : {kCellToInput, kCellToForget, kCellToOutput}) {
    RETURN_IF_ERROR(
        CheckTensor(ctx, i, "peephole weights", i16, {N}, /*required=*/false));
  }
  const bool has_ci = ctx.input(kCellToInput) != nullptr;
  const bool has_cf = ctx.input(kCellToForget) != nullptr;
  const bool has_co = ctx.input(kCellToOutput) != nullptr;
  s.use_peephole = has_co;
  if (!(((has_ci || s.use_cifg) && has_cf && has_co) ||
        (!has_ci && !has_cf && !has_co))) {
    return ctx.Error(
        "peephole weights (9, 10, 11) must be all present (9 may be absent "
        "with CIFG) or all absent");
  }
  if (s.use_cifg && ctx.input(kInputGateBias) != nullptr) {
    return ctx.Error("input_gate_bias (12) must be absent with CIFG");
  }
  RETURN_IF_ERROR(CheckTensor(ctx, kInputGateBias, "input_gate_bias", i32, {N},
                              !s.use_cifg));
  RETURN_IF_ERROR(
      CheckTensor(ctx, kForgetGateBias, "forget_gate_bias", i32, {N}, true));
  RETURN_IF_ERROR(
      CheckTensor(ctx, kCellGateBias, "cell_gate_bias", i32, {N}, true));
  RETURN_IF_ERROR(
      CheckTensor(ctx, kOutputGateBias, "output_gate_bias", i32, {N}, true));
  RETURN_IF_ERROR(CheckTensor(ctx, kProjectionWeights, "projection_weights", i8,
                              {O, N}, false));
  RETURN_IF_ERROR(
      CheckTensor(ctx, kProjectionBias, "projection_bias", i32, {O}, false));
  LstmParts parts;
  RETURN_IF_ERROR(ReadLstmParts(ctx, s.use_cifg, O, N, &parts));
  s.use_projection = parts.use_projection;
  s.use_layer_norm = parts.use_layer_norm;
  if (s.use_layer_norm) {
    RETURN_IF_ERROR(CheckTensor(ctx, kInputLayerNorm,
                                "input layer-norm coefficients", i16, {N},
                                !s.use_cifg));
    for (int i : {kForgetLayerNorm, kCellLayerNorm, kOutputLayerNorm}) {
      RETURN_IF_ERROR(
          CheckTensor(ctx, i, "layer-norm coefficients", i16, {N}, true));
    }
  }
  // States: int8 output state, int16 cell state, both variables.
  const RtTensor* out_state = ctx.input(kOutputState);
  const RtTensor* cell_state = ctx.input(kCellState);
  const int64_t want[2] = {s.n_batch * O, s.n_batch * N};
  const DataType want_type[2] = {i8, i16};
  RETURN_IF_ERROR(CheckLstmStates(ctx, want, want_type, "the integer LSTM"));
  RtTensor* output = ctx.output(0);
  if (output->type != i8) {
    return ctx.Unsupported(absl::StrCat("output '", output->name(), "' is ",
                                        ir::DataTypeName(output->type),
                                        "; the integer LSTM writes int8"));
  }

  // Scales and zero points.
  QuantInfo in_q, state_q, cell_q, out_q;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *ctx.input(kInput), "input", &in_q));
  RETURN_IF_ERROR(
      integer::ReadQuant(ctx, *out_state, "output_state", &state_q));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *cell_state, "cell_state", &cell_q,
                                     /*require_zero_zp=*/true));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *output, "output", &out_q));
  if (!numerics::CheckedLog2(cell_q.scale, &s.cell_scale) ||
      s.cell_scale > -9) {
    return ctx.Unsupported(absl::StrCat(
        "cell_state '", cell_state->name(), "' has scale ", cell_q.scale,
        "; TFLite's integer LSTM needs a power of two <= 2^-9"));
  }
  s.tanh_integer_bits = 15 + s.cell_scale;
  // Checked above: cell_scale <= -9 gives at most 6 integer bits; a scale
  // below 2^-15 would give a negative count.
  if (s.tanh_integer_bits < 0) {
    return ctx.Unsupported(
        absl::StrCat("cell_state scale 2^", s.cell_scale, " is below 2^-15"));
  }
  float gate_scale[4];
  for (int g = 0; g < 4; ++g) {
    gate_scale[g] = static_cast<float>(std::pow(2, -12));  // Q3.12
    if (!s.use_layer_norm) continue;
    const ir::Tensor* im = ctx.intermediate(g);
    if (im == nullptr || !im->quantization.has_value() ||
        im->quantization->scale.size() != 1 ||
        !(im->quantization->scale[0] > 0.f)) {
      return ctx.Error(absl::StrCat("intermediate ", g,
                                    " must carry one positive scale (the "
                                    "layer-norm input scale of gate ",
                                    g, ")"));
    }
    gate_scale[g] = im->quantization->scale[0];
  }
  const ir::Tensor* hidden = ctx.intermediate(4);
  if (hidden == nullptr || !hidden->quantization.has_value() ||
      hidden->quantization->scale.size() != 1 ||
      !(hidden->quantization->scale[0] > 0.f)) {
    return ctx.Error(
        "intermediate 4 (the hidden state) must carry one positive scale");
  }
  const float hidden_scale = hidden->quantization->scale[0];
  s.hidden_zp = hidden->quantization->zero_point.empty()
                    ? 0
                    : static_cast<int32_t>(hidden->quantization->zero_point[0]);
  s.output_state_zp = state_q.zero_point;

  const int w_in[4] = {kInputToInput, kInputToForget, kInputToCell,
                       kInputToOutput};
  const int w_rec[4] = {kRecurrentToInput, kRecurrentToForget, kRecurrentToCell,
                        kRecurrentToOutput};
  const int peep[4] = {kCellToInput, kCellToForget, -1, kCellToOutput};
  const int bias[4] = {kInputGateBias, kForgetGateBias, kCellGateBias,
                       kOutputGateBias};
  const int ln[4] = {kInputLayerNorm, kForgetLayerNorm, kCellLayerNorm,
                     kOutputLayerNorm};
  for (int g = 0; g < 4; ++g) {
    if (g == kGateI && s.use_cifg) continue;
    GateParams& p = s.gate[g];
    float w_in_scale, w_rec_scale;
    RETURN_IF_ERROR(ScaleOf(ctx, w_in[g], "input weights", &w_in_scale));
    RETURN_IF_ERROR(ScaleOf(ctx, w_rec[g], "recurrent weights", &w_rec_scale));
    // Float arithmetic, as TFLite's float locals.
    RETURN_IF_ERROR(Decompose(ctx, w_in_scale * in_q.scale / gate_scale[g],
                              "input", &p.input_mult, &p.input_shift));
    RETURN_IF_ERROR(Decompose(ctx, w_rec_scale * state_q.scale / gate_scale[g],
                              "recurrent", &p.recurrent_mult,
                              &p.recurrent_shift));
    if (s.use_peephole && peep[g] >= 0) {
      float w_cell_scale;
      RETURN_IF_ERROR(ScaleOf(ctx, peep[g], "peephole weights", &w_cell_scale));
      // std::pow returns double: double maths, stored as float.
      RETURN_IF_ERROR(
          Decompose(ctx,
                    static_cast<float>(std::pow(2, s.cell_scale) *
                                       w_cell_scale / gate_scale[g]),
                    "peephole", &p.cell_mult, &p.cell_shift));
    }
    float ln_scale = 1.0f;
    if (s.use_layer_norm) {
      RETURN_IF_ERROR(
          ScaleOf(ctx, ln[g], "layer-norm coefficients", &ln_scale));
    }
    RETURN_IF_ERROR(
        Decompose(ctx, ln_scale, "layer-norm", &p.ln_mult, &p.ln_shift));
    p.variance_guard =
        std::max(1, static_cast<int32_t>(10000 * ln_scale));  // float maths
    const RtTensor* gate_bias = s.use_layer_norm ? nullptr : ctx.input(bias[g]);
    p.input_bias = ZeroPointTimesWeightWithBias(ctx.input(w_in[g]), gate_bias,
                                                -in_q.zero_point);
    p.recurrent_bias = ZeroPointTimesWeightWithBias(
        ctx.input(w_rec[g]), nullptr, -state_q.zero_point);
  }
  RETURN_IF_ERROR(Decompose(
      ctx,
      static_cast<float>(std::pow(2, -15) / hidden_scale * std::pow(2, -15)),
      "hidden state", &s.hidden_mult, &s.hidden_shift));
  if (s.use_projection) {
    float proj_scale;
    RETURN_IF_ERROR(
        ScaleOf(ctx, kProjectionWeights, "projection_weights", &proj_scale));
    RETURN_IF_ERROR(Decompose(ctx, proj_scale * hidden_scale / state_q.scale,
                              "projection", &s.proj_mult, &s.proj_shift));
    s.proj_bias = ZeroPointTimesWeightWithBias(
        ctx.input(kProjectionWeights), ctx.input(kProjectionBias), s.hidden_zp);
  }
  if (layout.cell_clip > 0.f) {
    s.cell_clip = static_cast<int16_t>(std::min(
        std::max(layout.cell_clip / cell_q.scale, -32768.0f), 32767.0f));
  }
  if (layout.proj_clip > 0.f) {
    s.proj_clip = static_cast<int8_t>(
        std::min(std::max(layout.proj_clip / out_q.scale, -128.0f), 127.0f));
  }

  s.gates.assign(static_cast<size_t>(4 * s.n_batch * N), 0);
  s.hidden.assign(static_cast<size_t>(s.n_batch * N), 0);
  s.tanh_c.assign(static_cast<size_t>(s.n_batch * N), 0);
  // Gate products in parallel when a step is big enough (about 64K
  // multiply-adds per task); boundaries depend on the sizes only.
  constexpr int64_t kWorkPerTask = 64 * 1024;
  const int64_t per_cell = 4 * s.n_batch * (I + O) + 1;
  s.cells_per_task = std::max<int64_t>(1, kWorkPerTask / per_cell);
  s.cell_tasks = N == 0 ? 0 : (N + s.cells_per_task - 1) / s.cells_per_task;
  Dims out_shape = ctx.input(kInput)->shape;
  out_shape.back() = O;
  ctx.SetOutputShape(0, std::move(out_shape));
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

}  // namespace integer_lstm

namespace {

absl::Status PrepareIntLstmOp(OpContext& ctx, bool sequence) {
  LstmSequence layout;
  RETURN_IF_ERROR(ReadLstmSequence(ctx, sequence, &layout));
  const RtTensor& input = *ctx.input(kInput);
  if (input.type != ir::DataType::kInt8) {
    return ctx.Unsupported(absl::StrCat(
        "input '", input.name(), "' is ", ir::DataTypeName(input.type),
        "; the integer LSTM takes int8 (TFLite's 8x8_16 form)"));
  }
  return integer_lstm::PrepareCell(ctx, layout);
}

}  // namespace

QF_KERNEL_AS(PrepareIntLstm, PrepareIntLstmOp(ctx, /*sequence=*/false))
QF_KERNEL_AS(PrepareIntSequenceLstm, PrepareIntLstmOp(ctx, /*sequence=*/true))

}  // namespace qforge::runtime
