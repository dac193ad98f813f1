// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer ADD, SUB, MUL with NumPy broadcasting (rank <= 6), as TFLite's
// add.cc / sub.cc / mul.cc compute them:
//  - ADD/SUB, general path (int8, uint8, and int16 unless all scales are
//    powers of two with pot_scale_int16): both inputs are rescaled to a
//    common scale 2 * max(input scales) with 20 (8-bit) or 15 (16-bit)
//    bits of headroom, added/subtracted in int32, and rescaled to the
//    output (three MultiplyByQuantizedMultiplierSmallerThanOneExp);
//  - ADD/SUB int16 with power-of-two scales (pot_scale_int16, all zero
//    points 0): one input is right-shifted (rounding) to the other's scale,
//    which must equal the output's, then a saturating int16 add/sub;
//  - MUL: (x1 - zp1) * (x2 - zp2) * (s1 * s2 / s_out) + zp_out, the
//    multiplier from the float product/quotient of the scales; int16 needs
//    zero points 0; int16 inputs with an int8/uint8 output use TFLite's
//    Q0.15 path (rounding doubling high multiply, then >> 8).
// Fused RELU / RELU6 / RELU_N1_TO_1 clamp the output.
// With --arithmetic xnnpack, an 8-bit ADD that LiteRT's XNNPACK delegate
// takes (input/output scale ratios in [2^-10, 2^8)) runs XNNPACK's
// arithmetic instead (numerics/xnnpack_arithmetic.h).
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "numerics/xnnpack_arithmetic.h"
#include "runtime/kernels/common/output_stage_simd.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/common/simd_target.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using integer::QuantInfo;
using numerics::MultiplyByQuantizedMultiplier;
using numerics::MultiplyByQuantizedMultiplierSmallerThanOneExp;
using numerics::RoundingDivideByPOT;

enum class BinaryKind { kAdd, kSub, kMul };
enum class Mode { kGeneral, kPot16, kMul, kMul16To8, kXnnpackAdd };

struct BinaryState : KernelState {
  numerics::Rounding rounding = numerics::Rounding::kSingle;
  BinaryKind kind = BinaryKind::kAdd;
  Mode mode = Mode::kGeneral;
  ir::DataType in_type = ir::DataType::kInt8;
  ir::DataType out_type = ir::DataType::kInt8;
  BroadcastPlan plan;
  Dims out_shape;
  int32_t in1_offset = 0, in2_offset = 0, out_offset = 0;
  int left_shift = 0;
  int32_t m1 = 0, m2 = 0, mo = 0;
  int s1 = 0, s2 = 0, so = 0;
  int32_t act_min = 0, act_max = 0;
  numerics::XnnpackAddParams xnn;
  // 8-bit ADD/SUB general path with a vector Isa (BuildVectorAddSub).
  bool vector_add = false;
  std::vector<int32_t> t1, t2;  // rescaled input by byte (t2 negated: SUB)
  integer::OutputStage os;      // the output rescale, 16 lanes alike
};

// ADD/SUB general path, one element.
inline int32_t AddSubGeneral(const BinaryState& s, int32_t x, int32_t y) {
  const int32_t a = (s.in1_offset + x) * (1 << s.left_shift);
  const int32_t b = (s.in2_offset + y) * (1 << s.left_shift);
  const int32_t sa =
      MultiplyByQuantizedMultiplierSmallerThanOneExp(a, s.m1, s.s1, s.rounding);
  const int32_t sb =
      MultiplyByQuantizedMultiplierSmallerThanOneExp(b, s.m2, s.s2, s.rounding);
  const int32_t raw = s.kind == BinaryKind::kSub ? sa - sb : sa + sb;
  // SUB accepts an output multiplier above 1 (positive shift); the general
  // form is identical to SmallerThanOneExp for shifts <= 0.
  const int32_t out =
      (s.so > 0 ? MultiplyByQuantizedMultiplier(raw, s.mo, s.so, s.rounding)
                : MultiplyByQuantizedMultiplierSmallerThanOneExp(
                      raw, s.mo, s.so, s.rounding)) +
      s.out_offset;
  return numerics::Clamp(out, s.act_min, s.act_max);
}

// ADD/SUB int16 power-of-two path.
inline int32_t AddSubPot16(const BinaryState& s, int32_t x, int32_t y) {
  const int32_t a = RoundingDivideByPOT(x, -s.s1);
  const int32_t b = RoundingDivideByPOT(y, -s.s2);
  const int32_t raw = s.kind == BinaryKind::kSub ? a - b : a + b;
  // The int16 saturation of TFLite's SaturatingAdd is subsumed by the
  // activation clamp (a subrange of int16).
  return numerics::Clamp(raw, s.act_min, s.act_max);
}

