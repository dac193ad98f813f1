// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: custom ops that TFLite ships as builtin custom kernels
// (prepare/eval functions listed in custom.def, found by custom code, and
// declared from it, kernel_functions.h).
//   detection_postprocess.cc: TFLite_Detection_PostProcess (float):
//     SSD box decoding + non-max suppression (fast or regular), as TFLite's
//     kernels/detection_postprocess.cc; options from the op's flexbuffer
//     map
//   mediapipe_*.cc: MediaPipe's custom ops (float; their kernels in
//     mediapipe/util/tflite/operations/, registered by MediaPipe's op
//     resolver; LiteRT's XNNPACK delegate runs the first three):
//     Convolution2DTransposeBias (transposed convolution with bias, output
//     size from the input), MaxPoolingWithArgmax2D (max pooling that also
//     outputs the argmax position in the window), MaxUnpooling2D (puts
//     values back there), TransformTensorBilinear (bilinear sampling of a
//     feature map through an affine matrix), TransformLandmarks (landmarks
//     through an affine matrix), Landmarks2TransformMatrix (the crop matrix
//     of a landmark subset)
#ifndef QFORGE_RUNTIME_KERNELS_CUSTOM_CUSTOM_H_
#define QFORGE_RUNTIME_KERNELS_CUSTOM_CUSTOM_H_

#include <string>

#include "absl/strings/string_view.h"
#include "runtime/kernel.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {

// Where a custom op qforge runs comes from, for summaries of models that
// keep it: "" for TFLite's own (TFLite_Detection_PostProcess), else which
// op resolver a runtime needs, e.g. "MediaPipe custom op: float only; the
// runtime needs MediaPipe's op resolver (LiteRT's XNNPACK delegate also
// runs it)".
std::string CustomOpRuntimeNote(absl::string_view custom_code);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CUSTOM_CUSTOM_H_
