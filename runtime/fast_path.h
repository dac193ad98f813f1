// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LiteRT's fast path: which op forms its XNNPACK delegate takes. The rest
// run in TFLite's builtin kernels, which in LiteRT's WebAssembly build are
// portable C (and, for int16x8, the reference kernels), several times
// slower than XNNPACK's, and each op that falls off splits the delegated
// partition around it.
//
// The rules are the delegate's node checks (Subgraph::VisitNode and the
// Visit*Node functions of tflite/delegates/xnnpack/xnnpack_delegate.cc, the
// revision LiteRT.js 2.5.3 ships): types, static (constant) operands,
// fused activations, option and scale limits. Each op names its rule in
// the XNN trait of the op table (ir/ops.def); an op without one is never
// delegated, and a quantizable row says so in its XNN_NEVER trait. Checks
// XNNPACK makes only after the delegate claimed a node (requantization scales
// below 256, equal parameters of data-movement ops) fail the whole model, so
// they are legality rules (runtime/legality.h), not fast-path rules.
// docs/runtimes.md cites every rule.
#ifndef QFORGE_RUNTIME_FAST_PATH_H_
#define QFORGE_RUNTIME_FAST_PATH_H_

#include <string>

#include "runtime/legality.h"

namespace qforge::runtime::fast_path {

// The XNN trait's rule: why the delegate leaves `form` to TFLite's builtin
// kernels, or "" when it takes it.
using XnnRuleFn = std::string (*)(const legality::OpForm& form);

// Why LiteRT runs `form` in TFLite's builtin kernels instead of XNNPACK;
// "" when XNNPACK runs it. Constant operands must be marked constant in
// `form`, including weights a constant DEQUANTIZE widens (XNNPACK folds
// those at prepare time).
std::string XnnpackRefusal(const legality::OpForm& form);

// The XNN trait of `kind`'s row; nullptr when it has none.
XnnRuleFn XnnRuleOf(ir::OpKind kind);

// The XNN_NEVER trait of `kind`'s row: why the delegate never takes the op;
// "" when the row does not say.
const char* XnnNeverReason(ir::OpKind kind);

// The rules of the XNN trait (runtime/fast_path_xnnpack.cc).
std::string XnnAddSub(const legality::OpForm& form);
std::string XnnMul(const legality::OpForm& form);
std::string XnnFloatBinary(const legality::OpForm& form);
std::string XnnPrelu(const legality::OpForm& form);
std::string XnnConv2D(const legality::OpForm& form);
std::string XnnDepthwiseConv2D(const legality::OpForm& form);
std::string XnnFullyConnected(const legality::OpForm& form);
std::string XnnTransposeConv(const legality::OpForm& form);
std::string XnnBatchMatMul(const legality::OpForm& form);
std::string XnnAveragePool(const legality::OpForm& form);
std::string XnnMaxPool(const legality::OpForm& form);
std::string XnnReduce(const legality::OpForm& form);
std::string XnnConcatenation(const legality::OpForm& form);
std::string XnnPad(const legality::OpForm& form);
std::string XnnReshape(const legality::OpForm& form);
std::string XnnTranspose(const legality::OpForm& form);
std::string XnnSlice(const legality::OpForm& form);
std::string XnnStridedSlice(const legality::OpForm& form);
std::string XnnSplit(const legality::OpForm& form);
std::string XnnBlockSize(const legality::OpForm& form);
std::string XnnResizeBilinear(const legality::OpForm& form);
std::string XnnSoftmax(const legality::OpForm& form);
std::string XnnFloatUnary(const legality::OpForm& form);
std::string XnnQuantizedUnary(const legality::OpForm& form);
std::string XnnElu(const legality::OpForm& form);
std::string XnnLeakyRelu(const legality::OpForm& form);
std::string XnnDequantize(const legality::OpForm& form);
std::string XnnQuantize(const legality::OpForm& form);

}  // namespace qforge::runtime::fast_path

#endif  // QFORGE_RUNTIME_FAST_PATH_H_
