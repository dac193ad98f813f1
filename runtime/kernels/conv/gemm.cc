// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The conv family's GEMM: C = clamp(A * B + bias), A row-major (any lda) or
// a convolution's input read through row pointers (gemm.h, IndirectA), B
// packed once into column panels (gemm.h), C row-major.
//
// The micro-kernel keeps an MR x (NV vectors) block of C in registers and
// walks k: per step it loads NV vectors of B and broadcasts MR values of A
// (the "broadcast" formulation, which needs no packing of A, so a
// convolution reads its NHWC input in place, one pointer per row and tap).
// With AVX-512 the 12 x 32 block holds 24 accumulators; N <= 16 uses a
// 12 x 16 block (14 rows needed more general registers than x86 has for
// the row pointers). Long k is cut into blocks so that a block of B stays
// in L1 while an A tile's rows pass over it.
//
// Why not Eigen: Eigen 3.4's product of row-major maps packs A on every
// call and does poorly with small K, which the pointwise GEMMs of small
// convolutional networks have; this kernel was faster on them.
// Everything here is portable C++ with GCC/Clang vector extensions; the
// intrinsics in conv.h (Vec) only pick FMA, min/max and broadcast
// instructions.
#include "runtime/kernels/conv/gemm.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>
#include <vector>

namespace qforge::runtime::conv_internal {
namespace {

#if defined(__AVX512F__)
constexpr int kLanes = 16;
constexpr int kMr2 = 12;  // rows of the two-vector micro-kernel
constexpr int kMr1 = 12;  // rows of the one-vector micro-kernel
#elif defined(__AVX__)
constexpr int kLanes = 8;
constexpr int kMr2 = 6;
constexpr int kMr1 = 8;
#else
constexpr int kLanes = 4;
constexpr int kMr2 = 6;
constexpr int kMr1 = 8;
#endif
constexpr int kPanel = 2 * kLanes;
// Most rows of an A tile (the partial sums of a tile live on the stack).
constexpr int kMaxTileRows = 16 * kMr1;

using V = Vec<kLanes>;
using VecF = V::T;
static_assert(kLanes == kMaxLanes);

// C[MR x ncols] = clamp(init + A[MR x k] * B[k x NV*kLanes]) for one block
// of k: `taps` runs of `seg` values, row r of run t read from
// rows[t * kRowPtrStride + r] + c0 (B's rows follow in the same order). kFirst:
// init is the bias (one row for all rows), else the partial sums of the
// previous k blocks (row r at init + r * kPanel). kLast: clamp and store
// ncols columns to c (stride ldc), else store the raw sums, all NV * kLanes
// columns, to c (stride kPanel). A float stored and loaded back is the
// same float, so each output is still one FMA chain in k order.
using MicroFn = void (*)(int64_t taps, int64_t seg, const float* const* rows,
                         int64_t c0, const float* b, const float* init,
                         float lo, float hi, float* c, int64_t ldc, int ncols);

template <int MR, int NV, bool kFirst, bool kLast>
void Micro(int64_t taps, int64_t seg, const float* const* rows, int64_t c0,
           const float* b, const float* init, float lo, float hi, float* c,
           int64_t ldc, int ncols) {
  VecF acc[MR][NV];
  if constexpr (kFirst) {
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const VecF bj = V::Load(init + j * kLanes);
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) acc[r][j] = bj;
    }
  } else {
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j)
        acc[r][j] = V::Load(init + r * kPanel + j * kLanes);
    }
  }
  for (int64_t t = 0; t < taps; ++t) {
    const float* a[MR];
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) a[r] = rows[t * kRowPtrStride + r] + c0;
    for (int64_t kk = 0; kk < seg; ++kk) {
      VecF bv[NV];
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) bv[j] = V::Load(b + j * kLanes);
      b += NV * kLanes;
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const VecF av = V::Splat(a[r][kk]);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[r][j] = V::Fma(av, bv[j], acc[r][j]);
      }
    }
  }
  if constexpr (!kLast) {
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j)
        V::Store(c + r * kPanel + j * kLanes, acc[r][j]);
    }
    return;
  }
  const VecF vlo = V::Splat(lo), vhi = V::Splat(hi);
  if (ncols == NV * kLanes) {
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        V::Store(c + r * ldc + j * kLanes, V::Clamp(acc[r][j], vlo, vhi));
      }
    }
  } else {
#if defined(__AVX512F__)
    // A part panel (n not a multiple of the panel width): masked stores,
    // not a memcpy call per row.
    __mmask16 mask[NV];
    for (int j = 0; j < NV; ++j) {
      const int left = std::clamp(ncols - j * kLanes, 0, kLanes);
      mask[j] = static_cast<__mmask16>((1u << left) - 1);
    }
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        _mm512_mask_storeu_ps(c + r * ldc + j * kLanes, mask[j],
                              V::Clamp(acc[r][j], vlo, vhi));
      }
    }
