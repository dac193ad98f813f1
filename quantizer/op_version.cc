// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/op_version.h"

#include <algorithm>

namespace qforge::quantizer {
namespace {

using ir::DataType;

DataType TypeAt(const ir::Subgraph& sg, const std::vector<int32_t>& list,
                size_t i) {
  if (i >= list.size() || list[i] < 0) return DataType::kFloat32;
  return sg.tensors[list[i]].type;
}

bool IsInt(DataType t) { return t == DataType::kInt8 || t == DataType::kInt16; }

// The form `op` is written in: integer when its first output is int8/int16
// (kInt8W4 when its weights, input 1, are int4), hybrid when it computes in
// float with an int8 constant weight input.
OpForm FormOf(const ir::Subgraph& sg, const ir::Operator& op) {
  const DataType out0 = TypeAt(sg, op.outputs, 0);
  if (IsInt(out0)) {
    if (out0 == DataType::kInt16) return OpForm::kInt16;
    return TypeAt(sg, op.inputs, 1) == DataType::kInt4 ? OpForm::kInt8W4
                                                       : OpForm::kInt8;
  }
  const std::optional<HybridSpec> hybrid = GetHybridSpec(op.kind);
  if (hybrid.has_value() && out0 == DataType::kFloat32 &&
      TypeAt(sg, op.inputs, hybrid->weight_input) == DataType::kInt8) {
    return OpForm::kHybrid;
  }
  return OpForm::kFloat;
}

}  // namespace

int FullyConnectedVersion(const ir::Subgraph&, const ir::Operator& op,
                          OpForm form) {
  const auto fc = ir::OptionsOr<ir::FullyConnectedOptions>(op.options);
  int v = fc.keep_num_dims ? 5 : 1;
  if (op.inputs.size() < 3 || op.inputs[2] < 0) v = std::max(v, 6);
  // Hybrid with per-row asymmetric input quantization.
  if (form == OpForm::kHybrid && fc.asymmetric_quantize_inputs) {
    v = std::max(v, 9);
  }
  if (form == OpForm::kInt8W4) v = std::max(v, 10);  // int4 weights
  return v;
}

// TFLite's op_version.cc: int8 CONV_2D and DEPTHWISE_CONV_2D with int4
// filters are version 7.
int Int4WeightsVersion(const ir::Subgraph&, const ir::Operator&, OpForm form) {
  return form == OpForm::kInt8W4 ? 7 : 1;
}

int TransposeConvVersion(const ir::Subgraph&, const ir::Operator& op, OpForm) {
  return op.inputs.size() >= 4 && op.inputs[3] >= 0 ? 3 : 1;
}

int ResizeVersion(const ir::Subgraph&, const ir::Operator& op, OpForm) {
  const auto r = ir::OptionsOr<ir::ResizeOptions>(op.options);
  return r.half_pixel_centers || (r.is_nearest && r.align_corners) ? 3 : 1;
}

int QuantizeVersion(const ir::Subgraph& sg, const ir::Operator& op, OpForm) {
  return TypeAt(sg, op.outputs, 0) == DataType::kInt16 ? 2 : 1;
}

int DequantizeVersion(const ir::Subgraph& sg, const ir::Operator& op, OpForm) {
  const DataType in0 = TypeAt(sg, op.inputs, 0);
  // int4 weights (version 6) and int8 weights per channel (5): the
  // weight-only forms (quantizer/weight_forms.h).
  if (in0 == DataType::kInt4) return 6;
  if (in0 == DataType::kInt8 && !op.inputs.empty() && op.inputs[0] >= 0) {
    const auto& q = sg.tensors[op.inputs[0]].quantization;
    if (q.has_value() && q->IsPerAxis()) return 5;
  }
  return in0 == DataType::kInt16 || in0 == DataType::kFloat16 ? 3
         : in0 == DataType::kInt8                             ? 2
                                                              : 1;
}

int QuantizedOpVersion(const ir::Subgraph& sg, const ir::Operator& op) {
  const OpForm form = FormOf(sg, op);
  // The converter ops qforge inserts: their types alone give the version.
  if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter)) {
    return OptionVersion(sg, op, form);
  }
  int v = op.version;
  switch (form) {
    case OpForm::kInt8:
    case OpForm::kInt8W4:
    case OpForm::kInt16:
      if (const std::optional<OpQuantSpec> spec = GetOpQuantSpec(op.kind)) {
        v = std::max(v, form == OpForm::kInt16 ? spec->version_int16
                                               : spec->version_int8);
      }
      break;
    case OpForm::kHybrid: {
      const HybridSpec h = *GetHybridSpec(op.kind);
      const ir::Tensor& w = sg.tensors[op.inputs[h.weight_input]];
      const bool per_channel =
          w.quantization.has_value() && w.quantization->IsPerAxis();
      v = std::max(v,
                   per_channel ? h.version_per_channel : h.version_per_tensor);
      break;
    }
    case OpForm::kFloat:
      break;
  }
  if (v > 1 || form != OpForm::kFloat) {
    v = std::max(v, OptionVersion(sg, op, form));
  }
  return v;
}

}  // namespace qforge::quantizer
