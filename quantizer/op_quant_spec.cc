// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/op_quant_spec.h"

namespace qforge::quantizer {
namespace {

using R = Role;

OpQuantSpec Spec(int v8, int v16, std::initializer_list<Role> roles,
                 OutputRule output = OutputRule::kOwnRange,
                 int weight_axis = -1) {
  OpQuantSpec s;
  s.version_int8 = v8;
  s.version_int16 = v16;
  const bool int16 = v16 > 0;
  s.int8 = true;
  s.int16 = int16;
  s.num_roles = 0;
  for (Role r : roles) s.roles[s.num_roles++] = r;
  s.output = output;
  s.weight_axis = weight_axis;
  return s;
}

// Fixed output ranges of the TFLite spec: LOGISTIC and SOFTMAX [0, 1) as
// 1/256 with zero point -128 (int8) or 1/32768, 0 (int16); TANH [-1, 1) as
// 1/128, 0 (int8) or 1/32768, 0 (int16).
OpQuantSpec Fixed(float scale8, int zp8, float scale16, int v8, int v16) {
  OpQuantSpec s = Spec(v8, v16, {R::kActivation}, OutputRule::kFixed);
  s.fixed_int8 = {scale8, zp8};
  s.fixed_int16 = {scale16, 0};
  return s;
}

}  // namespace

std::optional<OpQuantSpec> GetOpQuantSpec(ir::OpKind kind) {
  using K = ir::OpKind;
  constexpr auto kOwn = OutputRule::kOwnRange;
  constexpr auto kSame = OutputRule::kSameAsInput;
  constexpr auto kShared = OutputRule::kSharedInputs;
  switch (kind) {
    // Weighted ops: per-channel int8 weights, int32 bias.
    case K::kConv2D:
      return Spec(3, 3, {R::kActivation, R::kWeight, R::kBias}, kOwn, 0);
    case K::kDepthwiseConv2D:
      return Spec(3, 3, {R::kActivation, R::kWeight, R::kBias}, kOwn, 3);
    case K::kFullyConnected:
      return Spec(4, 4, {R::kActivation, R::kWeight, R::kBias}, kOwn, 0);
    // TRANSPOSE_CONV: input 0 is the output shape, 1 the weights (OHWI,
    // per channel along O), 2 the activation, 3 the optional bias.
    case K::kTransposeConv:
      return Spec(2, 3, {R::kNotReal, R::kWeight, R::kActivation, R::kBias},
                  kOwn, 0);
    // BATCH_MATMUL: both operands quantized per tensor like activations
    // (a constant rhs from its values), as TFLite's quantizer does.
    case K::kBatchMatMul:
      return Spec(2, 3, {R::kActivation, R::kActivation}, kOwn);
    // Arithmetic with its own output range (int16 ADD/SUB with general
    // scales: pot_scale_int16 = false).
    case K::kAdd:
      return Spec(2, 3, {R::kActivation, R::kActivation}, kOwn);
    case K::kSub:
      return Spec(2, 5, {R::kActivation, R::kActivation}, kOwn);
    case K::kMul:
      return Spec(2, 4, {R::kActivation, R::kActivation}, kOwn);
    case K::kMean:
      return Spec(2, 3, {R::kActivation, R::kNotReal}, kOwn);
    case K::kRelu:
    case K::kRelu6:
      return Spec(2, 3, {R::kActivation}, kOwn);
    case K::kReluN1To1:
    case K::kHardSwish:
      return Spec(1, 0, {R::kActivation}, kOwn);
    case K::kLeakyRelu:
      return Spec(1, 2, {R::kActivation}, kOwn);
    // PRELU: alpha (usually a constant) is an activation-like input with
    // its own per-tensor parameters; int8 only (TFLite has no int16 form),
    // version 1 (TFLite registers no other).
    case K::kPrelu:
      return Spec(1, 0, {R::kActivation, R::kActivation}, kOwn);
    case K::kRsqrt:
      return Spec(2, 3, {R::kActivation}, kOwn);
    // Fixed output ranges.
    case K::kLogistic:
    case K::kSoftmax:
      return Fixed(1.0f / 256, -128, 1.0f / 32768, 2, 3);
    case K::kTanh:
      return Fixed(1.0f / 128, 0, 1.0f / 32768, 2, 3);
    // Data movement and selection: the output shares the input's params.
    case K::kAveragePool2D:
    case K::kMaxPool2D:
      return Spec(2, 3, {R::kActivation}, kSame);
    case K::kSqueeze:
      return Spec(1, 1, {R::kActivation}, kSame);
    case K::kSpaceToDepth:
    case K::kDepthToSpace:
      return Spec(2, 0, {R::kActivation}, kSame);
    case K::kReshape:
    case K::kExpandDims:
      return Spec(1, 1, {R::kActivation, R::kNotReal}, kSame);
    case K::kTranspose:
      return Spec(2, 5, {R::kActivation, R::kNotReal}, kSame);
    case K::kPad:
      return Spec(2, 3, {R::kActivation, R::kNotReal}, kSame);
    case K::kResizeBilinear:
    case K::kResizeNearestNeighbor:
      return Spec(2, 4, {R::kActivation, R::kNotReal}, kSame);
    case K::kSlice:
    case K::kStridedSlice:
      return Spec(2, 4, {R::kActivation, R::kNotReal}, kSame);
    case K::kGather:
      return Spec(2, 4, {R::kActivation, R::kNotReal}, kSame);
    case K::kSplit:
      return Spec(2, 4, {R::kNotReal, R::kActivation}, kSame);
    case K::kUnpack:
      return Spec(2, 4, {R::kActivation}, kSame);
    // Several activation inputs that must share the output's params.
    case K::kConcatenation:
      return Spec(2, 3, {R::kActivation}, kShared);
    case K::kPack:
      return Spec(2, 3, {R::kActivation}, kShared);
    case K::kMaximum:
    case K::kMinimum:
      return Spec(2, 4, {R::kActivation}, kShared);
    // No integer form here (yet): these stay float.
    case K::kL2Normalization:
    case K::kLogSoftmax:
    case K::kDiv:
    case K::kSquaredDifference:
    case K::kSqrt:
    case K::kExp:
    case K::kLog:
    case K::kPow:
    case K::kSum:
    case K::kReduceMax:
    case K::kReduceMin:
    case K::kReduceProd:
    case K::kPadV2:
    case K::kMirrorPad:
    case K::kSplitV:
    case K::kTile:
    case K::kBroadcastTo:
    case K::kGatherNd:
    case K::kSpaceToBatchND:
    case K::kBatchToSpaceND:
    case K::kReverseV2:
    case K::kArgMax:
    case K::kArgMin:
    case K::kTopKV2:
    case K::kUnidirectionalSequenceLstm:
    case K::kGelu:
    case K::kElu:
    case K::kRelu0To1:
    case K::kAbs:
    case K::kNeg:
    case K::kSquare:
    case K::kSin:
    case K::kCos:
    case K::kFloor:
    case K::kCeil:
    case K::kRound:
    case K::kSign:
    case K::kFloorDiv:
    case K::kFloorMod:
    case K::kLess:
    case K::kLessEqual:
    case K::kGreater:
    case K::kGreaterEqual:
    case K::kEqual:
    case K::kNotEqual:
    case K::kSelect:
    case K::kSelectV2:
    case K::kCast:
    case K::kShape:
    case K::kBroadcastArgs:
    case K::kDequantize:
    case K::kQuantize:
    case K::kDensify:
    case K::kIf:
    case K::kWhile:
    case K::kCallOnce:
    case K::kVarHandle:
    case K::kReadVariable:
    case K::kAssignVariable:
    case K::kLstm:
    case K::kStablehloComposite:
    case K::kScatterNd:
    case K::kDynamicUpdateSlice:
    case K::kEmbeddingLookup:
    case K::kAtan2:
    case K::kRfft2d:
    case K::kComplexAbs:
    case K::kConv3D:
    case K::kSvdf:
    case K::kOtherBuiltin:
    case K::kCustom:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace qforge::quantizer
