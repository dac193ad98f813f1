// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The int8 / int16x8 rewrite of subgraph 0 (see quantize.h).
#include "quantizer/integer_pass.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "quantizer/graph_edit.h"
#include "quantizer/op_quant_spec.h"

namespace qforge::quantizer {
namespace {

using numerics::QuantParams;

bool SameParams(const QuantParams& a, const QuantParams& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

}  // namespace

IntegerPass::IntegerPass(ir::Model& model, const calibration::StatsFile& stats,
                         const QuantizeOptions& options,
                         const std::vector<bool>& excluded,
                         QuantizeResult& result)
    : model_(model),
      sg_(model.subgraphs[0]),
      options_(options),
      excluded_(excluded),
      result_(result) {
  int16_ = options.scheme == Scheme::kInt16x8;
  qtype_ = int16_ ? ir::DataType::kInt16 : ir::DataType::kInt8;
  qmin_ = int16_ ? -32768 : -128;
  qmax_ = int16_ ? 32767 : 127;
  for (const calibration::TensorStats& t : stats.tensors) {
    if (t.subgraph == 0) stats_[t.tensor] = &t;
  }
}

QuantParams IntegerPass::ParamsForRange(float lo, float hi) const {
  if (int16_) {
    return numerics::ChooseSymmetric(std::max(std::fabs(lo), std::fabs(hi)),
                                     qmax_);
  }
  return numerics::ChooseAsymmetric(lo, hi, qmin_, qmax_);
}

bool IntegerPass::HasStats(int32_t t) const {
  auto it = stats_.find(t);
  return it != stats_.end() && !it->second->empty();
}

QuantParams IntegerPass::ActivationParams(int32_t t) const {
  const calibration::Range r =
      calibration::ComputeRange(*stats_.at(t), options_.range);
  return ParamsForRange(r.min, r.max);
}

std::string IntegerPass::CanQuantize(const ir::Operator& op,
                                     const OpQuantSpec& spec) const {
  if (!(int16_ ? spec.int16 : spec.int8)) {
    return absl::StrCat("no ", int16_ ? "int16x8" : "int8", " form");
  }
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t < 0) continue;
    const ir::Tensor& tensor = sg_.tensors[t];
    const Role role = RoleOf(spec, k);
    if (role == Role::kNotReal || int_domain_.count(t)) continue;
    if (tensor.type != ir::DataType::kFloat32) {
      return absl::StrCat("input ", k, " '", tensor.name, "' is ",
                          ir::DataTypeName(tensor.type), ", not float32");
    }
    const bool constant = IsConstant(model_, tensor);
    if ((role == Role::kWeight || role == Role::kBias) && !constant) {
      return absl::StrCat("input ", k, " '", tensor.name,
                          "' (weights) is not a constant");
    }
    if (role == Role::kActivation && !constant && !HasStats(t) &&
        !int_domain_.count(t)) {
      return absl::StrCat("no calibration statistics for input '", tensor.name,
                          "'");
    }
  }
  for (int32_t o : op.outputs) {
    if (sg_.tensors[o].type != ir::DataType::kFloat32) {
      return absl::StrCat("output '", sg_.tensors[o].name, "' is not float32");
    }
    // kSameAsInput takes the output's own range when no input is an
    // activation (a statistics file may lack any tensor).
    bool has_activation_input = false;
    for (size_t k = 0; k < op.inputs.size(); ++k) {
      has_activation_input |=
          op.inputs[k] >= 0 && RoleOf(spec, k) == Role::kActivation;
    }
    if ((spec.output == OutputRule::kOwnRange ||
         spec.output == OutputRule::kSharedInputs ||
         (spec.output == OutputRule::kSameAsInput && !has_activation_input)) &&
        !HasStats(o)) {
      return absl::StrCat("no calibration statistics for output '",
                          sg_.tensors[o].name, "'");
    }
  }
  return "";
}

int32_t IntegerPass::QuantizedConstant(int32_t t, const QuantParams& p) {
  const ir::Tensor& src = sg_.tensors[t];
  const std::vector<float> values = FloatValues(model_, src);
  const int32_t q = AddTensorLike(sg_, src, qtype_, "_quantized");
  if (int16_) {
    std::vector<int16_t> data(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      data[i] = static_cast<int16_t>(
          numerics::QuantizeValue(values[i], p, qmin_, qmax_));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, data);
  } else {
    std::vector<int8_t> data(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      data[i] = static_cast<int8_t>(
          numerics::QuantizeValue(values[i], p, qmin_, qmax_));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, data);
  }
  sg_.tensors[q].quantization = PerTensor(p);
  return q;
}

