// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/rewrite.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/tflite_reader.h"
#include "quantizer/graph_edit.h"

namespace qforge::quantizer {
namespace {

using numerics::QuantParams;

int32_t QMin(ir::DataType t) {
  return t == ir::DataType::kInt16 ? -32768 : -128;
}
int32_t QMax(ir::DataType t) { return t == ir::DataType::kInt16 ? 32767 : 127; }

class Rewriter {
 public:
  Rewriter(ir::Model& model, const QuantPlan& plan,
           const QuantizeOptions& options, QuantizeResult& result)
      : model_(model),
        sg_(model.subgraphs[0]),
        plan_(plan),
        options_(options),
        result_(result) {}

  absl::Status Run();

 private:
  // `t` in form `want`, adding a QUANTIZE (from float, or requantizing an
  // integer tensor) once per (tensor, form).
  int32_t InForm(int32_t t, const ActParams& want,
                 std::vector<ir::Operator>& ops);
  // A float view of integer `t`, adding a DEQUANTIZE once.
  int32_t Dequantized(int32_t t, std::vector<ir::Operator>& ops);
  int32_t QuantizedConstant(int32_t t, const ActParams& p);
  absl::Status QuantizeWeight(ir::Operator& op, const OpPlan& plan);
  absl::Status QuantizeBias(ir::Operator& op, const OpPlan& plan,
                            float input_scale, bool wide);
  absl::Status Integer(ir::Operator op, const OpPlan& plan,
                       std::vector<ir::Operator>& ops);

