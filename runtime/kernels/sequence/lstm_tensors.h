// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The tensor layout of TFLite's LSTM ops (lstm::full and the
// unidirectional sequence LSTM), shared by the float kernel
// (lstm.cc) and the integer one (lstm*_int.cc).
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_TENSORS_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_LSTM_TENSORS_H_

#include <algorithm>
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
// tensor counts (20 or 24 inputs, 1 output). `sequence`: the op is
// UNIDIRECTIONAL_SEQUENCE_LSTM, else LSTM (each op's FK / IK column names
// its own prepare, which says which).
absl::Status ReadLstmSequence(const OpContext& ctx, bool sequence,
                              LstmSequence* seq);

// The two state inputs, output_state and cell_state (k = 0, 1): present,
// of type types[k], (writable) variables holding counts[k] values. `taker`,
// when not empty, names the kernel in the type error ("...; <taker> takes
// int16").
absl::Status CheckLstmStates(const OpContext& ctx, const int64_t counts[2],
                             const ir::DataType types[2],
                             absl::string_view taker);

// Input i's data, or nullptr when the optional input is absent.
template <typename T>
const T* LstmInputData(const OpContext& ctx, int i) {
  const RtTensor* t = ctx.input(i);
  return t == nullptr ? nullptr : t->Data<T>();
}

// The tensors one step of either kernel reads, by gate in kLstmGate* order
// (absent ones null): TW weights, TPeep peephole, TBias bias, TLn
// layer-norm coefficients, TAct input / output / output state, TCell cell
// state.
template <typename TW, typename TPeep, typename TBias, typename TLn,
          typename TAct, typename TCell>
struct LstmStepTensors {
  const TW* w_in[4];     // input-to-gate weights (i may be null)
  const TW* w_rec[4];    // recurrent-to-gate weights
  const TPeep* peep[4];  // cell-to-gate (i, f, o; c is null)
  const TBias* bias[4];
  const TLn* ln[4];  // layer-norm coefficients
  const TW* proj_w;
  const TBias* proj_b;
  const TAct* input;
  TAct* output;
  TAct* h;   // output state [B][O]
  TCell* c;  // cell state [B][N]

  void Read(const OpContext& ctx, bool use_layer_norm) {
    for (int g = 0; g < 4; ++g) {
      w_in[g] = LstmInputData<TW>(ctx, kLstmGateInputWeights[g]);
      w_rec[g] = LstmInputData<TW>(ctx, kLstmGateRecurrentWeights[g]);
      peep[g] = kLstmGatePeephole[g] < 0
                    ? nullptr
                    : LstmInputData<TPeep>(ctx, kLstmGatePeephole[g]);
      bias[g] = LstmInputData<TBias>(ctx, kLstmGateBias[g]);
      ln[g] = use_layer_norm ? LstmInputData<TLn>(ctx, kLstmGateLayerNorm[g])
                             : nullptr;
    }
    proj_w = LstmInputData<TW>(ctx, kProjectionWeights);
    proj_b = LstmInputData<TBias>(ctx, kProjectionBias);
    input = ctx.input(kInput)->Data<TAct>();
    output = ctx.output(0)->Data<TAct>();
    h = ctx.input(kOutputState)->Data<TAct>();
    c = ctx.input(kCellState)->Data<TCell>();
  }
};

// The recurrence of either kernel: for every time step t (stored in *step
// first), gates(j0, j1) for the cells of each of the state's cell tasks,
// then after(t).
template <typename State, typename Gates, typename After>
void RunLstmSteps(const OpContext& ctx, const State& s, int64_t* step,
                  const Gates& gates, const After& after) {
  for (int64_t t = 0; t < s.max_time; ++t) {
    *step = t;
    ctx.pool().ParallelFor(s.cell_tasks, [&](int64_t task) {
      const int64_t j0 = task * s.cells_per_task;
      gates(j0, std::min(s.n_cell, j0 + s.cells_per_task));
    });
    after(t);
  }
}

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
