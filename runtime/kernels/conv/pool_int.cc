// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer AVERAGE_POOL_2D and MAX_POOL_2D (TFLite's reference_integer_ops
// pooling): input and output share scale and zero point; the average is the
// window sum divided by the number of in-image taps, rounded half away from
// zero; both clamp to the fused activation range.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/common/simd_target.h"
#include "runtime/kernels/common/window.h"
#include "runtime/kernels/kernel_functions.h"

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

// MAX_POOL_2D on 8-bit activations, one output row: channels innermost,
// 64 per vector. A maximum is exact in any order, so this equals the
// scalar loop.
template <typename T>
QF_TARGET_AVX512 void MaxPoolRow512(const PoolState& s, const T* x, T* y,
                                    int64_t b, int64_t oy) {
  static_assert(sizeof(T) == 1, "8-bit activations");
  constexpr bool kSigned = std::is_signed_v<T>;
  const int64_t C = s.channels;
  const int64_t y0 = oy * s.stride_h - s.pad_top;
  const int64_t fy0 = std::max<int64_t>(0, -y0);
  const int64_t fy1 = std::min(s.f_h, s.in_h - y0);
  const __m512i lo = _mm512_set1_epi8(static_cast<char>(s.act_min));
  const __m512i hi = _mm512_set1_epi8(static_cast<char>(s.act_max));
  const __m512i lowest =
      _mm512_set1_epi8(static_cast<char>(std::numeric_limits<T>::lowest()));
  for (int64_t ox = 0; ox < s.out_w; ++ox) {
    const int64_t x0 = ox * s.stride_w - s.pad_left;
    const int64_t fx0 = std::max<int64_t>(0, -x0);
    const int64_t fx1 = std::min(s.f_w, s.in_w - x0);
    T* out = y + ((b * s.out_h + oy) * s.out_w + ox) * C;
    for (int64_t c = 0; c < C; c += 64) {
      const int64_t left = C - c;
      const __mmask64 k =
          left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
      __m512i acc = lowest;
      for (int64_t fy = fy0; fy < fy1; ++fy) {
        const T* row = x + ((b * s.in_h + y0 + fy) * s.in_w + x0) * C + c;
        for (int64_t fx = fx0; fx < fx1; ++fx) {
          const __m512i v = _mm512_maskz_loadu_epi8(k, row + fx * C);
          acc = kSigned ? _mm512_max_epi8(acc, v) : _mm512_max_epu8(acc, v);
        }
      }
      acc = kSigned ? _mm512_min_epi8(_mm512_max_epi8(acc, lo), hi)
                    : _mm512_min_epu8(_mm512_max_epu8(acc, lo), hi);
      _mm512_mask_storeu_epi8(out + c, k, acc);
    }
  }
}

template <typename T>
void RunPool(OpContext& ctx, const PoolState& s) {
  struct Args {
    const PoolState* s;
    const T* x;
    T* y;
  } args{&s, ctx.input(0)->Data<T>(), ctx.output(0)->Data<T>()};
  const Args* a = &args;
  if constexpr (sizeof(T) == 1) {
    if (s.is_max && ctx.isa() == Isa::kAvx512Vnni) {
      ctx.pool().ParallelFor(s.batch * s.out_h, [a](int64_t r) {
        MaxPoolRow512<T>(*a->s, a->x, a->y, r / a->s->out_h, r % a->s->out_h);
      });
      return;
    }
  }
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

}  // namespace

QF_KERNEL_AS(PrepareIntAveragePool2D, PreparePool(ctx, /*is_max=*/false))
QF_KERNEL_AS(EvalIntAveragePool2D, EvalPool(ctx))
QF_KERNEL_AS(PrepareIntMaxPool2D, PreparePool(ctx, /*is_max=*/true))
QF_KERNEL_AS(EvalIntMaxPool2D, EvalPool(ctx))

}  // namespace qforge::runtime
