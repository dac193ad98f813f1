// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: sequence (named by the op table, ir/ops.def).
//   sequence_lstm.cc: UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM (float32)
//   sequence_svdf.cc: SVDF (float32)
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

// TFLite's 20- or 24-input LSTM over a [batch, time, input] sequence
// ([time, batch, input] when time_major); output_state (input 18) and
// cell_state (input 19) are variable tensors the kernel updates in place.
absl::Status PrepareUnidirectionalSequenceLstm(OpContext& ctx);
// LSTM, full kernel type: the same cell over one step, input [B, I],
// output [B, O]; the same inputs 1-23. (The BASIC kernel type is refused.)
absl::Status PrepareLstm(OpContext& ctx);
// Eval of both.
absl::Status EvalLstmFloat(OpContext& ctx);

// SVDF (float32): input [B, I], weights_feature [F, I], weights_time
// [F, M], optional bias [U], state (input 4, variable) [B, F * M]; output
// [B, U]. The state is updated in place.
absl::Status PrepareSvdf(OpContext& ctx);
absl::Status EvalSvdfFloat(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_SEQUENCE_H_
