// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The XNN trait's rules: LiteRT's XNNPACK delegate node checks
// (xnnpack_delegate.cc, the revision LiteRT.js 2.5.3 ships; the function
// named in each rule's comment). Only what decides whether the delegate
// claims a node is here: types, static operands, fused activations, option
// and scale limits.
#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/fast_path.h"

namespace qforge::runtime::fast_path {
namespace {

using legality::OpForm;
using legality::TensorForm;

// XNNPACK's tensor types in these rules: float32, int8 or uint8 per tensor
// (one scale, quantized_dimension 0: GetXNNPackDatatype), anything else.
enum class Kind : uint8_t { kF32, kQS8, kQU8, kOther };

Kind KindOf(const TensorForm& t) {
  if (t.type == ir::DataType::kFloat32) return Kind::kF32;
  const bool per_tensor = t.scales.size() == 1 && t.axis == 0;
  if (t.type == ir::DataType::kInt8 && per_tensor) return Kind::kQS8;
  if (t.type == ir::DataType::kUInt8 && per_tensor) return Kind::kQU8;
  return Kind::kOther;
}

bool Quantized(Kind k) { return k == Kind::kQS8 || k == Kind::kQU8; }

std::string TypeText(const TensorForm& t) {
  switch (t.type) {
    case ir::DataType::kInt16:
      return "int16";
    case ir::DataType::kInt8:
      return t.scales.size() == 1 ? "int8" : "per-channel int8";
    default:
      return std::string(ir::DataTypeName(t.type));
  }
}

// Why a tensor of `t`'s type is not one XNNPACK computes on.
std::string TypeRefusal(const TensorForm& t) {
  if (t.type == ir::DataType::kInt16) {
    return "int16 activations run in TFLite's reference kernels (XNNPACK "
           "has no 16-bit type: GetXNNPackDatatype)";
  }
  return absl::StrCat(TypeText(t), " '", t.name, "' is not a type XNNPACK ",
                      "takes here");
}

struct Acts {
  Kind kind = Kind::kF32;
  std::string refusal;  // "" when every activation has one XNNPACK type
};

// The type every activation (non-constant) input and every output of
// `form` shares, or why they do not share one XNNPACK takes. `first`
// inputs at most are read (-1: all).
Acts ActivationKind(const OpForm& form, int first = -1) {
  Acts a;
  bool seen = false;
  auto visit = [&](const TensorForm& t) {
    if (!a.refusal.empty()) return;
    const Kind k = KindOf(t);
    if (k == Kind::kOther) {
      a.refusal = TypeRefusal(t);
    } else if (!seen) {
      a.kind = k;
      seen = true;
    } else if (k != a.kind) {
      a.refusal = absl::StrCat("'", t.name, "' is ", TypeText(t),
                               ", another tensor of the op is not");
    }
  };
  for (size_t i = 0; i < form.inputs.size(); ++i) {
    if (first >= 0 && static_cast<int>(i) >= first) break;
    const TensorForm* t = form.in(i);
    if (t != nullptr && !t->constant) visit(*t);
  }
  for (const TensorForm& t : form.outputs) visit(t);
  return a;
}

std::string FloatOnly(const OpForm& form, const char* where) {
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  if (a.kind != Kind::kF32) {
    return absl::StrCat("XNNPACK runs ", form.op_name, " in float only (",
                        where, ")");
  }
  return "";
}

std::string RankRefusal(const OpForm& form) {
  for (const std::optional<TensorForm>& t : form.inputs) {
    if (t.has_value() && t->shape.size() > 6) return "rank above 6";
  }
  for (const TensorForm& t : form.outputs) {
    if (t.shape.size() > 6) return "rank above 6";
  }
  return "";
}

// Fused activations become a clamp; TANH and SIGN_BIT have no XNNPACK form
// (ConvertActivationToOutputRange).
std::string FusedRefusal(ir::Activation act) {
  if (act == ir::Activation::kTanh || act == ir::Activation::kSignBit) {
    return "fused TANH / SIGN_BIT activation (ConvertActivationToOutputRange)";
  }
  return "";
}

template <typename T>
ir::Activation FusedOf(const OpForm& form) {
  const T* o = std::get_if<T>(&form.options);
  return o != nullptr ? o->activation : ir::Activation::kNone;
}

// `ratio` within [lo, hi) (hi_open) or [lo, hi].
bool Within(double ratio, double lo, double hi, bool hi_open = true) {
  return ratio >= lo && (hi_open ? ratio < hi : ratio <= hi);
}

std::string StaticRefusal(const TensorForm* t, const char* what) {
  if (t == nullptr || t->constant) return "";
  return absl::StrCat("its ", what, " '", t->name,
                      "' is not a constant (CheckTensorStaticAllocation)");
}

// Both operands of a CONV / DEPTHWISE / FC / TRANSPOSE_CONV: constant
// weights, and, with integer activations, weights of the same type per
// tensor or per channel along `axis` with zero points 0
// (CheckTensorFloat32OrQCInt8Type).
std::string GemmWeights(const OpForm& form, const Acts& a, int axis,
                        bool hybrid_ok) {
  const TensorForm* w = form.in(1);
  if (w == nullptr) return "no weights";
  if (std::string s = StaticRefusal(w, "weights"); !s.empty()) return s;
  if (w->type == ir::DataType::kFloat16 || w->type == ir::DataType::kFloat32) {
    return a.kind == Kind::kF32 ? "" : "float weights with integer activations";
  }
  if (a.kind == Kind::kF32) {
    if (!hybrid_ok) {
      return "float activations with integer weights (no dynamically "
             "quantized form of this op in XNNPACK)";
    }
    return w->type == ir::DataType::kInt8 ? ""
                                          : "hybrid weights other than int8";
  }
  if (w->type == ir::DataType::kInt4) {
    return "int4 weights with integer activations (XNNPACK has none for "
           "this op)";
  }
  if (w->type !=
      (a.kind == Kind::kQU8 ? ir::DataType::kUInt8 : ir::DataType::kInt8)) {
    return absl::StrCat("weights of type ", ir::DataTypeName(w->type));
  }
  if (w->scales.size() > 1 && w->axis != axis) {
    return absl::StrCat("per-channel weights along axis ", w->axis,
                        " (XNNPACK wants ", axis, ")");
  }
  if (a.kind == Kind::kQS8) {
    for (int64_t z : w->zero_points) {
      if (z != 0) return "weights with a non-zero zero point";
    }
  }
  return "";
}

// The checks every convolution-like rule starts with.
std::string GemmCommon(const OpForm& form, Acts* acts) {
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  *acts = ActivationKind(form, 1);
  return acts->refusal;
}

std::string BiasRefusal(const OpForm& form, bool required) {
  const TensorForm* b = form.in(2);
  if (b == nullptr) {
    return required ? "no bias (the delegate needs one: VisitConv2DNode)" : "";
  }
  if (std::string s = StaticRefusal(b, "bias"); !s.empty()) return s;
  if (b->type == ir::DataType::kInt64) return "int64 bias";
  return "";
}

}  // namespace

std::string XnnAddSub(const OpForm& form) {
  // VisitBinaryNode + CheckTensorsInputOutputScale: each input's scale over
  // the output's within [1/1024, 256).
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  if (std::string s = FusedRefusal(FusedOf<ir::AddSubOptions>(form));
      !s.empty()) {
    return s;
  }
  if (!Quantized(a.kind)) return "";
  const TensorForm* out = form.out(0);
  for (size_t i = 0; i < form.inputs.size(); ++i) {
    const TensorForm* in = form.in(i);
    if (in == nullptr || out == nullptr) continue;
    const double r = static_cast<double>(in->scale()) / out->scale();
    if (!Within(r, 1.0 / 1024, 256.0)) {
      return absl::StrCat("input ", i, " scale / output scale ", r,
                          " outside [1/1024, 256) "
                          "(CheckTensorsInputOutputScale)");
    }
  }
  return "";
}

std::string XnnMul(const OpForm& form) {
  // VisitBinaryNode + CheckTensorsInputProductOutputScale: the product of
  // the input scales over the output's within [2^-16, 256).
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  if (std::string s = FusedRefusal(FusedOf<ir::ActivationOptions>(form));
      !s.empty()) {
    return s;
  }
  if (!Quantized(a.kind)) return "";
  const TensorForm* x = form.in(0);
  const TensorForm* y = form.in(1);
  const TensorForm* out = form.out(0);
  if (x == nullptr || y == nullptr || out == nullptr) return "";
  const double r = static_cast<double>(x->scale()) * y->scale() / out->scale();
  if (!Within(r, 1.0 / 65536, 256.0)) {
    return absl::StrCat("input scales' product / output scale ", r,
                        " outside [2^-16, 256) "
                        "(CheckTensorsInputProductOutputScale)");
  }
  return "";
}

std::string XnnFloatBinary(const OpForm& form) {
  // DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE: VisitBinaryNode checks
  // float32 tensors.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  return FloatOnly(form, "VisitBinaryNode");
}

std::string XnnPrelu(const OpForm& form) {
  // VisitPreluNode: float32 only, the slope a constant.
  if (std::string s = FloatOnly(form, "VisitPreluNode"); !s.empty()) {
    return s;
  }
  return StaticRefusal(form.in(1), "slope");
}

std::string XnnConv2D(const OpForm& form) {
  // VisitConv2DNode: 4-D input and output, constant OHWI weights (per
  // channel along 0), a constant bias, hybrid with float input.
  Acts a;
  if (std::string s = GemmCommon(form, &a); !s.empty()) return s;
  if (std::string s = GemmWeights(form, a, 0, /*hybrid_ok=*/true); !s.empty()) {
    return s;
  }
  if (std::string s = BiasRefusal(form, /*required=*/true); !s.empty()) {
    return s;
  }
  return FusedRefusal(FusedOf<ir::Conv2DOptions>(form));
}

std::string XnnDepthwiseConv2D(const OpForm& form) {
  // VisitDepthwiseConv2DNode: as CONV_2D, per channel along 3, no hybrid.
  Acts a;
  if (std::string s = GemmCommon(form, &a); !s.empty()) return s;
  if (std::string s = GemmWeights(form, a, 3, /*hybrid_ok=*/false);
      !s.empty()) {
    return s;
  }
  if (std::string s = BiasRefusal(form, /*required=*/true); !s.empty()) {
    return s;
  }
  return FusedRefusal(FusedOf<ir::DepthwiseConv2DOptions>(form));
}

std::string XnnFullyConnected(const OpForm& form) {
  // VisitFullyConnectedNode: default weights format, 2-D constant weights,
  // an optional constant bias; int8 activations also take int4 weights.
  const ir::FullyConnectedOptions* o =
      std::get_if<ir::FullyConnectedOptions>(&form.options);
  if (o != nullptr && o->weights_format != 0) return "shuffled weights";
  Acts a;
  if (std::string s = GemmCommon(form, &a); !s.empty()) return s;
  const TensorForm* w = form.in(1);
  const bool int4 = w != nullptr && w->type == ir::DataType::kInt4;
  if (!(int4 && a.kind == Kind::kQS8)) {
    if (std::string s = GemmWeights(form, a, 0, /*hybrid_ok=*/true);
        !s.empty()) {
      return s;
    }
  } else if (std::string s = StaticRefusal(w, "weights"); !s.empty()) {
    return s;
  }
  if (std::string s = BiasRefusal(form, /*required=*/false); !s.empty()) {
    return s;
  }
  return FusedRefusal(o != nullptr ? o->activation : ir::Activation::kNone);
}

std::string XnnTransposeConv(const OpForm& form) {
  // VisitTransposeConvNode: inputs are output_shape, weights, input, bias.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  if (std::string s = StaticRefusal(form.in(0), "output shape"); !s.empty()) {
    return s;
  }
  const TensorForm* w = form.in(1);
  if (w == nullptr) return "no weights";
  if (std::string s = StaticRefusal(w, "weights"); !s.empty()) return s;
  const TensorForm* in = form.in(2);
  const TensorForm* out = form.out(0);
  if (in == nullptr || out == nullptr) return "";
  const Kind k = KindOf(*in);
  if (k == Kind::kOther) return TypeRefusal(*in);
  if (KindOf(*out) != k) return TypeRefusal(*out);
  if (const TensorForm* b = form.in(3); b != nullptr) {
    if (std::string s = StaticRefusal(b, "bias"); !s.empty()) return s;
  }
  return FusedRefusal(FusedOf<ir::TransposeConvOptions>(form));
}

