// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE and DEQUANTIZE of activations, as TFLite's quantize.cc /
// dequantize.cc:
//  - float32 -> int8/uint8/int16: round(x / scale) + zero_point with the
//    division in double (TFLite's AffineQuantize; round half away from
//    zero), clamped to the type; per-axis output quantization is honoured;
//  - integer -> integer (int8, uint8, int16, int32 in any combination, the
//    requantization of a QUANTIZE between two quantized tensors):
//    (x - zp_in) * (s_in / s_out) with MultiplyByQuantizedMultiplier, plus
//    zp_out, clamped;
//  - DEQUANTIZE int8/uint8/int16/int32 -> float32:
//    float(scale * (x - zero_point)), per tensor or per axis.
// NaN inputs of QUANTIZE give the type's minimum (TFLite's cast of NaN is
// undefined).
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/elementwise/quantize_simd.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

// Per-element (or per-axis) affine parameters of one tensor.
struct AxisQuant {
  std::vector<double> scale;  // 1 or `count` entries
  std::vector<int32_t> zero_point;
  int64_t inner = 1;  // elements after the quantized axis
  int64_t count = 1;  // length of the quantized axis
  size_t Index(int64_t i) const {
    return scale.size() == 1 ? 0 : static_cast<size_t>((i / inner) % count);
  }
};

// Reads (possibly per-axis) quantization of `t`.
absl::Status ReadAxisQuant(const OpContext& ctx, const RtTensor& t,
                           absl::string_view role, AxisQuant* q) {
  const auto& qz = t.ir->quantization;
  if (!qz.has_value() || qz->scale.empty()) {
    return ctx.Error(
        absl::StrCat(role, " '", t.name(), "' has no quantization scale"));
  }
  const size_t n = qz->scale.size();
  if (n > 1) {
    const int axis = qz->quantized_dimension;
    if (axis < 0 || axis >= t.rank() ||
        t.dim(axis) != static_cast<int64_t>(n)) {
      return ctx.Error(absl::StrCat(role, " '", t.name(), "' has ", n,
                                    " scales along axis ", axis, " of shape ",
                                    DimsString(t.shape)));
    }
    q->count = static_cast<int64_t>(n);
    q->inner = 1;
    for (int d = axis + 1; d < t.rank(); ++d) q->inner *= t.dim(d);
  }
  if (!qz->zero_point.empty() && qz->zero_point.size() != n) {
    return ctx.Error(absl::StrCat(role, " '", t.name(), "' has ", n,
                                  " scales but ", qz->zero_point.size(),
                                  " zero points"));
  }
  q->scale.clear();
  q->zero_point.clear();
  for (size_t i = 0; i < n; ++i) {
    const float s = qz->scale[i];
    if (!(s > 0.0f) || !std::isfinite(s)) {
      return ctx.Error(absl::StrCat(role, " '", t.name(), "' has scale ", s,
                                    "; it must be positive and finite"));
    }
    const int64_t zp = qz->zero_point.empty() ? 0 : qz->zero_point[i];
    if (zp < integer::TypeMin(t.type) || zp > integer::TypeMax(t.type)) {
      return ctx.Error(absl::StrCat(role, " '", t.name(), "' has zero point ",
                                    zp, ", outside the ",
                                    ir::DataTypeName(t.type), " range"));
    }
    q->scale.push_back(static_cast<double>(s));
    q->zero_point.push_back(static_cast<int32_t>(zp));
  }
  return absl::OkStatus();
}

bool IsIntegerQuantType(ir::DataType t) {
  return integer::IsActivationType(t) || t == ir::DataType::kInt32;
}

struct QuantizeState : KernelState {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  ir::DataType in_type = ir::DataType::kFloat32;
  ir::DataType out_type = ir::DataType::kInt8;
  int64_t size = 0;
  AxisQuant out_q;  // float -> int
  // --arithmetic xnnpack, float -> int8/uint8 per tensor: LiteRT's XNNPACK
  // delegate converts with its f32 -> qs8/qu8 kernel, which multiplies by
  // the float reciprocal of the scale and rounds half to even (TFLite's
  // reference divides and rounds half away from zero). Image inputs
  // normalized as (p - 127.5) / 127.5 hit exact halves on every pixel.
  bool xnnpack = false;
  float inv_scale = 0;
  Isa isa = Isa::kScalar;  // float -> int per tensor: the vector path
  // --arithmetic xnnpack, int8 -> int8 / uint8 -> uint8 with a scale ratio
  // in [2^-8, 2^7] (the range LiteRT's XNNPACK delegate takes): XNNPACK's
  // convert multiplies by the ratio rounded to 8 fractional bits and rounds
  // halves up, (x * m + 128) >> 8; TFLite's arithmetic is 1 LSB off it on
  // some values (docs/numerics.md).
  bool xnnpack_requant = false;
  int32_t q8_multiplier = 0;
  // int -> int
  int32_t in_zp = 0, out_zp = 0, multiplier = 0;
  int shift = 0;
};

