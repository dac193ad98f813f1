// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The scales of integer weights next to float activations, one per row (a
// per-tensor or per-axis-0 scale) or one per block of a row (TFLite's
// BlockwiseQuantization: a float16 tensor [rows, cols / block_size]).
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_BLOCK_SCALES_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_BLOCK_SCALES_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "runtime/kernel.h"

namespace qforge::runtime::integer {

struct RowScales {
  int64_t block = 0;          // weights per scale along a row
  std::vector<float> scales;  // rows x (cols / block), row-major
};

// The scales of `w`, a [rows, cols] constant read as rows of `cols`:
// blockwise (zero points 0), per axis 0, or per tensor (block = cols).
absl::Status ReadRowScales(const OpContext& ctx, const RtTensor& w,
                           absl::string_view role, int64_t rows, int64_t cols,
                           RowScales* out);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_BLOCK_SCALES_H_
