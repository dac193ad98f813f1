// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/lstm_tensors.h"

namespace qforge::runtime {

absl::StatusOr<LstmCellSize> ReadLstmCellSize(const OpContext& ctx) {
  const RtTensor* w_io = ctx.input(kInputToOutput);
  const RtTensor* r_o = ctx.input(kRecurrentToOutput);
  if (w_io == nullptr || r_o == nullptr || w_io->rank() != 2 ||
      r_o->rank() != 2) {
    return ctx.Error(
        "input_to_output (4) and recurrent_to_output (8) weights must be "
        "present and 2-D");
  }
  return LstmCellSize{w_io->dim(0), r_o->dim(1)};
}

}  // namespace qforge::runtime
