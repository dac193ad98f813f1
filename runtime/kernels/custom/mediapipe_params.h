// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Options of MediaPipe's custom ops (mediapipe/util/tflite/operations/).
// The pooling and transposed-convolution ops store TFLite's C structs as
// their custom_options bytes (TfLitePoolParams, TfLiteTransposeConvParams:
// little-endian int32 fields); XNNPACK copies as many bytes as the file has,
// up to the struct's size, so shorter (older) option blobs are read as far as
// they go. The Transform* and Landmarks2TransformMatrix ops use flexbuffer
// maps, read per op.
#ifndef QFORGE_RUNTIME_KERNELS_CUSTOM_MEDIAPIPE_PARAMS_H_
#define QFORGE_RUNTIME_KERNELS_CUSTOM_MEDIAPIPE_PARAMS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "ir/options.h"
#include "runtime/kernel.h"

namespace qforge::runtime::mediapipe {

// TfLitePoolParams' leading fields: padding, stride_width, stride_height,
// filter_width, filter_height, activation.
struct PoolParams {
  ir::Padding padding = ir::Padding::kSame;
  int32_t stride_w = 1, stride_h = 1, filter_w = 1, filter_h = 1;
  // TfLiteFusedActivation as stored (0 none, 1 relu, 2 relu_n1_to_1,
  // 3 relu6, ...); only 1-3 clamp, as TFLite's CalculateActivationRange.
  int32_t activation = 0;
};
absl::Status ReadPoolParams(const OpContext& ctx, PoolParams* params);

// TfLiteTransposeConvParams' leading fields: padding, stride_width,
// stride_height.
struct TransposeParams {
  ir::Padding padding = ir::Padding::kSame;
  int32_t stride_w = 1, stride_h = 1;
};
absl::Status ReadTransposeParams(const OpContext& ctx, TransposeParams* params);

// The op's version (1 or 2) selects MediaPipe's V1 or V2 kernel for the
// Transform* ops and Landmarks2TransformMatrix; others are Unsupported.
absl::Status ExpectVersion1Or2(const OpContext& ctx);

}  // namespace qforge::runtime::mediapipe

#endif  // QFORGE_RUNTIME_KERNELS_CUSTOM_MEDIAPIPE_PARAMS_H_