#else
    for (int r = 0; r < MR; ++r) {
      float tmp[NV * kLanes];
      for (int j = 0; j < NV; ++j) {
        V::Store(tmp + j * kLanes, V::Clamp(acc[r][j], vlo, vhi));
      }
      std::memcpy(c + r * ldc, tmp, sizeof(float) * static_cast<size_t>(ncols));
    }
#endif
  }
}

// The micro-kernels of one shape: [first][last][rows - 1].
template <int NV, bool kFirst, bool kLast, size_t... I>
constexpr std::array<MicroFn, sizeof...(I)> MakeRow(std::index_sequence<I...>) {
  return {&Micro<static_cast<int>(I) + 1, NV, kFirst, kLast>...};
}
template <int NV, int MaxMr>
using MicroTable = std::array<std::array<std::array<MicroFn, MaxMr>, 2>, 2>;
template <int NV, int MaxMr>
constexpr MicroTable<NV, MaxMr> MakeTable() {
  constexpr auto seq = std::make_index_sequence<MaxMr>();
  MicroTable<NV, MaxMr> t{};
  t[0][0] = MakeRow<NV, false, false>(seq);
  t[0][1] = MakeRow<NV, false, true>(seq);
  t[1][0] = MakeRow<NV, true, false>(seq);
  t[1][1] = MakeRow<NV, true, true>(seq);
  return t;
}
constexpr MicroTable<1, kMr1> kTable1 = MakeTable<1, kMr1>();
constexpr MicroTable<2, kMr2> kTable2 = MakeTable<2, kMr2>();

// k is cut into blocks of about kKBlock when longer than kKSplit, so that a
// block of a B panel (kKBlock x kPanel floats, 32 KiB with AVX-512) stays in
// L1 while every micro-block of an A tile passes over it.
constexpr int64_t kKBlock = 256;
constexpr int64_t kKSplit = 384;

