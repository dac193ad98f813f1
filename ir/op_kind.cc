// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "ir/op_kind.h"

#include <array>
#include <limits>

namespace qforge::ir {
namespace {

using namespace op_flags;  // NOLINT: the FLAGS column names them

// Names of the traits' columns.
constexpr float Inf = std::numeric_limits<float>::infinity();

// Each row builds its OpInfo in a lambda, so that the optional trait columns
// after FLAGS (none, one or several, in any order) are statements on it.
constexpr OpInfo kOpTable[] = {
#define IO(min_in, max_in, min_out, max_out) min_in, max_in, min_out, max_out
#define BATCH(rule) BatchRule::k##rule
#define FLAGS(f) static_cast<uint32_t>(f)
#define CLAMP(low, high) r.clamps = true, r.clamp.lo = low, r.clamp.hi = high
#define WEIGHTS(input, layout) \
  r.weight_input = input, r.weight_layout = WeightLayout::k##layout
// The runtime profiles' traits are the runtime's to read
// (runtime/profile.cc, runtime/fast_path.cc).
#define XNN(fn) (void)0
#define XNN_NEVER(why) (void)0
#define TFLM(types) (void)0
#define TFLM_RULES(fn) (void)0
#define ARMNN(types) (void)0
#define ARMNN_RULES(fn) (void)0
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, q, ver, batch, rules, \
              flags, ...)                                                   \
  [] {                                                                      \
    OpInfo r{OpKind::k##kind, #name, code, io, batch, flags};               \
    __VA_ARGS__;                                                            \
    return r;                                                               \
  }(),
#include "ir/ops.def"
#undef QF_OP
#undef IO
#undef BATCH
#undef FLAGS
#undef CLAMP
#undef WEIGHTS
#undef XNN
#undef XNN_NEVER
#undef TFLM
#undef TFLM_RULES
#undef ARMNN
#undef ARMNN_RULES
    {OpKind::kOtherBuiltin, "BUILTIN", -1, 0, -1, 0, -1},
    {OpKind::kCustom, "CUSTOM", -1, 0, -1, 0, -1},
};

constexpr int kNumKinds = kNumOpKinds;
static_assert(sizeof(kOpTable) / sizeof(kOpTable[0]) == kNumKinds);

constexpr bool RowsInEnumOrder() {
  for (int i = 0; i < kNumKinds; ++i) {
    if (static_cast<int>(kOpTable[i].kind) != i) return false;
  }
  return true;
}
static_assert(RowsInEnumOrder());

// Builtin code -> kind, built once. Codes are small (< 256 today); larger ones
// fall back to kOtherBuiltin.
constexpr int kMaxCode = 512;
const std::array<OpKind, kMaxCode>& CodeIndex() {
  static const std::array<OpKind, kMaxCode> index = [] {
    std::array<OpKind, kMaxCode> a;
    a.fill(OpKind::kOtherBuiltin);
    for (const OpInfo& row : kOpTable) {
      if (row.builtin_code >= 0) a[row.builtin_code] = row.kind;
    }
    a[kBuiltinCustom] = OpKind::kCustom;
    return a;
  }();
  return index;
}

}  // namespace

const OpInfo& GetOpInfo(OpKind kind) {
  return kOpTable[static_cast<int>(kind)];
}

int OutputChannelAxis(WeightLayout layout) {
  switch (layout) {
    case WeightLayout::kNone:
      return -1;
    case WeightLayout::kConv:
    case WeightLayout::kFullyConnected:
    case WeightLayout::kTransposeConv:
      return 0;
    case WeightLayout::kDepthwise:
      return 3;
    case WeightLayout::kConv3D:
      return 4;
  }
  return -1;
}

OpKind OpKindFromBuiltinCode(int32_t builtin_code) {
  if (builtin_code < 0 || builtin_code >= kMaxCode)
    return OpKind::kOtherBuiltin;
  return CodeIndex()[builtin_code];
}

}  // namespace qforge::ir
