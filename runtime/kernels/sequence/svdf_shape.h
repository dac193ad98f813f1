// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// SVDF's shape checks, shared by the float (svdf.cc) and integer
// (svdf_int.cc) kernels: TFLite's svdf.cc Prepare.
#ifndef QFORGE_RUNTIME_KERNELS_SEQUENCE_SVDF_SHAPE_H_
#define QFORGE_RUNTIME_KERNELS_SEQUENCE_SVDF_SHAPE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

struct SvdfShape {
  int64_t batch = 0, input_size = 0;
  int64_t filters = 0, units = 0, rank = 0, memory = 0;
};

// Inputs 0-2 and 4 present, input [B, I], weights_feature [F, I],
// weights_time [F, M], bias (3, optional) [U], state (4) a writable variable
// [B, F * M], rank > 0 dividing F (U = F / rank); one output.
absl::Status ReadSvdfShape(const OpContext& ctx, SvdfShape* shape);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_SEQUENCE_SVDF_SHAPE_H_
