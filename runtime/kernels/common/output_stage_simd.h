// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The output stage of the fast conv-like integer kernels: per-channel
// accumulator + bias, requantized, offset by the output zero point,
// clamped to the activation range and narrowed, fused into the kernel's
// output loop. It computes exactly what the scalar kernels'
// RequantizeChannel / RequantizeUnit compute (numerics/fixed_point.h and
// xnnpack_arithmetic.h), in every rounding mode and arithmetic:
//  - kFixed with an int32 accumulator: MultiplyByQuantizedMultiplier in the
//    op's rounding (single: one int64 product and shift; double: gemmlowp's
//    high multiply and rounding shift), lane by lane;
//  - kFixedSingle: always single rounding (ruy's output stage, --rounding
//    legacy int16 FULLY_CONNECTED);
//  - kXnnpack: float(acc) * scale, clamped, rounded half to even;
//  - kFixed with an int64 accumulator (int16 activations): the reduced
//    multiplier form;
//  - kByScale: round(acc * scale) in double (int16 FULLY_CONNECTED).
// The accumulators it receives are exact int32 sums (the kernels check the
// bound when the reference accumulates in int64). Forms without a vector
// implementation for the chosen Isa run the scalar functions per element.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_OUTPUT_STAGE_SIMD_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_OUTPUT_STAGE_SIMD_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ir/types.h"
#include "numerics/fixed_point.h"
#include "runtime/cpu_isa.h"

namespace qforge::runtime::integer {

class OutputStage {
 public:
  enum class Scheme : uint8_t { kFixed, kFixedSingle, kXnnpack, kByScale };
  struct Params {
    ir::DataType out_type = ir::DataType::kInt8;  // int8, uint8 or int16
    int64_t channels = 0;
    int32_t zero_point = 0, act_min = 0, act_max = 0;
    bool acc64 = false;  // the reference accumulates in int64
    Scheme scheme = Scheme::kFixed;
    numerics::Rounding rounding = numerics::Rounding::kSingle;
    const int32_t* multiplier = nullptr;  // kFixed*, per channel
    const int* shift = nullptr;
    const float* xnn_scale = nullptr;    // kXnnpack, per channel
    const double* real_scale = nullptr;  // kByScale, per channel
    // Per channel; at most one; nullptr: no bias.
    const int32_t* bias32 = nullptr;
    const int64_t* bias64 = nullptr;
  };

  // Precomputes the per-channel constants for `isa`'s lane layout.
  void Init(const Params& p, Isa isa);

  // Adds `extra[c]` to the int32 bias of every channel (zero-point
  // corrections of a kernel's accumulator), with int32 wrap-around.
  void AddToBias(const int32_t* extra);

  // Copies the constants of channels [0, 8) to [8, 16) (an 8-channel stage
  // only): Run/RunRows with c0 0 and count 16 then treat two 8-channel
  // pixels per 16 lanes. Call after AddToBias.
  void MirrorEightChannels();

  // Channels [c0, c0 + count) of one output row: acc[i] is channel
  // c0 + i's accumulator, written to out (of the output type) + i. c0 is a
  // multiple of the Isa's lane count.
  void Run(const int32_t* acc, int64_t c0, int64_t count, void* out) const;
  // Run on `rows` rows at once (row r: acc + r * acc_stride, out + r *
  // out_stride bytes), loading each channel's constants once.
  void RunRows(const int32_t* acc, int64_t acc_stride, int rows, int64_t c0,
               int64_t count, void* out, int64_t out_stride) const;

  Isa isa() const { return isa_; }
  // Bytes per output element.
  size_t out_bytes() const {
    return p_.out_type == ir::DataType::kInt16 ? 2 : 1;
  }
  // True when Run uses vector code (else the scalar functions per element).
  bool vectorized() const { return kind_ != Kind::kScalar; }

 private:
  enum class Kind : uint8_t {
    kScalar,
    kSingle32,
    kSingleHi32,
    kDouble32,
    kXnnpack32,
    kFixed64,
    kByScale,
  };
  int32_t ScalarOne(int32_t acc, int64_t c) const;
  void RunScalar(const int32_t* acc, int64_t c0, int64_t count,
                 void* out) const;
  void RunAvx2(const int32_t* acc, int64_t c0, int64_t count, void* out) const;
  void RunAvx512(const int32_t* acc, int64_t c0, int64_t count,
                 void* out) const;
  template <Kind kKind>
  void RowsAvx512(const int32_t* acc, int64_t acc_stride, int rows, int64_t c0,
                  int64_t count, void* out, int64_t out_stride) const;

  Params p_;
  Isa isa_ = Isa::kScalar;
  Kind kind_ = Kind::kScalar;
  // Per channel, padded to a multiple of 16 (zeros).
  std::vector<int32_t> bias32_, m32_, ls32_, rs32_, mask32_, half32_;
  std::vector<int64_t> bias64_, m64_, ts64_, rnd64_;
  std::vector<float> scale_f_;
  std::vector<double> scale_d_;
  // Single rounding, int64 lanes of the even and odd channels of each
  // block of lanes: 31 - shift, 2^(30 - shift), and (AVX2) 2^63 >> (31 -
  // shift) for an arithmetic shift made of a logical one.
  std::vector<int64_t> ts_even_, ts_odd_, rnd_even_, rnd_odd_;
  std::vector<int64_t> sign_even_, sign_odd_;
  // kSingleHi32 (AVX-512, every shift <= -2, so 31 - shift >= 33): the
  // odd channels' multipliers in the even lanes, 2^(30 - shift - 32) and
  // 31 - shift - 32 per channel.
  std::vector<int32_t> m_odd32_, hi_rnd32_, hi_shift32_;
  float lo_f_ = 0, hi_f_ = 0;  // kXnnpack: clamp bounds minus zero point
  // Copies of the Params arrays (the caller's may not outlive Init).
  std::vector<int32_t> multiplier_;
  std::vector<int> shift_;
};

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_OUTPUT_STAGE_SIMD_H_
