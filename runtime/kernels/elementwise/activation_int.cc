// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer activations, as TFLite's builtin kernels compute them:
//  - RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1 (int8, uint8; RELU and RELU6
//    also int16 with zero points 0): rescale (x - zp_in) by s_in / s_out
//    (float quotient) and clamp at the quantized bounds
//    zp_out + round(bound / s_out);
//  - LEAKY_RELU (int8, uint8, int16 with zero points 0): separate
//    multipliers for the identity (s_in / s_out) and alpha
//    (s_in * alpha / s_out) branches; a negative alpha is applied as a
//    positive multiplier and a negated result;
//  - HARD_SWISH (int8, uint8): TFLite's 16-bit fixed-point evaluation
//    (reference_ops::HardSwish);
//  - LOGISTIC, TANH on int8/uint8: a 256-entry table built from the float
//    function exactly as TFLite's LUTPopulate (dequantize in float, apply
//    std::tanh or 1 / (1 + exp(-x)), round(y / s_out) + zp_out, clamp);
//  - LOGISTIC, TANH on int16 (zero points 0, output scale 2^-15): with a
//    power-of-two input scale (2^-12; TANH also 2^-13) LiteRT's builtin
//    kernel evaluates gemmlowp's fixed-point logistic / tanh on the input
//    as Q3.12 (numerics/fixed_point_math.h); other scales use TFLite's
//    interpolated sigmoid table (256 entries of sigmoid(i / 24) in Q0.16)
//    after the integer multiplier TFLite derives from s_in * 4096 * 3.
#include <cmath>
#include <cstdlib>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/op_kind.h"
#include "numerics/fixed_point_math.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using integer::QuantInfo;

// TFLite's sigmoid_table_uint16: sigmoid(i / 24) in Q0.16 (the published
// table, which is not exactly round(65536 * sigmoid(i / 24)) everywhere).
constexpr uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535};

enum class ActKind {
  kRelu,
  kLeakyRelu,
  kHardSwish,
  kLut,
  kLogistic16,
  kTanh16,
  kLogistic16Pot,  // gemmlowp fixed point, Q3.12 input
  kTanh16Pot
};

struct ActState : KernelState {
  ActKind kind = ActKind::kRelu;
  ir::DataType type = ir::DataType::kInt8;
  int64_t size = 0;
  int32_t in_zp = 0, out_zp = 0;
  int32_t act_min = 0, act_max = 0;
  // RELU: m1/s1. LEAKY_RELU: identity m1/s1, alpha m2/s2.
  int32_t m1 = 0, m2 = 0;
  int s1 = 0, s2 = 0;
  // HARD_SWISH.
  int16_t out_mult16 = 0, reluish_mult16 = 0;
  int out_exp = 0, reluish_exp = 0;
  // 8-bit table indexed by the raw byte.
  uint8_t lut[256] = {};
  // int16 LOGISTIC / TANH.
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
};

// Quantizes one table entry as TFLite's LUTPopulate.
int32_t LutEntry(float y, float inverse_scale, int32_t zp, int32_t lo,
                 int32_t hi) {
  if (!std::isfinite(y)) return lo;
  const float rescaled = std::round(y * inverse_scale);
  const int32_t q = static_cast<int32_t>(rescaled + static_cast<float>(zp));
  return std::max(lo, std::min(hi, q));
}

template <typename F>
void BuildLut(ActState& s, const QuantInfo& qi, const QuantInfo& qo,
              const F& fn) {
  const int32_t lo = integer::TypeMin(s.type), hi = integer::TypeMax(s.type);
  const float inverse_scale = 1 / qo.scale;
  for (int32_t v = lo; v <= hi; ++v) {
    const float x = qi.scale * static_cast<float>(v - qi.zero_point);
    const int32_t q = LutEntry(fn(x), inverse_scale, qo.zero_point, lo, hi);
    s.lut[static_cast<uint8_t>(v)] = static_cast<uint8_t>(q);
  }
}

