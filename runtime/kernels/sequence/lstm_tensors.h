// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The tensor layout of TFLite's LSTM ops (lstm::full and the
// unidirectional sequence LSTM), shared by the float kernel
// (lstm.cc) and the integer one (integer_lstm*.cc).
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_TENSORS_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_TENSORS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "ir/options.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

// Input indices (* = optional).
enum LstmInput : int {
  kInput = 0,
  kInputToInput = 1,  // *
  kInputToForget = 2,
  kInputToCell = 3,
  kInputToOutput = 4,
  kRecurrentToInput = 5,  // *
  kRecurrentToForget = 6,
  kRecurrentToCell = 7,
  kRecurrentToOutput = 8,
  kCellToInput = 9,     // * peephole
  kCellToForget = 10,   // *
  kCellToOutput = 11,   // *
  kInputGateBias = 12,  // *
  kForgetGateBias = 13,
  kCellGateBias = 14,
  kOutputGateBias = 15,
  kProjectionWeights = 16,  // *
  kProjectionBias = 17,     // *
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20,  // * (20 .. 23)
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
};

// Per gate (input, forget, cell, output): the tensors that feed it. The
// cell gate has no peephole (-1).
inline constexpr int kLstmGateInputWeights[4] = {kInputToInput, kInputToForget,
                                                 kInputToCell, kInputToOutput};
inline constexpr int kLstmGateRecurrentWeights[4] = {
    kRecurrentToInput, kRecurrentToForget, kRecurrentToCell,
    kRecurrentToOutput};
inline constexpr int kLstmGatePeephole[4] = {kCellToInput, kCellToForget, -1,
                                             kCellToOutput};
inline constexpr int kLstmGateBias[4] = {kInputGateBias, kForgetGateBias,
                                         kCellGateBias, kOutputGateBias};
inline constexpr int kLstmGateLayerNorm[4] = {kInputLayerNorm, kForgetLayerNorm,
                                              kCellLayerNorm, kOutputLayerNorm};

struct LstmCellSize {
  int64_t n_cell = 0, n_output = 0;
};

// The cell and output sizes, from the input-to-output [n_cell, n_input] and
// recurrent-to-output [n_cell, n_output] weights, which must be present.
absl::StatusOr<LstmCellSize> ReadLstmCellSize(const OpContext& ctx);

// Which optional parts the LSTM has, with TFLite's presence rules (shared
// by the float and integer kernels; lstm_eval.h / lstm.cc CheckInputTensor
// dimensions): projection bias only with projection weights, the output
// size equal to the cell count without projection, layer norm when the
// forget-gate coefficients are there, and no input-gate coefficients with
// CIFG. The kernels check each present tensor's type and shape.
struct LstmParts {
  bool use_projection = false, use_layer_norm = false;
};
absl::Status ReadLstmParts(const OpContext& ctx, bool use_cifg,
                           int64_t n_output, int64_t n_cell, LstmParts* parts);

// What UNIDIRECTIONAL_SEQUENCE_LSTM (input [batch, time, input]; [time,
// batch, input] when time_major) and LSTM (FULL kernel type: one step,
// input [batch, input]) differ in: their options and the input layout.
struct LstmSequence {
  ir::Activation activation = ir::Activation::kTanh;
  float cell_clip = 0.f, proj_clip = 0.f;
  bool time_major = false;
  int64_t max_time = 0, n_batch = 0, n_input = 0;
};
// Reads it from the op's options and input 0 (whose element type the
// kernel checks), after checking the options (clips >= 0; no diagonal
// recurrent tensors, no BASIC kernel type), the rank of input 0 and the
// tensor counts (20 or 24 inputs, 1 output).
absl::Status ReadLstmSequence(const OpContext& ctx, LstmSequence* seq);

// The dimensions and parts both kernels' states carry.
struct LstmShape {
  int64_t n_batch = 0, max_time = 0, n_input = 0, n_cell = 0, n_output = 0;
  bool time_major = false;
  bool use_cifg = false, use_peephole = false, use_layer_norm = false;
  bool use_projection = false;
  void SetDims(const LstmSequence& layout, const LstmCellSize& size);
};

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_TENSORS_H_
