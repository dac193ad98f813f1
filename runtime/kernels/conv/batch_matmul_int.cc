// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer BATCH_MATMUL, as LiteRT's batch_matmul.cc with
// reference_ops::BatchMatMul: lhs [..., M, K] (adj_x: [..., K, M]) times rhs
// [..., K, N] (adj_y: [..., N, K]), batch dimensions broadcast
// (batch_matmul_shape.h);
//   out = clamp(zp_out + MultiplyByQuantizedMultiplier(
//                 sum_k (l - zp_l)(r - zp_r), M, s))
// with M, s from the float expression s_l * s_r / s_out. Type combinations
// (lhs x rhs -> output), as LiteRT takes them:
//  - int8 x int8 -> int8: int32 accumulator (the 32-bit multiply);
//  - int16 x int16 -> int16 and int16 x int8 -> int16 (a16w8, as the AI
//    Edge Quantizer writes for einsums): int64 accumulator and TFLite's
//    int64 MultiplyByQuantizedMultiplier; zero points 0.
// No fused activation.
//
// The rhs scale and zero point are TFLite's per-tensor ("legacy") ones,
// which is all LiteRT's kernel reads: the tensor's only scale, or 0 (and
// zero point 0) when the tensor carries per-channel scales, since TFLite
// fills the legacy parameters only for single-scale tensors. A per-channel
// rhs therefore gives multiplier 0 and every output equals the output zero
// point, in LiteRT and here.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/conv/batch_matmul_shape.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

struct IntBatchMatMulState : KernelState, BatchMatMulShape {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  ir::DataType lhs_type = ir::DataType::kInt8;
  ir::DataType rhs_type = ir::DataType::kInt8;
  int32_t lhs_offset = 0, rhs_offset = 0, out_offset = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t qmin = 0, qmax = 0;
  // Eval's scratch: rhs repacked (kept across runs, no reallocation).
  mutable std::vector<int32_t> packed_rhs;
};

// An exact integer dot product: the order of the sum is free, so the loop
// vectorizes (each product fits int32: |l|, |r| <= 2^15 with zero points 0
// for int16, <= 255 with offsets for int8).
template <typename Acc>
Acc Dot(const int32_t* a, const int32_t* b, int64_t k) {
  Acc acc = 0;
  for (int64_t i = 0; i < k; ++i) acc += static_cast<Acc>(a[i] * b[i]);
  return acc;
}

template <typename TL, typename TR, typename Acc>
void RunBatchMatMul(OpContext& ctx, const IntBatchMatMulState& s) {
  const TL* lhs = ctx.input(0)->Data<TL>();
  const TR* rhs = ctx.input(1)->Data<TR>();
  TL* out = ctx.output(0)->Data<TL>();
  // rhs as [batch][n][k] int32 with its offset applied, so that every output
  // is a contiguous dot product (a strided column walk is far slower).
  const int64_t rhs_batches =
      s.rhs_index.empty()
          ? 0
          : *std::max_element(s.rhs_index.begin(), s.rhs_index.end()) + 1;
  std::vector<int32_t>& packed = s.packed_rhs;
  packed.resize(static_cast<size_t>(rhs_batches * s.n * s.k));
  const int64_t rk_stride = s.adj_y ? 1 : s.n;
  const int64_t rj_stride = s.adj_y ? s.k : 1;
  for (int64_t b = 0; b < rhs_batches; ++b) {
    const TR* r = rhs + b * s.k * s.n;
    int32_t* p = packed.data() + b * s.n * s.k;
    for (int64_t j = 0; j < s.n; ++j) {
      for (int64_t kk = 0; kk < s.k; ++kk) {
        p[j * s.k + kk] = r[kk * rk_stride + j * rj_stride] + s.rhs_offset;
      }
    }
  }
  const IntBatchMatMulState* sp = &s;
  const int32_t* pr = packed.data();
  const int64_t rows = static_cast<int64_t>(s.lhs_index.size()) * s.m;
  const int64_t chunk = std::max<int64_t>(
      1, integer::kElementwiseChunk / std::max<int64_t>(1, s.n * s.k));
  ParallelChunks(
      ctx, rows, chunk, [sp, lhs, pr, out](int64_t begin, int64_t end) {
        const IntBatchMatMulState& s = *sp;
        // Element strides of lhs (i, k) within a batch.
        const int64_t li_stride = s.adj_x ? 1 : s.k;
        const int64_t lk_stride = s.adj_x ? s.m : 1;
        std::vector<int32_t> lrow(static_cast<size_t>(s.k));
        for (int64_t row = begin; row < end; ++row) {
          const int64_t b = row / s.m, i = row % s.m;
          const TL* l = lhs + s.lhs_index[static_cast<size_t>(b)] * s.m * s.k +
                        i * li_stride;
          for (int64_t kk = 0; kk < s.k; ++kk) {
            lrow[static_cast<size_t>(kk)] = l[kk * lk_stride] + s.lhs_offset;
          }
          const int32_t* r =
              pr + s.rhs_index[static_cast<size_t>(b)] * s.n * s.k;
          TL* o = out + row * s.n;
          for (int64_t j = 0; j < s.n; ++j) {
            const Acc acc = Dot<Acc>(lrow.data(), r + j * s.k, s.k);
            int32_t v = s.out_offset;
            if constexpr (std::is_same_v<Acc, int32_t>) {
              v += numerics::MultiplyByQuantizedMultiplier(acc, s.multiplier,
                                                           s.shift, s.rounding);
            } else {  // int64: one rounding in every mode
              v += numerics::MultiplyByQuantizedMultiplier(acc, s.multiplier,
                                                           s.shift);
            }
            o[j] = static_cast<TL>(numerics::Clamp(v, s.qmin, s.qmax));
          }
        }
      });
}

