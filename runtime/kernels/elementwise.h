// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: elementwise (named by the op table, ir/ops.def).
//
//  elementwise_arith.cc        ADD SUB MUL DIV MAXIMUM MINIMUM (broadcasting,
//                              fused activation; float32, int32, int64)
//  elementwise_binary_math.cc  POW SQUARED_DIFFERENCE FLOOR_DIV FLOOR_MOD
//                              PRELU
//  elementwise_bitwise.cc      BITWISE_XOR RIGHT_SHIFT (integer types)
//  elementwise_compare.cc      LESS ... NOT_EQUAL (-> bool), SELECT,
//                              SELECT_V2
//  elementwise_activation.cc   LOGISTIC TANH RELU* LEAKY_RELU HARD_SWISH
//                              GELU ELU
//  elementwise_unary.cc        EXP LOG SQRT RSQRT SQUARE NEG ABS SIN COS
//                              FLOOR CEIL ROUND SIGN
//  elementwise_cast.cc         CAST DEQUANTIZE
//  elementwise_common.cc       shared checks, broadcast plans (see
//                              elementwise_internal.h)
// Semantics follow TFLite's float kernels; each file notes where they are
// subtle (ROUND ties to even, CAST saturation, FLOOR_MOD sign, ...).
#ifndef QFORGE_RUNTIME_KERNELS_ELEMENTWISE_H_
#define QFORGE_RUNTIME_KERNELS_ELEMENTWISE_H_

#include "runtime/kernel.h"

namespace qforge::runtime {

// Arithmetic with broadcasting.
absl::Status PrepareAdd(OpContext& ctx);
absl::Status EvalAdd(OpContext& ctx);
absl::Status PrepareSub(OpContext& ctx);
absl::Status EvalSub(OpContext& ctx);
absl::Status PrepareMul(OpContext& ctx);
absl::Status EvalMul(OpContext& ctx);
absl::Status PrepareDiv(OpContext& ctx);
absl::Status EvalDiv(OpContext& ctx);
absl::Status PrepareMaximumMinimum(OpContext& ctx);
absl::Status EvalMaximum(OpContext& ctx);
absl::Status EvalMinimum(OpContext& ctx);

// Other binary maths with broadcasting.
absl::Status PreparePow(OpContext& ctx);
absl::Status EvalPow(OpContext& ctx);
absl::Status PrepareAtan2(OpContext& ctx);
absl::Status EvalAtan2(OpContext& ctx);
absl::Status PrepareSquaredDifference(OpContext& ctx);
absl::Status EvalSquaredDifference(OpContext& ctx);
absl::Status PrepareBitwise(OpContext& ctx);  // BITWISE_XOR, RIGHT_SHIFT
absl::Status EvalBitwise(OpContext& ctx);
absl::Status PrepareFloorDivMod(OpContext& ctx);
absl::Status EvalFloorDiv(OpContext& ctx);
absl::Status EvalFloorMod(OpContext& ctx);
absl::Status PreparePrelu(OpContext& ctx);
absl::Status EvalPrelu(OpContext& ctx);

// Comparisons (bool output) and selection.
absl::Status PrepareComparison(OpContext& ctx);
absl::Status EvalLess(OpContext& ctx);
absl::Status EvalLessEqual(OpContext& ctx);
absl::Status EvalGreater(OpContext& ctx);
absl::Status EvalGreaterEqual(OpContext& ctx);
absl::Status EvalEqual(OpContext& ctx);
absl::Status EvalNotEqual(OpContext& ctx);
absl::Status PrepareSelect(OpContext& ctx);
absl::Status EvalSelect(OpContext& ctx);
absl::Status PrepareSelectV2(OpContext& ctx);
absl::Status EvalSelectV2(OpContext& ctx);

// Activations (float32).
absl::Status PrepareFloatUnary(OpContext& ctx);
absl::Status EvalLogistic(OpContext& ctx);
absl::Status EvalTanh(OpContext& ctx);
absl::Status EvalRelu(OpContext& ctx);
absl::Status EvalRelu6(OpContext& ctx);
absl::Status EvalReluN1To1(OpContext& ctx);
absl::Status EvalRelu0To1(OpContext& ctx);
absl::Status EvalLeakyRelu(OpContext& ctx);
absl::Status EvalHardSwish(OpContext& ctx);
absl::Status EvalGelu(OpContext& ctx);
absl::Status EvalElu(OpContext& ctx);

// Unary maths.
absl::Status EvalExp(OpContext& ctx);
absl::Status EvalLog(OpContext& ctx);
absl::Status EvalSqrt(OpContext& ctx);
absl::Status EvalRsqrt(OpContext& ctx);
absl::Status EvalSquare(OpContext& ctx);
absl::Status EvalSin(OpContext& ctx);
absl::Status EvalCos(OpContext& ctx);
absl::Status EvalFloor(OpContext& ctx);
absl::Status EvalCeil(OpContext& ctx);
absl::Status EvalRound(OpContext& ctx);
// NEG, ABS, SIGN also take int32 (NEG also int64).
absl::Status PrepareSignedUnary(OpContext& ctx);
absl::Status EvalNeg(OpContext& ctx);
absl::Status EvalAbs(OpContext& ctx);
absl::Status EvalSign(OpContext& ctx);

// Type conversion.
absl::Status PrepareCast(OpContext& ctx);
absl::Status EvalCast(OpContext& ctx);
absl::Status PrepareDequantize(OpContext& ctx);
absl::Status EvalDequantize(OpContext& ctx);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_KERNELS_ELEMENTWISE_H_