// TFLite's DownScaleInt32ToInt16Multiplier.
int16_t DownScaleMultiplier(int32_t m) {
  constexpr int32_t kRound = 1 << 15;
  if (m >= std::numeric_limits<int32_t>::max() - kRound) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((m + kRound) >> 16);
}

int16_t SaturatingLeftShift16(int16_t v, int amount) {
  const int64_t r = static_cast<int64_t>(v) * (int64_t{1} << amount);
  return static_cast<int16_t>(
      std::max<int64_t>(-32768, std::min<int64_t>(32767, r)));
}

// SQDMULH: doubling high multiply rounding towards zero.
int16_t SaturatingDoublingHighMul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((static_cast<int32_t>(a) * b) / (1 << 15));
}

template <typename T>
T HardSwishOne(const ActState& s, T x) {
  const int16_t input_value = static_cast<int16_t>(x - s.in_zp);
  const int16_t hires = static_cast<int16_t>(input_value * (1 << 7));
  const int16_t preshift_out =
      numerics::SaturatingRoundingDoublingHighMul(hires, s.out_mult16);
  int16_t reluish = hires;
  if (s.reluish_exp > 0)
    reluish = SaturatingLeftShift16(reluish, s.reluish_exp - 1);
  reluish =
      numerics::SaturatingRoundingDoublingHighMul(reluish, s.reluish_mult16);
  if (s.reluish_exp > 0) reluish = SaturatingLeftShift16(reluish, 1);
  if (s.reluish_exp < 0) {
    reluish = numerics::RoundingDivideByPOT(reluish, -s.reluish_exp);
  }
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
  const int16_t preshift = SaturatingDoublingHighMul16(reluish, preshift_out);
  int16_t out = numerics::RoundingDivideByPOT(preshift, -s.out_exp);
  out = static_cast<int16_t>(out + s.out_zp);  // int16 arithmetic, as TFLite
  out = std::min<int16_t>(out, std::numeric_limits<T>::max());
  out = std::max<int16_t>(out, std::numeric_limits<T>::min());
  return static_cast<T>(out);
}

int16_t Logistic16(const ActState& s, int16_t x) {
  const int32_t round =
      s.input_left_shift > 0 ? 1 << (s.input_left_shift - 1) : 0;
  const int32_t in = (x * s.input_multiplier + round) >> s.input_left_shift;
  const uint32_t abs_in = static_cast<uint32_t>(std::abs(in));
  const uint32_t uh = abs_in >> 9;
  uint32_t result;
  if (uh >= 255) {
    result = 0x7FFF << 10;
  } else {
    const uint32_t ua = kSigmoidTable[uh];
    const uint32_t ub = kSigmoidTable[uh + 1];
    const uint32_t ut = abs_in & 0x1ff;
    result = (ua << 9) + ut * (ub - ua);
  }
  result =
      in >= 0 ? result + (1 << 9) : (1 << (16 + 9)) - result + (1 << 9) - 1;
  return static_cast<int16_t>(result >> 10);
}

int16_t Tanh16(const ActState& s, int16_t x) {
  const int32_t round =
      s.input_left_shift > 0 ? 1 << (s.input_left_shift - 1) : 0;
  const int32_t in = (x * s.input_multiplier + round) >> s.input_left_shift;
  const uint32_t abs_in = static_cast<uint32_t>(std::abs(in));
  const uint32_t uh = abs_in >> 8;
  int32_t result;
  if (uh >= 255) {
    result = 0xFFFF << 8;
  } else {
    const uint32_t ua = kSigmoidTable[uh];
    const uint32_t ub = kSigmoidTable[uh + 1];
    const uint32_t ut = abs_in & 0xFF;
    result = static_cast<int32_t>((ua << 8) + ut * (ub - ua));
  }
  result = in >= 0 ? (result - (1 << (14 + 9)) + (1 << (9 - 2)))
                   : (-result + (1 << (14 + 9)) + (1 << (9 - 2)) - 1);
  return static_cast<int16_t>(result >> (9 - 1));
}