std::string XnnBatchMatMul(const OpForm& form) {
  // VisitBatchMatMulNode: ranks >= 2; integer operands share one per-tensor
  // int8 type with B's zero point 0; float A with constant int8 B is the
  // dynamically quantized form.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const TensorForm* a = form.in(0);
  const TensorForm* b = form.in(1);
  const TensorForm* out = form.out(0);
  if (a == nullptr || b == nullptr || out == nullptr) return "";
  if (a->shape.size() < 2 || b->shape.size() < 2) return "rank below 2";
  const Kind ka = KindOf(*a), kb = KindOf(*b), ko = KindOf(*out);
  if (ka == Kind::kOther) return TypeRefusal(*a);
  if (ka == Kind::kF32) {
    if (kb == Kind::kF32) return ko == Kind::kF32 ? "" : TypeRefusal(*out);
    if (b->type == ir::DataType::kInt8 && b->constant) return "";
    return TypeRefusal(*b);
  }
  if (kb != ka || ko != ka) return "operands of different types";
  if (b->zero_point() != 0) return "B has a non-zero zero point";
  return "";
}

std::string XnnAveragePool(const OpForm& form) {
  // VisitAveragePool2DNode: float32 only.
  if (std::string s = FloatOnly(form, "VisitAveragePool2DNode"); !s.empty()) {
    return s;
  }
  const ir::Pool2DOptions* o = std::get_if<ir::Pool2DOptions>(&form.options);
  if (o == nullptr) return "";
  if (o->stride_w > o->filter_width || o->stride_h > o->filter_height) {
    return "stride larger than the window (CheckPoolingParams)";
  }
  if (o->filter_width == 1 && o->filter_height == 1 &&
      (o->stride_w > 1 || o->stride_h > 1)) {
    return "1x1 window with stride > 1 (CheckPoolingParams)";
  }
  return FusedRefusal(o->activation);
}

