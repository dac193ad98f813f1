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
#include "absl/strings/string_view.h"
#include "ir/options.h"
#include "runtime/kernel.h"

namespace qforge::runtime::mediapipe {

// TfLiteTransposeConvParams' leading fields, which TfLitePoolParams starts
// with too: padding, stride_width, stride_height.
struct TransposeParams {
  ir::Padding padding = ir::Padding::kSame;
  int32_t stride_w = 1, stride_h = 1;
};
absl::Status ReadTransposeParams(const OpContext& ctx, TransposeParams* params);

// TfLitePoolParams' leading fields: those, then filter_width, filter_height,
// activation.
struct PoolParams : TransposeParams {
  int32_t filter_w = 1, filter_h = 1;
  // TfLiteFusedActivation as stored (0 none, 1 relu, 2 relu_n1_to_1,
  // 3 relu6, ...); only 1-3 clamp, as TFLite's CalculateActivationRange.
  int32_t activation = 0;
};
absl::Status ReadPoolParams(const OpContext& ctx, PoolParams* params);

// The op's version (1 or 2) selects MediaPipe's V1 or V2 kernel for the
// Transform* ops and Landmarks2TransformMatrix; others are Unsupported.
absl::Status ExpectVersion1Or2(const OpContext& ctx);

// t, named `role` in messages, is present, float32 and of rank `rank`
// (`rank_note` ends that message).
absl::Status ExpectFloat(const OpContext& ctx, const RtTensor* t,
                         absl::string_view role, int rank,
                         absl::string_view rank_note);

}  // namespace qforge::runtime::mediapipe

#endif  // QFORGE_RUNTIME_KERNELS_CUSTOM_MEDIAPIPE_PARAMS_H_
