// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: spectral ops (named by the op table, ir/ops.def), as
// TFLite's kernels:
//  spectral.cc  RFFT2D (float32 -> complex64, tf.signal.rfft2d over the two
//               innermost dims), COMPLEX_ABS (complex64 -> float32)
#ifndef QFORGE_RUNTIME_KERNELS_SPECTRAL_H_
#define QFORGE_RUNTIME_KERNELS_SPECTRAL_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

absl::Status PrepareRfft2d(OpContext& ctx);
absl::Status EvalRfft2d(OpContext& ctx);
absl::Status PrepareComplexAbs(OpContext& ctx);
absl::Status EvalComplexAbs(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_SPECTRAL_H_
