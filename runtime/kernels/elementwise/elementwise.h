// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel family: elementwise (named by the op table, ir/ops.def; the
// functions are declared from it, kernel_functions.h). An op's float kernel
// (which also takes the plain int32 / int64 / bool types where TFLite's
// does) is in <stem>.cc, its integer kernel in <stem>_int.cc:
//  arith.cc, arith_int.cc      ADD SUB MUL DIV MAXIMUM MINIMUM (broadcasting,
//                              fused activation; float32, int32, int64);
//                              integer ADD SUB MUL
//  minmax_int.cc               integer MAXIMUM MINIMUM
//  binary_math.cc              POW ATAN2 SQUARED_DIFFERENCE FLOOR_DIV
//                              FLOOR_MOD PRELU (broadcasting)
//  prelu_int.cc                integer PRELU
//  bitwise.cc                  BITWISE_XOR RIGHT_SHIFT (integer types)
//  compare.cc                  LESS ... NOT_EQUAL (-> bool), SELECT,
//                              SELECT_V2
//  logical.cc                  LOGICAL_NOT
//  activation.cc,              LOGISTIC TANH RELU* LEAKY_RELU HARD_SWISH
//  activation_int.cc           GELU ELU (integer: all but GELU, ELU)
//  unary.cc                    EXP LOG SQRT RSQRT SQUARE NEG ABS SIN COS
//                              FLOOR CEIL ROUND SIGN (float32; NEG, ABS,
//                              SIGN also int32, NEG also int64)
//  rsqrt_int.cc                integer RSQRT
//  cast.cc                     CAST DEQUANTIZE (to float32)
//  quantize_int.cc             QUANTIZE, integer DEQUANTIZE
//  quantize_simd.cc            QUANTIZE float32 -> integer, vector path
// Semantics follow TFLite's float kernels; each file notes where they are
// subtle (ROUND ties to even, CAST saturation, FLOOR_MOD sign, ...). The
// integer kernels use common/quant_int.h.
//
// This header: the float kernels' shared machinery (elementwise.cc): prepare
// checks, fused activation ranges and the deterministic parallel loops
// every elementwise eval uses. Broadcasting plans are common/broadcast.h's,
// shared with the integer kernels.
//
// Parallelism: ParallelChunks (common/parallel.h) cuts work into chunks whose
// boundaries depend only on the element count (kGrain); the same chunks run
// whatever the thread count, so every element takes the same code path and
// results are bit-identical.
#ifndef QFORGE_RUNTIME_KERNELS_ELEMENTWISE_ELEMENTWISE_H_
#define QFORGE_RUNTIME_KERNELS_ELEMENTWISE_ELEMENTWISE_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/options.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/broadcast.h"
#include "runtime/kernels/common/parallel.h"
#include "runtime/kernels/common/type_dispatch.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime::elementwise {

// Elements per parallel chunk.
inline constexpr int64_t kGrain = kBroadcastGrain;
// The shared broadcasting (common/broadcast.h), under the names this family's
// kernels use.
using runtime::BroadcastPlan;
using runtime::ForEachRow;
using runtime::kMaxBroadcastRank;
using runtime::MakeBroadcastPlan;
using runtime::RowOffsets;

// ---------------------------------------------------------------- checks --

// Exactly `inputs` inputs (all present) and `outputs` outputs.
absl::Status CheckArity(const OpContext& ctx, int inputs, int outputs);

// Inputs [0, count) and every output are present.
absl::Status CheckInputsPresent(const OpContext& ctx, int count);

// Output i must have `type` in the model.
absl::Status ExpectOutputType(const OpContext& ctx, int i, ir::DataType type);

// Inputs a and b have the same element type.
absl::Status ExpectSameType(const OpContext& ctx, int a, int b);

// Unimplemented: input i has a type this kernel does not take.
absl::Status UnsupportedType(const OpContext& ctx, int i);

// Runs fn(T{}) with T the C++ type of input 0 among Ts; UnsupportedType for
// any other type.
template <typename... Ts, typename Fn>
absl::Status ForInputType(const OpContext& ctx, const Fn& fn) {
  if (ForTypeIn<Ts...>(ctx.input(0)->type, fn)) return absl::OkStatus();
  return UnsupportedType(ctx, 0);
}

// True for the integer types shape arithmetic uses (int32, int64).
inline bool IsShapeInt(ir::DataType t) {
  return t == ir::DataType::kInt32 || t == ir::DataType::kInt64;
}

