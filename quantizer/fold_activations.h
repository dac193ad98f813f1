// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Standalone clamp activations (RELU, RELU6, RELU_N1_TO_1) folded into the
// op before them. XNNPACK has no int8 node for them, so in LiteRT an int8
// RELU after a CONV_2D runs in TFLite's builtin kernels (or, kept float by
// the fast-path plan, between a DEQUANTIZE and a QUANTIZE). In int8 the
// standalone op adds nothing the producer cannot compute itself:
//
//   Let the producer P write t and the activation R read t and write z, t
//   and z with the same scale s and zero point zp (the plan gives t z's
//   parameters: quantizer/plan.cc). P's int8 kernel computes
//     t = clamp(zp + requant(acc), -128, 127)            (activation NONE)
//   and R's (TFLite's ReluPrepare / QuantizedReluX) computes
//     z = clamp(zp + M(t - zp), lo, hi)
//   with M the requantization by s / s = 1, which TFLite's
//   QuantizeMultiplier(1.0) gives as 2^30 with shift 1: M(x) = x exactly;
//   and lo, hi = max(-128, zp + round(a / s)), min(127, zp + round(b / s))
//   for R's clamp [a, b] (unbounded sides: -128, 127). So
//     z = clamp(clamp(v, -128, 127), lo, hi) = clamp(v, lo, hi)
//   because -128 <= lo <= hi <= 127. P with the fused activation whose clamp
//   is [a, b] computes clamp(v, lo', hi') with lo', hi' from TFLite's
//   CalculateActivationRangeQuantized: zp + round(a / s), zp + round(b / s)
//   limited to [-128, 127], the same expressions. So P writing z with the
//   fused activation gives z bit for bit, and R and t go.
//
// The rewrite runs on the quantized model after every plan decision, so
// the op indices of rules, recipes, --target-sqnr steps and the summary
// keep naming the float model's ops (R included, as "int8"). The producer
// writes R's output tensor, keeping its name: the report matches it with
// the float model's tensor of that name (R's output), and the producer's
// own output, gone, is no longer compared.
#ifndef QFORGE_QUANTIZER_FOLD_ACTIVATIONS_H_
#define QFORGE_QUANTIZER_FOLD_ACTIVATIONS_H_

#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/model.h"
#include "runtime/profile.h"

namespace qforge::quantizer {

// The standalone activation op that op `producer` of `sg` feeds, when it
// could become the producer's fused activation: the producer is a CONV_2D,
// DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB or MUL without a fused
// activation (their int8 kernels clamp at CalculateActivationRangeQuantized's
// bounds); its only output is read by that op alone and is not a subgraph
// output; the op's CLAMP trait is the clamp of a fused activation. -1
// otherwise. Types are not looked at.
int FoldableActivation(const ir::Subgraph& sg, const ir::Graph& graph,
                       size_t producer);

// An activation folded into its producer.
struct FoldedActivation {
  std::string op;     // the activation's display name ("RELU")
  std::string input;  // its input's name: the producer's output, now gone
  std::string into;   // the producer's display name
};

// Folds every foldable activation of `model`'s subgraph 0 whose input and
// output are int8 with the same per-tensor scale and zero point (exact, as
// above), when the producer's new form passes `runtime`'s rules and, for
// LiteRT, stays on XNNPACK if it was. The activation's input tensor is left
// unused (ir::CompactTensors drops it).
std::vector<FoldedActivation> FoldActivations(ir::Model& model,
                                              runtime::Runtime runtime);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_FOLD_ACTIVATIONS_H_
