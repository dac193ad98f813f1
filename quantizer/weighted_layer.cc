// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/weighted_layer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <variant>

#include "numerics/float16.h"
#include "numerics/quant_params.h"
#include "quantizer/graph_edit.h"

namespace qforge::quantizer {
namespace {

bool DenseFloatConstant(const ir::Model& m, const ir::Tensor& t) {
  if (t.type != ir::DataType::kFloat32 || t.sparsity.has_value() ||
      !IsConstant(m, t)) {
    return false;
  }
  int64_t n = 1;
  for (int32_t d : t.shape) {
    if (d <= 0) return false;
    n *= d;
  }
  return m.buffers[t.buffer].data.size() == static_cast<size_t>(n) * 4;
}

// The layouts whose rows are products with windows of input 0 (a
// TRANSPOSE_CONV scatters its input; CONV_3D windows are 3-D).
bool RowsOverInputWindows(ir::WeightLayout layout) {
  switch (layout) {
    case ir::WeightLayout::kConv:
    case ir::WeightLayout::kDepthwise:
    case ir::WeightLayout::kFullyConnected:
      return true;
    case ir::WeightLayout::kNone:
    case ir::WeightLayout::kTransposeConv:
    case ir::WeightLayout::kConv3D:
      return false;
  }
  return false;
}

}  // namespace

std::vector<WeightedLayer> FindWeightedLayers(const ir::Model& model) {
  std::vector<WeightedLayer> out;
  if (model.subgraphs.empty()) return out;
  const ir::Subgraph& sg = model.subgraphs[0];
  const int32_t num_tensors = static_cast<int32_t>(sg.tensors.size());
  auto valid = [&](int32_t t) { return t >= 0 && t < num_tensors; };
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    if (!RowsOverInputWindows(info.weight_layout)) continue;
    const size_t wi = static_cast<size_t>(info.weight_input);
    if (op.inputs.size() <= wi || op.outputs.size() != 1 ||
        !valid(op.inputs[0]) || !valid(op.inputs[wi]) ||
        !valid(op.outputs[0])) {
      continue;
    }
    WeightedLayer l;
    l.op_index = static_cast<int>(i);
    l.kind = op.kind;
    l.layout = info.weight_layout;
    l.input = op.inputs[0];
    l.weights = op.inputs[wi];
    l.output = op.outputs[0];
    const ir::Tensor& w = sg.tensors[l.weights];
    const ir::Tensor& in = sg.tensors[l.input];
    if (!DenseFloatConstant(model, w) || in.type != ir::DataType::kFloat32) {
      continue;
    }
    if (op.inputs.size() > wi + 1 && op.inputs[wi + 1] >= 0) {
      if (!valid(op.inputs[wi + 1]) ||
          !DenseFloatConstant(model, sg.tensors[op.inputs[wi + 1]])) {
        continue;
      }
      l.bias = op.inputs[wi + 1];
    }
    const std::vector<int32_t>& ws = w.shape;
    const std::vector<int32_t>& is = in.shape;
    switch (l.layout) {
      case ir::WeightLayout::kConv: {
        const auto* o = std::get_if<ir::Conv2DOptions>(&op.options);
        // Grouped convolutions (input channels a multiple of I) are left
        // out.
        if (o == nullptr || ws.size() != 4 || is.size() != 4 ||
            is[3] != ws[3]) {
          continue;
        }
        l.rows = ws[0];
        l.kh = ws[1], l.kw = ws[2], l.in_channels = ws[3];
        l.k = l.kh * l.kw * l.in_channels;
        l.stride_h = o->stride_h, l.stride_w = o->stride_w;
        l.dilation_h = o->dilation_h, l.dilation_w = o->dilation_w;
        l.padding = o->padding;
        l.activation = o->activation;
        break;
      }
      case ir::WeightLayout::kDepthwise: {
        const auto* o = std::get_if<ir::DepthwiseConv2DOptions>(&op.options);
        if (o == nullptr || ws.size() != 4 || ws[0] != 1 || is.size() != 4 ||
            is[3] <= 0 || ws[3] % is[3] != 0) {
          continue;
        }
        l.rows = ws[3];
        l.kh = ws[1], l.kw = ws[2], l.in_channels = is[3];
        l.multiplier = ws[3] / is[3];
        l.k = l.kh * l.kw;
        l.stride_h = o->stride_h, l.stride_w = o->stride_w;
        l.dilation_h = o->dilation_h, l.dilation_w = o->dilation_w;
        l.padding = o->padding;
        l.activation = o->activation;
        break;
      }
      case ir::WeightLayout::kFullyConnected: {
        const auto* o = std::get_if<ir::FullyConnectedOptions>(&op.options);
        if (o == nullptr || o->weights_format != 0 || ws.size() != 2) continue;
        l.rows = ws[0];
        l.in_channels = ws[1];
        l.k = ws[1];
        l.activation = o->activation;
        break;
      }
      case ir::WeightLayout::kNone:
      case ir::WeightLayout::kTransposeConv:
      case ir::WeightLayout::kConv3D:
        continue;  // filtered above
    }
    if (l.stride_h <= 0 || l.stride_w <= 0 || l.dilation_h <= 0 ||
        l.dilation_w <= 0 || l.rows <= 0 || l.k <= 0) {
      continue;
    }
    if (l.bias >= 0 &&
        static_cast<int64_t>(
            model.buffers[sg.tensors[l.bias].buffer].data.size()) !=
            l.rows * 4) {
      continue;
    }
    out.push_back(l);
  }
  return out;
}

