// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: custom ops that TFLite ships as builtin custom kernels
// (prepare/eval functions listed in custom.def, found by custom code).
//   custom_detection_postprocess.cc: TFLite_Detection_PostProcess (float)
//   custom_mediapipe_*.cc: MediaPipe's custom ops (float; their kernels in
//     mediapipe/util/tflite/operations/, registered by MediaPipe's op
//     resolver; LiteRT's XNNPACK delegate runs the first three)
#ifndef QFORGE_RUNTIME_KERNELS_CUSTOM_H_
#define QFORGE_RUNTIME_KERNELS_CUSTOM_H_

#include <string>

#include "absl/strings/string_view.h"
#include "runtime/kernel.h"

namespace qforge::runtime {

// Where a custom op qforge runs comes from, for summaries of models that
// keep it: "" for TFLite's own (TFLite_Detection_PostProcess), else which
// op resolver a runtime needs, e.g. "MediaPipe custom op: float only; the
// runtime needs MediaPipe's op resolver (LiteRT's XNNPACK delegate also
// runs it)".
std::string CustomOpRuntimeNote(absl::string_view custom_code);

// SSD box decoding + non-max suppression (fast or regular), as TFLite's
// kernels/detection_postprocess.cc; options from the op's flexbuffer map.
absl::Status PrepareDetectionPostProcess(OpContext& ctx);
absl::Status EvalDetectionPostProcess(OpContext& ctx);

// MediaPipe: transposed convolution with bias, output size from the input.
absl::Status PrepareConvolution2DTransposeBias(OpContext& ctx);
absl::Status EvalConvolution2DTransposeBias(OpContext& ctx);
// MediaPipe: max pooling that also outputs the argmax position in the
// window, and the unpooling that puts values back there.
absl::Status PrepareMaxPoolingWithArgmax2D(OpContext& ctx);
absl::Status EvalMaxPoolingWithArgmax2D(OpContext& ctx);
absl::Status PrepareMaxUnpooling2D(OpContext& ctx);
absl::Status EvalMaxUnpooling2D(OpContext& ctx);
// MediaPipe: bilinear sampling of a feature map through an affine matrix.
absl::Status PrepareTransformTensorBilinear(OpContext& ctx);
absl::Status EvalTransformTensorBilinear(OpContext& ctx);
// MediaPipe: landmarks through an affine matrix.
absl::Status PrepareTransformLandmarks(OpContext& ctx);
absl::Status EvalTransformLandmarks(OpContext& ctx);
// MediaPipe: the crop matrix of a landmark subset.
absl::Status PrepareLandmarks2TransformMatrix(OpContext& ctx);
absl::Status EvalLandmarks2TransformMatrix(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_CUSTOM_H_
