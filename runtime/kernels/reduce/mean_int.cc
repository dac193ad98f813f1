// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer MEAN: TFLite's optimized int8 kernel for the common global pool
// (rank 4, keep_dims, axes {1, 2}): sum(x) * (s_in / (n * s_out)) as one
// quantized multiplier, plus zp_out - round(zp_in * s_in / s_out) (float
// arithmetic, as TFLite); every other case uses TFLite's reference
// QuantizedMeanOrSum: (sum(x) - n * zp_in) times s_in / s_out with 1/n
// folded into the multiplier (up to 32 bits of it), plus zp_out.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using integer::QuantInfo;

struct MeanState : KernelState {
  ir::DataType type = ir::DataType::kInt8;
  bool global_pool = false;  // TFLite's optimized int8 path
  int64_t num_in = 0, num_out = 0, reduced = 0;
  // Output index of input element i: sum over dims of coord * out_stride.
  int rank = 0;
  int64_t in_dims[8] = {};
  int64_t out_strides[8] = {};
  int32_t multiplier = 0;
  int shift = 0;
  int32_t in_zp = 0, out_zp = 0, bias = 0;
  std::vector<int32_t> sums;  // per output element
};

template <typename T>
void RunMean(OpContext& ctx, MeanState& s) {
  const T* x = ctx.input(0)->Data<T>();
  T* y = ctx.output(0)->Data<T>();
  std::fill(s.sums.begin(), s.sums.end(), 0);
  // Odometer over the input, accumulating into the output element.
  int64_t coord[8] = {};
  int64_t o = 0;
  for (int64_t i = 0; i < s.num_in; ++i) {
    s.sums[static_cast<size_t>(o)] += x[i];
    for (int d = s.rank - 1; d >= 0; --d) {
      ++coord[d];
      o += s.out_strides[d];
      if (coord[d] < s.in_dims[d]) break;
      o -= coord[d] * s.out_strides[d];
      coord[d] = 0;
    }
  }
  const int32_t lo = integer::TypeMin(s.type), hi = integer::TypeMax(s.type);
  const numerics::Rounding r = ctx.rounding();
  for (int64_t j = 0; j < s.num_out; ++j) {
    const int32_t sum = s.sums[static_cast<size_t>(j)];
    int32_t v;
    if (s.global_pool) {
      v = numerics::MultiplyByQuantizedMultiplier(sum, s.multiplier, s.shift,
                                                  r) +
          s.bias;
    } else {
      const int32_t shifted = static_cast<int32_t>(
          static_cast<uint32_t>(sum) -
          static_cast<uint32_t>(s.in_zp) * static_cast<uint32_t>(s.reduced));
      v = numerics::MultiplyByQuantizedMultiplier(shifted, s.multiplier,
                                                  s.shift, r) +
          s.out_zp;
    }
    y[j] = static_cast<T>(numerics::Clamp(v, lo, hi));
  }
}

}  // namespace

