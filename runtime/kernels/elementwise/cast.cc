// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// CAST and DEQUANTIZE.
//
// CAST between float32, float16, int32, int64, int16, int8, uint8, bool
// (types come from the tensors, as in TFLite; CastOptions are ignored):
//  - float -> int truncates toward zero. TFLite saturates float -> int32
//    (NaN and values above the range -> INT32_MAX) and clamps float -> int16
//    / uint8 to the type's range. Its other float -> int casts are plain C++
//    casts (undefined out of range); here, as LiteRT (WebAssembly) computes
//    them: float -> int64 saturates, float -> int8 saturates to int32 and
//    then wraps; NaN becomes 0 wherever TFLite leaves it undefined.
//  - int -> narrower int wraps; int -> float rounds to nearest.
//  - x -> bool is x != 0 (NaN -> true); bool -> x is 0 or 1.
//  - float16 goes through float32 (numerics/float16.h, round to nearest
//    even, as TFLite's fp16 library).
//
// DEQUANTIZE to float32 from float16 (weights), or from int8 / uint8 / int16
// / int4 with the input's scale and zero point (int16: zero point 0, as
// TFLite requires): per tensor
// float(double(scale) * (q - zero_point)) (TFLite's reference), per axis
// (q - zero_point[c]) * scale[c] in float (TFLite's PerChannelDequantize).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/float16.h"
#include "runtime/kernels/elementwise/elementwise.h"