template <typename TOut>
void QuantizeFloat(const QuantizeState& s, const float* x, TOut* y,
                   int64_t begin, int64_t end) {
  const double lo = integer::TypeMin(s.out_type);
  const double hi = integer::TypeMax(s.out_type);
  if (s.xnnpack) {
    const int32_t zp = s.out_q.zero_point[0];
    const float flo = static_cast<float>(lo - zp);
    const float fhi = static_cast<float>(hi - zp);
    for (int64_t i = begin; i < end; ++i) {
      float v = x[i] * s.inv_scale;
      v = std::isnan(v) ? flo : std::min(std::max(v, flo), fhi);
      y[i] = static_cast<TOut>(static_cast<int32_t>(std::nearbyint(v)) + zp);
    }
    return;
  }
  if (s.out_q.scale.size() == 1 && s.isa >= Isa::kAvx2) {
    // The libm call per element made the input QUANTIZE of an image model a
    // fifth of its int8 run time; the vector path computes the same values.
    int32_t q[256];
    for (int64_t i = begin; i < end; i += 256) {
      const int64_t n = std::min<int64_t>(256, end - i);
      if (s.isa == Isa::kAvx512Vnni) {
        integer::QuantizeFloatAvx512(x + i, n, s.out_q.scale[0],
                                     s.out_q.zero_point[0], lo, hi, q);
      } else {
        integer::QuantizeFloatAvx2(x + i, n, s.out_q.scale[0],
                                   s.out_q.zero_point[0], lo, hi, q);
      }
      for (int64_t j = 0; j < n; ++j) y[i + j] = static_cast<TOut>(q[j]);
    }
    return;
  }
  for (int64_t i = begin; i < end; ++i) {
    const size_t k = s.out_q.Index(i);
    const double q = std::round(static_cast<double>(x[i]) / s.out_q.scale[k]) +
                     s.out_q.zero_point[k];
    y[i] =
        static_cast<TOut>(std::isnan(q) ? lo : std::max(lo, std::min(hi, q)));
  }
}

template <typename TIn, typename TOut>
void Requantize(const QuantizeState& s, const TIn* x, TOut* y, int64_t begin,
                int64_t end) {
  const int32_t lo = integer::TypeMin(s.out_type);
  const int32_t hi = integer::TypeMax(s.out_type);
  if (s.xnnpack_requant) {
    for (int64_t i = begin; i < end; ++i) {
      const int32_t v =
          (static_cast<int32_t>(x[i]) - s.in_zp) * s.q8_multiplier;
      y[i] = static_cast<TOut>(
          numerics::Clamp(((v + 128) >> 8) + s.out_zp, lo, hi));
    }
    return;
  }
  for (int64_t i = begin; i < end; ++i) {
    const int32_t v = static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<int64_t>(x[i]) - s.in_zp));
    const int32_t o = numerics::MultiplyByQuantizedMultiplier(
        v, s.multiplier, s.shift, s.rounding);
    // + zero point with int32 wrap-around, as TFLite.
    const int32_t w = static_cast<int32_t>(static_cast<uint32_t>(o) +
                                           static_cast<uint32_t>(s.out_zp));
    y[i] = static_cast<TOut>(numerics::Clamp(w, lo, hi));
  }
}

// Runs fn(y, begin, end) over chunks of the output, y typed by the output
// type (int8, uint8, int16; int32 otherwise).
template <typename Fn>
void ForOutputChunks(OpContext& ctx, const QuantizeState& s, const Fn& fn) {
  void* y = ctx.output(0)->data;
  ParallelChunks(ctx, s.size, integer::kElementwiseChunk,
                 [&s, &fn, y](int64_t b, int64_t e) {
                   switch (s.out_type) {
                     case ir::DataType::kInt8:
                       fn(static_cast<int8_t*>(y), b, e);
                       break;
                     case ir::DataType::kUInt8:
                       fn(static_cast<uint8_t*>(y), b, e);
                       break;
                     case ir::DataType::kInt16:
                       fn(static_cast<int16_t*>(y), b, e);
                       break;
                     default:
                       fn(static_cast<int32_t*>(y), b, e);
                       break;
                   }
                 });
}

template <typename TIn>
void DispatchRequantize(OpContext& ctx, const QuantizeState& s) {
  const TIn* x = ctx.input(0)->Data<TIn>();
  ForOutputChunks(ctx, s, [&s, x](auto* y, int64_t b, int64_t e) {
    Requantize(s, x, y, b, e);
  });
}

struct DequantizeState : KernelState {
  ir::DataType in_type = ir::DataType::kInt8;
  int64_t size = 0;
  AxisQuant q;
};

