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

// Versions that depend on options rather than types (TFLite's op_version).
int OptionBumps(const ir::Operator& op) {
  if (const auto* fc = std::get_if<ir::FullyConnectedOptions>(&op.options)) {
    int v = fc->keep_num_dims ? 5 : 1;
    if (op.inputs.size() < 3 || op.inputs[2] < 0) v = std::max(v, 6);
    return v;
  }
  if (const auto* r = std::get_if<ir::ResizeOptions>(&op.options)) {
    if (r->half_pixel_centers || (r->is_nearest && r->align_corners)) return 3;
  }
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
           : in0 == DataType::kInt8                            ? 2
                                                               : 1;
  }
  int v = op.version;
  const std::optional<OpQuantSpec> spec = GetOpQuantSpec(op.kind);
  if (spec.has_value() && IsInt(out0)) {
    v = std::max(v, out0 == DataType::kInt16 ? spec->version_int16
                                             : spec->version_int8);
  }
  if (v > 1 || IsInt(out0)) v = std::max(v, OptionBumps(op));
  return v;
}

}  // namespace qforge::quantizer
