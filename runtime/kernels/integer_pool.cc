// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer AVERAGE_POOL_2D, MAX_POOL_2D and MEAN.
//  - Pools (TFLite's reference_integer_ops pooling): input and output share
//    scale and zero point; the average is the window sum divided by the
//    number of in-image taps, rounded half away from zero; both clamp to
//    the fused activation range.
//  - MEAN: TFLite's optimized int8 kernel for the common global pool
//    (rank 4, keep_dims, axes {1, 2}): sum(x) * (s_in / (n * s_out)) as one
//    quantized multiplier, plus zp_out - round(zp_in * s_in / s_out) (float
//    arithmetic, as TFLite); every other case uses TFLite's reference
//    QuantizedMeanOrSum: (sum(x) - n * zp_in) times s_in / s_out with 1/n
//    folded into the multiplier (up to 32 bits of it), plus zp_out.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/integer.h"
#include "runtime/kernels/integer_internal.h"
#include "runtime/kernels/window.h"

namespace qforge::runtime {
namespace {

using integer::QuantInfo;

struct PoolState : KernelState {
  bool is_max = false;
  ir::DataType type = ir::DataType::kInt8;
  int64_t batch = 0, in_h = 0, in_w = 0, channels = 0, out_h = 0, out_w = 0;
  int64_t f_h = 0, f_w = 0, stride_h = 1, stride_w = 1, pad_top = 0,
          pad_left = 0;
  int32_t act_min = 0, act_max = 0;
};

template <typename T>
void RunPool(OpContext& ctx, const PoolState& s) {
  struct Args {
    const PoolState* s;
    const T* x;
    T* y;
  } args{&s, ctx.input(0)->Data<T>(), ctx.output(0)->Data<T>()};
  const Args* a = &args;
  ctx.pool().ParallelFor(s.batch * s.out_h, [a](int64_t r) {
    const PoolState& s = *a->s;
    const int64_t b = r / s.out_h;
    const int64_t oy = r % s.out_h;
    const int64_t y0 = oy * s.stride_h - s.pad_top;
    const int64_t fy0 = std::max<int64_t>(0, -y0);
    const int64_t fy1 = std::min(s.f_h, s.in_h - y0);
    for (int64_t ox = 0; ox < s.out_w; ++ox) {
      const int64_t x0 = ox * s.stride_w - s.pad_left;
      const int64_t fx0 = std::max<int64_t>(0, -x0);
      const int64_t fx1 = std::min(s.f_w, s.in_w - x0);
      T* y = a->y + ((b * s.out_h + oy) * s.out_w + ox) * s.channels;
      for (int64_t c = 0; c < s.channels; ++c) {
        int64_t acc = s.is_max ? std::numeric_limits<T>::lowest() : 0;
        int64_t count = 0;
        for (int64_t fy = fy0; fy < fy1; ++fy) {
          const T* row =
              a->x + ((b * s.in_h + y0 + fy) * s.in_w + x0) * s.channels + c;
          for (int64_t fx = fx0; fx < fx1; ++fx) {
            const int64_t v = row[fx * s.channels];
            if (s.is_max) {
              acc = std::max(acc, v);
            } else {
              acc += v;
            }
            ++count;
          }
        }
        if (!s.is_max) {
          // Round half away from zero (C++ division truncates).
          acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
        }
        acc = std::max<int64_t>(acc, s.act_min);
        acc = std::min<int64_t>(acc, s.act_max);
        y[c] = static_cast<T>(acc);
      }
    }
  });
}

absl::Status PreparePool(OpContext& ctx, bool is_max) {
  const RtTensor* in = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireActivationInOut(ctx, &in, &out));
  if (in->rank() != 4) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' has shape ",
                                  DimsString(in->shape), "; expected rank 4"));
  }
  const auto o = ir::OptionsOr<ir::Pool2DOptions>(ctx.op().options);
  auto state = std::make_unique<PoolState>();
  PoolState& s = *state;
  s.is_max = is_max;
  s.type = in->type;
  s.batch = in->dim(0);
  s.in_h = in->dim(1);
  s.in_w = in->dim(2);
  s.channels = in->dim(3);
  s.f_h = o.filter_height;
  s.f_w = o.filter_width;
  s.stride_h = o.stride_h;
  s.stride_w = o.stride_w;
  if (s.f_h <= 0 || s.f_w <= 0 || s.stride_h <= 0 || s.stride_w <= 0) {
    return ctx.Error(absl::StrCat("filter (", s.f_h, ",", s.f_w,
                                  ") and strides (", s.stride_h, ",",
                                  s.stride_w, ") must be positive"));
  }
  s.out_h = WindowOutSize(o.padding, s.in_h, s.f_h, s.stride_h, 1);
  s.out_w = WindowOutSize(o.padding, s.in_w, s.f_w, s.stride_w, 1);
  if (s.out_h < 0 || s.out_w < 0) {
    return ctx.Error(absl::StrCat("input '", in->name(), "' ",
                                  DimsString(in->shape),
                                  " is smaller than the pooling window"));
  }
  s.pad_top = WindowPadBefore(s.stride_h, 1, s.in_h, s.f_h, s.out_h);
  s.pad_left = WindowPadBefore(s.stride_w, 1, s.in_w, s.f_w, s.out_w);
  // Every window must overlap the image (TFLite fails on an empty one).
  if (s.out_h > 0 && s.out_w > 0 &&
      (s.pad_top >= s.f_h || s.pad_left >= s.f_w ||
       (s.out_h - 1) * s.stride_h - s.pad_top >= s.in_h ||
       (s.out_w - 1) * s.stride_w - s.pad_left >= s.in_w)) {
    return ctx.Error("a pooling window lies entirely in the padding");
  }
  const bool is_int16 = in->type == ir::DataType::kInt16;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi, is_int16));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo, is_int16));
  if (std::abs(qi.scale - qo.scale) > 1e-6f * std::max(1.0f, qi.scale) ||
      qi.zero_point != qo.zero_point) {
    return ctx.Error(absl::StrCat(
        "input '", in->name(), "' (scale ", qi.scale, ", zero point ",
        qi.zero_point, ") and output '", out->name(), "' (scale ", qo.scale,
        ", zero point ", qo.zero_point, ") must share quantization"));
  }
  RETURN_IF_ERROR(integer::ActivationRange(ctx, o.activation, out->type, qo,
                                           &s.act_min, &s.act_max));
  ctx.SetOutputShape(0, Dims{s.batch, s.out_h, s.out_w, s.channels});
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalPool(OpContext& ctx) {
  const PoolState& s = *ctx.state<PoolState>();
  if (s.batch * s.out_h * s.out_w * s.channels == 0) return absl::OkStatus();
  return integer::ForActivationType(
      ctx, s.type, "pool activation type",
      [&](auto t) { RunPool<decltype(t)>(ctx, s); });
}

// ------------------------------------------------------------------ MEAN

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

absl::Status PrepareIntAveragePool2D(OpContext& ctx) {
  return PreparePool(ctx, /*is_max=*/false);
}
absl::Status EvalIntAveragePool2D(OpContext& ctx) { return EvalPool(ctx); }
absl::Status PrepareIntMaxPool2D(OpContext& ctx) {
  return PreparePool(ctx, /*is_max=*/true);
}
absl::Status EvalIntMaxPool2D(OpContext& ctx) { return EvalPool(ctx); }

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