// gemmlowp's logistic / tanh of the input as Q3.12 (after a saturating
// doubling when TANH's input scale is 2^-13).
int16_t Logistic16Pot(int16_t x) {
  using F3 = numerics::fixed::Fixed<int16_t, 3>;
  return numerics::fixed::Logistic(F3::FromRaw(x)).raw;
}
int16_t Tanh16Pot(const ActState& s, int16_t x) {
  using F3 = numerics::fixed::Fixed<int16_t, 3>;
  const int16_t in =
      s.input_left_shift == 1
          ? numerics::fixed::SaturatingRoundingMultiplyByPOT<1>(x)
          : x;
  return numerics::fixed::Tanh(F3::FromRaw(in)).raw;
}

template <typename T>
void RunAct(OpContext& ctx, const ActState& s) {
  const T* x = ctx.input(0)->Data<T>();
  T* y = ctx.output(0)->Data<T>();
  const numerics::Rounding r = ctx.rounding();
  ParallelChunks(
      ctx, s.size, integer::kElementwiseChunk,
      [&s, x, y, r](int64_t begin, int64_t end) {
        switch (s.kind) {
          case ActKind::kRelu:
            for (int64_t i = begin; i < end; ++i) {
              const int32_t v =
                  s.out_zp + numerics::MultiplyByQuantizedMultiplier(
                                 x[i] - s.in_zp, s.m1, s.s1, r);
              y[i] = static_cast<T>(numerics::Clamp(v, s.act_min, s.act_max));
            }
            break;
          case ActKind::kLeakyRelu:
            for (int64_t i = begin; i < end; ++i) {
              const int32_t in = x[i] - s.in_zp;
              int32_t v = s.out_zp;
              if (in >= 0) {
                v += numerics::MultiplyByQuantizedMultiplier(in, s.m1, s.s1, r);
              } else if (s.m2 < 0) {
                v -=
                    numerics::MultiplyByQuantizedMultiplier(in, -s.m2, s.s2, r);
              } else {
                v += numerics::MultiplyByQuantizedMultiplier(in, s.m2, s.s2, r);
              }
              y[i] = static_cast<T>(numerics::Clamp(v, s.act_min, s.act_max));
            }
            break;
          case ActKind::kHardSwish:
            if constexpr (sizeof(T) == 1) {
              for (int64_t i = begin; i < end; ++i)
                y[i] = HardSwishOne(s, x[i]);
            }
            break;
          case ActKind::kLut:
            if constexpr (sizeof(T) == 1) {
              for (int64_t i = begin; i < end; ++i) {
                y[i] = static_cast<T>(s.lut[static_cast<uint8_t>(x[i])]);
              }
            }
            break;
          case ActKind::kLogistic16:
            if constexpr (sizeof(T) == 2) {
              for (int64_t i = begin; i < end; ++i) y[i] = Logistic16(s, x[i]);
            }
            break;
          case ActKind::kTanh16:
            if constexpr (sizeof(T) == 2) {
              for (int64_t i = begin; i < end; ++i) y[i] = Tanh16(s, x[i]);
            }
            break;
          case ActKind::kLogistic16Pot:
            if constexpr (sizeof(T) == 2) {
              for (int64_t i = begin; i < end; ++i) y[i] = Logistic16Pot(x[i]);
            }
            break;
          case ActKind::kTanh16Pot:
            if constexpr (sizeof(T) == 2) {
              for (int64_t i = begin; i < end; ++i) y[i] = Tanh16Pot(s, x[i]);
            }
            break;
        }
      });
}

// Common checks: same type in and out, element count; reads both params.
absl::Status PrepareUnary(OpContext& ctx, ActKind kind, bool allow_int16,
                          bool int16_zero_zp, ActState* s, QuantInfo* qi,
                          QuantInfo* qo) {
  const RtTensor* in = nullptr;
  RtTensor* out = nullptr;
  RETURN_IF_ERROR(integer::RequireActivationInOut(ctx, &in, &out));
  const bool is_int16 = in->type == ir::DataType::kInt16;
  if (is_int16 && !allow_int16) {
    return ctx.Unsupported(absl::StrCat("int16 input '", in->name(), "'"));
  }
  RETURN_IF_ERROR(
      integer::ReadQuant(ctx, *in, "input", qi, is_int16 && int16_zero_zp));
  RETURN_IF_ERROR(
      integer::ReadQuant(ctx, *out, "output", qo, is_int16 && int16_zero_zp));
  s->kind = kind;
  s->type = in->type;
  s->size = in->NumElements();
  s->in_zp = qi->zero_point;
  s->out_zp = qo->zero_point;
  s->act_min = integer::TypeMin(in->type);
  s->act_max = integer::TypeMax(in->type);
  ctx.SetOutputShape(0, in->shape);
  return absl::OkStatus();
}

