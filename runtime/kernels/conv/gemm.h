// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The conv family's float GEMM (gemm.cc): C = act(A * B + bias) over a
// packed-panel B with register-blocked micro-kernels, used by CONV_2D,
// FULLY_CONNECTED, BATCH_MATMUL and TRANSPOSE_CONV; and scratch "slots" that
// parallel tasks borrow for im2col tiles.
//
// Determinism: every output element of the GEMM is one chain of fused
// multiply-adds in k order, started from the bias, whatever the tiling; tasks
// split only rows and column panels, with sizes from the problem alone.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_GEMM_H_
#define QFORGE_RUNTIME_KERNELS_CONV_GEMM_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/functional/function_ref.h"
#include "runtime/kernels/conv/conv.h"
#include "runtime/thread_pool.h"

namespace qforge::runtime::conv_internal {

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
// A convolution's A operand read in place (implicit im2col): k = taps x
// seg. fill(b, row0, rows, block_rows, out) sets, for the rows [row0, row0 +
// rows) of GEMM batch b (a convolution's group) in blocks of block_rows (at
// most kRowPtrStride) and every tap t, out[(block * taps + t) *
// kRowPtrStride + r] to where row r of the block reads tap t (seg floats),
// or to seg zeros; slots past a short last block's rows may hold anything.
inline constexpr int kRowPtrStride = 16;
struct IndirectA {
  int64_t taps = 1, seg = 0;
  absl::FunctionRef<void(int64_t b, int64_t row0, int64_t rows, int block_rows,
                         const float** out)>
      fill;
};

struct GemmOperands {
  RowsFn a;
  bool a_uses_scratch = false;  // a writes into scratch (needs slots)
  // Batch b's packed B, padded bias and C (row-major, ldc).
  absl::FunctionRef<const float*(int64_t b)> b;
  absl::FunctionRef<const float*(int64_t b)> bias;
  absl::FunctionRef<float*(int64_t b)> c;
  int64_t ldc = 0;
  ActRange act;
  const IndirectA* indirect = nullptr;  // set: A comes from here, not a
};

// C_b = clamp(A_b * B_b + bias_b) for b in [0, batches), parallel over
// batches x row tasks x column tasks.
void RunGemm(ThreadPool& pool, const GemmPlan& plan, int64_t batches,
             const GemmOperands& ops, ScratchSlots* slots);

// Single-threaded core: rows [0, rows) of C, panels [p0, p1).
void GemmRows(const float* a, int64_t lda, int64_t rows, int64_t k,
              const float* packed, int64_t n, const float* bias_padded,
              ActRange act, float* c, int64_t ldc, int64_t p0, int64_t p1);

}  // namespace qforge::runtime::conv_internal

#endif  // QFORGE_RUNTIME_KERNELS_CONV_GEMM_H_