std::string XnnMaxPool(const OpForm& form) {
  // VisitMaxPool2DNode: float32, int8, uint8; the pooling parameters.
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  const ir::Pool2DOptions* o = std::get_if<ir::Pool2DOptions>(&form.options);
  if (o == nullptr) return "";
  if (o->stride_w > o->filter_width || o->stride_h > o->filter_height) {
    return "stride larger than the window (CheckPoolingParams)";
  }
  if (o->filter_width == 1 && o->filter_height == 1 &&
      (o->stride_w > 1 || o->stride_h > 1)) {
    return "1x1 window with stride > 1 (CheckPoolingParams)";
  }
  return FusedRefusal(o->activation);
}

std::string XnnReduce(const OpForm& form) {
  // VisitReduceNode (MEAN, SUM, REDUCE_MAX): constant int32 axes of one
  // dimension at most, 1 to 6 of them.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  const TensorForm* axes = form.in(1);
  if (axes == nullptr) return "no axes";
  if (std::string s = StaticRefusal(axes, "axes"); !s.empty()) return s;
  if (axes->shape.size() > 1) return "axes of more than one dimension";
  int64_t n = 1;
  for (int32_t d : axes->shape) n *= d;
  if (n < 1 || n > 6) return absl::StrCat(n, " axes (XNNPACK takes 1 to 6)");
  return "";
}

