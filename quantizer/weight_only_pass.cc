// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/weight_only_pass.h"

#include <cmath>
#include <map>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/tflite_reader.h"
#include "numerics/float16.h"
#include "numerics/quant_params.h"
#include "quantizer/graph_edit.h"
#include "quantizer/op_quant_spec.h"

namespace qforge::quantizer {
namespace {

// TFLite's dynamic-range quantizer leaves small weights float: they cost
// little and hybrid kernels gain nothing on them.
constexpr int64_t kMinWeightElements = 1024;

std::vector<uint16_t> ToHalf(absl::Span<const float> values) {
  std::vector<uint16_t> half(values.size());
  for (size_t k = 0; k < values.size(); ++k)
    half[k] = numerics::FloatToHalf(values[k]);
  return half;
}

// A float32 sparse constant behind DENSIFY keeps its sparse format as
// float16, as TFLite's converter writes it: sparse float16 constant ->
// DENSIFY (float16) -> DEQUANTIZE -> the original float32 tensor. Returns
// false (nothing done) for any other DENSIFY.
absl::StatusOr<bool> SparseToFloat16(ir::Model& model, ir::Subgraph& sg,
                                     ir::Operator& op,
                                     std::vector<ir::Operator>& ops) {
  if (op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0) {
    return false;
  }
  const ir::Tensor src = sg.tensors[op.inputs[0]];
  const int32_t dense = op.outputs[0];
  if (src.type != ir::DataType::kFloat32 || !src.sparsity.has_value() ||
      !IsConstant(model, src) ||
      sg.tensors[dense].type != ir::DataType::kFloat32) {
    return false;
  }
  const absl::Span<const float> values = FloatSpan(model, src);  // compressed
  RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
  const int32_t h = AddTensorLike(sg, src, ir::DataType::kFloat16, "_fp16");
  sg.tensors[h].sparsity = src.sparsity;
  sg.tensors[h].buffer = AddTypedBuffer(model, ToHalf(values));
  const int32_t dense16 =
      AddTensorLike(sg, sg.tensors[dense], ir::DataType::kFloat16, "_fp16");
  op.inputs[0] = h;
  op.outputs[0] = dense16;
  ops.push_back(std::move(op));
  ops.push_back(MakeOp(ir::OpKind::kDequantize, {dense16}, {dense}));
  return true;
}

}  // namespace

int HybridWeightSlot(const ir::Model& model, size_t i,
                     const std::vector<bool>& excluded,
                     QuantizeResult& result) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const ir::Operator& op = sg.operators[i];
  const std::optional<HybridSpec> hw = GetHybridSpec(op.kind);
  if (excluded[i] || !hw.has_value()) {
    result.kept_float.push_back(
        {static_cast<int>(i), op.DisplayName(),
         excluded[i] ? "excluded (--exclude-op)" : "no hybrid kernel"});
    return -1;
  }
  if (static_cast<size_t>(hw->weight_input) >= op.inputs.size() ||
      op.inputs[hw->weight_input] < 0) {
    return -1;
  }
  const ir::Tensor& src = sg.tensors[op.inputs[hw->weight_input]];
  if (src.type != ir::DataType::kFloat32 || !IsConstant(model, src) ||
      src.sparsity.has_value() ||
      src.NumElements().value_or(0) < kMinWeightElements) {
    result.kept_float.push_back({static_cast<int>(i), op.DisplayName(),
                                 "weights not a large float constant"});
    return -1;
  }
  return hw->weight_input;
}

absl::Status DynamicRangePass(ir::Model& model,
                              const std::vector<bool>& excluded,
                              QuantizeResult& result) {
  ir::Subgraph& sg = model.subgraphs[0];
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    if (HybridWeightSlot(model, i, excluded, result) < 0) continue;
    ir::Operator& op = sg.operators[i];
    const std::optional<HybridSpec> hw = GetHybridSpec(op.kind);
    const int32_t w = op.inputs[hw->weight_input];
    const ir::Tensor& src = sg.tensors[w];
    const absl::Span<const float> values = FloatSpan(model, src);
    RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
    QuantizedWeights qw = QuantizeSymmetricInt8(values, src.shape, hw->axis);
    const int32_t q = AddTensorLike(sg, src, ir::DataType::kInt8, "_quantized");
    sg.tensors[q].buffer = AddTypedBuffer(model, std::move(qw.data));
    sg.tensors[q].quantization = std::move(qw.quantization);
    op.inputs[hw->weight_input] = q;
    // Hybrid FULLY_CONNECTED quantizes its input per row, asymmetrically:
    // a field of its options table, set also when the file gave it none.
    ir::Options options = formats::OptionsOrDefaults(op);
    if (auto* fc = std::get_if<ir::FullyConnectedOptions>(&options)) {
      fc->asymmetric_quantize_inputs = true;
      op.options = std::move(options);
    }
    ++result.ops_quantized;
  }
  return absl::OkStatus();
}

absl::Status Float16Pass(ir::Model& model, const std::vector<bool>& excluded,
                         QuantizeResult& result,
                         const std::set<int32_t>& stored_half) {
  ir::Subgraph& sg = model.subgraphs[0];
  std::vector<ir::Operator> ops;
  std::map<int32_t, bool> converted;  // float constant -> done
  std::vector<bool> consumed_by_kept(sg.tensors.size(), false);
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    if (!excluded[i]) continue;
    for (int32_t t : sg.operators[i].inputs) {
      if (t >= 0) consumed_by_kept[t] = true;
    }
  }
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    ir::Operator& op = sg.operators[i];
    if (!excluded[i] && op.kind == ir::OpKind::kDensify) {
      ASSIGN_OR_RETURN(bool done, SparseToFloat16(model, sg, op, ops));
      if (done) {
        ++result.ops_quantized;
        continue;
      }
    }
    bool any = false;
    for (int32_t t : op.inputs) {
      if (t < 0 || excluded[i] || consumed_by_kept[t] || converted.count(t))
        continue;
      ir::Tensor& src = sg.tensors[t];
      // Sparse constants feed DENSIFY, handled above. A scalar is not worth
      // a DEQUANTIZE, unless the model stored it so: a float16 CONV_2D
      // whose one-channel bias was widened ran 7-10% slower in LiteRT
      // (pose_landmark_lite, two such output heads).
      if (src.type != ir::DataType::kFloat32 || !IsConstant(model, src) ||
          src.sparsity.has_value() ||
          (src.NumElements().value_or(0) < 2 && !stored_half.count(t))) {
        continue;
      }
      const absl::Span<const float> values = FloatSpan(model, src);
      RETURN_IF_ERROR(CheckFinite(src, values, "quantize"));
      std::vector<uint16_t> half = ToHalf(values);
      // The float16 constant feeds a DEQUANTIZE that recreates the float
      // tensor under its original index and name.
      const int32_t h =
          AddTensorLike(sg, sg.tensors[t], ir::DataType::kFloat16, "_fp16");
      sg.tensors[h].buffer = AddTypedBuffer(model, std::move(half));
      sg.tensors[t].buffer = 0;
      ops.push_back(MakeOp(ir::OpKind::kDequantize, {h}, {t}));
      converted[t] = true;
      any = true;
    }
    if (any) ++result.ops_quantized;
    ops.push_back(std::move(op));
  }
  sg.operators = std::move(ops);
  return absl::OkStatus();
}

}  // namespace qforge::quantizer