// int16 LOGISTIC / TANH input scaling (TFLite's Sigmoid/TanhPrepare).
absl::Status PrepareSigmoid16(OpContext& ctx, ActState& s, const QuantInfo& qi,
                              const QuantInfo& qo, bool is_tanh) {
  int out_log2 = 0;
  if (!numerics::CheckedLog2(qo.scale, &out_log2) || out_log2 != -15) {
    return ctx.Error(
        absl::StrCat("int16 output scale ", qo.scale, " must be 2^-15"));
  }
  int in_log2 = 0;
  bool pot = numerics::CheckedLog2(qi.scale, &in_log2);
  s.input_left_shift = (15 - 3) + in_log2;
  pot =
      pot && (s.input_left_shift == 0 || (is_tanh && s.input_left_shift == 1));
  if (pot) {
    // LiteRT's builtin kernel: gemmlowp fixed point (TFLite Micro's
    // reference kernel would use the table with multiplier 3 << shift).
    s.kind = is_tanh ? ActKind::kTanh16Pot : ActKind::kLogistic16Pot;
    return absl::OkStatus();
  } else {
    double multiplier = static_cast<double>(qi.scale) * 4096.0 * 3.0;
    s.input_left_shift = 0;
    while (multiplier <= 32767.0 / 2.0 && s.input_left_shift <= 30) {
      ++s.input_left_shift;
      multiplier *= 2.0;
    }
    if (multiplier > 32767.0) {
      return ctx.Error(absl::StrCat("int16 input scale ", qi.scale,
                                    " is too large for the sigmoid table"));
    }
    s.input_multiplier = static_cast<int32_t>(multiplier);
  }
  s.kind = is_tanh ? ActKind::kTanh16 : ActKind::kLogistic16;
  return absl::OkStatus();
}

absl::Status EvalAct(OpContext& ctx) {
  const ActState& s = *ctx.state<ActState>();
  return integer::ForActivationType(
      ctx, s.type, "activation type",
      [&](auto t) { RunAct<decltype(t)>(ctx, s); });
}

// The clamp [lo, hi] is the op's CLAMP trait in ir/ops.def; TFLite's RELU
// and RELU6 kernels also take int16, its RELU_N1_TO_1 and RELU_0_TO_1
// kernels do not (each op's IK column names its prepare).
absl::Status PrepareClamp(OpContext& ctx, bool allow_int16) {
  const ir::OpInfo& info = ir::GetOpInfo(ctx.op().kind);
  if (!info.clamps) return ctx.Error("the op has no CLAMP trait");
  const float lo = info.clamp.lo, hi = info.clamp.hi;
  auto state = std::make_unique<ActState>();
  ActState& s = *state;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(PrepareUnary(ctx, ActKind::kRelu, allow_int16,
                               /*int16_zero_zp=*/true, &s, &qi, &qo));
  // TFLite: the float quotient of the scales, then double.
  numerics::QuantizeMultiplier(static_cast<double>(qi.scale / qo.scale), &s.m1,
                               &s.s1);
  if (s.s1 > 30) return ctx.Error("input/output scale ratio is too large");
  const int32_t tmin = integer::TypeMin(s.type),
                tmax = integer::TypeMax(s.type);
  s.act_min =
      std::isinf(lo)
          ? tmin
          : std::max(tmin, qo.zero_point +
                               static_cast<int32_t>(std::round(lo / qo.scale)));
  s.act_max =
      std::isinf(hi)
          ? tmax
          : std::min(tmax, qo.zero_point +
                               static_cast<int32_t>(std::round(hi / qo.scale)));
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

}  // namespace

