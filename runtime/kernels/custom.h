// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: custom ops that TFLite ships as builtin custom kernels
// (prepare/eval functions listed in custom.def, found by custom code).
//   custom_detection_postprocess.cc: TFLite_Detection_PostProcess (float)
#ifndef QFORGE_RUNTIME_KERNELS_CUSTOM_H_
#define QFORGE_RUNTIME_KERNELS_CUSTOM_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

// SSD box decoding + non-max suppression (fast or regular), as TFLite's
// kernels/detection_postprocess.cc; options from the op's flexbuffer map.
absl::Status PrepareDetectionPostProcess(OpContext& ctx);
absl::Status EvalDetectionPostProcess(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CUSTOM_H_