inline int32_t Mul(const BinaryState& s, int32_t x, int32_t y) {
  const int32_t out =
      s.out_offset +
      MultiplyByQuantizedMultiplier((s.in1_offset + x) * (s.in2_offset + y),
                                    s.mo, s.so, s.rounding);
  return numerics::Clamp(out, s.act_min, s.act_max);
}

// int16 x int16 -> int8/uint8 (Q0.15 product, >> 8).
inline int32_t Mul16To8(const BinaryState& s, int32_t x, int32_t y) {
  const int16_t p = numerics::SaturatingRoundingDoublingHighMul(
      static_cast<int16_t>(x), static_cast<int16_t>(y));
  int32_t r = numerics::RoundingDivideByPOT(static_cast<int32_t>(p), 8);
  r = std::min(s.act_max - s.out_offset, r);
  r = std::max(s.act_min - s.out_offset, r);
  return s.out_offset + r;
}

// XNNPACK's ADD over same-shape inputs: the parameters are function locals,
// so the int8 stores cannot alias them and the loop vectorizes (through the
// broadcast walk it does not).
template <typename TIn, typename TOut>
void XnnpackAddSameShape(const TIn* a, const TIn* b, TOut* out, int64_t n,
                         numerics::XnnpackAddParams p, int32_t zero_point,
                         int32_t act_min, int32_t act_max) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<TOut>(
        numerics::XnnpackAdd(p, a[i], b[i], zero_point, act_min, act_max));
  }
}

template <typename TIn, typename TOut>
void RunBinary(OpContext& ctx, const BinaryState& s) {
  const TIn* a = ctx.input(0)->Data<TIn>();
  const TIn* b = ctx.input(1)->Data<TIn>();
  TOut* out = ctx.output(0)->Data<TOut>();
  auto run = [&](auto fn) {
    ForEachElement(ctx, s.plan, [=, &s](int64_t i, int64_t ia, int64_t ib) {
      out[i] = static_cast<TOut>(fn(s, a[ia], b[ib]));
    });
  };
  // Lambdas (not function pointers) so each loop inlines its op.
  switch (s.mode) {
    case Mode::kGeneral:
      run([](const BinaryState& st, int32_t x, int32_t y) {
        return AddSubGeneral(st, x, y);
      });
      break;
    case Mode::kPot16:
      run([](const BinaryState& st, int32_t x, int32_t y) {
        return AddSubPot16(st, x, y);
      });
      break;
    case Mode::kMul:
      run([](const BinaryState& st, int32_t x, int32_t y) {
        return Mul(st, x, y);
      });
      break;
    case Mode::kMul16To8:
      run([](const BinaryState& st, int32_t x, int32_t y) {
        return Mul16To8(st, x, y);
      });
      break;
    case Mode::kXnnpackAdd:
      if (IsElementwise(s.plan)) {
        ParallelChunks(ctx, s.plan.total, integer::kElementwiseChunk,
                       [&](int64_t begin, int64_t end) {
                         XnnpackAddSameShape(a + begin, b + begin, out + begin,
                                             end - begin, s.xnn, s.out_offset,
                                             s.act_min, s.act_max);
                       });
        break;
      }
      run([](const BinaryState& st, int32_t x, int32_t y) {
        return numerics::XnnpackAdd(st.xnn, x, y, st.out_offset, st.act_min,
                                    st.act_max);
      });
      break;
  }
}

absl::Status PrepareAddSubGeneral(OpContext& ctx, BinaryState& s,
                                  const QuantInfo& q1, const QuantInfo& q2,
                                  const QuantInfo& qo) {
  s.mode = Mode::kGeneral;
  s.in1_offset = -q1.zero_point;
  s.in2_offset = -q2.zero_point;
  s.out_offset = qo.zero_point;
  s.left_shift = s.in_type == ir::DataType::kInt16 ? 15 : 20;
  const double twice_max =
      2 * static_cast<double>(std::max(q1.scale, q2.scale));
  const double r1 = static_cast<double>(q1.scale) / twice_max;
  const double r2 = static_cast<double>(q2.scale) / twice_max;
  const double ro = twice_max / (static_cast<double>(1 << s.left_shift) *
                                 static_cast<double>(qo.scale));
  bool ok = numerics::QuantizeMultiplierSmallerThanOneExp(r1, &s.m1, &s.s1) &&
            numerics::QuantizeMultiplierSmallerThanOneExp(r2, &s.m2, &s.s2);
  if (ok) {
    if (s.kind == BinaryKind::kSub && ro > 1.0) {
      ok = numerics::QuantizeMultiplierGreaterThanOne(ro, &s.mo, &s.so) &&
           s.so <= 30;
    } else {
      ok = numerics::QuantizeMultiplierSmallerThanOneExp(ro, &s.mo, &s.so);
    }
  }
  if (!ok) {
    return ctx.Error(absl::StrCat(
        "input scales ", q1.scale, ", ", q2.scale, " and output scale ",
        qo.scale, " give a rescaling factor outside TFLite's range (", ro,
        ")"));
  }
  return absl::OkStatus();
}

