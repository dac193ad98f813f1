// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// One hand-derived pair of forms per quantizable op row with an XNN rule
// (ir/ops.def): a form the XNNPACK delegate takes and one it leaves to
// TFLite's builtin kernels, each from a condition of the delegate's node
// checks (xnnpack_delegate.cc, the function named in `condition`). Run by
// FastPathTest.EveryRowWithARule (tests/runtime/fast_path_test.cc);
// OpTraitsTest.EveryQuantizableRowWithAnXnnRuleHasACase
// (tests/quantizer/op_traits_test.cc) checks that every quantizable row
// with a rule has its pair here.
#ifndef QFORGE_TESTS_RUNTIME_FAST_PATH_CASES_H_
#define QFORGE_TESTS_RUNTIME_FAST_PATH_CASES_H_

#include <string>
#include <utility>
#include <vector>

#include "runtime/legality.h"

namespace qforge::runtime::fast_path_cases {

using legality::OpForm;
using legality::TensorForm;

inline TensorForm XnnF32(std::vector<int32_t> shape, bool constant = false) {
  TensorForm t;
  t.type = ir::DataType::kFloat32;
  t.shape = std::move(shape);
  t.constant = constant;
  t.name = constant ? "c" : "x";
  return t;
}

inline TensorForm XnnQ(ir::DataType type, float scale, int64_t zp,
                       std::vector<int32_t> shape, bool constant = false) {
  TensorForm t = XnnF32(std::move(shape), constant);
  t.type = type;
  t.scales = {scale};
  t.zero_points = {zp};
  return t;
}

inline TensorForm XnnI8(float scale,
                        std::vector<int32_t> shape = {1, 8, 8, 4}) {
  return XnnQ(ir::DataType::kInt8, scale, 0, std::move(shape));
}

inline TensorForm XnnI16(std::vector<int32_t> shape = {1, 8, 8, 4}) {
  return XnnQ(ir::DataType::kInt16, 0.001f, 0, std::move(shape));
}

// A constant int32 operand (axes, shapes, paddings, begin / size).
inline TensorForm XnnInts(std::vector<int32_t> shape,
                          std::vector<int64_t> values) {
  TensorForm t = XnnF32(std::move(shape), true);
  t.type = ir::DataType::kInt32;
  t.int_data = std::move(values);
  return t;
}

inline TensorForm NotConstant(TensorForm t) {
  t.constant = false;
  t.name = "computed";
  return t;
}

inline OpForm XnnOp(ir::OpKind kind, const char* name,
                    std::vector<TensorForm> inputs,
                    std::vector<TensorForm> outputs, ir::Options options = {}) {
  OpForm f;
  f.kind = kind;
  f.op_name = name;
  f.options = std::move(options);
  for (TensorForm& t : inputs) f.inputs.push_back(std::move(t));
  f.outputs = std::move(outputs);
  return f;
}

struct RowCase {
  ir::OpKind kind;
  std::string condition;  // the delegate's condition the pair sits across
  OpForm taken;           // XNNPACK runs it
  OpForm left;            // TFLite's builtin kernel runs it
  std::string why;        // a part of the refusal of `left`
};

// Per-channel int8 weights of `channels` scales along `axis`, zero points 0.
inline TensorForm XnnPerChannel(std::vector<int32_t> shape, int axis) {
  const int channels = shape[static_cast<size_t>(axis)];
  TensorForm w = XnnQ(ir::DataType::kInt8, 0.01f, 0, std::move(shape), true);
  w.scales.assign(static_cast<size_t>(channels), 0.01f);
  w.zero_points.assign(static_cast<size_t>(channels), 0);
  w.axis = axis;
  return w;
}

inline std::vector<RowCase> XnnRowCases() {
  using K = ir::OpKind;
  std::vector<RowCase> c;
  const TensorForm i8 = XnnI8(0.1f);
  const TensorForm f32 = XnnF32({1, 8, 8, 4});
  auto unary = [&](K k, const char* name, const char* fn, bool int8_too) {
    if (int8_too) {
      c.push_back({k, std::string(fn) + ": float32, int8 or uint8",
                   XnnOp(k, name, {i8}, {i8}),
                   XnnOp(k, name, {XnnI16()}, {XnnI16()}), "int16"});
    } else {
      c.push_back({k, std::string(fn) + ": float32 only",
                   XnnOp(k, name, {f32}, {f32}), XnnOp(k, name, {i8}, {i8}),
                   "float only"});
    }
  };

  // Binary ops.
  auto add_sub = [&](K k, const char* name, float s0) {
    return XnnOp(k, name, {XnnI8(s0), XnnI8(0.1f)}, {XnnI8(0.1f)},
                 ir::AddSubOptions{});
  };
  c.push_back({K::kAdd,
               "VisitBinaryNode / CheckTensorsInputOutputScale: input / "
               "output scale in [1/1024, 256)",
               add_sub(K::kAdd, "ADD", 25.5f), add_sub(K::kAdd, "ADD", 26.0f),
               "CheckTensorsInputOutputScale"});
  ir::AddSubOptions fused_tanh;
  fused_tanh.activation = ir::Activation::kTanh;
  c.push_back({K::kSub, "ConvertActivationToOutputRange: no fused TANH",
               add_sub(K::kSub, "SUB", 0.1f),
               XnnOp(K::kSub, "SUB", {i8, i8}, {i8}, fused_tanh),
               "ConvertActivationToOutputRange"});
  auto mul = [&](float s0) {
    return XnnOp(K::kMul, "MUL", {XnnI8(s0), XnnI8(0.001f)}, {XnnI8(1.0f)},
                 ir::ActivationOptions{});
  };
  c.push_back({K::kMul,
               "CheckTensorsInputProductOutputScale: s0 x s1 / out in "
               "[2^-16, 256)",
               mul(0.02f), mul(0.01f), "CheckTensorsInputProductOutputScale"});
  for (auto [k, name] :
       {std::pair{K::kMaximum, "MAXIMUM"}, std::pair{K::kMinimum, "MINIMUM"}}) {
    c.push_back({k, "VisitBinaryNode: MAXIMUM / MINIMUM in float32 only",
                 XnnOp(k, name, {f32, f32}, {f32}),
                 XnnOp(k, name, {i8, i8}, {i8}), "float only"});
  }
  c.push_back({K::kPrelu, "VisitPreluNode: a static slope",
               XnnOp(K::kPrelu, "PRELU", {f32, XnnF32({4}, true)}, {f32}),
               XnnOp(K::kPrelu, "PRELU", {f32, XnnF32({4})}, {f32}),
               "CheckTensorStaticAllocation"});

  // GEMM ops.
  auto conv = [&](bool bias) {
    std::vector<TensorForm> in = {i8, XnnPerChannel({4, 3, 3, 4}, 0)};
    if (bias) in.push_back(XnnQ(ir::DataType::kInt32, 0.001f, 0, {4}, true));
    return XnnOp(K::kConv2D, "CONV_2D", in, {XnnI8(0.2f, {1, 6, 6, 4})},
                 ir::Conv2DOptions{});
  };
  c.push_back({K::kConv2D, "VisitConv2DNode: three inputs (a bias)", conv(true),
               conv(false), "no bias"});
  auto dw = [&](int axis) {
    return XnnOp(K::kDepthwiseConv2D, "DEPTHWISE_CONV_2D",
                 {i8, XnnPerChannel({1, 3, 3, 4}, axis),
                  XnnQ(ir::DataType::kInt32, 0.001f, 0, {4}, true)},
                 {XnnI8(0.2f, {1, 6, 6, 4})}, ir::DepthwiseConv2DOptions{});
  };
  OpForm dw_axis0 = dw(3);
  dw_axis0.inputs[1] = XnnPerChannel({4, 3, 3, 1}, 0);
  c.push_back({K::kDepthwiseConv2D,
               "CheckTensorFloat32OrQCInt8Type: per-channel weights along "
               "the quantized dimension 3",
               dw(3), dw_axis0, "per-channel weights along axis 0"});
  auto fc = [&](bool static_weights) {
    TensorForm w = XnnQ(ir::DataType::kInt8, 0.01f, 0, {8, 16}, true);
    if (!static_weights) w = NotConstant(w);
    return XnnOp(K::kFullyConnected, "FULLY_CONNECTED",
                 {XnnI8(0.1f, {1, 16}), w}, {XnnI8(0.2f, {1, 8})},
                 ir::FullyConnectedOptions{});
  };
  c.push_back({K::kFullyConnected,
               "VisitFullyConnectedNode: static weights "
               "(CheckTensorStaticAllocation)",
               fc(true), fc(false), "CheckTensorStaticAllocation"});
  auto tconv = [&](bool static_weights) {
    TensorForm w = XnnPerChannel({4, 3, 3, 4}, 0);
    if (!static_weights) w = NotConstant(w);
    return XnnOp(K::kTransposeConv, "TRANSPOSE_CONV",
                 {XnnInts({4}, {1, 16, 16, 4}), w, i8},
                 {XnnI8(0.2f, {1, 16, 16, 4})}, ir::TransposeConvOptions{});
  };
  c.push_back({K::kTransposeConv,
               "VisitTransposeConvNode: static weights "
               "(CheckTensorStaticAllocation)",
               tconv(true), tconv(false), "CheckTensorStaticAllocation"});
  auto bmm = [&](int64_t zp_b) {
    return XnnOp(K::kBatchMatMul, "BATCH_MATMUL",
                 {XnnI8(0.1f, {1, 4, 8}),
                  XnnQ(ir::DataType::kInt8, 0.1f, zp_b, {1, 8, 4})},
                 {XnnI8(0.2f, {1, 4, 4})}, ir::BatchMatMulOptions{});
  };
  c.push_back({K::kBatchMatMul,
               "VisitBatchMatMulNode: B as CheckTensorFloat32OrQCInt8Type "
               "(zero point 0)",
               bmm(0), bmm(3), "non-zero zero point"});

  // Pools and reductions.
  ir::Pool2DOptions pool;
  pool.filter_width = pool.filter_height = 2;
  pool.stride_w = pool.stride_h = 2;
  const TensorForm pooled = XnnI8(0.1f, {1, 4, 4, 4});
  c.push_back(
      {K::kAveragePool2D, "VisitAveragePool2DNode: float32 only",
       XnnOp(K::kAveragePool2D, "AVERAGE_POOL_2D", {f32},
             {XnnF32({1, 4, 4, 4})}, pool),
       XnnOp(K::kAveragePool2D, "AVERAGE_POOL_2D", {i8}, {pooled}, pool),
       "float only"});
  ir::Pool2DOptions wide = pool;
  wide.stride_h = 3;
  c.push_back({K::kMaxPool2D, "CheckPoolingParams: stride at most the window",
               XnnOp(K::kMaxPool2D, "MAX_POOL_2D", {i8}, {pooled}, pool),
               XnnOp(K::kMaxPool2D, "MAX_POOL_2D", {i8},
                     {XnnI8(0.1f, {1, 3, 4, 4})}, wide),
               "CheckPoolingParams"});
  ir::ReducerOptions keep;
  keep.keep_dims = true;
  c.push_back({K::kMean, "VisitReduceNode: static axes",
               XnnOp(K::kMean, "MEAN", {i8, XnnInts({2}, {1, 2})},
                     {XnnI8(0.1f, {1, 1, 1, 4})}, keep),
               XnnOp(K::kMean, "MEAN", {i8, NotConstant(XnnInts({2}, {1, 2}))},
                     {XnnI8(0.1f, {1, 1, 1, 4})}, keep),
               "CheckTensorStaticAllocation"});
  c.push_back({K::kSoftmax, "VisitSoftmaxNode: float32 only",
               XnnOp(K::kSoftmax, "SOFTMAX", {XnnF32({1, 10})},
                     {XnnF32({1, 10})}, ir::SoftmaxOptions{1.0f}),
               XnnOp(K::kSoftmax, "SOFTMAX", {XnnI8(0.1f, {1, 10})},
                     {XnnQ(ir::DataType::kInt8, 1.0f / 256, -128, {1, 10})},
                     ir::SoftmaxOptions{1.0f}),
               "float only"});

  // Data movement.
  auto concat = [&](int n) {
    std::vector<TensorForm> in(static_cast<size_t>(n), i8);
    ir::ConcatenationOptions o;
    o.axis = 3;
    return XnnOp(K::kConcatenation, "CONCATENATION", in,
                 {XnnI8(0.1f, {1, 8, 8, 4 * n})}, o);
  };
  c.push_back({K::kConcatenation,
               "VisitConcatenationNode: CheckNumInputsAndOutputs 2 to 5",
               concat(5), concat(6), "2 to 5"});
  auto pad = [&](int64_t p) {
    return XnnOp(K::kPad, "PAD",
                 {i8, XnnInts({4, 2}, {0, 0, p, 1, 1, 1, 0, 0})},
                 {XnnI8(0.1f, {1, 10, 10, 4})});
  };
  c.push_back({K::kPad, "VisitPadNode: non-negative static paddings", pad(1),
               pad(-1), "negative padding"});
  auto reshape = [&](float out_scale) {
    return XnnOp(K::kReshape, "RESHAPE", {i8, XnnInts({2}, {1, 256})},
                 {XnnI8(out_scale, {1, 256})}, ir::ReshapeOptions{});
  };
  c.push_back({K::kReshape,
               "VisitReshapeNode: equal input and output quantization",
               reshape(0.1f), reshape(0.2f), "quantized differently"});
  c.push_back({K::kTranspose, "VisitTransposeNode: a static permutation",
               XnnOp(K::kTranspose, "TRANSPOSE",
                     {i8, XnnInts({4}, {0, 2, 1, 3})}, {i8}),
               XnnOp(K::kTranspose, "TRANSPOSE",
                     {i8, NotConstant(XnnInts({4}, {0, 2, 1, 3}))}, {i8}),
               "CheckTensorStaticAllocation"});
  auto slice = [&](int64_t size1) {
    return XnnOp(
        K::kSlice, "SLICE",
        {i8, XnnInts({4}, {0, 2, 0, 0}), XnnInts({4}, {1, size1, 8, 4})},
        {XnnI8(0.1f, {1, 6, 8, 4})});
  };
  c.push_back({K::kSlice, "VisitSliceNode: every size positive", slice(6),
               slice(-1), "size of -1"});
  auto strided = [&](int64_t stride1) {
    return XnnOp(K::kStridedSlice, "STRIDED_SLICE",
                 {i8, XnnInts({4}, {0, 0, 0, 0}), XnnInts({4}, {1, 8, 8, 4}),
                  XnnInts({4}, {1, stride1, 1, 1})},
                 {XnnI8(0.1f, {1, 8 / static_cast<int32_t>(stride1), 8, 4})},
                 ir::StridedSliceOptions{});
  };
  c.push_back({K::kStridedSlice, "VisitStridedSliceNode: unit strides",
               strided(1), strided(2), "stride other than 1"});
  auto split = [&](int n) {
    std::vector<TensorForm> out(static_cast<size_t>(n),
                                XnnI8(0.1f, {1, 8, 8, 4 / n}));
    ir::SplitOptions o;
    o.num_splits = n;
    return XnnOp(K::kSplit, "SPLIT", {XnnInts({}, {3}), XnnI8(0.1f)}, out, o);
  };
  OpForm split5 = split(4);
  split5.outputs.push_back(split5.outputs.back());
  c.push_back({K::kSplit, "VisitSplitNode: 2 to 4 outputs", split(2), split5,
               "2 to 4"});
  auto block = [&](K k, const char* name, int b, bool s2d) {
    ir::BlockSizeOptions o;
    o.block_size = b;
    o.is_space_to_depth = s2d;
    return XnnOp(k, name, {i8}, {XnnI8(0.1f, {1, 8, 8, 4})}, o);
  };
  c.push_back({K::kDepthToSpace, "VisitDepthToSpaceNode: block size above 1",
               block(K::kDepthToSpace, "DEPTH_TO_SPACE", 2, false),
               block(K::kDepthToSpace, "DEPTH_TO_SPACE", 1, false),
               "block size 1"});
  OpForm s2d16 = block(K::kSpaceToDepth, "SPACE_TO_DEPTH", 2, true);
  s2d16.inputs[0] = XnnI16();
  s2d16.outputs[0] = XnnI16();
  c.push_back({K::kSpaceToDepth,
               "VisitSpaceToDepthNode: float32, int8 or uint8 "
               "(GetXNNPackDatatype has no int16)",
               block(K::kSpaceToDepth, "SPACE_TO_DEPTH", 2, true), s2d16,
               "int16"});
  c.push_back({K::kResizeBilinear, "VisitResizeBilinearNode: a static size",
               XnnOp(K::kResizeBilinear, "RESIZE_BILINEAR",
                     {i8, XnnInts({2}, {16, 16})},
                     {XnnI8(0.1f, {1, 16, 16, 4})}, ir::ResizeOptions{}),
               XnnOp(K::kResizeBilinear, "RESIZE_BILINEAR",
                     {i8, NotConstant(XnnInts({2}, {16, 16}))},
                     {XnnI8(0.1f, {1, 16, 16, 4})}, ir::ResizeOptions{}),
               "CheckTensorStaticAllocation"});

  // Elementwise unary ops.
  unary(K::kLogistic, "LOGISTIC", "VisitUnaryNode", true);
  unary(K::kTanh, "TANH", "VisitUnaryNode", true);
  unary(K::kRelu, "RELU", "VisitUnaryNode", false);
  unary(K::kRelu6, "RELU6", "VisitUnaryNode", false);
  unary(K::kReluN1To1, "RELU_N1_TO_1", "VisitUnaryNode", false);
  unary(K::kRsqrt, "RSQRT", "VisitUnaryNode", false);
  unary(K::kHardSwish, "HARD_SWISH", "VisitUnaryNode", false);
  auto leaky = [&](float alpha) {
    return XnnOp(K::kLeakyRelu, "LEAKY_RELU", {i8}, {i8},
                 ir::LeakyReluOptions{alpha});
  };
  c.push_back({K::kLeakyRelu,
               "VisitUnaryNode: |in / out x alpha| at least 1/256",
               leaky(0.004f), leaky(0.0039f), "leaky ReLU windows"});
  return c;
}

}  // namespace qforge::runtime::fast_path_cases

#endif  // QFORGE_TESTS_RUNTIME_FAST_PATH_CASES_H_
