// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: sequence (named by the op table, ir/ops.def; the functions
// are declared from it, kernel_functions.h). An op's float kernel is in
// <stem>.cc, its integer kernel in <stem>_int.cc:
//   lstm.cc: UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM (float32)
//     TFLite's 20- or 24-input LSTM over a [batch, time, input] sequence
//     ([time, batch, input] when time_major); output_state (input 18) and
//     cell_state (input 19) are variable tensors the kernel updates in
//     place. LSTM, full kernel type: the same cell over one step, input
//     [B, I], output [B, O]; the same inputs 1-23. (The BASIC kernel type
//     is refused.) One prepare and one eval serve both (what differs:
//     lstm_tensors.h, ReadLstmSequence).
//   svdf.cc: SVDF (float32): input [B, I], weights_feature [F, I],
//     weights_time [F, M], optional bias [U], state (input 4, variable)
//     [B, F * M]; output [B, U]. The state is updated in place.
//   svdf_int.cc: SVDF, int8 input and output, int16 state and time weights
//   lstm_prepare_int.cc, lstm_int.cc (lstm_int.h): UNIDIRECTIONAL_SEQUENCE_LSTM
//     and LSTM, TFLite's fully quantized LSTM (8x8_16: int8 input / output /
//     weights, int16 cell state, int16 layer-norm and peephole weights, five
//     intermediate tensors)
// Shared by the float and integer kernels: lstm_tensors.{h,cc} (the LSTM's
// inputs by role), svdf_shape.{h,cc} (SVDF's shapes).
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_SEQUENCE_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_SEQUENCE_H_

#include <algorithm>
#include <cmath>

#include "ir/options.h"
#include "runtime/kernels/kernel_functions.h"

// Helpers shared by the float kernels of this family.
namespace qforge::runtime::sequence {

// A fused activation applied to one float value (TFLite's
// ApplyActivationToVector for LSTM and SVDF).
inline float ApplyActivation(ir::Activation act, float x) {
  switch (act) {
    case ir::Activation::kNone:
      return x;
    case ir::Activation::kRelu:
      return std::max(0.f, x);
    case ir::Activation::kReluN1To1:
      return std::max(-1.f, std::min(x, 1.f));
    case ir::Activation::kRelu6:
      return std::max(0.f, std::min(x, 6.f));
    case ir::Activation::kTanh:
      return std::tanh(x);
    case ir::Activation::kSignBit:
      return std::signbit(x) ? 1.f : 0.f;
  }
  return x;
}

}  // namespace qforge::runtime::sequence

#endif  // QFORGE_RUNTIME_KERNELS_SEQUENCE_SEQUENCE_H_
