// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: spectral ops (named by the op table, ir/ops.def; the
// functions are declared from it, kernel_functions.h), as TFLite's kernels:
//  rfft2d.cc  RFFT2D (float32 -> complex64, tf.signal.rfft2d over the two
//               innermost dims), COMPLEX_ABS (complex64 -> float32)
#ifndef QFORGE_RUNTIME_KERNELS_SPECTRAL_SPECTRAL_H_
#define QFORGE_RUNTIME_KERNELS_SPECTRAL_SPECTRAL_H_

#include "runtime/kernels/kernel_functions.h"

#endif  // QFORGE_RUNTIME_KERNELS_SPECTRAL_SPECTRAL_H_