  ir::Model& model_;
  ir::Subgraph& sg_;
  const QuantPlan& plan_;
  const QuantizeOptions& options_;
  QuantizeResult& result_;
  std::map<int32_t, ActParams> integer_;  // tensors that are integer now
  std::map<std::tuple<int32_t, ir::DataType, float, int32_t>, int32_t>
      converted_;
  std::map<int32_t, int32_t> dequantized_;
};

int32_t Rewriter::InForm(int32_t t, const ActParams& want,
                         std::vector<ir::Operator>& ops) {
  auto have = integer_.find(t);
  if (have != integer_.end() && have->second == want) return t;
  const auto key =
      std::make_tuple(t, want.type, want.p.scale, want.p.zero_point);
  auto it = converted_.find(key);
  if (it != converted_.end()) return it->second;
  const bool requantize = have != integer_.end();
  const int32_t q = AddTensorLike(sg_, sg_.tensors[t], want.type,
                                  requantize ? "_requantized" : "_quantized");
  sg_.tensors[q].quantization = PerTensor(want.p);
  ops.push_back(MakeOp(ir::OpKind::kQuantize, {t}, {q}));
  converted_[key] = q;
  integer_[q] = want;
  return q;
}

int32_t Rewriter::Dequantized(int32_t t, std::vector<ir::Operator>& ops) {
  auto it = dequantized_.find(t);
  if (it != dequantized_.end()) return it->second;
  const int32_t f = AddTensorLike(sg_, sg_.tensors[t], ir::DataType::kFloat32,
                                  "_dequantized");
  ops.push_back(MakeOp(ir::OpKind::kDequantize, {t}, {f}));
  dequantized_[t] = f;
  return f;
}

int32_t Rewriter::QuantizedConstant(int32_t t, const ActParams& p) {
  const ir::Tensor& src = sg_.tensors[t];
  const absl::Span<const float> values = FloatSpan(model_, src);
  const int32_t q = AddTensorLike(sg_, src, p.type, "_quantized");
  const int32_t lo = QMin(p.type), hi = QMax(p.type);
  if (p.type == ir::DataType::kInt16) {
    std::vector<int16_t> data(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      data[i] =
          static_cast<int16_t>(numerics::QuantizeValue(values[i], p.p, lo, hi));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, std::move(data));
  } else {
    std::vector<int8_t> data(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      data[i] =
          static_cast<int8_t>(numerics::QuantizeValue(values[i], p.p, lo, hi));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, std::move(data));
  }
  sg_.tensors[q].quantization = PerTensor(p.p);
  integer_[q] = p;
  return q;
}

absl::Status Rewriter::QuantizeWeight(ir::Operator& op, const OpPlan& plan) {
  const size_t k = static_cast<size_t>(plan.weight_input);
  const int32_t t = op.inputs[k];
  const ir::Tensor& src = sg_.tensors[t];
  const absl::Span<const float> values = FloatSpan(model_, src);
  RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
  // The plan's scales floor every channel: re-quantizing with them as
  // floors reproduces them exactly.
  QuantizedWeights w =
      QuantizeSymmetricInt8(values, src.shape, plan.weight_axis,
                            plan.weight_scales, WeightQMax(plan.weight_bits));
  const bool int4 = plan.weight_bits == 4;
  const int32_t q = AddTensorLike(
      sg_, src, int4 ? ir::DataType::kInt4 : ir::DataType::kInt8, "_quantized");
  sg_.tensors[q].buffer = int4 ? AddBuffer(model_, PackInt4(w.data))
                               : AddTypedBuffer(model_, std::move(w.data));
  sg_.tensors[q].quantization = std::move(w.quantization);
  op.inputs[k] = q;
  return absl::OkStatus();
}

absl::Status Rewriter::QuantizeBias(ir::Operator& op, const OpPlan& plan,
                                    float input_scale, bool wide) {
  const size_t k = static_cast<size_t>(plan.bias_input);
  if (plan.add_zero_bias) {
    // One zero per output channel, whether the weights are quantized per
    // channel or (FULLY_CONNECTED on Arm NN) per tensor.
    const std::vector<int32_t> wshape =
        sg_.tensors[op.inputs[static_cast<size_t>(plan.weight_input)]].shape;
    const int axis =
        ir::OutputChannelAxis(ir::GetOpInfo(op.kind).weight_layout);
    const int64_t channels =
        axis >= 0 && axis < static_cast<int>(wshape.size()) ? wshape[axis] : 1;
    const int32_t zero = AddTensorLike(sg_, sg_.tensors[op.outputs[0]],
                                       ir::DataType::kFloat32, "_zero_bias");
    sg_.tensors[zero].shape = {static_cast<int32_t>(channels)};
    sg_.tensors[zero].shape_signature.clear();
    sg_.tensors[zero].quantization.reset();
    sg_.tensors[zero].buffer = AddTypedBuffer(
        model_, std::vector<float>(static_cast<size_t>(channels), 0.0f));
    op.inputs.resize(std::max(op.inputs.size(), k + 1), -1);
    op.inputs[k] = zero;
  }
  const int32_t t = op.inputs[k];
  const ir::Tensor& src = sg_.tensors[t];
  const absl::Span<const float> values = FloatSpan(model_, src);
  RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
  // The bias scale is input scale x weight scale (TFLite's quantization
  // spec): per channel when the weights are, else one scale for the whole
  // bias, which runtimes that check the bias against the weights (Arm NN)
  // require.
  const std::vector<float>& ws = plan.weight_scales;
  const bool per_channel = ws.size() > 1;
  std::vector<float> scales(per_channel ? values.size() : 1);
  for (size_t c = 0; c < scales.size(); ++c) {
    const float w = ws.empty() ? 1.0f : ws[per_channel ? c % ws.size() : 0];
    scales[c] = std::max(input_scale * w, numerics::kMinScale);
  }
  auto scale_of = [&](size_t c) { return scales[per_channel ? c : 0]; };
  // int16x8 conv-like ops accumulate in 64 bits and take an int64 bias.
  const int32_t q = AddTensorLike(
      sg_, src, wide ? ir::DataType::kInt64 : ir::DataType::kInt32,
      "_quantized");
  if (wide) {
    std::vector<int64_t> data(values.size());
    for (size_t c = 0; c < values.size(); ++c) {
      data[c] = static_cast<int64_t>(std::clamp<double>(
          std::round(static_cast<double>(values[c]) / scale_of(c)), -9.2e18,
          9.2e18));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, std::move(data));
  } else {
    std::vector<int32_t> data(values.size());
    for (size_t c = 0; c < values.size(); ++c) {
      const double v = std::round(static_cast<double>(values[c]) / scale_of(c));
      data[c] = static_cast<int32_t>(
          std::clamp<double>(v, std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::max()));
    }
    sg_.tensors[q].buffer = AddTypedBuffer(model_, std::move(data));
  }
  ir::Quantization quant;
  quant.scale = scales;
  quant.zero_point.assign(scales.size(), 0);
  quant.quantized_dimension = 0;  // LiteRT rejects other dims on 1-D biases
  sg_.tensors[q].quantization = quant;
  op.inputs[k] = q;
  return absl::OkStatus();
}

absl::Status Rewriter::Integer(ir::Operator op, const OpPlan& plan,
                               std::vector<ir::Operator>& ops) {
  float input_scale = 1.0f;
  bool first = true;
  for (size_t k = 0; k < op.inputs.size() && k < plan.inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t < 0 || !plan.inputs[k].has_value()) continue;
    const ActParams& want = *plan.inputs[k];
    op.inputs[k] = IsConstant(model_, sg_.tensors[t])
                       ? QuantizedConstant(t, want)
                       : InForm(t, want, ops);
    if (first) {
      input_scale = want.p.scale;
      first = false;
    }
  }
  const bool int16 = plan.precision == Precision::kInt16;
  if (plan.weight_input >= 0) RETURN_IF_ERROR(QuantizeWeight(op, plan));
  if (plan.bias_input >= 0) {
    RETURN_IF_ERROR(QuantizeBias(op, plan, input_scale, int16));
  }
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    const int32_t o = op.outputs[k];
    sg_.tensors[o].type = plan.outputs[k].type;
    sg_.tensors[o].quantization = PerTensor(plan.outputs[k].p);
    integer_[o] = plan.outputs[k];
  }
  if (int16 && ir::GetOpInfo(op.kind).Has(ir::op_flags::kGeneralInt16Scales)) {
    // General (not power-of-two) scales: pot_scale_int16 = false, in the
    // op's own table (ADD's or SUB's) also when the file gave it none.
    ir::Options options = formats::OptionsOrDefaults(op);
    if (auto* add_sub = std::get_if<ir::AddSubOptions>(&options)) {
      add_sub->pot_scale_int16 = false;
      op.options = std::move(options);
    }
  }
  ops.push_back(std::move(op));
  return absl::OkStatus();
}

