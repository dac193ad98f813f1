// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer BATCH_MATMUL (int8; int16 with zero points 0), as TFLite's
// batch_matmul.cc with reference_ops::BatchMatMul: lhs [..., M, K] (adj_x:
// [..., K, M]) times rhs [..., K, N] (adj_y: [..., N, K]), batch dimensions
// broadcast NumPy style;
//   out = clamp(zp_out + MultiplyByQuantizedMultiplier(
//                 sum_k (l - zp_l)(r - zp_r), M, s))
// with M, s from the float expression s_l * s_r / s_out. int8 accumulates
// in int32 (the 32-bit double-rounding multiply), int16 in int64 (TFLite's
// int64 MultiplyByQuantizedMultiplier). No fused activation.
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/integer.h"
#include "runtime/kernels/integer_internal.h"

namespace qforge::runtime {
namespace {

struct IntBatchMatMulState : KernelState {
  ir::DataType type = ir::DataType::kInt8;
  int64_t m = 0, n = 0, k = 0;
  bool adj_x = false, adj_y = false;
  std::vector<int64_t> lhs_index, rhs_index;  // batch offsets per out batch
  int32_t lhs_offset = 0, rhs_offset = 0, out_offset = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t qmin = 0, qmax = 0;
};

// Batch offsets (in batches) of lhs and rhs for each output batch.
void BroadcastBatches(const Dims& out, const Dims& lhs, const Dims& rhs,
                      std::vector<int64_t>* li, std::vector<int64_t>* ri) {
  const size_t rank = out.size();
  const int64_t count = NumElements(out);
  li->assign(static_cast<size_t>(count), 0);
  ri->assign(static_cast<size_t>(count), 0);
  std::vector<int64_t> idx(rank, 0);
  for (int64_t o = 0; o < count; ++o) {
    int64_t l = 0, r = 0;
    for (size_t d = 0; d < rank; ++d) {
      l = l * lhs[d] + (lhs[d] == 1 ? 0 : idx[d]);
      r = r * rhs[d] + (rhs[d] == 1 ? 0 : idx[d]);
    }
    (*li)[static_cast<size_t>(o)] = l;
    (*ri)[static_cast<size_t>(o)] = r;
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
}

template <typename T, typename Acc>
void RunBatchMatMul(OpContext& ctx, const IntBatchMatMulState& s) {
  const T* lhs = ctx.input(0)->Data<T>();
  const T* rhs = ctx.input(1)->Data<T>();
  T* out = ctx.output(0)->Data<T>();
  const IntBatchMatMulState* sp = &s;
  const int64_t rows = static_cast<int64_t>(s.lhs_index.size()) * s.m;
  const int64_t chunk = std::max<int64_t>(
      1, integer::kElementwiseChunk / std::max<int64_t>(1, s.n * s.k));
  integer::ParallelChunks(
      ctx, rows, chunk, [sp, lhs, rhs, out](int64_t begin, int64_t end) {
        const IntBatchMatMulState& s = *sp;
        // Element strides of lhs (i, k) and rhs (k, j) within a batch.
        const int64_t li_stride = s.adj_x ? 1 : s.k;
        const int64_t lk_stride = s.adj_x ? s.m : 1;
        const int64_t rk_stride = s.adj_y ? 1 : s.n;
        const int64_t rj_stride = s.adj_y ? s.k : 1;
        for (int64_t row = begin; row < end; ++row) {
          const int64_t b = row / s.m, i = row % s.m;
          const T* l = lhs + s.lhs_index[static_cast<size_t>(b)] * s.m * s.k +
                       i * li_stride;
          const T* r = rhs + s.rhs_index[static_cast<size_t>(b)] * s.k * s.n;
          T* o = out + row * s.n;
          for (int64_t j = 0; j < s.n; ++j) {
            Acc acc = 0;
            for (int64_t kk = 0; kk < s.k; ++kk) {
              acc += static_cast<Acc>(l[kk * lk_stride] + s.lhs_offset) *
                     static_cast<Acc>(r[kk * rk_stride + j * rj_stride] +
                                      s.rhs_offset);
            }
            const int32_t v = numerics::MultiplyByQuantizedMultiplier(
                                  acc, s.multiplier, s.shift) +
                              s.out_offset;
            o[j] = static_cast<T>(numerics::Clamp(v, s.qmin, s.qmax));
          }
        }
      });
}

}  // namespace

absl::Status PrepareIntBatchMatMul(OpContext& ctx) {
  const RtTensor* lhs = nullptr;
  const RtTensor* rhs = nullptr;
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 0, &lhs));
  RETURN_IF_ERROR(integer::RequireActivation(ctx, 1, &rhs));
  RtTensor* out = ctx.output(0);
  if (lhs->type == ir::DataType::kUInt8 || rhs->type != lhs->type ||
      out->type != lhs->type) {
    return ctx.Unsupported(absl::StrCat(
        "lhs ", ir::DataTypeName(lhs->type), ", rhs ",
        ir::DataTypeName(rhs->type), ", output ", ir::DataTypeName(out->type),
        " (TFLite takes int8 or int16 for all three)"));
  }
  const bool is_int16 = lhs->type == ir::DataType::kInt16;
  integer::QuantInfo ql, qr, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *lhs, "lhs", &ql, is_int16));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *rhs, "rhs", &qr, is_int16));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, is_int16));
  for (const RtTensor* t : {lhs, rhs}) {
    if (t->rank() < 2) {
      return ctx.Error(absl::StrCat("'", t->name(), "' ", DimsString(t->shape),
                                    " must have rank 2 or more"));
    }
  }
  const auto opts = ir::OptionsOr<ir::BatchMatMulOptions>(ctx.op().options);
  const int lr = lhs->rank(), rr = rhs->rank();
  auto state = std::make_unique<IntBatchMatMulState>();
  IntBatchMatMulState& s = *state;
  s.type = lhs->type;
  s.adj_x = opts.adj_x;
  s.adj_y = opts.adj_y;
  s.m = opts.adj_x ? lhs->dim(lr - 1) : lhs->dim(lr - 2);
  s.k = opts.adj_x ? lhs->dim(lr - 2) : lhs->dim(lr - 1);
  const int64_t rhs_k = opts.adj_y ? rhs->dim(rr - 1) : rhs->dim(rr - 2);
  s.n = opts.adj_y ? rhs->dim(rr - 2) : rhs->dim(rr - 1);
  if (s.k != rhs_k) {
    return ctx.Error(absl::StrCat("lhs ", DimsString(lhs->shape),
                                  " has inner dimension ", s.k, " but rhs ",
                                  DimsString(rhs->shape), " has ", rhs_k));
  }
  Dims lb(lhs->shape.begin(), lhs->shape.end() - 2);
  Dims rb(rhs->shape.begin(), rhs->shape.end() - 2);
  Dims out_batch;
  RETURN_IF_ERROR(BroadcastShapes(ctx, lb, rb, &out_batch));
  while (lb.size() < out_batch.size()) lb.insert(lb.begin(), 1);
  while (rb.size() < out_batch.size()) rb.insert(rb.begin(), 1);
  BroadcastBatches(out_batch, lb, rb, &s.lhs_index, &s.rhs_index);
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
  Dims out_shape = out_batch;
  out_shape.push_back(s.m);
  out_shape.push_back(s.n);
  ctx.SetOutputShape(0, std::move(out_shape));
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntBatchMatMul(OpContext& ctx) {
  const IntBatchMatMulState& s = *ctx.state<IntBatchMatMulState>();
  if (s.type == ir::DataType::kInt16) {
    RunBatchMatMul<int16_t, int64_t>(ctx, s);
  } else {
    RunBatchMatMul<int8_t, int32_t>(ctx, s);
  }
  return absl::OkStatus();
}

}  // namespace qforge::runtime
