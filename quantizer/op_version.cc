// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/op_version.h"

#include <algorithm>

#include "quantizer/op_quant_spec.h"

namespace qforge::quantizer {
namespace {

using ir::DataType;

DataType TypeAt(const ir::Subgraph& sg, const std::vector<int32_t>& list,
                size_t i) {
  if (i >= list.size() || list[i] < 0) return DataType::kFloat32;
  return sg.tensors[list[i]].type;
}

bool IsInt(DataType t) { return t == DataType::kInt8 || t == DataType::kInt16; }

// Versions that depend on options or optional inputs rather than types
// (TFLite's op_version).
int OptionBumps(const ir::Operator& op) {
  if (const auto* fc = std::get_if<ir::FullyConnectedOptions>(&op.options)) {
    int v = fc->keep_num_dims ? 5 : 1;
    if (op.inputs.size() < 3 || op.inputs[2] < 0) v = std::max(v, 6);
    return v;
  }
  // TRANSPOSE_CONV with a bias input is version 3.
  if (op.kind == ir::OpKind::kTransposeConv && op.inputs.size() >= 4 &&
      op.inputs[3] >= 0) {
    return 3;
  }
  if (const auto* r = std::get_if<ir::ResizeOptions>(&op.options)) {
    if (r->half_pixel_centers || (r->is_nearest && r->align_corners)) return 3;
  }
  return 1;
}

// Hybrid (float activations, int8 weights) forms: TFLite's op_version.
int HybridVersion(const ir::Subgraph& sg, const ir::Operator& op) {
  if (op.inputs.size() < 2 || op.inputs[1] < 0) return 1;
  const ir::Tensor& w = sg.tensors[op.inputs[1]];
  if (w.type != DataType::kInt8 ||
      TypeAt(sg, op.outputs, 0) != DataType::kFloat32) {
    return 1;
  }
  const bool per_channel =
      w.quantization.has_value() && w.quantization->IsPerAxis();
  if (const auto* fc = std::get_if<ir::FullyConnectedOptions>(&op.options)) {
    return fc->asymmetric_quantize_inputs ? 9 : 3;
  }
  if (op.kind == ir::OpKind::kConv2D) return per_channel ? 5 : 2;
  if (op.kind == ir::OpKind::kDepthwiseConv2D) return per_channel ? 6 : 4;
  return 1;
}

}  // namespace

int QuantizedOpVersion(const ir::Subgraph& sg, const ir::Operator& op) {
  const DataType out0 = TypeAt(sg, op.outputs, 0);
  const DataType in0 = TypeAt(sg, op.inputs, 0);
  // The converter ops qforge inserts.
  if (op.kind == ir::OpKind::kQuantize) return out0 == DataType::kInt16 ? 2 : 1;
  if (op.kind == ir::OpKind::kDequantize) {
    return in0 == DataType::kInt16 || in0 == DataType::kFloat16 ? 3
           : in0 == DataType::kInt8                             ? 2
                                                                : 1;
  }
  int v = op.version;
  const std::optional<OpQuantSpec> spec = GetOpQuantSpec(op.kind);
  if (spec.has_value() && IsInt(out0)) {
    v = std::max(
        v, out0 == DataType::kInt16 ? spec->version_int16 : spec->version_int8);
  }
  v = std::max(v, HybridVersion(sg, op));
  if (v > 1 || IsInt(out0)) v = std::max(v, OptionBumps(op));
  return v;
}

}  // namespace qforge::quantizer