// The 8-bit general ADD/SUB in vector form: each input's rescaled value
// depends on its byte alone, so AddSubGeneral's own steps fill a 256-entry
// table per input; the sum's rescale is the conv kernels' vector output
// stage (numerics::Requantize: for shifts <= 0 MultiplyByQuantizedMultiplier
// is SmallerThanOneExp in both roundings, for SUB's shifts > 0 it is the
// general form AddSubGeneral calls), exact in every rounding.
void BuildVectorAddSub(BinaryState& s, Isa isa) {
  s.t1.resize(256);
  s.t2.resize(256);
  for (int idx = 0; idx < 256; ++idx) {
    const int32_t x = s.in_type == ir::DataType::kInt8
                          ? static_cast<int32_t>(static_cast<int8_t>(idx))
                          : idx;
    const int32_t a = (s.in1_offset + x) * (1 << s.left_shift);
    const int32_t b = (s.in2_offset + x) * (1 << s.left_shift);
    s.t1[static_cast<size_t>(idx)] =
        MultiplyByQuantizedMultiplierSmallerThanOneExp(a, s.m1, s.s1,
                                                       s.rounding);
    const int32_t sb = MultiplyByQuantizedMultiplierSmallerThanOneExp(
        b, s.m2, s.s2, s.rounding);
    s.t2[static_cast<size_t>(idx)] =
        s.kind == BinaryKind::kSub
            ? static_cast<int32_t>(0u - static_cast<uint32_t>(sb))
            : sb;
  }
  const std::vector<int32_t> m(16, s.mo);
  const std::vector<int> sh(16, s.so);
  integer::OutputStage::Params p;
  p.out_type = s.out_type;
  p.channels = 16;
  p.zero_point = s.out_offset;
  p.act_min = s.act_min;
  p.act_max = s.act_max;
  p.scheme = integer::OutputStage::Scheme::kFixed;
  p.rounding = s.rounding;
  p.multiplier = m.data();
  p.shift = sh.data();
  s.os.Init(p, isa);
  s.vector_add = true;
}

// raw[j] = t1[a[j * sa]] + t2[b[j * sb]] (int32 wrap-around), j < m, for
// element strides 0 or 1: the table lookups as AVX-512 gathers, 16 at a
// time (a stride-0 input is one lookup).
QF_TARGET_AVX512 void SumTables512(const int32_t* t1, const int32_t* t2,
                                   const uint8_t* a, int64_t sa,
                                   const uint8_t* b, int64_t sb, int64_t m,
                                   int32_t* raw) {
  const __m512i ca = _mm512_set1_epi32(t1[a[0]]);
  const __m512i cb = _mm512_set1_epi32(t2[b[0]]);
  for (int64_t j = 0; j < m; j += 16) {
    const int64_t left = m - j;
    const __mmask16 k =
        left >= 16 ? static_cast<__mmask16>(0xFFFF)
                   : static_cast<__mmask16>((1u << static_cast<int>(left)) - 1);
    const __m512i va =
        sa == 0
            ? ca
            : _mm512_mask_i32gather_epi32(
                  _mm512_setzero_si512(), k,
                  _mm512_maskz_cvtepu8_epi32(k, _mm_maskz_loadu_epi8(k, a + j)),
                  t1, 4);
    const __m512i vb =
        sb == 0
            ? cb
            : _mm512_mask_i32gather_epi32(
                  _mm512_setzero_si512(), k,
                  _mm512_maskz_cvtepu8_epi32(k, _mm_maskz_loadu_epi8(k, b + j)),
                  t2, 4);
    _mm512_mask_storeu_epi32(raw + j, k, _mm512_add_epi32(va, vb));
  }
}