int32_t IntegerPass::Quantized(int32_t t, const QuantParams& p,
                               std::vector<ir::Operator>& ops) {
  const auto key = std::make_tuple(t, p.scale, p.zero_point);
  auto it = quantized_.find(key);
  if (it != quantized_.end()) return it->second;
  const int32_t q =
      AddTensorLike(sg_, sg_.tensors[t], qtype_,
                    int_domain_.count(t) ? "_requantized" : "_quantized");
  sg_.tensors[q].quantization = PerTensor(p);
  ops.push_back(MakeOp(ir::OpKind::kQuantize, {t}, {q}));
  quantized_[key] = q;
  params_[q] = p;
  int_domain_.insert(q);
  return q;
}

int32_t IntegerPass::Dequantized(int32_t t, std::vector<ir::Operator>& ops) {
  auto it = dequantized_.find(t);
  if (it != dequantized_.end()) return it->second;
  const int32_t f = AddTensorLike(sg_, sg_.tensors[t], ir::DataType::kFloat32,
                                  "_dequantized");
  ops.push_back(MakeOp(ir::OpKind::kDequantize, {t}, {f}));
  dequantized_[t] = f;
  return f;
}

std::vector<float> IntegerPass::BiasScaleFloors(const ir::Operator& op,
                                                size_t bias_index,
                                                float input_scale,
                                                int64_t channels) const {
  if (bias_index >= op.inputs.size() || op.inputs[bias_index] < 0) return {};
  const ir::Tensor& bias = sg_.tensors[op.inputs[bias_index]];
  if (!IsConstant(model_, bias) || bias.type != ir::DataType::kFloat32) {
    return {};
  }
  const std::vector<float> b = FloatValues(model_, bias);
  if (static_cast<int64_t>(b.size()) != channels) return {};
  constexpr double kBiasLimit = 1073741824.0;  // 2^30, as TFLite
  std::vector<float> floors(channels, 0.0f);
  for (int64_t c = 0; c < channels; ++c) {
    if (std::isfinite(b[c])) {
      floors[c] = static_cast<float>(
          std::fabs(b[c]) / (static_cast<double>(input_scale) * kBiasLimit));
    }
  }
  return floors;
}

absl::StatusOr<std::vector<float>> IntegerPass::QuantizeWeight(
    ir::Operator& op, size_t k, int axis,
    const std::vector<float>& min_scales) {
  const int32_t t = op.inputs[k];
  const ir::Tensor& src = sg_.tensors[t];
  const std::vector<float> values = FloatValues(model_, src);
  RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
  QuantizedWeights w =
      QuantizeSymmetricInt8(values, src.shape, axis, min_scales);
  const int32_t q = AddTensorLike(sg_, src, ir::DataType::kInt8, "_quantized");
  sg_.tensors[q].buffer = AddTypedBuffer(model_, w.data);
  sg_.tensors[q].quantization = std::move(w.quantization);
  op.inputs[k] = q;
  return w.scales;
}

absl::Status IntegerPass::QuantizeBias(
    ir::Operator& op, size_t k, float input_scale,
    const std::vector<float>& weight_scales) {
  const int32_t t = op.inputs[k];
  const ir::Tensor& src = sg_.tensors[t];
  const std::vector<float> values = FloatValues(model_, src);
  RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
  std::vector<float> scales(values.size());
  for (size_t c = 0; c < values.size(); ++c) {
    const float ws = weight_scales.size() == 1
                         ? weight_scales[0]
                         : weight_scales[c % weight_scales.size()];
    scales[c] = std::max(input_scale * ws, numerics::kMinScale);
  }
  // int16x8 conv-like ops accumulate in 64 bits and take an int64 bias.
  const bool wide = int16_;
  const int32_t q = AddTensorLike(
      sg_, src, wide ? ir::DataType::kInt64 : ir::DataType::kInt32,
      "_quantized");
  if (wide) {
    std::vector<int64_t> data(values.size());
    for (size_t c = 0; c < values.size(); ++c) {
      data[c] = static_cast<int64_t>(
          std::llround(static_cast<double>(values[c]) / scales[c]));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, data);
  } else {
    std::vector<int32_t> data(values.size());
    for (size_t c = 0; c < values.size(); ++c) {
      const double v = std::round(static_cast<double>(values[c]) / scales[c]);
      data[c] = static_cast<int32_t>(
          std::clamp<double>(v, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max()));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, data);
  }
  ir::Quantization quant;
  quant.scale = scales;
  quant.zero_point.assign(scales.size(), 0);
  quant.quantized_dimension = 0;  // LiteRT rejects other dims on 1-D biases
  sg_.tensors[q].quantization = quant;
  op.inputs[k] = q;
  return absl::OkStatus();
}

