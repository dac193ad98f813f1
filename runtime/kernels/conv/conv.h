// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: conv (named by the op table, ir/ops.def; the functions are
// declared from it, kernel_functions.h). Convolutions, matrix products and
// 2-D pooling, NHWC. An op's float kernel is in <stem>.cc, its integer
// kernel in <stem>_int.cc, its hybrid kernel in <stem>_hybrid.cc and the
// vector path of its integer kernel in <stem>_simd.{h,cc}:
//   CONV_2D            conv2d.cc, conv2d_int.cc, conv2d_hybrid.cc,
//                      conv2d_simd.{h,cc}
//   DEPTHWISE_CONV_2D  depthwise.cc, conv2d_int.cc, conv2d_hybrid.cc,
//                      conv2d_simd.{h,cc} with depthwise_simd.cc
//   CONV_3D            conv3d.cc, direct loops (NDHWC input, DHWIO filter)
//   TRANSPOSE_CONV     transpose_conv.{h,cc}, transpose_conv_int.cc
//   FULLY_CONNECTED    fully_connected.cc, fully_connected_int.cc,
//                      fully_connected_hybrid.cc, fully_connected_simd.{h,cc}
//   BATCH_MATMUL       batch_matmul.cc, batch_matmul_int.cc (shapes:
//                      batch_matmul_shape.{h,cc})
//   AVERAGE_POOL_2D, MAX_POOL_2D  pool.cc, pool_int.cc
// Shared by the float kernels: this header (float vectors, activation
// ranges, checks, FULLY_CONNECTED's integer and hybrid shapes; conv.cc) and
// gemm.{h,cc}, the packed-panel GEMM. Shared by the vector paths:
// gemm_simd.{h,cc}, the integer GEMM, depthwise rows and the plans' common
// steps. Window arithmetic: common/window.h; the integer helpers:
// common/quant_int.h.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_CONV_H_
#define QFORGE_RUNTIME_KERNELS_CONV_CONV_H_

#include <cstdint>
#include <cstring>

#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE__)
#include <immintrin.h>
#endif

#include "absl/status/status.h"
#include "ir/options.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime::conv_internal {

// ------------------------------------------------------------------- SIMD

// Float vectors of W lanes (GCC/Clang vector extensions); W = 1 is a plain
// float. kMaxLanes is the widest the build target runs natively.
#if defined(__AVX512F__)
inline constexpr int kMaxLanes = 16;
#elif defined(__AVX__)
inline constexpr int kMaxLanes = 8;
#else
inline constexpr int kMaxLanes = 4;
#endif

typedef float VecF4 __attribute__((vector_size(16)));
typedef float VecF8 __attribute__((vector_size(32)));
typedef float VecF16 __attribute__((vector_size(64)));
template <int W>
struct VecType;
template <>
struct VecType<4> {
  using T = VecF4;
};
template <>
struct VecType<8> {
  using T = VecF8;
};
template <>
struct VecType<16> {
  using T = VecF16;
};