// The rhs's per-tensor scale and zero point as TFLite's legacy parameters
// hold them: its single scale, or 0 and 0 for a per-channel tensor.
absl::Status ReadLegacyRhsQuant(const OpContext& ctx, const RtTensor& rhs,
                                bool require_zero_zp, integer::QuantInfo* q) {
  const auto& qz = rhs.ir->quantization;
  if (qz.has_value() && qz->IsPerAxis()) {
    q->scale = 0.0f;
    q->zero_point = 0;
    return absl::OkStatus();
  }
  return integer::ReadQuant(ctx, rhs, "rhs", q, require_zero_zp);
}

}  // namespace

absl::Status PrepareIntBatchMatMul(OpContext& ctx) {
  const RtTensor *lhs = nullptr, *rhs = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireBinaryInOut(ctx, &lhs, &rhs, &out));
  const bool a16w8 = lhs->type == ir::DataType::kInt16 &&
                     rhs->type == ir::DataType::kInt8 &&
                     out->type == ir::DataType::kInt16;
  if (lhs->type == ir::DataType::kUInt8 || (rhs->type != lhs->type && !a16w8) ||
      out->type != lhs->type) {
    return ctx.Unsupported(absl::StrCat(
        "lhs ", ir::DataTypeName(lhs->type), ", rhs ",
        ir::DataTypeName(rhs->type), ", output ", ir::DataTypeName(out->type),
        " (TFLite takes int8 x int8 -> int8, int16 x int16 -> int16 and "
        "int16 x int8 -> int16)"));
  }
  const bool is_int16 = lhs->type == ir::DataType::kInt16;
  integer::QuantInfo ql, qr, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *lhs, "lhs", &ql, is_int16));
  RETURN_IF_ERROR(ReadLegacyRhsQuant(ctx, *rhs, is_int16, &qr));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, is_int16));
  auto state = std::make_unique<IntBatchMatMulState>();
  IntBatchMatMulState& s = *state;
  s.rounding = ctx.rounding();
  RETURN_IF_ERROR(ComputeBatchMatMulShape(ctx, *lhs, *rhs, &s));
  s.lhs_type = lhs->type;
  s.rhs_type = rhs->type;
  s.lhs_offset = -ql.zero_point;
  s.rhs_offset = -qr.zero_point;
  s.out_offset = qo.zero_point;
  s.qmin = integer::TypeMin(lhs->type);
  s.qmax = integer::TypeMax(lhs->type);
  const double real = static_cast<double>(ql.scale * qr.scale / qo.scale);
  numerics::QuantizeMultiplier(real, &s.multiplier, &s.shift);
  if (s.shift > (is_int16 ? 7 : 30)) {
    return ctx.Error(absl::StrCat("rescaling factor ", real,
                                  " of the product is too large"));
  }
  ctx.SetOutputShape(0, s.output_shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntBatchMatMul(OpContext& ctx) {
  const IntBatchMatMulState& s = *ctx.state<IntBatchMatMulState>();
  if (s.lhs_type == ir::DataType::kInt8) {
    RunBatchMatMul<int8_t, int8_t, int32_t>(ctx, s);
  } else if (s.rhs_type == ir::DataType::kInt8) {
    RunBatchMatMul<int16_t, int8_t, int64_t>(ctx, s);
  } else {
    RunBatchMatMul<int16_t, int16_t, int64_t>(ctx, s);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