absl::Status IntegerPass::QuantizeOp(ir::Operator op, const OpQuantSpec& spec,
                                     std::vector<ir::Operator>& ops) {
  // Output parameters of shared ops come first: inputs adopt them.
  std::optional<QuantParams> shared;
  if (spec.output == OutputRule::kSharedInputs) {
    shared = ActivationParams(op.outputs[0]);
  }
  std::optional<QuantParams> first_activation;
  float input_scale = 1.0f;
  std::vector<float> weight_scales;
  size_t bias_index = op.inputs.size();
  size_t weight_index = op.inputs.size();
  // Activations first: the weights' bias-driven scale floors need the input
  // scale, and TRANSPOSE_CONV lists its weights before its activation.
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t < 0) continue;
    switch (RoleOf(spec, k)) {
      case Role::kNotReal:
        break;
      case Role::kActivation: {
        QuantParams p;
        if (IsConstant(model_, sg_.tensors[t])) {
          const std::vector<float> v = FloatValues(model_, sg_.tensors[t]);
          RETURN_IF_ERROR(CheckFinite(sg_.tensors[t], v, "quantize"));
          float lo = 0, hi = 0;
          for (float x : v) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
          }
          p = shared.value_or(ParamsForRange(lo, hi));
          op.inputs[k] = QuantizedConstant(t, p);
          params_[op.inputs[k]] = p;
        } else if (int_domain_.count(t)) {
          p = params_.at(t);
          if (shared.has_value() && !SameParams(p, *shared)) {
            p = *shared;
            op.inputs[k] = Quantized(t, p, ops);  // requantize
          }
        } else {
          p = shared.value_or(ActivationParams(t));
          op.inputs[k] = Quantized(t, p, ops);
        }
        if (!first_activation.has_value()) {
          first_activation = p;
          input_scale = p.scale;
        }
        break;
      }
      case Role::kWeight:
        weight_index = k;
        break;
      case Role::kBias:
        bias_index = k;
        break;
    }
  }
  if (weight_index < op.inputs.size()) {
    const int axis =
        (op.kind == ir::OpKind::kFullyConnected && options_.fc_per_tensor)
            ? -1
            : spec.weight_axis;
    // The bias may force larger weight scales (|q_bias| <= 2^30).
    // A copy: adding tensors below invalidates references into sg_.tensors.
    const std::vector<int32_t> wshape =
        sg_.tensors[op.inputs[weight_index]].shape;
    const int64_t channels =
        axis >= 0 && axis < static_cast<int>(wshape.size()) ? wshape[axis] : 1;
    const std::vector<float> floors =
        axis >= 0 ? BiasScaleFloors(op, bias_index, input_scale, channels)
                  : std::vector<float>{};
    ASSIGN_OR_RETURN(weight_scales,
                     QuantizeWeight(op, weight_index, axis, floors));
    // LiteRT's quantized CONV_2D / DEPTHWISE_CONV_2D kernels need a bias:
    // a missing one becomes zeros.
    const size_t bias_slot = weight_index + 1;
    if ((op.kind == ir::OpKind::kConv2D ||
         op.kind == ir::OpKind::kDepthwiseConv2D) &&
        !wshape.empty() &&
        (bias_slot >= op.inputs.size() || op.inputs[bias_slot] < 0)) {
      const int64_t out_channels =
          op.kind == ir::OpKind::kConv2D ? wshape[0] : wshape.back();
      const int32_t zero = AddTensorLike(sg_, sg_.tensors[op.outputs[0]],
                                         ir::DataType::kFloat32, "_zero_bias");
      sg_.tensors[zero].shape = {static_cast<int32_t>(out_channels)};
      sg_.tensors[zero].shape_signature.clear();
      sg_.tensors[zero].quantization.reset();
      sg_.tensors[zero].buffer = AddTypedBuffer(
          model_, std::vector<float>(static_cast<size_t>(out_channels), 0.0f));
      op.inputs.resize(std::max(op.inputs.size(), bias_slot + 1), -1);
      op.inputs[bias_slot] = zero;
      bias_index = bias_slot;
    }
  }
  if (bias_index < op.inputs.size()) {
    RETURN_IF_ERROR(QuantizeBias(op, bias_index, input_scale, weight_scales));
  }
  QuantParams out;
  switch (spec.output) {
    case OutputRule::kOwnRange:
      out = ActivationParams(op.outputs[0]);
      break;
    case OutputRule::kSharedInputs:
      out = *shared;
      break;
    case OutputRule::kSameAsInput:
      // Not value_or(): its argument is evaluated even when unused, and the
      // output may have no statistics (CanQuantize checks the fallback).
      out = first_activation.has_value() ? *first_activation
                                         : ActivationParams(op.outputs[0]);
      break;
    case OutputRule::kFixed:
      out = int16_ ? spec.fixed_int16 : spec.fixed_int8;
      break;
  }
  for (int32_t o : op.outputs) {
    sg_.tensors[o].type = qtype_;
    sg_.tensors[o].quantization = PerTensor(out);
    params_[o] = out;
    int_domain_.insert(o);
  }
  if (int16_) {
    // General (not power-of-two) scales for int16 ADD/SUB.
    if (auto* as = std::get_if<ir::AddSubOptions>(&op.options)) {
      as->pot_scale_int16 = false;
    } else if (op.kind == ir::OpKind::kAdd || op.kind == ir::OpKind::kSub) {
      op.options = ir::AddSubOptions{ir::Activation::kNone, false,
                                     op.kind == ir::OpKind::kSub};
    }
  }
  ops.push_back(std::move(op));
  return absl::OkStatus();
}

