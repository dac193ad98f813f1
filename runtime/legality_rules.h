// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The rule functions the RULES column of the op table names, and the scale
// arithmetic they share. Each function checks the int8 and int16x8 forms of
// its op(s) against TFLite's kernel Prepare/Eval and LiteRT's XNNPACK
// delegate, citing them. Where TFLite computes in float, so do these: a
// float product or quotient that overflows to inf is what makes TFLite's
// QuantizeMultiplier abort.
#ifndef QFORGE_RUNTIME_LEGALITY_RULES_H_
#define QFORGE_RUNTIME_LEGALITY_RULES_H_

#include <string>

#include "runtime/legality.h"

namespace qforge::runtime::legality {

// legality_gemm.cc
void ConvRules(Findings& f);
void DepthwiseConvRules(Findings& f);
void FullyConnectedRules(Findings& f);
void TransposeConvRules(Findings& f);
void BatchMatMulRules(Findings& f);
// legality_arith.cc
void AddRules(Findings& f);
void SubRules(Findings& f);
void MulRules(Findings& f);
void MeanRules(Findings& f);
// legality_activation.cc
void ReluRules(Findings& f);
void ReluN1To1Rules(Findings& f);
void Relu0To1Rules(Findings& f);
void LeakyReluRules(Findings& f);
void PreluRules(Findings& f);
void HardSwishRules(Findings& f);
void RsqrtRules(Findings& f);
void LogisticRules(Findings& f);
void TanhRules(Findings& f);
void SoftmaxRules(Findings& f);
// legality_movement.cc
void AveragePoolRules(Findings& f);
void MaxPoolRules(Findings& f);
void ConcatenationRules(Findings& f);
void SameParamsRules(Findings& f);
void SplitRules(Findings& f);
void PackRules(Findings& f);
void Int8OnlyRules(Findings& f);
void MatrixSetDiagRules(Findings& f);
void QuantizeRules(Findings& f);

// Shared arithmetic.
// A positive, finite, normal float (TFLite/XNNPACK reject the others).
bool IsNormalScale(float s);
// The exponent frexp gives `m` (TFLite's QuantizeMultiplier shift).
int MultiplierShift(double m);
// Fused-activation bounds: TFLite's CalculateActivationRangeQuantized
// (kernel_util.cc) rounds f / output_scale in float and refuses a value
// beyond int32. `what` names the op for the message.
bool ActivationBoundsFit(ir::Activation act, float output_scale);
// Refuses the form when ActivationBoundsFit fails.
void ActivationBoundsRule(Findings& f, ir::Activation act, float output_scale);
// Inputs 0, 1 and output 0 of a binary op, all integer; else all null.
struct Binary {
  const TensorForm* a = nullptr;
  const TensorForm* b = nullptr;
  const TensorForm* out = nullptr;
  bool ok() const { return out != nullptr; }
};
Binary IntegerBinary(const OpForm& op);
// "1.5e+36": scales in messages.
std::string Num(double v);
bool IsInt16(const TensorForm& t);

}  // namespace qforge::runtime::legality

#endif  // QFORGE_RUNTIME_LEGALITY_RULES_H_
