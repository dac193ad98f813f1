// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared by lstm_prepare_int.cc (checks, TFLite's effective scales and
// biases) and lstm_int.cc (the step): the prepared parameters of one
// fully quantized LSTM (TFLite's 8x8_16 form: int8 input, output and
// weights, int16 cell state, Q3.12 int16 gates).
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_INT_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_INT_H_

#include <cstdint>
#include <vector>

#include "runtime/kernel.h"
#include "runtime/kernels/sequence/lstm_tensors.h"

namespace qforge::runtime::integer_lstm {

enum Gate : int { kGateI = 0, kGateF = 1, kGateC = 2, kGateO = 3 };

// The requantization of one gate: input and recurrent products, peephole,
// layer norm. Multipliers are (significand, shift) from QuantizeMultiplier.
struct GateParams {
  int32_t input_mult = 0, recurrent_mult = 0, cell_mult = 0, ln_mult = 0;
  int input_shift = 0, recurrent_shift = 0, cell_shift = 0, ln_shift = 0;
  int32_t variance_guard = 1;
  // Effective biases: (gate bias unless layer norm) + row sums of the
  // weights times the negated input / output-state zero point.
  std::vector<int32_t> input_bias, recurrent_bias;
};

struct IntLstmState : KernelState, LstmShape {
  GateParams gate[4];
  int cell_scale = 0;         // log2 of the cell state's scale (<= -9)
  int tanh_integer_bits = 0;  // 15 + cell_scale
  int32_t hidden_mult = 0, proj_mult = 0;
  int hidden_shift = 0, proj_shift = 0;
  int32_t hidden_zp = 0, output_state_zp = 0;
  std::vector<int32_t> proj_bias;  // bias + row sums * hidden zero point
  int16_t cell_clip = 0;           // quantized; 0 = no clipping
  int8_t proj_clip = 0;
  // Scratch: the four gates [4][B][N] (Q3.12 pre-activations, then Q0.15),
  // the hidden vector [B][N] (int8), tanh(c) [B][N].
  std::vector<int16_t> gates;
  std::vector<int8_t> hidden;
  std::vector<int16_t> tanh_c;
  int64_t cells_per_task = 1, cell_tasks = 1;
};

// Shared prepare: checks, TFLite's parameters, scratch, output shape.
absl::Status PrepareCell(OpContext& ctx, const LstmSequence& layout);
// The step loop (lstm_int.cc).
absl::Status Eval(OpContext& ctx);

}  // namespace qforge::runtime::integer_lstm

#endif  // QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_INT_H_
