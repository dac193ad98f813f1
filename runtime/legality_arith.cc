// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Rules of ADD, SUB, MUL and MEAN. In int8, LiteRT's XNNPACK delegate takes
// ADD/SUB when both input/output scale ratios are in [2^-10, 2^8) and MUL
// when input1 x input2 / output is in [2^-16, 2^8), all computed in float
// (xnnpack_delegate.cc CheckTensorsInputOutputScale /
// CheckTensorsInputProductOutputScale); XNNPACK re-checks the same ranges.
// Otherwise, and always in int16x8, TFLite's kernels prepare them in
// float arithmetic: a float that overflows to inf, or a multiplier out of
// QuantizeMultiplierSmallerThanOneExp's (0, 1), aborts.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "runtime/legality_rules.h"

namespace qforge::runtime::legality {
namespace {

bool InRange(float r, float lo, float hi) { return r >= lo && r < hi; }

enum class AddSub { kAdd, kSub };

void AddSubRules(Findings& f, AddSub which) {
  const OpForm& op = f.form();
  const Binary bin = IntegerBinary(op);
  if (!bin.ok()) return;
  const TensorForm *a = bin.a, *b = bin.b, *out = bin.out;
  const bool int16 = IsInt16(*out);
  const float s1 = a->scale(), s2 = b->scale(), so = out->scale();
  const bool delegated = !int16 && InRange(s1 / so, 1.0f / 1024, 256.0f) &&
                         InRange(s2 / so, 1.0f / 1024, 256.0f);
  const auto o = ir::OptionsOr<ir::AddSubOptions>(op.options);
  if (!delegated) {
    // add.cc / sub.cc Prepare, general path: float arithmetic throughout.
    const float twice_max = 2 * std::max(s1, s2);
    const float denom = static_cast<float>(1 << (int16 ? 15 : 20)) * so;
    if (std::isinf(twice_max)) {
      f.Refused(absl::StrCat("2 x max(input scales) = 2 x ",
                             Num(std::max(s1, s2)),
                             " overflows float; TFLite's Prepare aborts "
                             "(add.cc/sub.cc, QuantizeMultiplier)"));
      return;
    }
    if (std::isinf(denom)) {
      f.Refused(absl::StrCat("2^", int16 ? 15 : 20, " x output scale ", Num(so),
                             " overflows float; TFLite's Prepare aborts "
                             "(add.cc/sub.cc, QuantizeMultiplier)"));
      return;
    }
    const double ro =
        static_cast<double>(twice_max) / static_cast<double>(denom);
    if (which == AddSub::kAdd ? !(ro < 1.0) : ro == 1.0) {
      f.Refused(absl::StrCat(
          "output rescale 2 x max(input scales) / (2^", int16 ? 15 : 20,
          " x output scale) = ", Num(ro),
          which == AddSub::kAdd ? " is 1 or more" : " is exactly 1",
          "; TFLite's QuantizeMultiplier",
          which == AddSub::kAdd ? "SmallerThanOneExp" : "GreaterThanOne",
          " aborts (", which == AddSub::kAdd ? "add.cc" : "sub.cc", ")"));
    }
    // SUB quantizes an output rescale above 1 with
    // QuantizeMultiplierGreaterThanOne, but its kernel applies the result
    // with MultiplyByQuantizedMultiplierSmallerThanOneExp, whose
    // RoundingDivideByPOT then gets a negative exponent: LiteRT's results
    // are off (docs/legality.md).
    if (which == AddSub::kSub && ro > 1.0) {
      f.Unreliable(absl::StrCat("output rescale ", Num(ro),
                                " is above 1: TFLite's SUB kernel applies "
                                "it as a negative right shift"));
    }
    ActivationBoundsRule(f, o.activation, so);
  }
  if (int16 && o.pot_scale_int16) {
    // With pot_scale_int16 (the schema's default), power-of-two scales take
    // TFLite's shift-only path, which needs one input at the output's
    // scale and the other finer (add.cc Prepare).
    int l1 = 0, l2 = 0, lo = 0;
    auto log2_exact = [](float s, int* l) {
      const float v = std::log2(s);
      *l = static_cast<int>(std::round(v));
      return std::fabs(v - std::round(v)) < 1e-3f;
    };
    if (log2_exact(s1, &l1) && log2_exact(s2, &l2) && log2_exact(so, &lo)) {
      const int d1 = l1 - lo, d2 = l2 - lo;
      if (!((d1 == 0 || d2 == 0) && d1 <= 0 && d2 <= 0)) {
        f.Refused(absl::StrCat(
            "int16 power-of-two scales 2^", l1, ", 2^", l2, " -> 2^", lo,
            ": one input must have the output's scale and the other a "
            "smaller one (add.cc/sub.cc, pot_scale_int16)"));
      }
    }
  }
}

}  // namespace

void AddRules(Findings& f) { AddSubRules(f, AddSub::kAdd); }
void SubRules(Findings& f) { AddSubRules(f, AddSub::kSub); }

void MulRules(Findings& f) {
  const OpForm& op = f.form();
  const Binary bin = IntegerBinary(op);
  if (!bin.ok()) return;
  const TensorForm *a = bin.a, *b = bin.b, *out = bin.out;
  const bool int16 = IsInt16(*a);
  const float real = a->scale() * b->scale() / out->scale();
  const bool delegated = !int16 && InRange(real, 1.0f / 65536, 256.0f);
  if (delegated) return;
  // mul.cc Prepare: float product and quotient; QuantizeMultiplier aborts on
  // an infinite one.
  if (std::isinf(real)) {
    f.Refused(absl::StrCat("input scales ", Num(a->scale()), " x ",
                           Num(b->scale()), " / output scale ",
                           Num(out->scale()),
                           " overflows float; TFLite's QuantizeMultiplier "
                           "aborts (mul.cc Prepare)"));
    return;
  }
  // A multiplier of 2^15 or more shifts |x1 - z1| * |x2 - z2| (up to 2^16
  // in int8) out of int32 in MultiplyByQuantizedMultiplier: it wraps.
  if (real >= 32768.0f) {
    f.Unreliable(absl::StrCat("product rescale ", Num(real),
                              " is 2^15 or more: TFLite's fixed-point "
                              "multiply wraps"));
  }
  const auto o = ir::OptionsOr<ir::ActivationOptions>(op.options);
  ActivationBoundsRule(f, o.activation, out->scale());
}

void MeanRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* in = op.in(0);
  const TensorForm* out = op.out(0);
  if (in == nullptr || out == nullptr || !in->integer() || !out->integer()) {
    return;
  }
  // XNNPACK's mean (int8) and TFLite's reduce.cc (int16) rescale by
  // input / output scale over the reduced count; a ratio whose multiplier
  // shift leaves [-31, 30] saturates or flushes in XNNPACK and wraps in
  // TFLite's fixed-point path (docs/legality.md). Past 2^8 the output grid
  // is so much finer than the input's that nothing but saturation is left
  // to compute, so refuse from there.
  const double ratio = static_cast<double>(in->scale()) / out->scale();
  const int shift = MultiplierShift(ratio);
  if (ratio >= 256.0 || shift < -31) {
    f.Unreliable(absl::StrCat("input / output scale ", Num(ratio),
                              " is outside [2^-31, 2^8): the rescaled sum "
                              "saturates or wraps"));
  }
}

}  // namespace qforge::runtime::legality