template <typename TIn>
void Dequantize(OpContext& ctx, const DequantizeState& s) {
  const TIn* x = ctx.input(0)->Data<TIn>();
  float* y = ctx.output(0)->Data<float>();
  ParallelChunks(
      ctx, s.size, integer::kElementwiseChunk,
      [&s, x, y](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const size_t k = s.q.Index(i);
          y[i] = static_cast<float>(
              s.q.scale[k] * (static_cast<int64_t>(x[i]) - s.q.zero_point[k]));
        }
      });
}

}  // namespace

absl::Status PrepareIntQuantize(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  RtTensor* out = ctx.output(0);
  if (in == nullptr) return ctx.Error("input 0 is missing");
  if (!IsIntegerQuantType(out->type)) {
    return ctx.Unsupported(
        absl::StrCat("QUANTIZE to ", ir::DataTypeName(out->type)));
  }
  auto state = std::make_unique<QuantizeState>();
  QuantizeState& s = *state;
  s.rounding = ctx.rounding();
  s.in_type = in->type;
  s.out_type = out->type;
  s.size = in->NumElements();
  if (in->type == ir::DataType::kFloat32) {
    RETURN_IF_ERROR(ReadAxisQuant(ctx, *out, "output", &s.out_q));
    s.xnnpack = ctx.arithmetic() == numerics::Arithmetic::kXnnpack &&
                (out->type == ir::DataType::kInt8 ||
                 out->type == ir::DataType::kUInt8) &&
                s.out_q.scale.size() == 1;
    if (s.xnnpack) {
      s.inv_scale = 1.0f / static_cast<float>(s.out_q.scale[0]);
    }
    s.isa = ctx.isa();
  } else if (IsIntegerQuantType(in->type)) {
    integer::QuantInfo qi, qo;
    RETURN_IF_ERROR(integer::ReadQuant(ctx, *in, "input", &qi));
    RETURN_IF_ERROR(integer::ReadQuant(ctx, *out, "output", &qo));
    s.in_zp = qi.zero_point;
    s.out_zp = qo.zero_point;
    const float ratio = qi.scale / qo.scale;
    s.xnnpack_requant =
        ctx.arithmetic() == numerics::Arithmetic::kXnnpack &&
        in->type == out->type &&
        (in->type == ir::DataType::kInt8 || in->type == ir::DataType::kUInt8) &&
        ratio >= 1.0f / 256 && ratio <= 128.0f;
    s.q8_multiplier = static_cast<int32_t>(std::lrintf(256.0f * ratio));
    numerics::QuantizeMultiplier(
        static_cast<double>(qi.scale) / static_cast<double>(qo.scale),
        &s.multiplier, &s.shift);
    if (s.shift > 30) {
      return ctx.Error(absl::StrCat("requantization from scale ", qi.scale,
                                    " to ", qo.scale, " is out of range"));
    }
  } else {
    return ctx.Unsupported(
        absl::StrCat("QUANTIZE from ", ir::DataTypeName(in->type)));
  }
  ctx.SetOutputShape(0, in->shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntQuantize(OpContext& ctx) {
  const QuantizeState& s = *ctx.state<QuantizeState>();
  switch (s.in_type) {
    case ir::DataType::kFloat32: {
      const float* x = ctx.input(0)->Data<float>();
      ForOutputChunks(ctx, s, [&s, x](auto* y, int64_t b, int64_t e) {
        QuantizeFloat(s, x, y, b, e);
      });
      return absl::OkStatus();
    }
    default:
      break;
  }
  if (ForTypeIn<int8_t, uint8_t, int16_t, int32_t>(s.in_type, [&](auto t) {
        DispatchRequantize<decltype(t)>(ctx, s);
      })) {
    return absl::OkStatus();
  }
  return ctx.Unsupported("QUANTIZE input type");
}

absl::Status PrepareIntDequantize(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  if (in == nullptr) return ctx.Error("input 0 is missing");
  if (!IsIntegerQuantType(in->type)) {
    return ctx.Unsupported(
        absl::StrCat("DEQUANTIZE of ", ir::DataTypeName(in->type)));
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(
        absl::StrCat("DEQUANTIZE to ", ir::DataTypeName(ctx.output(0)->type)));
  }
  auto state = std::make_unique<DequantizeState>();
  state->in_type = in->type;
  state->size = in->NumElements();
  RETURN_IF_ERROR(ReadAxisQuant(ctx, *in, "input", &state->q));
  ctx.SetOutputShape(0, in->shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntDequantize(OpContext& ctx) {
  const DequantizeState& s = *ctx.state<DequantizeState>();
  if (ForTypeIn<int8_t, uint8_t, int16_t, int32_t>(
          s.in_type, [&](auto t) { Dequantize<decltype(t)>(ctx, s); })) {
    return absl::OkStatus();
  }
  return ctx.Unsupported("DEQUANTIZE input type");
}

}  // namespace qforge::runtime