template <int W>
struct Vec {
  using T = typename VecType<W>::T;
  static T Load(const float* p) {
    T v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  }
  static void Store(float* p, T v) { std::memcpy(p, &v, sizeof(v)); }
  static T Splat(float x) {
#if defined(__AVX512F__)
    if constexpr (W == 16) return _mm512_set1_ps(x);
#endif
#if defined(__AVX__)
    if constexpr (W == 8) return _mm256_set1_ps(x);
#endif
#if defined(__SSE__)
    if constexpr (W == 4) return _mm_set1_ps(x);
#endif
    T v;
    for (int i = 0; i < W; ++i) v[i] = x;
    return v;
  }
  // acc + a * b, fused where the target has FMA.
  static T Fma(T a, T b, T acc) {
#if defined(__AVX512F__)
    if constexpr (W == 16) return _mm512_fmadd_ps(a, b, acc);
#endif
#if defined(__FMA__)
    if constexpr (W == 8) return _mm256_fmadd_ps(a, b, acc);
    if constexpr (W == 4) return _mm_fmadd_ps(a, b, acc);
#endif
    return acc + a * b;
  }
  // a > b ? a : b (b when either is NaN), like x86 max.
  static T Max(T a, T b) {
#if defined(__AVX512F__)
    if constexpr (W == 16) return _mm512_mask_max_ps(a, 0xFFFF, a, b);
#endif
#if defined(__AVX__)
    if constexpr (W == 8) return _mm256_max_ps(a, b);
#endif
#if defined(__SSE__)
    if constexpr (W == 4) return _mm_max_ps(a, b);
#endif
    for (int i = 0; i < W; ++i) a[i] = a[i] > b[i] ? a[i] : b[i];
    return a;
  }
  // a < b ? a : b (b when either is NaN).
  static T Min(T a, T b) {
#if defined(__AVX512F__)
    if constexpr (W == 16) return _mm512_mask_min_ps(a, 0xFFFF, a, b);
#endif
#if defined(__AVX__)
    if constexpr (W == 8) return _mm256_min_ps(a, b);
#endif
#if defined(__SSE__)
    if constexpr (W == 4) return _mm_min_ps(a, b);
#endif
    for (int i = 0; i < W; ++i) a[i] = a[i] < b[i] ? a[i] : b[i];
    return a;
  }
  // min(hi, max(lo, x)) as TFLite's ActivationFunctionWithMinMax: a NaN x
  // stays NaN.
  static T Clamp(T x, T lo, T hi) { return Min(hi, Max(lo, x)); }
};

template <>
struct Vec<1> {
  using T = float;
  static T Load(const float* p) { return *p; }
  static void Store(float* p, T v) { *p = v; }
  static T Splat(float x) { return x; }
  static T Fma(T a, T b, T acc) { return acc + a * b; }
  static T Max(T a, T b) { return a > b ? a : b; }
  static T Min(T a, T b) { return a < b ? a : b; }
  static T Clamp(T x, T lo, T hi) { return Min(hi, Max(lo, x)); }
};

// The clamp range of a fused activation on float outputs: NONE keeps the
// finite float range (as TFLite does), RELU [0, max], RELU_N1_TO_1 [-1, 1],
// RELU6 [0, 6]. TANH and SIGN_BIT are Unsupported.
struct ActRange {
  float lo = 0, hi = 0;
};
absl::Status ActivationRange(const OpContext& ctx, ir::Activation act,
                             ActRange* range);

// Input i is present, float32 and of the given rank (-1: any rank).
absl::Status ExpectFloatInput(const OpContext& ctx, int i, int rank,
                              const char* role);
// Output 0 is float32.
absl::Status ExpectFloatOutput(const OpContext& ctx);
// The checks and options CONV_2D and DEPTHWISE_CONV_2D share: float32
// input and filter of rank 4, float32 output, the window options and the
// fused activation's range.
absl::Status ReadFloatConv(const OpContext& ctx, bool depthwise,
                           ConvGeometry* g, ActRange* act);

// Input i, when present, is a float32 bias of `channels` elements: the
// output channels of `weights`.
absl::Status ExpectFloatBias(const OpContext& ctx, int i,
                             const RtTensor& weights, int64_t channels);

// FULLY_CONNECTED's shapes as its integer and hybrid kernels read them:
// weights [units, depth], the input read as [batch, depth]; sets output 0's
// shape ([batch, units], or the input's with its last dimension replaced
// under keep_num_dims). Refuses shuffled weights.
struct FcShape {
  int64_t batch = 0, depth = 0, units = 0;
};
absl::Status FcOutputShape(OpContext& ctx, const RtTensor& in,
                           const RtTensor& w, FcShape* s);
// Output units per task of the integer and hybrid FULLY_CONNECTED.
inline constexpr int64_t kFcUnitsPerTask = 32;

// Splits [0, total) into tasks of at least `min_per_task` units (at least
// one task); returns the task count and sets *per_task.
int64_t SplitWork(int64_t total, int64_t min_per_task, int64_t* per_task);

}  // namespace qforge::runtime::conv_internal

#endif  // QFORGE_RUNTIME_KERNELS_CONV_CONV_H_
