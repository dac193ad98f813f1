// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Rules of the activations: RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1,
// LEAKY_RELU, PRELU, HARD_SWISH, RSQRT, LOGISTIC, TANH, SOFTMAX. LiteRT's
// XNNPACK delegate takes only int8 LEAKY_RELU, LOGISTIC and TANH among them
// (the others are float-only there); the rest run in TFLite's kernels
// (activations.cc, elementwise.cc), which prepare their multipliers in
// float: a ratio that overflows to inf aborts in QuantizeMultiplier.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "runtime/legality_rules.h"

namespace qforge::runtime::legality {
namespace {

struct Unary {
  const TensorForm* in = nullptr;
  const TensorForm* out = nullptr;
  bool ok() const {
    return in != nullptr && out != nullptr && in->integer() && out->integer();
  }
};

Unary UnaryOf(const OpForm& op) { return {op.in(0), op.out(0)}; }

void RatioOverflow(Findings& f, float ratio, const char* what,
                   const char* source) {
  if (std::isinf(ratio)) {
    f.Refused(absl::StrCat(what,
                           " overflows float; TFLite's "
                           "QuantizeMultiplier aborts (",
                           source, ")"));
  }
}

}  // namespace

// TFLite's QuantizedReluX, QuantizeLeakyRelu and PRELU shift (x - zp) left by
// the multiplier's exponent in int32 before the fixed-point multiply
// (MultiplyByQuantizedMultiplier): |x - zp| reaches 255 (int8) or 65535
// (int16), so an exponent past 23 (int8) or 15 (int16) wraps, in LiteRT
// too (docs/legality.md).
void WrapRules(Findings& f, const TensorForm& in, float identity,
               float negative, const char* op) {
  const int limit = IsInt16(in) ? 15 : 23;
  if (MultiplierShift(identity) > limit ||
      MultiplierShift(std::fabs(negative)) > limit) {
    f.Unreliable(absl::StrCat("a ", op, " rescale is 2^", limit,
                              " or more: (x - zero point) << shift wraps "
                              "in int32"));
  }
}

namespace {

// RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1: the op's clamp (ops.def CLAMP);
// `no_int16`: why LiteRT has no int16 form, or null when it has one.
void ClampRules(Findings& f, const char* no_int16) {
  const OpForm& op = f.form();
  const Unary u = UnaryOf(op);
  if (!u.ok()) return;
  // activations.cc ReluPrepare: real multiplier = float(input / output).
  const float ratio = u.in->scale() / u.out->scale();
  RatioOverflow(f, ratio, "input / output scale", "activations.cc ReluPrepare");
  if (no_int16 != nullptr && IsInt16(*u.out)) f.Refused(no_int16);
  // QuantizedReluX: the clamp bounds are zero_point + round(bound / scale)
  // cast to int32; beyond int32 they wrap and the clamp is garbage.
  const ir::ClampRange clamp = ir::GetOpInfo(op.kind).clamp;
  constexpr float kLimit = 2147483648.0f;
  for (float b : {clamp.lo, clamp.hi}) {
    if (std::isinf(b)) continue;
    if (!(std::fabs(std::round(b / u.out->scale())) < kLimit)) {
      f.Unreliable(absl::StrCat("clamp bound ", Num(b), " / output scale ",
                                Num(u.out->scale()),
                                " leaves int32; TFLite's clamp wraps"));
      break;
    }
  }
  WrapRules(f, *u.in, ratio, ratio, op.op_name.c_str());
}

}  // namespace

void ReluRules(Findings& f) { ClampRules(f, nullptr); }

void ReluN1To1Rules(Findings& f) {
  ClampRules(f, "RELU_N1_TO_1 has no int16 kernel (activations.cc Relu1Eval)");
}

void Relu0To1Rules(Findings& f) {
  ClampRules(f, "RELU_0_TO_1 has no int16 kernel (activations.cc)");
}

void LeakyReluRules(Findings& f) {
  const OpForm& op = f.form();
  const Unary u = UnaryOf(op);
  if (!u.ok()) return;
  const float alpha = ir::OptionsOr<ir::LeakyReluOptions>(op.options).alpha;
  const float identity = u.in->scale() / u.out->scale();
  const float negative = u.in->scale() * alpha / u.out->scale();
  // The delegate takes int8 LEAKY_RELU when both multipliers are in
  // XNNPACK's range (xnnpack_delegate.cc VisitLeakyReluNode).
  const float n = identity * alpha;
  const bool delegated = !IsInt16(*u.out) && IsNormalScale(std::fabs(alpha)) &&
                         identity >= 1.0f / 256 && identity <= 128.0f &&
                         n >= -127.99609375f && n <= 128.0f &&
                         std::fabs(n) >= 1.0f / 256;
  if (delegated) return;
  RatioOverflow(f, identity, "input / output scale",
                "activations.cc LeakyReluPrepare");
  RatioOverflow(f, negative, "input x alpha / output scale",
                "activations.cc LeakyReluPrepare");
  WrapRules(f, *u.in, identity, negative, "LEAKY_RELU");
}

void PreluRules(Findings& f) {
  const OpForm& op = f.form();
  const Unary u = UnaryOf(op);
  const TensorForm* alpha = op.in(1);
  if (!u.ok() || alpha == nullptr || !alpha->integer()) return;
  // activations.cc PreluPrepare: float ratios.
  const float identity = u.in->scale() / u.out->scale();
  const float negative = u.in->scale() * alpha->scale() / u.out->scale();
  RatioOverflow(f, identity, "input / output scale",
                "activations.cc PreluPrepare");
  RatioOverflow(f, negative, "input x alpha / output scale",
                "activations.cc PreluPrepare");
  WrapRules(f, *u.in, identity, negative, "PRELU");
}

void HardSwishRules(Findings& f) {
  const OpForm& op = f.form();
  const Unary u = UnaryOf(op);
  if (!u.ok()) return;
  if (IsInt16(*u.out)) {
    f.Refused("HARD_SWISH has no int16 kernel (activations.cc HardSwishEval)");
    return;
  }
  // activations.cc HardSwishPrepare, float arithmetic.
  const float hires = u.in->scale() * (1.0f / 128.0f);
  const float output_multiplier = hires / u.out->scale();
  const float reluish_multiplier = hires / (3.0f / 32768.0f);
  RatioOverflow(f, output_multiplier, "input / 128 / output scale",
                "activations.cc HardSwishPrepare");
  RatioOverflow(f, reluish_multiplier, "input / 128 / (3 / 32768)",
                "activations.cc HardSwishPrepare");
  if (!(output_multiplier < 1.0f)) {
    f.Refused(absl::StrCat(
        "output multiplier input / 128 / output = ", Num(output_multiplier),
        " is 1 or more (activations.cc HardSwishPrepare: "
        "output_multiplier_exponent <= 0)"));
  }
  // The kernel shifts int16 values by these exponents (optimized_ops
  // HardSwish): beyond 15 bits they shift everything out.
  const int reluish_exp = MultiplierShift(reluish_multiplier);
  const int output_exp = MultiplierShift(output_multiplier);
  if (reluish_exp > 15 || reluish_exp < -15 || output_exp < -15) {
    f.Unreliable(absl::StrCat("HARD_SWISH multiplier exponents (reluish ",
                              reluish_exp, ", output ", output_exp,
                              ") leave int16's 15 bits: the shifts wrap"));
  }
}

void RsqrtRules(Findings& f) {
  const Unary u = UnaryOf(f.form());
  if (!u.ok()) return;
  // elementwise.cc RsqrtPrepare: 1 / (sqrtf(input) * output) in float; a
  // product that underflows to 0 makes QuantizeMultiplier abort.
  const float product = std::sqrt(u.in->scale()) * u.out->scale();
  if (product == 0.0f) {
    f.Refused(
        absl::StrCat("sqrt(input scale) x output scale underflows to "
                     "0; TFLite's QuantizeMultiplier aborts "
                     "(elementwise.cc RsqrtPrepare)"));
    return;
  }
  // int8 (elementwise.cc RsqrtEvalQuantized): 2^20 / sqrt(x - zp), an int32
  // of up to 2^20, is shifted left by the multiplier's exponent minus 20
  // before the fixed-point multiply: past 2^30 it wraps, in LiteRT too (the
  // legality property test found it; docs/legality.md). Past 2^50 LiteRT
  // fails outright (and qforge's kernel refuses).
  const double real = 1.0 / static_cast<double>(product);
  if (!IsInt16(*u.in)) {
    const int shift = MultiplierShift(real);
    if (shift > 50) {
      f.Refused(absl::StrCat(
          "rescale 1 / (sqrt(input scale) x output scale) = ", Num(real),
          " is 2^50 or more (elementwise.cc RsqrtPrepare)"));
    } else if (shift > 30) {
      f.Unreliable(absl::StrCat(
          "rescale 1 / (sqrt(input scale) x output scale) = ", Num(real),
          " is 2^30 or more: the kernel's left shift wraps in int32 "
          "(elementwise.cc RsqrtEvalQuantized)"));
    }
  }
}

void LogisticRules(Findings& f) {
  const Unary u = UnaryOf(f.form());
  if (!u.ok() || !IsInt16(*u.out)) return;  // int8: XNNPACK, any scales
  // activations.cc SigmoidPrepare (int16): output exactly 1/32768, zero
  // point 0.
  if (u.out->scale() != 1.0f / 32768) {
    f.Refused(absl::StrCat("int16 LOGISTIC output scale ", Num(u.out->scale()),
                           " is not 1/32768 (activations.cc SigmoidPrepare)"));
  }
  // The int16 input multiplier (input scale x 4096 x 3, doubled towards
  // 2^14) is 0 below ~3.8e-14 and leaves int16 above ~2.7: the kernel then
  // computes garbage.
  const double m = static_cast<double>(u.in->scale()) * 4096 * 3;
  if (m * 2147483648.0 < 1.0 || m > 32767.0) {
    f.Unreliable(absl::StrCat("int16 input scale ", Num(u.in->scale()),
                              " is outside TFLite's int16 sigmoid input "
                              "range (activations.cc)"));
  }
}

void TanhRules(Findings& f) {
  const Unary u = UnaryOf(f.form());
  if (!u.ok() || !IsInt16(*u.out)) return;  // int8: XNNPACK, any scales
  // activations.cc TanhPrepare (int16): CheckedLog2(output scale) == -15.
  const float l = std::log2(u.out->scale());
  if (!(std::fabs(l - std::round(l)) < 1e-3f && std::round(l) == -15.0f)) {
    f.Refused(absl::StrCat("int16 TANH output scale ", Num(u.out->scale()),
                           " is not 2^-15 (activations.cc TanhPrepare)"));
  }
  const double m = static_cast<double>(u.in->scale()) * 4096 * 3;
  if (m * 2147483648.0 < 1.0 || m > 32767.0) {
    f.Unreliable(absl::StrCat("int16 input scale ", Num(u.in->scale()),
                              " is outside TFLite's int16 tanh input range "
                              "(activations.cc)"));
  }
}

void SoftmaxRules(Findings& f) {
  const Unary u = UnaryOf(f.form());
  if (!u.ok()) return;
  // activations.cc SoftmaxPrepare: fixed output parameters, compared in
  // float (TF_LITE_ENSURE_NEAR with a 0.001 relative tolerance).
  // int8 -> int16 (TFLite Micro's form) has no fixed output parameters.
  if (u.in->type == ir::DataType::kInt8 && IsInt16(*u.out)) return;
  if (IsInt16(*u.in)) {
    // SoftmaxPrepare (int16): input scale x beta over the exp table's
    // 10/65535 step, as a left-shifted fixed-point multiplier; past 2^30
    // it wraps (qforge's kernel refuses it).
    const float beta = ir::OptionsOr<ir::SoftmaxOptions>(f.form().options).beta;
    const double real =
        static_cast<double>(u.in->scale() * beta) / (10.0 / 65535.0);
    if (MultiplierShift(real) > 30) {
      f.Unreliable(absl::StrCat("int16 input scale ", Num(u.in->scale()),
                                " x beta ", Num(beta),
                                " puts the input rescale at 2^30 or more: "
                                "it wraps (activations.cc SoftmaxPrepare)"));
    }
  }
  const bool int16 = IsInt16(*u.out);
  const float want = int16 ? 1.0f / 32768 : 1.0f / 256;
  const int64_t want_zp = int16 ? 0 : -128;
  if (u.out->type == ir::DataType::kInt8 || int16) {
    if (!(std::fabs(u.out->scale() - want) <= 0.001f * want) ||
        u.out->zero_point() != want_zp) {
      f.Refused(absl::StrCat("SOFTMAX output must be scale ", Num(want),
                             ", zero point ", want_zp, " (got ",
                             Num(u.out->scale()), ", ", u.out->zero_point(),
                             "; activations.cc SoftmaxPrepare)"));
    }
  }
}

}  // namespace qforge::runtime::legality