absl::Status Rewriter::Run() {
  std::vector<ir::Operator> old_ops = std::move(sg_.operators);
  sg_.operators.clear();
  std::vector<ir::Operator> ops;
  for (const auto& [in, p] : plan_.integer_inputs) {
    sg_.tensors[in].type = p.type;
    sg_.tensors[in].quantization = PerTensor(p.p);
    integer_[in] = p;
  }
  for (size_t i = 0; i < old_ops.size(); ++i) {
    ir::Operator& op = old_ops[i];
    const OpPlan& plan = plan_.ops[i];
    result_.op_choices.push_back(
        {plan.precision == Precision::kInt16   ? "int16"
         : plan.precision == Precision::kFloat ? "float"
         : plan.weight_bits == 4               ? "int4"
                                               : "int8",
         op.DisplayName(),
         op.outputs.empty() || op.outputs[0] < 0
             ? ""
             : sg_.tensors[static_cast<size_t>(op.outputs[0])].name});
    for (const std::string& note : plan.notes) {
      result_.repairs.push_back(
          {static_cast<int>(i), op.DisplayName(), note, plan.mask_clamped});
    }
    if (plan.precision != Precision::kFloat) {
      RETURN_IF_ERROR(Integer(std::move(op), plan, ops));
      ++result_.ops_quantized;
      continue;
    }
    result_.kept_float.push_back(
        KeptFloat{static_cast<int>(i), op.DisplayName(), plan.reason});
    for (int32_t& t : op.inputs) {
      if (t >= 0 && integer_.count(t)) t = Dequantized(t, ops);
    }
    ops.push_back(std::move(op));
  }
  // Model outputs: float unless an integer output type was asked for.
  for (size_t j = 0; j < sg_.outputs.size(); ++j) {
    const int32_t t = sg_.outputs[j];
    auto it = integer_.find(t);
    if (it == integer_.end()) continue;
    if (options_.output_type == it->second.type) continue;
    int32_t f;
    if (options_.output_type == ir::DataType::kFloat32) {
      f = Dequantized(t, ops);
    } else {
      // An integer output of another type (a mixed plan): requantize on the
      // tensor's own parameters, widened or narrowed to the asked type.
      const ActParams& have = it->second;
      const float lo = have.p.scale *
                       static_cast<float>(QMin(have.type) - have.p.zero_point);
      const float hi = have.p.scale *
                       static_cast<float>(QMax(have.type) - have.p.zero_point);
      ActParams want{options_.output_type, {}};
      want.p = want.type == ir::DataType::kInt16
                   ? numerics::ChooseSymmetric(
                         std::max(std::fabs(lo), std::fabs(hi)), 32767)
                   : numerics::ChooseAsymmetric(lo, hi, -128, 127);
      f = InForm(t, want, ops);
    }
    // The converted output keeps the name scripts and signatures know.
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

}  // namespace

absl::Status ApplyPlan(ir::Model& model, const QuantPlan& plan,
                       const QuantizeOptions& options, QuantizeResult& result) {
  Rewriter rewriter(model, plan, options, result);
  return rewriter.Run();
}

}  // namespace qforge::quantizer
