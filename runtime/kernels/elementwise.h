// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: elementwise (named by the op table, ir/ops.def; the
// functions are declared from it, kernel_functions.h).
//
//  elementwise_arith.cc        ADD SUB MUL DIV MAXIMUM MINIMUM (broadcasting,
//                              fused activation; float32, int32, int64)
//  elementwise_binary_math.cc  POW ATAN2 SQUARED_DIFFERENCE FLOOR_DIV
//                              FLOOR_MOD PRELU (broadcasting)
//  elementwise_bitwise.cc      BITWISE_XOR RIGHT_SHIFT (integer types)
//  elementwise_compare.cc      LESS ... NOT_EQUAL (-> bool), SELECT,
//                              SELECT_V2
//  elementwise_activation.cc   LOGISTIC TANH RELU* LEAKY_RELU HARD_SWISH
//                              GELU ELU
//  elementwise_unary.cc        EXP LOG SQRT RSQRT SQUARE NEG ABS SIN COS
//                              FLOOR CEIL ROUND SIGN (float32; NEG, ABS,
//                              SIGN also int32, NEG also int64)
//  elementwise_cast.cc         CAST DEQUANTIZE
//  elementwise_common.cc       shared checks, broadcast plans (see
//                              elementwise_internal.h)
// Semantics follow TFLite's float kernels; each file notes where they are
// subtle (ROUND ties to even, CAST saturation, FLOOR_MOD sign, ...).
#ifndef QFORGE_RUNTIME_KERNELS_ELEMENTWISE_H_
#define QFORGE_RUNTIME_KERNELS_ELEMENTWISE_H_

#include "runtime/kernels/kernel_functions.h"

#endif  // QFORGE_RUNTIME_KERNELS_ELEMENTWISE_H_