namespace qforge::runtime {
namespace {

// Storage types that are not plain C++ numbers.
struct Half {
  uint16_t bits;
};
struct BoolByte {
  uint8_t value;
};

}  // namespace

template <>
struct DataTypeTrait<Half> {
  static constexpr ir::DataType value = ir::DataType::kFloat16;
};
template <>
struct DataTypeTrait<BoolByte> {
  static constexpr ir::DataType value = ir::DataType::kBool;
};

namespace {

template <typename To>
To FloatToInt(float v) {
  if constexpr (std::is_same_v<To, int32_t>) {
    // TFLite: a <= nextafter(2^31, 0) ? int32(max(a, -2^31)) : INT32_MAX.
    const float max_float = 2147483520.0f;
    return v <= max_float ? static_cast<int32_t>(std::max(v, -2147483648.0f))
                          : std::numeric_limits<int32_t>::max();
  } else if constexpr (std::is_same_v<To, int16_t> ||
                       std::is_same_v<To, uint8_t>) {
    if (std::isnan(v)) return To{0};
    const float lo = static_cast<float>(std::numeric_limits<To>::min());
    const float hi = static_cast<float>(std::numeric_limits<To>::max());
    return static_cast<To>(std::max(std::min(v, hi), lo));
  } else if constexpr (std::is_same_v<To, int64_t>) {
    if (std::isnan(v)) return 0;
    if (v >= 9223372036854775808.0f) return std::numeric_limits<int64_t>::max();
    if (v < -9223372036854775808.0f) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(v);
  } else {
    // int8: via a saturating int32 conversion, then wrap.
    int32_t wide;
    if (std::isnan(v)) {
      wide = 0;
    } else if (v >= 2147483648.0f) {
      wide = std::numeric_limits<int32_t>::max();
    } else if (v < -2147483648.0f) {
      wide = std::numeric_limits<int32_t>::min();
    } else {
      wide = static_cast<int32_t>(v);
    }
    return static_cast<To>(wide);
  }
}

// One element From -> To by the rules above.
template <typename To, typename From>
To Convert(From v) {
  if constexpr (std::is_same_v<From, Half>) {
    return Convert<To>(numerics::HalfToFloat(v.bits));
  } else if constexpr (std::is_same_v<From, BoolByte>) {
    return Convert<To>(static_cast<uint8_t>(v.value != 0 ? 1 : 0));
  } else if constexpr (std::is_same_v<To, Half>) {
    return Half{numerics::FloatToHalf(static_cast<float>(v))};
  } else if constexpr (std::is_same_v<To, BoolByte>) {
    return BoolByte{static_cast<uint8_t>(v != From{0} ? 1 : 0)};
  } else if constexpr (std::is_same_v<From, float> && std::is_integral_v<To>) {
    return FloatToInt<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

template <typename From, typename To>
void CastLoop(const OpContext& ctx, const From* in, To* out, int64_t n) {
  if constexpr (std::is_same_v<From, To>) {
    if (n > 0 && static_cast<const void*>(in) != static_cast<void*>(out)) {
      std::memcpy(out, in, static_cast<size_t>(n) * sizeof(To));
    }
  } else {
    elementwise::EvalUnary(ctx, in, out, n,
                           [](From v) { return Convert<To>(v); });
  }
}

// Calls fn(T{}) with T the storage type of `type`; false if unsupported.
template <typename Fn>
bool VisitCastType(ir::DataType type, const Fn& fn) {
  return ForTypeIn<float, Half, int32_t, int64_t, int16_t, int8_t, uint8_t,
                   BoolByte>(type, fn);
}

// ------------------------------------------------------------ dequantize --

struct DequantizeState : KernelState {
  bool per_axis = false;
  double scale = 1.0;  // per tensor
  int64_t zero_point = 0;
  int64_t outer = 1, channels = 1, inner = 1;  // per axis
  std::vector<float> scales;
  std::vector<int32_t> zero_points;
};

// Element j of an int4 tensor: two per byte, low nibble first, sign-extended.
inline int32_t Int4At(const uint8_t* data, int64_t j) {
  const uint8_t byte = data[j >> 1];
  const uint8_t nibble = (j & 1) != 0 ? (byte >> 4) : (byte & 0x0F);
  return (nibble & 0x08) != 0 ? static_cast<int32_t>(nibble) - 16 : nibble;
}

template <typename Q>
inline int32_t QuantAt(const uint8_t* data, int64_t j) {
  if constexpr (std::is_same_v<Q, void>) {
    return Int4At(data, j);  // void stands for int4
  } else {
    return reinterpret_cast<const Q*>(data)[j];
  }
}

template <typename Q>
void Dequantize(const OpContext& ctx, const DequantizeState& st,
                const uint8_t* in, float* out, int64_t n) {
  if (!st.per_axis) {
    const double scale = st.scale;
    const int32_t zp = static_cast<int32_t>(st.zero_point);
    ParallelChunks(
        ctx, n, elementwise::kGrain, [=](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) {
            out[i] = static_cast<float>(scale * (QuantAt<Q>(in, i) - zp));
          }
        });
    return;
  }
  if (n == 0) return;
  const DequantizeState* s = &st;
  const int64_t rows = st.outer * st.channels;
  ParallelChunks(ctx, rows,
                 std::max<int64_t>(
                     1, elementwise::kGrain / std::max<int64_t>(st.inner, 1)),
                 [s, in, out](int64_t begin, int64_t end) {
                   for (int64_t r = begin; r < end; ++r) {
                     const size_t c = static_cast<size_t>(r % s->channels);
                     const float scale = s->scales[c];
                     const int32_t zp = s->zero_points[c];
                     const int64_t base = r * s->inner;
                     for (int64_t i = base; i < base + s->inner; ++i) {
                       out[i] =
                           static_cast<float>(QuantAt<Q>(in, i) - zp) * scale;
                     }
                   }
                 });
}

}  // namespace

absl::Status PrepareCast(OpContext& ctx) {
  RETURN_IF_ERROR(elementwise::CheckArity(ctx, 1, 1));
  if (!VisitCastType(ctx.input(0)->type, [](auto) {})) {
    return elementwise::UnsupportedType(ctx, 0);
  }
  const RtTensor* out = ctx.output(0);
  if (!VisitCastType(out->type, [](auto) {})) {
    return ctx.Unsupported(absl::StrCat(
        "output 0 '", out->name(), "' has type ", ir::DataTypeName(out->type),
        ", which CAST does not produce"));
  }
  ctx.SetOutputShape(0, ctx.input(0)->shape);
  return absl::OkStatus();
}

absl::Status EvalCast(OpContext& ctx) {
  const RtTensor* input = ctx.input(0);
  RtTensor* output = ctx.output(0);
  const int64_t n = output->NumElements();
  VisitCastType(input->type, [&](auto from) {
    using From = decltype(from);
    VisitCastType(output->type, [&](auto to) {
      using To = decltype(to);
      CastLoop(ctx, input->Data<From>(), output->Data<To>(), n);
    });
  });
  return absl::OkStatus();
}

absl::Status PrepareDequantize(OpContext& ctx) {
  RETURN_IF_ERROR(elementwise::CheckArity(ctx, 1, 1));
  RETURN_IF_ERROR(
      elementwise::ExpectOutputType(ctx, 0, ir::DataType::kFloat32));
  const RtTensor* in = ctx.input(0);
  auto fresh = std::make_unique<DequantizeState>();
  DequantizeState& st = *fresh;
  switch (in->type) {
    case ir::DataType::kFloat16:
      break;
    case ir::DataType::kInt8:
    case ir::DataType::kUInt8:
    case ir::DataType::kInt16:
    case ir::DataType::kInt4: {
      const std::optional<ir::Quantization>& q = in->ir->quantization;
      if (!q.has_value() || q->scale.empty()) {
        return ctx.Error(absl::StrCat("input '", in->name(), "' is ",
                                      ir::DataTypeName(in->type),
                                      " without a quantization scale"));
      }
      const size_t count = q->scale.size();
      if (!q->zero_point.empty() && q->zero_point.size() != 1 &&
          q->zero_point.size() != count) {
        return ctx.Error(absl::StrCat("input '", in->name(), "' has ", count,
                                      " scales but ", q->zero_point.size(),
                                      " zero points"));
      }
      for (float s : q->scale) {
        if (!std::isfinite(s)) {
          return ctx.Error(absl::StrCat("input '", in->name(),
                                        "' has a non-finite scale ", s));
        }
      }
      for (int64_t zp : q->zero_point) {
        if (zp < std::numeric_limits<int32_t>::min() ||
            zp > std::numeric_limits<int32_t>::max()) {
          return ctx.Error(absl::StrCat("input '", in->name(),
                                        "' has the zero point ", zp,
                                        ", outside int32"));
        }
      }
      if (in->type == ir::DataType::kInt16) {
        for (int64_t zp : q->zero_point) {
          if (zp != 0) {
            return ctx.Error(absl::StrCat(
                "int16 input '", in->name(), "' has the zero point ", zp,
                "; int16 quantization is symmetric (zero point 0)"));
          }
        }
      }
      auto zero_point = [&](size_t c) -> int32_t {
        if (q->zero_point.empty()) return 0;
        return static_cast<int32_t>(
            q->zero_point[q->zero_point.size() == 1 ? 0 : c]);
      };
      if (count == 1) {
        st.scale = q->scale[0];
        st.zero_point = zero_point(0);
        break;
      }
      const int axis = q->quantized_dimension;
      if (axis < 0 || axis >= in->rank()) {
        return ctx.Error(absl::StrCat("input '", in->name(),
                                      "' has quantized_dimension ", axis,
                                      " outside its rank ", in->rank()));
      }
      if (in->dim(axis) != static_cast<int64_t>(count)) {
        return ctx.Error(absl::StrCat(
            "input '", in->name(), "' has ", count, " scales but dim ", axis,
            " of ", DimsString(in->shape), " is ", in->dim(axis)));
      }
      st.per_axis = true;
      st.channels = in->dim(axis);
      for (int d = 0; d < axis; ++d) st.outer *= in->dim(d);
      for (int d = axis + 1; d < in->rank(); ++d) st.inner *= in->dim(d);
      st.scales.assign(q->scale.begin(), q->scale.end());
      st.zero_points.resize(count);
      for (size_t c = 0; c < count; ++c) st.zero_points[c] = zero_point(c);
      break;
    }
    default:
      return elementwise::UnsupportedType(ctx, 0);
  }
  if (in->type == ir::DataType::kInt4 && in->data != nullptr &&
      in->bytes < static_cast<size_t>((in->NumElements() + 1) / 2)) {
    return ctx.Error(absl::StrCat("int4 input '", in->name(), "' has ",
                                  in->bytes, " bytes, too few for ",
                                  DimsString(in->shape)));
  }
  ctx.set_state(std::move(fresh));
  ctx.SetOutputShape(0, in->shape);
  return absl::OkStatus();
}

absl::Status EvalDequantize(OpContext& ctx) {
  const RtTensor* in = ctx.input(0);
  float* out = ctx.output(0)->Data<float>();
  const int64_t n = ctx.output(0)->NumElements();
  const DequantizeState& st = *ctx.state<DequantizeState>();
  if (in->type == ir::DataType::kFloat16) {
    const uint16_t* h = in->Data<uint16_t>();
    elementwise::EvalUnary(ctx, h, out, n, numerics::HalfToFloat);
    return absl::OkStatus();
  }
  if (in->type == ir::DataType::kInt4) {
    Dequantize<void>(ctx, st, in->data, out, n);  // void stands for int4
    return absl::OkStatus();
  }
  return elementwise::ForInputType<int8_t, uint8_t, int16_t>(
      ctx, [&](auto t) { Dequantize<decltype(t)>(ctx, st, in->data, out, n); });
}

}  // namespace qforge::runtime
