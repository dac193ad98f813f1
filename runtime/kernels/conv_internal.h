// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared machinery of the conv family (not part of the kernel interface):
//  - fused-activation ranges (window arithmetic: window.h);
//  - a packed-panel GEMM (C = act(A * B + bias)) with register-blocked
//    micro-kernels, used by CONV_2D, FULLY_CONNECTED, BATCH_MATMUL and
//    TRANSPOSE_CONV;
//  - scratch "slots" that parallel tasks borrow for im2col tiles.
//
// Determinism: every output element of the GEMM is one chain of fused
// multiply-adds in k order, started from the bias, whatever the tiling; tasks
// split only rows and column panels, with sizes from the problem alone.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_INTERNAL_H_
#define QFORGE_RUNTIME_KERNELS_CONV_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__AVX512F__) || defined(__AVX__) || defined(__SSE__)
#include <immintrin.h>
#endif

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "ir/options.h"
#include "runtime/kernel.h"
#include "runtime/kernels/window.h"
#include "runtime/thread_pool.h"

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

// ------------------------------------------------------------------- GEMM

// The packed right-hand side: the n columns are cut into panels of
// kPanelWidth (the last one may be a half panel of kPanelWidth / 2); panel p
// stores its k rows contiguously, each `width(p)` floats, zero padded.
int PanelWidth();                          // floats in a full panel
int64_t NumPanels(int64_t n);              // panels covering n columns
int64_t PaddedColumns(int64_t n);          // sum of panel widths
int64_t PackedSize(int64_t k, int64_t n);  // floats of a packed matrix

// Packs B (k x n), element (kk, nn) at src[kk * stride_k + nn * stride_n].
void PackRhs(const float* src, int64_t k, int64_t n, int64_t stride_k,
             int64_t stride_n, float* dst);
// Same, element (kk, nn) = at(kk, nn) (layouts that are no plain strides).
void PackRhsFn(absl::FunctionRef<float(int64_t, int64_t)> at, int64_t k,
               int64_t n, float* dst);
// Copies `bias` (n floats; nullptr = zeros) into a PaddedColumns(n) array.
void PackBias(const float* bias, int64_t n, float* dst);

// How a GEMM of m x n x k is cut into tasks (problem size only).
struct GemmPlan {
  int64_t m = 0, n = 0, k = 0;
  int64_t rows_per_task = 0;  // multiple of the micro-kernel height
  int64_t row_tasks = 0;
  int64_t panels = 0;
  int64_t panels_per_task = 0;
  int64_t col_tasks = 0;
  int64_t tile_rows = 0;  // rows per A tile (im2col scratch height)
  int64_t tasks_per_batch() const { return row_tasks * col_tasks; }
};
GemmPlan PlanGemm(int64_t m, int64_t n, int64_t k);

// Scratch buffers for parallel tasks: a task claims a free slot, uses it,
// releases it. At most num_threads tasks run at once, so `threads` slots
// always suffice; results never depend on which slot a task gets.
class ScratchSlots {
 public:
  void Resize(int slots, int64_t floats_per_slot);
  int count() const { return count_; }
  int64_t floats_per_slot() const { return per_slot_; }
  // Blocks (spins) until a slot is free; returns its index.
  int Claim();
  void Release(int slot);
  float* slot(int i) { return data_.data() + i * per_slot_; }

 private:
  int count_ = 0;
  int64_t per_slot_ = 0;
  std::vector<float> data_;
  std::unique_ptr<std::atomic<bool>[]> busy_;
};

// Supplies rows [row0, row0 + rows) of batch b's A matrix: returns a pointer
// to row row0 and sets *lda; may fill `scratch` (tile_rows x k floats) and
// return it.
using RowsFn = absl::FunctionRef<const float*(
    int64_t b, int64_t row0, int64_t rows, float* scratch, int64_t* lda)>;
struct GemmOperands {
  RowsFn a;
  bool a_uses_scratch = false;  // a writes into scratch (needs slots)
  // Batch b's packed B, padded bias and C (row-major, ldc).
  absl::FunctionRef<const float*(int64_t b)> b;
  absl::FunctionRef<const float*(int64_t b)> bias;
  absl::FunctionRef<float*(int64_t b)> c;
  int64_t ldc = 0;
  ActRange act;
};

// C_b = clamp(A_b * B_b + bias_b) for b in [0, batches), parallel over
// batches x row tasks x column tasks.
void RunGemm(ThreadPool& pool, const GemmPlan& plan, int64_t batches,
             const GemmOperands& ops, ScratchSlots* slots);

// Single-threaded core: rows [0, rows) of C, panels [p0, p1).
void GemmRows(const float* a, int64_t lda, int64_t rows, int64_t k,
              const float* packed, int64_t n, const float* bias_padded,
              ActRange act, float* c, int64_t ldc, int64_t p0, int64_t p1);

// Splits [0, total) into tasks of at least `min_per_task` units (at least
// one task); returns the task count and sets *per_task.
int64_t SplitWork(int64_t total, int64_t min_per_task, int64_t* per_task);

}  // namespace qforge::runtime::conv_internal

#endif  // QFORGE_RUNTIME_KERNELS_CONV_INTERNAL_H_
