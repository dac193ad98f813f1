// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The int16 GEMM behind the fast integer CONV_2D and FULLY_CONNECTED
// kernels: C[m][c] = sum over taps t and depth k of A(m, t)[k] * B(c, t, k)
// with A = input - zero point and B = weights - zero point, both int16, and
// int32 accumulators (vpdpwssd on AVX-512 VNNI, vpmaddwd + vpaddd on
// AVX2): every product and pair sum is exact and the int32 sum wraps as the
// reference kernels' int32 accumulators do, so the accumulators equal the
// scalar kernels' (int64 references: see MaxAbsWeightSum). Rows come
// through an indirection table (XNNPACK's IGEMM): a convolution reads its
// input in place, padded taps read a row of zeros, and the output stage
// (common/output_stage_simd.h) runs on each tile as it is finished.
#ifndef QFORGE_RUNTIME_KERNELS_CONV_GEMM_SIMD_H_
#define QFORGE_RUNTIME_KERNELS_CONV_GEMM_SIMD_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "ir/types.h"
#include "numerics/fixed_point.h"
#include "runtime/cpu_isa.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/output_stage_simd.h"
#include "runtime/kernels/common/quant_int.h"

namespace qforge::runtime::integer {

// Weights packed once per model load: panels of Lanes(isa) output
// channels, each [tap][kc / 2][lane][2] int16, zero-padded in depth (to
// kc, even) and channels (to whole panels).
//
// dot4 (AVX-512 VNNI, int8 activations and int8 weights with zero point
// 0): [tap][kc / 4][lane][4] int8 for vpdpbusd, which multiplies unsigned
// by signed bytes. The A rows are then the int8 input read as u = x + 128
// (x ^ 0x80: on the fly, or once per op by FlipRows for GemmA::offsets):
// sum (x - zp) w = sum u w - (128 + zp) sum w, the second term folded into
// the bias (Dot4BiasCorrection), and a padded tap reads a row of zp bytes
// (u - (128 + zp) = 0). Each group of four u8 x s8 products is exact in
// int32 and the sums wrap, so the accumulators equal the int16 path's
// modulo 2^32, as the reference's.
struct PackedGemmWeights {
  Isa isa = Isa::kScalar;
  bool dot4 = false;
  int64_t n = 0, taps = 0, depth = 0, kc = 0, panels = 0;
  std::vector<int16_t> data;
  std::vector<int8_t> data8;  // dot4
  int64_t panel_stride() const;
};

// Lanes of int32 accumulators per vector: 16 (AVX-512), 8 (AVX2).
int Lanes(Isa isa);

// Packs w[c][t][k] (c < n, t < taps, k < depth; T = int8_t or uint8_t)
// minus `zero_point`.
template <typename T>
void PackGemmWeights(const T* w, int32_t zero_point, int64_t n, int64_t taps,
                     int64_t depth, Isa isa, PackedGemmWeights* out);

// The dot4 packing of int8 weights w[c][t][k] (kc: depth rounded up to 4).
void PackGemmWeightsDot4(const int8_t* w, int64_t n, int64_t taps,
                         int64_t depth, PackedGemmWeights* out);

// Per channel: -(128 + input_zero_point) * sum of the channel's weights,
// modulo 2^32 (for OutputStage::AddToBias).
std::vector<int32_t> Dot4BiasCorrection(const int8_t* w, int64_t n,
                                        int64_t per_channel,
                                        int32_t input_zero_point);

// max over channels of sum |w - zero_point|: with |A| <= 32768 the int32
// accumulator is exact (no partial sum overflows) when this is < 65536,
// which int16 kernels that accumulate in int64 check before taking the
// fast path.
template <typename T>
int64_t MaxAbsWeightSum(const T* w, int32_t zero_point, int64_t n,
                        int64_t per_channel);

// The A operand: rows of `kc` int16 per tap (dot4: kc int8).
struct GemmA {
  const void* base = nullptr;
  const void* zero = nullptr;  // kc zeros (dot4: zero points), padded taps
  // [m][taps] row indices into base (-1: zero); nullptr: row (i, t) is
  // base + (i * taps + t) * kc.
  const int32_t* indirection = nullptr;
  // dot4 with rows already read as unsigned (FlipRows: x ^ 0x80, one pass
  // per op instead of one xor per broadcast): row (i, t) is base +
  // offsets[i * taps + t] bytes, precomputed once per plan (indirection
  // and zero are then unused).
  const int32_t* offsets = nullptr;
};

// Scratch bytes GemmRows needs for `taps` taps.
size_t GemmScratchBytes(int64_t taps);

// Output rows [m0, m1) and channel panels [p0, p1): out row i holds n
// elements of the output stage's type at out + i * n.
void GemmRows(const PackedGemmWeights& w, const GemmA& a, int64_t m0,
              int64_t m1, int64_t p0, int64_t p1, const OutputStage& os,
              void* out, void* scratch);

// dot4's A rows for `offsets`: for each of `images` blocks of `pixels`
// rows of `channels` int8 values, dst's block (pixels + 1 rows of kc
// bytes, image i at i * (pixels + 1) * kc) gets the rows as x ^ 0x80
// (= x + 128 as uint8); the padding bytes of a row and the block's last
// row (the padded taps' row: zero point ^ 0x80, written by the caller) are
// not written.
void FlipRows(const OpContext& ctx, const int8_t* src, int64_t images,
              int64_t pixels, int64_t channels, int64_t kc, uint8_t* dst);

// Rows per tile of GemmRows (a task should hold several).
int GemmTileRows(Isa isa);

// dst[p][k] = src[p][k] - zero_point for k < channels, 0 for k in
// [channels, kc), for `pixels` rows (T = int8_t, uint8_t or int16_t).
template <typename T>
void ToInt16Rows(Isa isa, const T* src, int32_t zero_point, int64_t pixels,
                 int64_t channels, int64_t kc, int16_t* dst);

// ------------------------------------------------ depthwise convolution
//
// DEPTHWISE_CONV_2D with depth multiplier 1 over int16 rows (input - zero
// point, `cpad` channels per pixel, zero-padded): per channel vectors of
// int32 accumulators, each tap's product x * w formed exactly by vpmaddwd
// of (x, sign) with (w, 0).

struct DepthwiseWeights {
  Isa isa = Isa::kScalar;
  int64_t channels = 0, cpad = 0, taps = 0;
  std::vector<int32_t> data;  // [tap][cpad]: w - zero point in the low half
  // 8 channels, stride and dilation 1 in x: DepthwiseRowBytes runs two
  // output pixels per 16-lane vector (EnableDepthwisePairs).
  bool pairs8 = false;
};

// Channels padded to a multiple of the widest vector.
int64_t DepthwiseChannelsPadded(int64_t channels);

// w is [taps][channels] (TFLite's [1, h, w, c] filter).
template <typename T>
void PackDepthwiseWeights(const T* w, int32_t zero_point, int64_t taps,
                          int64_t channels, Isa isa, DepthwiseWeights* out);

struct DepthwiseGeometry {
  int64_t in_h = 0, in_w = 0, out_w = 0, k_h = 0, k_w = 0;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t pad_top = 0, pad_left = 0;
};

// Output row oy of one image: `x` is the image's int16 rows (in_h * in_w
// pixels of cpad), out the row's out_w * channels outputs.
void DepthwiseRow(const DepthwiseWeights& w, const DepthwiseGeometry& g,
                  const int16_t* x, int64_t oy, const OutputStage& os,
                  void* out);

// The AVX-512 form for int8 / uint8 activations (`is_signed`: int8): `x`
// is the image's input itself (in_h * in_w pixels of `channels` bytes,
// read in place, no int16 rows); the output stage's bias must carry
// DepthwiseInputCorrection(w, zero_point).
void DepthwiseRowBytes(const DepthwiseWeights& w, const DepthwiseGeometry& g,
                       const void* x, bool is_signed, int32_t zero_point,
                       int64_t oy, const OutputStage& os, void* out);

// Per channel: -zero_point * sum over taps of (w - weight zero point), the
// bias term DepthwiseRowBytes's accumulators need (|value| < 2^31: at most
// 64 taps of |w| <= 255 times |zero_point| <= 255).
// For an 8-channel 8-bit layer with x stride and dilation 1 (and at most
// 25 taps), makes DepthwiseRowBytes compute two adjacent output pixels per
// vector: mirrors `os`'s channel constants into lanes 8-15. Call after
// the output stage's bias is final.
void EnableDepthwisePairs(const DepthwiseGeometry& g, DepthwiseWeights* w,
                          OutputStage* os);

std::vector<int32_t> DepthwiseInputCorrection(const DepthwiseWeights& w,
                                              int32_t input_zero_point);

// ------------------------------------------------ the plans' shared steps
//
// CONV_2D / DEPTHWISE_CONV_2D (conv2d_simd.cc) and FULLY_CONNECTED
// (fully_connected_simd.cc) build a plan around the GEMM in their prepare
// and run it in eval. What both do:

// What the scalar prepare worked out about the requantization.
struct GemmRequant {
  ir::DataType type = ir::DataType::kInt8;  // activations
  int32_t input_zp = 0, weights_zp = 0, output_zp = 0;
  int32_t act_min = 0, act_max = 0;
  OutputStage::Scheme scheme = OutputStage::Scheme::kFixed;
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  const std::vector<int32_t>* multiplier = nullptr;
  const std::vector<int>* shift = nullptr;
  const std::vector<float>* xnn_scale = nullptr;    // empty or null: none
  const std::vector<double>* real_scale = nullptr;  // empty or null: none
};

// What every plan holds: the packed weights, the output stage, the A rows
// (int16, or padded int8 for dot4) and per-task scratch.
struct GemmPlanBase {
  Isa isa = Isa::kScalar;
  PackedGemmWeights gemm;
  OutputStage os;
  std::vector<int16_t> rows;
  std::vector<int8_t> rows8;
  ScratchSlots scratch;
};

// int16 inputs reach |x| = 32768; with sum |w| below this per channel no
// int32 partial sum overflows, so the int32 accumulator equals the
// reference's int64 one.
inline constexpr int64_t kInt16WeightSumLimit = 65536;

// Packs the weights `w` (uint8 with uint8 activations, else int8), n
// channels of taps x depth: the dot4 form when the Isa, the types and the
// zero point allow it (int32 accumulation), else int16 pairs.
void PackPlanWeights(const RtTensor& w, const GemmRequant& r, bool acc64,
                     int64_t n, int64_t taps, int64_t depth, Isa isa,
                     PackedGemmWeights* out);

// The output stage of `channels` channels: r's requantization, the bias of
// ctx's input 2, and for dot4 weights (`per_channel` values each, in
// ctx's input 1) their correction for reading the input as unsigned.
void InitPlanOutputStage(const OpContext& ctx, const GemmRequant& r,
                         int64_t channels, bool acc64,
                         const PackedGemmWeights& w, int64_t per_channel,
                         Isa isa, OutputStage* os);

// The A rows (kc values each) for `pixels` rows of `channels` values of
// `input`: dot4 reads the int8 input in place, or a copy padded to kc in
// *rows8 when that is not empty; the int16 form converts it into *rows
// (minus the input zero point). Returns the rows.
const void* PlanInputRows(const OpContext& ctx, const GemmRequant& r, Isa isa,
                          int64_t kc, bool dot4, const void* input,
                          int64_t pixels, int64_t channels,
                          std::vector<int16_t>* rows,
                          std::vector<int8_t>* rows8);

// GEMM tasks over (image, row chunk, panel group), from the shape alone.
struct GemmTasks {
  int64_t m = 0, rows_per_task = 0, m_tasks = 0;
  int64_t panels = 0, panels_per_task = 0, n_tasks = 0;
  int64_t images = 1;
  int64_t count() const { return images * m_tasks * n_tasks; }
};
GemmTasks SplitGemm(Isa isa, int64_t images, int64_t m,
                    const PackedGemmWeights& w);

// Runs every task: image i's A operand is a(i), its m x w.n outputs start
// at out + i * m * w.n output elements.
void RunGemmTasks(const OpContext& ctx, const GemmTasks& t,
                  const PackedGemmWeights& w, const OutputStage& os,
                  absl::FunctionRef<GemmA(int64_t image)> a, void* out,
                  ScratchSlots* scratch);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_CONV_GEMM_SIMD_H_
