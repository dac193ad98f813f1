// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/fast_path.h"

#include "absl/strings/str_cat.h"

namespace qforge::runtime::fast_path {
namespace {

// The XNN and XNN_NEVER traits of every row (ir/ops.def).
struct XnnRow {
  XnnRuleFn rule = nullptr;  // nullptr: never delegated
  const char* never = "";    // the row's statement that it never is
};

const XnnRow kXnnRows[] = {
#define XNN(fn) r.rule = &fn
#define XNN_NEVER(why) r.never = why
#define TFLM(types) (void)0
#define TFLM_RULES(fn) (void)0
#define ARMNN(types) (void)0
#define ARMNN_RULES(fn) (void)0
#define CLAMP(lo, hi) (void)0
#define WEIGHTS(input, layout) (void)0
#define QF_OP(kind, name, code, opts, io, fk, ik, hk, q, ver, batch, rules, \
              flags, ...)                                                   \
  [] {                                                                      \
    XnnRow r;                                                               \
    __VA_ARGS__;                                                            \
    return r;                                                               \
  }(),
#include "ir/ops.def"
#undef QF_OP
#undef XNN
#undef XNN_NEVER
#undef TFLM
#undef TFLM_RULES
#undef ARMNN
#undef ARMNN_RULES
#undef CLAMP
#undef WEIGHTS
    XnnRow{},  // kOtherBuiltin
    XnnRow{},  // kCustom
};
static_assert(sizeof(kXnnRows) / sizeof(kXnnRows[0]) == ir::kNumOpKinds);

}  // namespace

XnnRuleFn XnnRuleOf(ir::OpKind kind) {
  return kXnnRows[static_cast<size_t>(kind)].rule;
}

const char* XnnNeverReason(ir::OpKind kind) {
  return kXnnRows[static_cast<size_t>(kind)].never;
}

std::string XnnpackRefusal(const legality::OpForm& form) {
  // MediaPipe's custom ops the delegate takes in float
  // (VisitMediaPipeDeconvolutionNode, VisitMediaPipeMaxPoolingNode,
  // VisitMediaPipeUnpoolingNode).
  if (form.kind == ir::OpKind::kCustom &&
      (form.op_name == "Convolution2DTransposeBias" ||
       form.op_name == "MaxPoolingWithArgmax2D" ||
       form.op_name == "MaxUnpooling2D")) {
    return XnnFloatUnary(form);
  }
  const XnnRuleFn rule = XnnRuleOf(form.kind);
  if (rule == nullptr) {
    return absl::StrCat("XNNPACK has no ", form.op_name,
                        " (xnnpack_delegate.cc VisitNode)");
  }
  return rule(form);
}

}  // namespace qforge::runtime::fast_path