absl::Status IntegerPass::Run() {
  std::vector<ir::Operator> old_ops = std::move(sg_.operators);
  sg_.operators.clear();
  std::vector<ir::Operator> ops;
  // Integer model inputs: the input tensor itself becomes integer.
  if (options_.input_type == qtype_) {
    for (int32_t in : sg_.inputs) {
      if (sg_.tensors[in].type != ir::DataType::kFloat32 || !HasStats(in))
        continue;
      const QuantParams p = ActivationParams(in);
      sg_.tensors[in].type = qtype_;
      sg_.tensors[in].quantization = PerTensor(p);
      params_[in] = p;
      int_domain_.insert(in);
    }
  }
  for (size_t i = 0; i < old_ops.size(); ++i) {
    ir::Operator& op = old_ops[i];
    const std::optional<OpQuantSpec> spec = GetOpQuantSpec(op.kind);
    std::string reason;
    if (excluded_[i]) {
      reason = "excluded (--exclude-op)";
    } else if (!spec.has_value()) {
      reason = "no integer form in qforge";
    } else {
      reason = CanQuantize(op, *spec);
    }
    if (reason.empty()) {
      RETURN_IF_ERROR(QuantizeOp(std::move(op), *spec, ops));
      ++result_.ops_quantized;
      continue;
    }
    result_.kept_float.push_back(
        KeptFloat{static_cast<int>(i), op.DisplayName(), reason});
    for (int32_t& t : op.inputs) {
      if (t >= 0 && int_domain_.count(t)) t = Dequantized(t, ops);
    }
    ops.push_back(std::move(op));
  }
  // Model outputs: float unless an integer output type was asked for.
  for (size_t j = 0; j < sg_.outputs.size(); ++j) {
    const int32_t t = sg_.outputs[j];
    if (!int_domain_.count(t) || options_.output_type == qtype_) continue;
    const int32_t f = Dequantized(t, ops);
    // The float output keeps the name scripts and signatures know.
    const std::string name = sg_.tensors[t].name;
    sg_.tensors[f].name = name;
    sg_.tensors[t].name = name + "_int";
    sg_.outputs[j] = f;
    for (ir::SignatureDef& sig : model_.signature_defs) {
      if (sig.subgraph_index != 0) continue;
      for (ir::TensorMap& m : sig.outputs) {
        if (m.tensor_index == static_cast<uint32_t>(t)) m.tensor_index = f;
      }
    }
  }
  sg_.operators = std::move(ops);
  return absl::OkStatus();
}

}  // namespace qforge::quantizer
