// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// OpKind: the ops of ir/ops.def, plus kOtherBuiltin (a builtin op the project
// carries but does not know) and kCustom. Switch over it without `default`:
// the build (-Werror=switch) then lists every place a new row is missing.
#ifndef QFORGE_IR_OP_KIND_H_
#define QFORGE_IR_OP_KIND_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "ir/clamp.h"

namespace qforge::ir {

enum class OpKind : uint16_t {
#define QF_OP(kind, ...) k##kind,
#include "ir/ops.def"
#undef QF_OP
  kOtherBuiltin,
  kCustom,
};

// How an op keeps the samples of a stacked batch apart, given that its
// activations have the batch as dimension 0 (runtime/interpreter_batch.cc).
enum class BatchRule : uint8_t {
  kNone,            // not known to: the interpreter runs samples one by one
  kElementwise,     // per element; activation inputs of the output's rank
  kWindow,          // NHWC windows (conv, pool, resize): one activation
  kFullyConnected,  // one row per sample
  kReshape,         // new shape starts with -1
  kSqueeze,         // explicit dims, never 0
  kConcatenation,   // axis is not 0; all inputs activations
  kLastAxis,        // softmax-like over the last axis of rank >= 2
  kReduce,          // constant axes, never 0
  kPad,             // constant paddings, none on dim 0
};

// The FLAGS column of ops.def (see there).
namespace op_flags {
enum : uint32_t {
  kOutputTypeFromInputs = 1u << 0,
  kGemmRounding = 1u << 1,
  kNeverFolded = 1u << 2,
  kIntNeedsBias = 1u << 3,
  kGeneralInt16Scales = 1u << 4,
  kInt4Weights = 1u << 5,
  kRoundsTwice = 1u << 6,
  kLastAxisNotChannels = 1u << 7,
  kReadsLargest = 1u << 8,
  kConverter = 1u << 9,
  kShapeOnly = 1u << 10,
  kClassScores = 1u << 11,
  kSumOfInputs = 1u << 12,
};
}  // namespace op_flags

// The WEIGHTS trait of ops.def: the layout of an op's constant weights
// operand, as TFLite's schema defines it (O output channels, I input
// channels, Kh x Kw the window).
enum class WeightLayout : uint8_t {
  kNone,            // no weights operand
  kConv,            // CONV_2D [O, Kh, Kw, I]
  kDepthwise,       // DEPTHWISE_CONV_2D [1, Kh, Kw, I * M]: output channel c
                    // reads input channel c / M (M: depth multiplier)
  kFullyConnected,  // FULLY_CONNECTED [O, I]
  kTransposeConv,   // TRANSPOSE_CONV [O, Kh, Kw, I]
  kConv3D,          // CONV_3D [Kd, Kh, Kw, I, O]
};

// The axis of the output channels (the per-channel quantization axis) in
// `layout`; -1 for kNone.
int OutputChannelAxis(WeightLayout layout);

struct OpInfo {
  OpKind kind;
  absl::string_view name;  // TFLite's builtin name, e.g. "CONV_2D"
  int32_t builtin_code;    // -1 for kOtherBuiltin / kCustom
  int min_inputs, max_inputs, min_outputs, max_outputs;  // -1: unbounded
  BatchRule batch = BatchRule::kNone;
  uint32_t flags = 0;  // op_flags
  // Traits (ops.def's optional columns after FLAGS).
  bool clamps = false;  // CLAMP(lo, hi): the op is min(max(x, lo), hi)
  ClampRange clamp = {};
  int weight_input = -1;  // WEIGHTS(input, layout); -1: none
  WeightLayout weight_layout = WeightLayout::kNone;

  bool Has(uint32_t flag) const { return (flags & flag) != 0; }
};

// The row of `kind`.
const OpInfo& GetOpInfo(OpKind kind);

inline constexpr int kNumOpKinds = static_cast<int>(OpKind::kCustom) + 1;

// The kind of a builtin code; kOtherBuiltin when the project does not know it.
OpKind OpKindFromBuiltinCode(int32_t builtin_code);

// TFLite's builtin code of CUSTOM.
inline constexpr int32_t kBuiltinCustom = 32;

}  // namespace qforge::ir

#endif  // QFORGE_IR_OP_KIND_H_
