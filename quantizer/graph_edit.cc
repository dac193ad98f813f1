// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/graph_edit.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/interpreter.h"

namespace qforge::quantizer {

std::vector<float> FloatValues(const ir::Model& m, const ir::Tensor& t) {
  const std::vector<uint8_t>& data = m.buffers[t.buffer].data;
  std::vector<float> out(data.size() / sizeof(float));
  if (!out.empty())
    std::memcpy(out.data(), data.data(), out.size() * sizeof(float));
  return out;
}

absl::Status CheckFinite(const ir::Tensor& t, const std::vector<float>& v,
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

uint32_t AddBuffer(ir::Model& m, std::vector<uint8_t> bytes) {
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

QuantizedWeights QuantizeSymmetricInt8(const std::vector<float>& values,
                                       const std::vector<int32_t>& shape,
                                       int axis,
                                       const std::vector<float>& min_scales,
                                       int qmax) {
  const int rank = static_cast<int>(shape.size());
  if (axis >= rank) axis = -1;
  const int64_t channels = axis < 0 ? 1 : shape[axis];
  int64_t inner = 1;
  for (int d = axis + 1; axis >= 0 && d < rank; ++d) inner *= shape[d];
  auto channel = [&](size_t i) {
    return axis < 0 ? 0 : (static_cast<int64_t>(i) / inner) % channels;
  };
  std::vector<float> absmax(channels, 0.0f);
  for (size_t i = 0; i < values.size(); ++i) {
    absmax[channel(i)] = std::max(absmax[channel(i)], std::fabs(values[i]));
  }
  QuantizedWeights out;
  out.scales.resize(channels);
  for (int64_t c = 0; c < channels; ++c) {
    out.scales[c] = numerics::ChooseSymmetric(absmax[c], qmax).scale;
    if (static_cast<size_t>(c) < min_scales.size() && absmax[c] > 0.0f) {
      out.scales[c] = std::max(out.scales[c], min_scales[c]);
    } else if (static_cast<size_t>(c) < min_scales.size() &&
               min_scales[c] > 0.0f) {
      // All-zero weights: any scale works; take the one the bias fits.
      out.scales[c] = min_scales[c];
    }
  }
  out.data.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    out.data[i] = static_cast<int8_t>(numerics::QuantizeValue(
        values[i], {out.scales[channel(i)], 0}, -qmax, qmax));
  }
  out.quantization.scale = out.scales;
  out.quantization.zero_point.assign(channels, 0);
  out.quantization.quantized_dimension = axis < 0 ? 0 : axis;
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
