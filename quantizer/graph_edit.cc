// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/graph_edit.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/interpreter.h"

namespace qforge::quantizer {

absl::Span<const float> FloatSpan(const ir::Model& m, const ir::Tensor& t) {
  const ir::Bytes& data = m.buffers[t.buffer].data;
  // Buffer bytes are aligned for their tensors' type (owned: malloc's
  // alignment; views of the file: the reader checks), so a float tensor's
  // can be read as floats in place.
  return {reinterpret_cast<const float*>(data.data()),
          data.size() / sizeof(float)};
}

std::vector<float> FloatValues(const ir::Model& m, const ir::Tensor& t) {
  const absl::Span<const float> v = FloatSpan(m, t);
  return std::vector<float>(v.begin(), v.end());
}

absl::Status CheckFinite(const ir::Tensor& t, absl::Span<const float> v,
                         const std::string& where) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": constant tensor '", t.name, "' holds ", v[i],
          " at element ", i, "; weights must be finite to be quantized"));
    }
  }
  return absl::OkStatus();
}

uint32_t AddBuffer(ir::Model& m, ir::Bytes bytes) {
  if (m.buffers.empty()) m.buffers.emplace_back();  // the empty sentinel
  m.buffers.push_back(ir::Buffer{std::move(bytes), false});
  return static_cast<uint32_t>(m.buffers.size() - 1);
}

int32_t AddTensorLike(ir::Subgraph& sg, const ir::Tensor& like,
                      ir::DataType type, const std::string& suffix) {
  ir::Tensor t;
  t.name = like.name + suffix;
  t.type = type;
  t.shape = like.shape;
  t.shape_signature = like.shape_signature;
  t.has_rank = like.has_rank;
  sg.tensors.push_back(std::move(t));
  return static_cast<int32_t>(sg.tensors.size() - 1);
}

ir::Quantization PerTensor(const numerics::QuantParams& p) {
  ir::Quantization q;
  q.scale = {p.scale};
  q.zero_point = {p.zero_point};
  return q;
}

namespace {

// Channels and the channel of element i for a weight axis (-1: per tensor).
struct ChannelMap {
  int64_t channels = 1, inner = 1;
  bool per_tensor = true;
  ChannelMap(const std::vector<int32_t>& shape, int axis) {
    const int rank = static_cast<int>(shape.size());
    per_tensor = axis < 0 || axis >= rank;
    if (per_tensor) return;
    channels = shape[axis];
    for (int d = axis + 1; d < rank; ++d) inner *= shape[d];
  }
  int64_t operator()(size_t i) const {
    return per_tensor ? 0 : (static_cast<int64_t>(i) / inner) % channels;
  }
};

}  // namespace

std::vector<float> SymmetricScales(absl::Span<const float> values,
                                   const std::vector<int32_t>& shape, int axis,
                                   const std::vector<float>& min_scales,
                                   int qmax) {
  const ChannelMap channel(shape, axis);
  std::vector<float> absmax(channel.channels, 0.0f);
  for (size_t i = 0; i < values.size(); ++i) {
    absmax[channel(i)] = std::max(absmax[channel(i)], std::fabs(values[i]));
  }
  std::vector<float> scales(channel.channels);
  for (int64_t c = 0; c < channel.channels; ++c) {
    scales[c] = numerics::ChooseSymmetric(absmax[c], qmax).scale;
    if (static_cast<size_t>(c) < min_scales.size() && absmax[c] > 0.0f) {
      scales[c] = std::max(scales[c], min_scales[c]);
    } else if (static_cast<size_t>(c) < min_scales.size() &&
               min_scales[c] > 0.0f) {
      // All-zero weights: any scale works; take the one the bias fits.
      scales[c] = min_scales[c];
    }
  }
  return scales;
}

QuantizedWeights QuantizeSymmetricInt8(absl::Span<const float> values,
                                       const std::vector<int32_t>& shape,
                                       int axis,
                                       const std::vector<float>& min_scales,
                                       int qmax) {
  const ChannelMap channel(shape, axis);
  QuantizedWeights out;
  out.scales = SymmetricScales(values, shape, axis, min_scales, qmax);
  out.data.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    out.data[i] = static_cast<int8_t>(numerics::QuantizeValue(
        values[i], {out.scales[channel(i)], 0}, -qmax, qmax));
  }
  out.quantization.scale = out.scales;
  out.quantization.zero_point.assign(channel.channels, 0);
  out.quantization.quantized_dimension = channel.per_tensor ? 0 : axis;
  return out;
}

std::vector<uint8_t> PackInt4(const std::vector<int8_t>& values) {
  std::vector<uint8_t> out((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    out[i / 2] |= static_cast<uint8_t>((values[i] & 0x0f) << (4 * (i % 2)));
  }
  return out;
}

ir::Operator MakeOp(ir::OpKind kind, std::vector<int32_t> inputs,
                    std::vector<int32_t> outputs) {
  ir::Operator op;
  op.kind = kind;
  op.builtin_code = ir::GetOpInfo(kind).builtin_code;
  op.deprecated_builtin_code =
      static_cast<int8_t>(std::min<int32_t>(op.builtin_code, 127));
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  return op;
}

absl::StatusOr<std::vector<uint8_t>> DensifiedBytes(const ir::Model& m,
                                                    const ir::Tensor& sparse) {
  // A one-op model: the sparse constant through DENSIFY.
  ir::Model mini;
  mini.buffers.resize(2);
  mini.buffers[1].data = m.buffers[sparse.buffer].data;
  ir::Subgraph sg;
  ir::Tensor in = sparse;
  in.buffer = 1;
  ir::Tensor out = sparse;
  out.sparsity.reset();
  out.buffer = 0;
  out.name += "_dense";
  sg.tensors = {std::move(in), std::move(out)};
  sg.outputs = {1};
  sg.operators.push_back(MakeOp(ir::OpKind::kDensify, {0}, {1}));
  mini.subgraphs.push_back(std::move(sg));
  runtime::InterpreterOptions options;
  options.threads = 1;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Interpreter> interpreter,
                   runtime::Interpreter::Create(mini, options));
  RETURN_IF_ERROR(interpreter->Run({}));
  return interpreter->OutputHost(0).bytes();
}

}  // namespace qforge::quantizer