std::string XnnConcatenation(const OpForm& form) {
  // VisitConcatenationNode: 2 to 5 inputs, the axis within the inputs'
  // rank.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  if (form.inputs.size() < 2 || form.inputs.size() > 5) {
    return absl::StrCat(form.inputs.size(),
                        " inputs (XNNPACK concatenates 2 to 5)");
  }
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  const ir::ConcatenationOptions* o =
      std::get_if<ir::ConcatenationOptions>(&form.options);
  const TensorForm* in = form.in(0);
  if (o != nullptr && in != nullptr &&
      o->axis >= static_cast<int32_t>(in->shape.size())) {
    return "concatenation in a new dimension";
  }
  return FusedRefusal(o != nullptr ? o->activation : ir::Activation::kNone);
}

std::string XnnPad(const OpForm& form) {
  // VisitPadNode: exactly 2 inputs, constant non-negative paddings.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  if (form.inputs.size() != 2) return "a pad value input (PADV2 form)";
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  const TensorForm* p = form.in(1);
  if (std::string s = StaticRefusal(p, "paddings"); !s.empty()) return s;
  if (p != nullptr) {
    for (int64_t v : p->int_data) {
      if (v < 0) return "negative padding";
    }
  }
  return "";
}

std::string XnnReshape(const OpForm& form) {
  // VisitReshapeNode: the new shape constant (or in the options); integer
  // input and output with equal scale and zero point; not the legacy
  // one-element [-1] form.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  if (const TensorForm* shape = form.in(1); shape != nullptr) {
    if (std::string s = StaticRefusal(shape, "shape"); !s.empty()) return s;
  }
  const TensorForm* in = form.in(0);
  const TensorForm* out = form.out(0);
  if (out != nullptr && out->shape.size() == 1 && in != nullptr &&
      in->shape.size() <= 1) {
    return "legacy scalar reshape";
  }
  if (Quantized(a.kind) && in != nullptr && out != nullptr &&
      (in->scale() != out->scale() || in->zero_point() != out->zero_point())) {
    return "input and output quantized differently";
  }
  return "";
}

