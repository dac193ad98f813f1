// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The rule functions the TFLM_RULES and ARMNN_RULES traits of the op table
// name (ir/ops.def): what TensorFlow Lite Micro's kernels and Arm NN 20.08's
// TfLite parser and CpuRef backend refuse, abort on or compute wrongly
// beyond their types, each citing the source (docs/runtimes.md).
#ifndef QFORGE_RUNTIME_PROFILE_RULES_H_
#define QFORGE_RUNTIME_PROFILE_RULES_H_

#include "runtime/legality.h"

namespace qforge::runtime::profile_rules {

// TFLite Micro.
void TflmGemmRules(legality::Findings& f);
void TflmDivRules(legality::Findings& f);
void TflmQuantizeRules(legality::Findings& f);
void TflmDequantizeRules(legality::Findings& f);
// Arm NN.
void ArmnnFullyConnectedRules(legality::Findings& f);
void ArmnnTransposeConvRules(legality::Findings& f);
void ArmnnDequantizeRules(legality::Findings& f);
void ArmnnSameParamsRules(legality::Findings& f);
void ArmnnPackRules(legality::Findings& f);
void ArmnnPadRules(legality::Findings& f);

}  // namespace qforge::runtime::profile_rules

#endif  // QFORGE_RUNTIME_PROFILE_RULES_H_