template <typename T>
void RunVectorAddSub(OpContext& ctx, const BinaryState& s) {
  struct Args {
    const BinaryState* s;
    const T* a;
    const T* b;
    T* y;
  } args{&s, ctx.input(0)->Data<T>(), ctx.input(1)->Data<T>(),
         ctx.output(0)->Data<T>()};
  const Args* p = &args;
  const int last = s.plan.rank - 1;
  const int64_t sa = s.plan.strides[0][last], sb = s.plan.strides[1][last];
  ForEachRow(
      ctx, s.plan,
      [p, sa, sb](const std::array<int64_t, 3>& off, int64_t out_off,
                  int64_t n) {
        constexpr int64_t kBlock = 256;
        const BinaryState& s = *p->s;
        const int32_t* t1 = s.t1.data();
        const int32_t* t2 = s.t2.data();
        const T* a = p->a + off[0];
        const T* b = p->b + off[1];
        T* y = p->y + out_off;
        alignas(64) int32_t raw[kBlock];
        for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
          const int64_t m = std::min(n - j0, kBlock);
          if (s.os.isa() == Isa::kAvx512Vnni && (sa == 0 || sa == 1) &&
              (sb == 0 || sb == 1)) {
            SumTables512(t1, t2, reinterpret_cast<const uint8_t*>(a + j0 * sa),
                         sa, reinterpret_cast<const uint8_t*>(b + j0 * sb), sb,
                         m, raw);
          } else {
            for (int64_t j = 0; j < m; ++j) {
              raw[j] = static_cast<int32_t>(
                  static_cast<uint32_t>(
                      t1[static_cast<uint8_t>(a[(j0 + j) * sa])]) +
                  static_cast<uint32_t>(
                      t2[static_cast<uint8_t>(b[(j0 + j) * sb])]));
            }
          }
          const int64_t full = m / 16;
          if (full > 0) {
            s.os.RunRows(raw, 16, static_cast<int>(full), 0, 16, y + j0, 16);
          }
          if (m % 16 != 0) {
            s.os.Run(raw + full * 16, 0, m % 16, y + j0 + full * 16);
          }
        }
      });
}