// Width of panel p of an n-column matrix.
int64_t PanelCols(int64_t n, int64_t p) {
  const int64_t full = n / kPanel;
  if (p < full) return kPanel;
  return n % kPanel <= kLanes ? kLanes : kPanel;
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

int PanelWidth() { return kPanel; }

int64_t NumPanels(int64_t n) { return CeilDiv(n, kPanel); }

int64_t PaddedColumns(int64_t n) {
  const int64_t full = n / kPanel;
  if (n % kPanel == 0) return full * kPanel;
  return full * kPanel + PanelCols(n, full);
}

int64_t PackedSize(int64_t k, int64_t n) { return k * PaddedColumns(n); }

namespace {

// Calls fill(out, col0, cols, w) for every panel: out is the panel's first
// row (k rows of w floats), to hold columns [col0, col0 + cols) of B and
// w - cols zeros.
template <typename Fill>
void ForEachPanel(int64_t k, int64_t n, float* dst, const Fill& fill) {
  const int64_t panels = NumPanels(n);
  for (int64_t p = 0; p < panels; ++p) {
    const int64_t w = PanelCols(n, p);
    const int64_t col0 = p * kPanel;
    fill(dst + p * kPanel * k, col0, std::min(w, n - col0), w);
  }
}

}  // namespace

void PackRhsFn(absl::FunctionRef<float(int64_t, int64_t)> at, int64_t k,
               int64_t n, float* dst) {
  ForEachPanel(k, n, dst,
               [&](float* out, int64_t col0, int64_t cols, int64_t w) {
                 for (int64_t kk = 0; kk < k; ++kk) {
                   float* row = out + kk * w;
                   for (int64_t j = 0; j < cols; ++j) row[j] = at(kk, col0 + j);
                   for (int64_t j = cols; j < w; ++j) row[j] = 0.0f;
                 }
               });
}

void PackRhs(const float* src, int64_t k, int64_t n, int64_t stride_k,
             int64_t stride_n, float* dst) {
  ForEachPanel(k, n, dst,
               [&](float* out, int64_t col0, int64_t cols, int64_t w) {
                 if (stride_n == 1) {
                   for (int64_t kk = 0; kk < k; ++kk) {
                     float* row = out + kk * w;
                     std::memcpy(row, src + kk * stride_k + col0,
                                 sizeof(float) * static_cast<size_t>(cols));
                     std::fill(row + cols, row + w, 0.0f);
                   }
                   return;
                 }
                 // Transposing copy: walk each source column contiguously
                 // (stride_k is 1 for [n, k] weights).
                 for (int64_t kk = 0; kk < k; ++kk) {
                   std::fill(out + kk * w + cols, out + kk * w + w, 0.0f);
                 }
                 for (int64_t j = 0; j < cols; ++j) {
                   const float* col = src + (col0 + j) * stride_n;
                   for (int64_t kk = 0; kk < k; ++kk)
                     out[kk * w + j] = col[kk * stride_k];
                 }
               });
}

void PackBias(const float* bias, int64_t n, float* dst) {
  const int64_t padded = PaddedColumns(n);
  if (bias != nullptr) {
    std::memcpy(dst, bias, sizeof(float) * static_cast<size_t>(n));
  } else {
    std::fill(dst, dst + n, 0.0f);
  }
  std::fill(dst + n, dst + padded, 0.0f);
}

namespace {

// Where a tile's A rows come from: a row-major matrix (indirect null) or a
// convolution's input read in place.
struct ASource {
  const float* a = nullptr;
  int64_t lda = 0;
  const IndirectA* indirect = nullptr;
  int64_t group = 0;
};

// Row pointers of a tile in micro-blocks of mr rows: block i's taps x
// kRowPtrStride pointers at data + i * taps * kRowPtrStride (channel 0).
struct RowTable {
  int mr = 0;
  std::vector<const float*> data;
  void Build(const ASource& src, int64_t row0, int64_t rows, int64_t taps,
             int block_rows) {
    mr = block_rows;
    const int64_t blocks = CeilDiv(rows, mr);
    data.resize(static_cast<size_t>(blocks * taps * kRowPtrStride));
    if (src.indirect != nullptr) {
      src.indirect->fill(src.group, row0, rows, mr, data.data());
      return;
    }
    for (int64_t i = 0; i < blocks; ++i) {
      const int h = static_cast<int>(std::min<int64_t>(mr, rows - i * mr));
      const float** out = data.data() + i * taps * kRowPtrStride;
      for (int r = 0; r < h; ++r) out[r] = src.a + (i * mr + r) * src.lda;
    }
  }
};

// Rows [row0, row0 + rows) of C (c points at row row0), panels [p0, p1).
void GemmTile(const ASource& src, int64_t row0, int64_t rows, int64_t k,
              const float* packed, int64_t n, const float* bias_padded,
              ActRange act, float* c, int64_t ldc, int64_t p0, int64_t p1) {
  const int64_t taps = src.indirect != nullptr ? src.indirect->taps : 1;
  const int64_t seg = src.indirect != nullptr ? src.indirect->seg : k;
  // k blocks: channel ranges of one tap when a tap is long, else runs of
  // whole taps; each about kKBlock long when k is longer than kKSplit.
  int64_t taps_per_block = taps, cc = seg;
  if (seg > kKSplit) {
    taps_per_block = 1;
    cc = CeilDiv(seg, CeilDiv(seg, kKBlock));
  } else if (taps * seg > kKSplit) {
    taps_per_block = std::max<int64_t>(1, kKBlock / std::max<int64_t>(1, seg));
  }
  // Partial sums of the tile's rows for one panel between k blocks.
  alignas(64) float part[kMaxTileRows * kPanel];
  // Built once per tile and micro-block height (full and half panels).
  thread_local RowTable tables[2];
  tables[0].mr = tables[1].mr = 0;
  for (int64_t p = p0; p < p1; ++p) {
    const int64_t w = PanelCols(n, p);
    const int64_t col0 = p * kPanel;
    const int ncols = static_cast<int>(std::min(w, n - col0));
    const float* b = packed + p * kPanel * k;
    const float* bias = bias_padded + col0;
    float* cp = c + col0;
    const bool two = w == kPanel;
    const int mr = two ? kMr2 : kMr1;
    RowTable& table = tables[two ? 1 : 0];
    if (table.mr != mr) table.Build(src, row0, rows, taps, mr);
    for (int64_t t0 = 0; t0 < taps; t0 += taps_per_block) {
      const int64_t t1 = std::min(taps, t0 + taps_per_block);
      for (int64_t c0 = 0; c0 < seg; c0 += cc) {
        const int64_t cn = std::min(cc, seg - c0);
        const int64_t k0 = t0 * seg + c0;
        const int64_t kb = (t1 - t0) * cn;
        const bool first = k0 == 0, last = k0 + kb == k;
        const MicroFn* fns =
            two ? kTable2[first][last].data() : kTable1[first][last].data();
        const float* const* ptrs = table.data.data() + t0 * kRowPtrStride;
        for (int64_t r = 0; r < rows; r += mr) {
          const int h = static_cast<int>(std::min<int64_t>(mr, rows - r));
          float* pr = part + r * kPanel;
          fns[h - 1](t1 - t0, cn, ptrs, c0, b + k0 * w, first ? bias : pr,
                     act.lo, act.hi, last ? cp + r * ldc : pr, ldc, ncols);
          ptrs += taps * kRowPtrStride;
        }
      }
    }
  }
}

}  // namespace

void GemmRows(const float* a, int64_t lda, int64_t rows, int64_t k,
              const float* packed, int64_t n, const float* bias_padded,
              ActRange act, float* c, int64_t ldc, int64_t p0, int64_t p1) {
  ASource src;
  src.a = a;
  src.lda = lda;
  GemmTile(src, 0, rows, k, packed, n, bias_padded, act, c, ldc, p0, p1);
}

int64_t SplitWork(int64_t total, int64_t min_per_task, int64_t* per_task) {
  min_per_task = std::max<int64_t>(1, min_per_task);
  if (total <= min_per_task) {
    *per_task = std::max<int64_t>(1, total);
    return 1;
  }
  const int64_t tasks = total / min_per_task;
  *per_task = CeilDiv(total, tasks);
  return CeilDiv(total, *per_task);
}

GemmPlan PlanGemm(int64_t m, int64_t n, int64_t k) {
  // ~256 KFLOP per task: large enough to amortise claiming a task, small
  // enough to split mobile-sized layers (a few MFLOP each) into several
  // tasks per thread, which balances two to four threads.
  constexpr int64_t kMinTaskFlops = int64_t{1} << 18;
  // An A tile (tile_rows x k floats) of up to ~512 KiB stays in L2 while
  // the B panels pass over it, k block by k block.
  constexpr int64_t kTileFloats = 128 * 1024;
  // Row tasks wanted (when the work allows) before cutting columns: each
  // column task builds the A tile again (im2col), so columns are cut only
  // when the rows give too few tasks to balance the threads.
  constexpr int64_t kWantTasks = 8;

  GemmPlan plan;
  plan.m = m;
  plan.n = n;
  plan.k = k;
  plan.panels = NumPanels(n);
  const int64_t mr = n <= kLanes ? kMr1 : kMr2;
  const int64_t blocks = CeilDiv(std::max<int64_t>(1, m), mr);
  const int64_t flops_per_row = std::max<int64_t>(1, 2 * n * k);
  const int64_t wanted =
      std::clamp<int64_t>((m * flops_per_row) / kMinTaskFlops, 1, kWantTasks);

  int64_t tile_blocks = std::clamp<int64_t>(
      kTileFloats / std::max<int64_t>(1, k * mr), 1, kMaxTileRows / mr);
  // Enough tiles for `wanted` row tasks when there are rows for them.
  const int64_t min_row_tasks = std::min(blocks, wanted);
  tile_blocks = std::min(tile_blocks, CeilDiv(blocks, min_row_tasks));
  plan.tile_rows = std::max<int64_t>(1, std::min(tile_blocks * mr, m));

  // Several tiles per task when the tiles are small, as long as there are
  // still min_row_tasks of them.
  const int64_t tiles = CeilDiv(blocks, tile_blocks);
  int64_t tiles_per_task =
      CeilDiv(CeilDiv(kMinTaskFlops, flops_per_row), tile_blocks * mr);
  tiles_per_task = std::clamp<int64_t>(
      tiles_per_task, 1, std::max<int64_t>(1, tiles / min_row_tasks));
  plan.rows_per_task = tiles_per_task * plan.tile_rows;
  plan.row_tasks = std::max<int64_t>(1, CeilDiv(m, plan.rows_per_task));

  plan.panels_per_task = std::max<int64_t>(1, plan.panels);
  plan.col_tasks = 1;
  if (plan.row_tasks < wanted && plan.panels > 1) {
    const int64_t col_tasks =
        std::min(plan.panels, CeilDiv(wanted, plan.row_tasks));
    plan.panels_per_task = CeilDiv(plan.panels, col_tasks);
    plan.col_tasks = CeilDiv(plan.panels, plan.panels_per_task);
  }
  return plan;
}

void ScratchSlots::Resize(int slots, int64_t floats_per_slot) {
  slots = std::max(1, slots);
  if (slots == count_ && floats_per_slot == per_slot_) return;
  count_ = slots;
  per_slot_ = floats_per_slot;
  data_.assign(static_cast<size_t>(slots * floats_per_slot), 0.0f);
  busy_ = std::make_unique<std::atomic<bool>[]>(static_cast<size_t>(slots));
  for (int i = 0; i < slots; ++i) busy_[i].store(false);
}

int ScratchSlots::Claim() {
  for (;;) {
    for (int i = 0; i < count_; ++i) {
      if (!busy_[i].load(std::memory_order_relaxed) &&
          !busy_[i].exchange(true, std::memory_order_acquire)) {
        return i;
      }
    }
    std::this_thread::yield();
  }
}

void ScratchSlots::Release(int slot) {
  busy_[slot].store(false, std::memory_order_release);
}

void RunGemm(ThreadPool& pool, const GemmPlan& plan, int64_t batches,
             const GemmOperands& ops, ScratchSlots* slots) {
  if (plan.m == 0 || plan.n == 0 || batches == 0) return;
  const int64_t per_batch = plan.tasks_per_batch();
  auto task = [&](int64_t t) {
    const int64_t b = t / per_batch;
    const int64_t rt = (t % per_batch) / plan.col_tasks;
    const int64_t ct = t % plan.col_tasks;
    const int64_t r0 = rt * plan.rows_per_task;
    const int64_t r1 = std::min(plan.m, r0 + plan.rows_per_task);
    const int64_t p0 = ct * plan.panels_per_task;
    const int64_t p1 = std::min(plan.panels, p0 + plan.panels_per_task);
    int slot = -1;
    float* scratch = nullptr;
    if (ops.a_uses_scratch) {
      slot = slots->Claim();
      scratch = slots->slot(slot);
    }
    const float* packed = ops.b(b);
    const float* bias = ops.bias(b);
    float* c = ops.c(b);
    for (int64_t t0 = r0; t0 < r1; t0 += plan.tile_rows) {
      const int64_t nt = std::min(plan.tile_rows, r1 - t0);
      ASource src;
      src.indirect = ops.indirect;
      src.group = b;
      if (ops.indirect == nullptr) {
        src.lda = plan.k;
        src.a = ops.a(b, t0, nt, scratch, &src.lda);
      }
      GemmTile(src, t0, nt, plan.k, packed, plan.n, bias, ops.act,
               c + t0 * ops.ldc, ops.ldc, p0, p1);
    }
    if (slot >= 0) slots->Release(slot);
  };
  const int64_t total = batches * per_batch;
  const bool serial =
      total == 1 || pool.num_threads() <= 1 ||
      (ops.a_uses_scratch && slots->count() < pool.num_threads());
  if (serial) {
    for (int64_t t = 0; t < total; ++t) task(t);
  } else {
    pool.ParallelFor(total, task);
  }
}

}  // namespace qforge::runtime::conv_internal