QF_KERNEL_AS(PrepareIntRelu, PrepareClamp(ctx, /*allow_int16=*/true))
QF_KERNEL_AS(PrepareIntReluNoInt16, PrepareClamp(ctx, /*allow_int16=*/false))

absl::Status EvalIntRelu(OpContext& ctx) { return EvalAct(ctx); }

absl::Status PrepareIntLeakyRelu(OpContext& ctx) {
  auto state = std::make_unique<ActState>();
  ActState& s = *state;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(
      PrepareUnary(ctx, ActKind::kLeakyRelu, true, true, &s, &qi, &qo));
  const float alpha =
      ir::OptionsOr<ir::LeakyReluOptions>(ctx.op().options).alpha;
  if (!std::isfinite(alpha)) return ctx.Error("alpha must be finite");
  // TFLite: float products/quotients, then double.
  numerics::QuantizeMultiplier(static_cast<double>(qi.scale * alpha / qo.scale),
                               &s.m2, &s.s2);
  numerics::QuantizeMultiplier(static_cast<double>(qi.scale / qo.scale), &s.m1,
                               &s.s1);
  if (s.s1 > 30 || s.s2 > 30) {
    return ctx.Error("input/output scale ratio is too large");
  }
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}
absl::Status EvalIntLeakyRelu(OpContext& ctx) { return EvalAct(ctx); }

absl::Status PrepareIntHardSwish(OpContext& ctx) {
  auto state = std::make_unique<ActState>();
  ActState& s = *state;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(PrepareUnary(ctx, ActKind::kHardSwish, /*allow_int16=*/false,
                               true, &s, &qi, &qo));
  const float hires_input_scale = (1.0f / 128.0f) * qi.scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t m = 0;
  numerics::QuantizeMultiplier(
      static_cast<double>(hires_input_scale / qo.scale), &m, &s.out_exp);
  s.out_mult16 = DownScaleMultiplier(m);
  if (s.out_exp > 0) {
    return ctx.Error(absl::StrCat("HARD_SWISH output scale ", qo.scale,
                                  " is too small for input scale ", qi.scale));
  }
  numerics::QuantizeMultiplier(
      static_cast<double>(hires_input_scale / reluish_scale), &m,
      &s.reluish_exp);
  s.reluish_mult16 = DownScaleMultiplier(m);
  if (s.reluish_exp > 15 || s.reluish_exp < -15 || s.out_exp < -15) {
    return ctx.Error("HARD_SWISH scales are out of TFLite's range");
  }
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}
absl::Status EvalIntHardSwish(OpContext& ctx) { return EvalAct(ctx); }

absl::Status PrepareIntLogistic(OpContext& ctx) {
  auto state = std::make_unique<ActState>();
  ActState& s = *state;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(PrepareUnary(ctx, ActKind::kLut, true, true, &s, &qi, &qo));
  if (s.type == ir::DataType::kInt16) {
    RETURN_IF_ERROR(PrepareSigmoid16(ctx, s, qi, qo, /*is_tanh=*/false));
  } else {
    if (qo.scale != 1.0f / 256) {
      return ctx.Error(
          absl::StrCat("LOGISTIC output scale ", qo.scale, " must be 1/256"));
    }
    BuildLut(s, qi, qo, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
  }
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status PrepareIntTanh(OpContext& ctx) {
  auto state = std::make_unique<ActState>();
  ActState& s = *state;
  QuantInfo qi, qo;
  RETURN_IF_ERROR(PrepareUnary(ctx, ActKind::kLut, true, true, &s, &qi, &qo));
  if (s.type == ir::DataType::kInt16) {
    RETURN_IF_ERROR(PrepareSigmoid16(ctx, s, qi, qo, /*is_tanh=*/true));
  } else {
    BuildLut(s, qi, qo, [](float x) { return std::tanh(x); });
  }
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalIntLutOrInt16Sigmoid(OpContext& ctx) { return EvalAct(ctx); }

}  // namespace qforge::runtime
