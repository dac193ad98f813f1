// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Weight forms with float activations (--scheme weight-only, --scheme
// dynamic --weight-bits 4): which LiteRT kernels take int8 / int4 weights,
// per channel or per block, next to float activations. The quantizer asks
// before it writes a form; the reasons are shown to the user as the reason
// an op kept another form. docs/weight-forms.md lists the sources.
#ifndef QFORGE_RUNTIME_LEGALITY_WEIGHTS_H_
#define QFORGE_RUNTIME_LEGALITY_WEIGHTS_H_

#include <string>

#include "ir/op_kind.h"

namespace qforge::runtime::legality {

// How the op computes with its integer weights.
enum class WeightCompute : uint8_t {
  kDequantize,  // DEQUANTIZE into a float tensor, then the float kernel
  kHybrid,      // the op's own kernel reads the integer weights
};

struct WeightForm {
  int bits = 8;        // 8 or 4
  int block_size = 0;  // 0: per channel; else blocks along the input axis
  WeightCompute compute = WeightCompute::kDequantize;
};

// Why LiteRT.js 2.5.3 (and TFLite's builtin kernels) cannot run `kind` with
// its constant weights in `form`; empty when it can.
std::string WeightFormRefusal(ir::OpKind kind, const WeightForm& form);

}  // namespace qforge::runtime::legality

#endif  // QFORGE_RUNTIME_LEGALITY_WEIGHTS_H_