absl::Status PrepareBinary(OpContext& ctx, BinaryKind kind) {
  const RtTensor *a = nullptr, *b = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireBinaryInOut(ctx, &a, &b, &out));
  if (a->type != b->type) {
    return ctx.Error(absl::StrCat("inputs '", a->name(), "' (",
                                  ir::DataTypeName(a->type), ") and '",
                                  b->name(), "' (", ir::DataTypeName(b->type),
                                  ") must have the same type"));
  }
  // TFLite's add.cc / sub.cc / mul.cc Prepare set the output's type to the
  // inputs' (`output->type = input2->type`): a float32 output tensor that
  // carries quantization parameters between quantized ops (as in LiteRT's
  // add_quantized test models) is computed, and stored, as the input type.
  // FindKernel sends such ops here (runtime/kernel.cc).
  if (out->type == ir::DataType::kFloat32) out->type = a->type;
  const bool mul16to8 =
      kind == BinaryKind::kMul && a->type == ir::DataType::kInt16 &&
      (out->type == ir::DataType::kInt8 || out->type == ir::DataType::kUInt8);
  if (out->type != a->type && !mul16to8) {
    return ctx.Unsupported(
        absl::StrCat("inputs are ", ir::DataTypeName(a->type), " but output '",
                     out->name(), "' is ", ir::DataTypeName(out->type)));
  }
  auto state = std::make_unique<BinaryState>();
  BinaryState& s = *state;
  s.rounding = ctx.rounding();
  s.kind = kind;
  s.in_type = a->type;
  s.out_type = out->type;
  RETURN_IF_ERROR(
      integer::PlanBroadcast2(ctx, a->shape, b->shape, &s.plan, &s.out_shape));
  ir::Activation act = ir::Activation::kNone;
  bool pot_scale_int16 = true;
  if (kind == BinaryKind::kMul) {
    act = ir::OptionsOr<ir::ActivationOptions>(ctx.op().options).activation;
  } else {
    const auto o = ir::OptionsOr<ir::AddSubOptions>(ctx.op().options);
    act = o.activation;
    pot_scale_int16 = o.pot_scale_int16;
  }
  const bool is_int16 = a->type == ir::DataType::kInt16;
  // Symmetric int16 is required except on SUB's general path.
  const bool need_zero_zp = is_int16 && kind != BinaryKind::kSub;
  QuantInfo q1, q2, qo;
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *a, "input 0", &q1, need_zero_zp));
  RETURN_IF_ERROR(integer::ReadQuant(ctx, *b, "input 1", &q2, need_zero_zp));
  RETURN_IF_ERROR(
      integer::ReadQuant(ctx, *out, "output", &qo, need_zero_zp && !mul16to8));
  RETURN_IF_ERROR(integer::ActivationRange(ctx, act, out->type, qo, &s.act_min,
                                           &s.act_max));

  if (kind == BinaryKind::kMul) {
    if (mul16to8) {
      s.mode = Mode::kMul16To8;
      s.out_offset = qo.zero_point;
    } else {
      s.mode = Mode::kMul;
      s.in1_offset = -q1.zero_point;
      s.in2_offset = -q2.zero_point;
      s.out_offset = qo.zero_point;
      // TFLite: float product and quotient, then double.
      const float real = q1.scale * q2.scale / qo.scale;
      numerics::QuantizeMultiplier(static_cast<double>(real), &s.mo, &s.so);
      if (s.so > 30) {
        return ctx.Error(absl::StrCat("rescaling factor ", real,
                                      " of the product is too large"));
      }
    }
  } else {
    int l1 = 0, l2 = 0, lo = 0;
    const bool pot = is_int16 && pot_scale_int16 &&
                     numerics::CheckedLog2(q1.scale, &l1) &&
                     numerics::CheckedLog2(q2.scale, &l2) &&
                     numerics::CheckedLog2(qo.scale, &lo);
    if (pot) {
      if (q1.zero_point != 0 || q2.zero_point != 0 || qo.zero_point != 0) {
        return ctx.Error("int16 power-of-two ADD/SUB needs zero points 0");
      }
      s.mode = Mode::kPot16;
      s.s1 = l1 - lo;
      s.s2 = l2 - lo;
      if (!((s.s1 == 0 || s.s2 == 0) && s.s1 <= 0 && s.s2 <= 0 && s.s1 >= -31 &&
            s.s2 >= -31)) {
        return ctx.Error(absl::StrCat(
            "power-of-two scales 2^", l1, ", 2^", l2, " -> 2^", lo,
            ": one input must have the output's scale and the other a "
            "smaller one"));
      }
    } else {
      RETURN_IF_ERROR(PrepareAddSubGeneral(ctx, s, q1, q2, qo));
      if (kind == BinaryKind::kAdd && !is_int16 &&
          ctx.arithmetic() == numerics::Arithmetic::kXnnpack &&
          numerics::XnnpackAddParamsFor(q1.scale, q1.zero_point, q2.scale,
                                        q2.zero_point, qo.scale, &s.xnn)) {
        s.mode = Mode::kXnnpackAdd;
      } else if (!is_int16 && ctx.isa() != Isa::kScalar) {
        BuildVectorAddSub(s, ctx.isa());
      }
    }
  }
  ctx.SetOutputShape(0, s.out_shape);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalBinary(OpContext& ctx) {
  const BinaryState& s = *ctx.state<BinaryState>();
  if (s.vector_add) {
    if (s.in_type == ir::DataType::kInt8) {
      RunVectorAddSub<int8_t>(ctx, s);
    } else {
      RunVectorAddSub<uint8_t>(ctx, s);
    }
    return absl::OkStatus();
  }
  switch (s.in_type) {
    case ir::DataType::kInt8:
      RunBinary<int8_t, int8_t>(ctx, s);
      return absl::OkStatus();
    case ir::DataType::kUInt8:
      RunBinary<uint8_t, uint8_t>(ctx, s);
      return absl::OkStatus();
    case ir::DataType::kInt16:
      if (s.out_type == ir::DataType::kInt8) {
        RunBinary<int16_t, int8_t>(ctx, s);
      } else if (s.out_type == ir::DataType::kUInt8) {
        RunBinary<int16_t, uint8_t>(ctx, s);
      } else {
        RunBinary<int16_t, int16_t>(ctx, s);
      }
      return absl::OkStatus();
    default:
      break;
  }
  return ctx.Unsupported("binary op activation type");
}

}  // namespace

QF_KERNEL_AS(PrepareIntAdd, PrepareBinary(ctx, BinaryKind::kAdd))
QF_KERNEL_AS(EvalIntAdd, EvalBinary(ctx))
QF_KERNEL_AS(PrepareIntSub, PrepareBinary(ctx, BinaryKind::kSub))
QF_KERNEL_AS(EvalIntSub, EvalBinary(ctx))
QF_KERNEL_AS(PrepareIntMul, PrepareBinary(ctx, BinaryKind::kMul))
QF_KERNEL_AS(EvalIntMul, EvalBinary(ctx))

}  // namespace qforge::runtime