std::string XnnTranspose(const OpForm& form) {
  // VisitTransposeNode: a constant permutation.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  return StaticRefusal(form.in(1), "permutation");
}

std::string XnnSlice(const OpForm& form) {
  // VisitSliceNode: constant begin and size, every size > 0.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  if (std::string s = StaticRefusal(form.in(1), "begin"); !s.empty()) {
    return s;
  }
  const TensorForm* size = form.in(2);
  if (std::string s = StaticRefusal(size, "size"); !s.empty()) return s;
  if (size != nullptr) {
    for (int64_t v : size->int_data) {
      if (v <= 0) return "a size of -1 (to the end)";
    }
  }
  return "";
}

std::string XnnStridedSlice(const OpForm& form) {
  // VisitStridedSliceNode: no ellipsis, new-axis or shrink-axis mask;
  // constant begin, end and strides, every stride 1.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  const ir::StridedSliceOptions* o =
      std::get_if<ir::StridedSliceOptions>(&form.options);
  if (o != nullptr && (o->ellipsis_mask != 0 || o->new_axis_mask != 0 ||
                       o->shrink_axis_mask != 0)) {
    return "an ellipsis, new-axis or shrink-axis mask";
  }
  for (size_t i = 1; i <= 3; ++i) {
    if (std::string s = StaticRefusal(form.in(i), "begin/end/strides");
        !s.empty()) {
      return s;
    }
  }
  if (const TensorForm* strides = form.in(3); strides != nullptr) {
    for (int64_t v : strides->int_data) {
      if (v != 1) return "a stride other than 1";
    }
  }
  return "";
}

std::string XnnSplit(const OpForm& form) {
  // VisitSplitNode: 2 to 4 outputs, a constant axis (input 0).
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  if (form.outputs.size() < 2 || form.outputs.size() > 4) {
    return absl::StrCat(form.outputs.size(),
                        " outputs (XNNPACK splits in 2 to 4)");
  }
  if (std::string s = StaticRefusal(form.in(0), "axis"); !s.empty()) return s;
  const TensorForm* in = form.in(1);
  if (in == nullptr) return "";
  const Kind k = KindOf(*in);
  if (k == Kind::kOther) return TypeRefusal(*in);
  for (const TensorForm& t : form.outputs) {
    if (KindOf(t) != k) return TypeRefusal(t);
  }
  return "";
}

std::string XnnBlockSize(const OpForm& form) {
  // VisitDepthToSpaceNode / VisitSpaceToDepthNode: block size above 1.
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  const ir::BlockSizeOptions* o =
      std::get_if<ir::BlockSizeOptions>(&form.options);
  if (o != nullptr && o->block_size <= 1) return "block size 1";
  return "";
}

std::string XnnResizeBilinear(const OpForm& form) {
  // VisitResizeBilinearNode: 4-D, a constant output size.
  const Acts a = ActivationKind(form, 1);
  if (!a.refusal.empty()) return a.refusal;
  const TensorForm* in = form.in(0);
  if (in != nullptr && in->shape.size() != 4) return "not 4-D";
  return StaticRefusal(form.in(1), "size");
}