int WidenHalfWeights(ir::Model& model, const std::vector<bool>& skip) {
  if (model.subgraphs.empty()) return 0;
  ir::Subgraph& sg = model.subgraphs[0];
  const int32_t num_tensors = static_cast<int32_t>(sg.tensors.size());
  // The float16 constant each converter output widens to float32 (a
  // DEQUANTIZE).
  std::vector<int32_t> half_source(sg.tensors.size(), -1);
  for (const ir::Operator& op : sg.operators) {
    if (!ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter) ||
        op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0 ||
        op.inputs[0] >= num_tensors || op.outputs[0] < 0 ||
        op.outputs[0] >= num_tensors) {
      continue;
    }
    const ir::Tensor& in = sg.tensors[op.inputs[0]];
    const ir::Tensor& out = sg.tensors[op.outputs[0]];
    if (in.type == ir::DataType::kFloat16 && !in.sparsity.has_value() &&
        IsConstant(model, in) && out.type == ir::DataType::kFloat32 &&
        model.buffers[in.buffer].data.size() % 2 == 0) {
      half_source[op.outputs[0]] = op.inputs[0];
    }
  }
  int widened = 0;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    ir::Operator& op = sg.operators[i];
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    if (!RowsOverInputWindows(info.weight_layout) ||
        (i < skip.size() && skip[i])) {
      continue;
    }
    // The weights and the bias after them.
    const size_t wi = static_cast<size_t>(info.weight_input);
    for (size_t k = wi; k < std::min<size_t>(op.inputs.size(), wi + 2); ++k) {
      const int32_t t = op.inputs[k];
      if (t < 0 || t >= num_tensors || half_source[t] < 0) continue;
      const ir::Bytes& bytes =
          model.buffers[sg.tensors[half_source[t]].buffer].data;
      std::vector<float> values(bytes.size() / 2);
      for (size_t j = 0; j < values.size(); ++j) {
        uint16_t h;
        std::memcpy(&h, bytes.data() + 2 * j, 2);
        values[j] = numerics::HalfToFloat(h);
      }
      const int32_t copy =
          AddTensorLike(sg, sg.tensors[t], ir::DataType::kFloat32, "_f32");
      sg.tensors[copy].buffer = AddTypedBuffer(model, std::move(values));
      op.inputs[k] = copy;
      ++widened;
    }
  }
  return widened;
}

std::vector<float> LayerWeights(const ir::Model& model, int32_t tensor) {
  return FloatValues(model, model.subgraphs[0].tensors[tensor]);
}

void SetTensorValues(ir::Model& model, int32_t tensor,
                     const std::vector<float>& values) {
  model.subgraphs[0].tensors[tensor].buffer = AddTypedBuffer(model, values);
}

std::vector<float> RowScales(const WeightedLayer& layer,
                             const std::vector<float>& weights, int qmax,
                             bool per_tensor) {
  std::vector<float> absmax(static_cast<size_t>(layer.rows), 0.0f);
  for (int64_t r = 0; r < layer.rows; ++r) {
    for (int64_t j = 0; j < layer.k; ++j) {
      absmax[r] =
          std::max(absmax[r], std::fabs(weights[layer.WeightIndex(r, j)]));
    }
  }
  if (per_tensor) {
    const float m = *std::max_element(absmax.begin(), absmax.end());
    std::fill(absmax.begin(), absmax.end(), m);
  }
  std::vector<float> scales(absmax.size());
  for (size_t r = 0; r < absmax.size(); ++r) {
    scales[r] = numerics::ChooseSymmetric(absmax[r], qmax).scale;
  }
  return scales;
}

}  // namespace qforge::quantizer