// State of every broadcasting op: its plan, plus op parameters.
struct BinaryState : KernelState {
  BroadcastPlan plan;
  // Fused activation (float and integer forms).
  float act_min = -std::numeric_limits<float>::infinity();
  float act_max = std::numeric_limits<float>::infinity();
  int64_t int_act_min = std::numeric_limits<int64_t>::lowest();
  int64_t int_act_max = std::numeric_limits<int64_t>::max();
  bool has_activation = false;
};

// Prepare of a two-input broadcasting op: arity 2/1, both inputs present,
// output 0 = broadcast shape, a BinaryState with the plan installed (and
// returned through `state`).
absl::Status PrepareBroadcast2(OpContext& ctx, BinaryState** state);

// ------------------------------------------------------------ activation --

// Fills state's activation range as TFLite's CalculateActivationRange does:
// RELU [0, +inf), RELU6 [0, 6], RELU_N1_TO_1 [-1, 1]; NONE (and TANH /
// SIGN_BIT, which TFLite's arithmetic kernels ignore) leave values as they
// are. For integer outputs the same bounds apply to `bits`-wide integers.
void SetActivation(ir::Activation act, int bits, BinaryState* state);

// The fused activation of ADD/SUB (AddSubOptions) or MUL/DIV
// (ActivationOptions).
ir::Activation FusedActivationOf(const ir::Operator& op);

// -------------------------------------------------------------- parallel --

// One row of a binary op: out[i] = op(a[i*sa], b[i*sb]) with sa, sb in
// {0, 1}. Four plain loops so that each one auto-vectorises.
template <typename A, typename B, typename Out, typename Op>
inline void BinaryRow(const A* a, int64_t sa, const B* b, int64_t sb, Out* out,
                      int64_t n, const Op& op) {
  if (sa != 0 && sb != 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
  } else if (sa != 0) {
    const B bv = *b;
    for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], bv);
  } else if (sb != 0) {
    const A av = *a;
    for (int64_t i = 0; i < n; ++i) out[i] = op(av, b[i]);
  } else {
    const Out v = op(*a, *b);
    for (int64_t i = 0; i < n; ++i) out[i] = v;
  }
}

// Evaluates a binary op over a plan: out = op(a, b) with broadcasting.
template <typename A, typename B, typename Out, typename Op>
void EvalBinary(const OpContext& ctx, const BroadcastPlan& plan, const A* a,
                const B* b, Out* out, const Op& op) {
  const int last = plan.rank - 1;
  const int64_t sa = plan.strides[0][last], sb = plan.strides[1][last];
  ForEachRow(
      ctx, plan,
      [=, &op](const std::array<int64_t, 3>& off, int64_t out_off, int64_t n) {
        BinaryRow(a + off[0], sa, b + off[1], sb, out + out_off, n, op);
      });
}

// A broadcasting op's eval over its BinaryState's plan: inputs 0 and 1 of
// type T, output 0 of type Out.
template <typename T, typename Out = T, typename Op>
void RunBinary(const OpContext& ctx, const Op& op) {
  const BinaryState& st = *ctx.state<BinaryState>();
  EvalBinary(ctx, st.plan, ctx.input(0)->Data<T>(), ctx.input(1)->Data<T>(),
             ctx.output(0)->Data<Out>(), op);
}

// Unary: out[i] = op(in[i]) over `n` contiguous elements, chunked.
template <typename In, typename Out, typename Op>
void EvalUnary(const OpContext& ctx, const In* in, Out* out, int64_t n,
               const Op& op) {
  ParallelChunks(ctx, n, kGrain, [=, &op](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[i] = op(in[i]);
  });
}

// Arithmetic in T as TFLite's kernels compute it: IEEE for floating point,
// wrap-around for integers (TFLite computes in the type and wraps on the
// hardware it runs on; signed overflow is undefined in C++).
template <typename T, typename Op>
inline T Wrapping(T a, T b, Op op) {
  if constexpr (std::is_floating_point_v<T>) {
    return op(a, b);
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(op(static_cast<U>(a), static_cast<U>(b)));
  }
}
template <typename T>
inline T WrapAdd(T a, T b) {
  return Wrapping(a, b, [](auto x, auto y) { return x + y; });
}
template <typename T>
inline T WrapSub(T a, T b) {
  return Wrapping(a, b, [](auto x, auto y) { return x - y; });
}
template <typename T>
inline T WrapMul(T a, T b) {
  return Wrapping(a, b, [](auto x, auto y) { return x * y; });
}

}  // namespace qforge::runtime::elementwise

#endif  // QFORGE_RUNTIME_KERNELS_ELEMENTWISE_ELEMENTWISE_H_