std::string XnnSoftmax(const OpForm& form) {
  // VisitSoftmaxNode: float32 only, beta exactly 1.
  if (std::string s = FloatOnly(form, "VisitSoftmaxNode"); !s.empty()) {
    return s;
  }
  const ir::SoftmaxOptions* o = std::get_if<ir::SoftmaxOptions>(&form.options);
  if (o != nullptr && o->beta != 1.0f) return "beta other than 1";
  return "";
}

std::string XnnFloatUnary(const OpForm& form) {
  // VisitUnaryNode: these elementwise ops (standalone RELUs, HARD_SWISH,
  // GELU, ABS, EXP, ...) in float32 only.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  return FloatOnly(form, "VisitUnaryNode");
}

std::string XnnQuantizedUnary(const OpForm& form) {
  // VisitUnaryNode: LOGISTIC and TANH in float32, int8 and uint8.
  if (std::string s = RankRefusal(form); !s.empty()) return s;
  return ActivationKind(form).refusal;
}

std::string XnnElu(const OpForm& form) {
  // VisitUnaryNode: ELU in float32 or int8 (CheckTensorFloatOrQInt8Type).
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  return a.kind == Kind::kQU8 ? "uint8 ELU" : "";
}

std::string XnnLeakyRelu(const OpForm& form) {
  // VisitUnaryNode: alpha normal and non-zero; quantized, input scale over
  // output scale within [1/256, 128] and times alpha within
  // [-127.99609375, 128], at least 1/256 in magnitude.
  const Acts a = ActivationKind(form);
  if (!a.refusal.empty()) return a.refusal;
  const ir::LeakyReluOptions* o =
      std::get_if<ir::LeakyReluOptions>(&form.options);
  if (o == nullptr || !std::isnormal(o->alpha)) return "alpha 0 or not normal";
  if (!Quantized(a.kind)) return "";
  const TensorForm* in = form.in(0);
  const TensorForm* out = form.out(0);
  if (in == nullptr || out == nullptr) return "";
  const double pos = static_cast<double>(in->scale()) / out->scale();
  const double neg = pos * o->alpha;
  if (!Within(pos, 1.0 / 256, 128.0, /*hi_open=*/false) ||
      !Within(neg, -127.99609375, 128.0, /*hi_open=*/false) ||
      std::fabs(neg) < 1.0 / 256) {
    return "scales outside XNNPACK's leaky ReLU windows";
  }
  return "";
}

std::string XnnDequantize(const OpForm& form) {
  // A constant float16 / int8 input is widened once at prepare time; an
  // int8 / uint8 activation is converted per tensor (VisitUnaryNode).
  const TensorForm* in = form.in(0);
  const TensorForm* out = form.out(0);
  if (in == nullptr || out == nullptr) return "";
  if (out->type != ir::DataType::kFloat32) return TypeRefusal(*out);
  if (in->constant) {
    return in->type == ir::DataType::kFloat16 || in->type == ir::DataType::kInt8
               ? ""
               : TypeRefusal(*in);
  }
  return Quantized(KindOf(*in)) ? "" : TypeRefusal(*in);
}

std::string XnnQuantize(const OpForm& form) {
  // VisitUnaryNode: float32 -> int8 / uint8; int8 -> int8 and uint8 ->
  // uint8 with input scale over output scale within [1/256, 128].
  const TensorForm* in = form.in(0);
  const TensorForm* out = form.out(0);
  if (in == nullptr || out == nullptr) return "";
  const Kind ki = KindOf(*in), ko = KindOf(*out);
  if (ko == Kind::kOther || ko == Kind::kF32) return TypeRefusal(*out);
  if (ki == Kind::kF32) return "";
  if (ki != ko) {
    return ki == Kind::kOther ? TypeRefusal(*in)
                              : "between int8 and uint8 (XNNPACK has no "
                                "such conversion)";
  }
  const double r = static_cast<double>(in->scale()) / out->scale();
  if (!Within(r, 1.0 / 256, 128.0, /*hi_open=*/false)) {
    return absl::StrCat("requantization by ", r,
                        " outside [1/256, 128] (VisitUnaryNode)");
  }
  return "";
}

}  // namespace qforge::runtime::fast_path