absl::Status PrepareIntMean(OpContext& ctx) {
  const RtTensor* in = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireActivationInOut(ctx, &in, &out));
  const RtTensor* axis_t = ctx.input(1);
  if (axis_t == nullptr || axis_t->type != ir::DataType::kInt32) {
    return ctx.Error("axis (input 1) must be an int32 tensor");
  }
  if (in->rank() > 8) {
    return ctx.Unsupported(absl::StrCat("MEAN of rank ", in->rank()));
  }
  if (!ctx.InputValueKnown(1)) {
    ctx.SetShapeDependsOnData();
    ctx.set_state(nullptr);
    return absl::OkStatus();
  }
  if (!axis_t->is_constant) ctx.SetShapeDependsOnData();
  const int rank = in->rank();
  bool reduce[8] = {};
  const int32_t* axes = axis_t->Data<int32_t>();
  for (int64_t i = 0; i < axis_t->NumElements(); ++i) {
    int32_t a = axes[i];
    if (a < -rank || a >= rank) {
      return ctx.Error(absl::StrCat("axis ", a, " is out of range for input '",
                                    in->name(), "' of rank ", rank));
    }
    if (a < 0) a += rank;
    reduce[a] = true;
  }
  const bool keep_dims =
      ir::OptionsOr<ir::ReducerOptions>(ctx.op().options).keep_dims;
  auto state = std::make_unique<MeanState>();
  MeanState& s = *state;
  s.type = in->type;
  s.rank = rank;
  s.num_in = in->NumElements();
  Dims out_shape;
  int64_t stride = 1;
  s.reduced = 1;
  for (int d = rank - 1; d >= 0; --d) {
    s.in_dims[d] = in->dim(d);
    if (reduce[d]) {
      s.out_strides[d] = 0;
      s.reduced *= in->dim(d);
    } else {
      s.out_strides[d] = stride;
      stride *= in->dim(d);
    }
  }
  for (int d = 0; d < rank; ++d) {
    if (!reduce[d]) {
      out_shape.push_back(in->dim(d));
    } else if (keep_dims) {
      out_shape.push_back(1);
    }
  }
  s.num_out = NumElements(out_shape);
  const bool is_int16 = in->type == ir::DataType::kInt16;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi, is_int16));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, is_int16));
  s.in_zp = qi.zero_point;
  s.out_zp = qo.zero_point;
  int reduced_count = 0;
  for (int d = 0; d < rank; ++d) reduced_count += reduce[d] ? 1 : 0;
  s.global_pool = in->type == ir::DataType::kInt8 && keep_dims && rank == 4 &&
                  reduced_count == 2 && reduce[1] && reduce[2];
  if (s.global_pool) {
    const float n = static_cast<float>(in->dim(1) * in->dim(2));
    float t = static_cast<float>(qi.zero_point) * qi.scale / qo.scale;
    t = t > 0 ? t + 0.5f : t - 0.5f;
    s.bias = qo.zero_point - static_cast<int32_t>(t);
    const float real = qi.scale / (n * qo.scale);
    numerics::QuantizeMultiplier(static_cast<double>(real), &s.multiplier,
                                 &s.shift);
  } else {
    int32_t m = 0;
    int sh = 0;
    numerics::QuantizeMultiplier(
        static_cast<double>(qi.scale) / static_cast<double>(qo.scale), &m, &sh);
    if (s.reduced > 0) {
      // Fold 1/n into the multiplier as TFLite does.
      int nshift = 0;
      while ((int64_t{2} << nshift) <= s.reduced) ++nshift;  // floor(log2 n)
      nshift = std::min(nshift, 32);
      nshift = std::min(nshift, 31 + sh);
      m = static_cast<int32_t>((static_cast<int64_t>(m) << nshift) / s.reduced);
      sh -= nshift;
    }
    s.multiplier = m;
    s.shift = sh;
  }
  if (s.shift > 30 || s.shift < -31) {
    return ctx.Error(absl::StrCat("MEAN rescaling of '", in->name(), "' to '",
                                  out->name(), "' is out of range (shift ",
                                  s.shift, ")"));
  }
  s.sums.assign(static_cast<size_t>(std::max<int64_t>(s.num_out, 1)), 0);
  ctx.SetOutputShape(0, out_shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntMean(OpContext& ctx) {
  MeanState* s = ctx.state<MeanState>();
  if (s == nullptr) return ctx.Error("axis was not known when prepared");
  if (s->num_out == 0) return absl::OkStatus();
  if (s->num_in == 0 || s->reduced == 0) {
    // Empty reduction: TFLite leaves zeros.
    std::memset(ctx.output(0)->data, 0, ctx.output(0)->bytes);
    return absl::OkStatus();
  }
  return integer::ForActivationType(
      ctx, s->type, "MEAN activation type",
      [&](auto t) { RunMean<decltype(t)>(ctx, *s); });
}

}  // namespace qforge::runtime
