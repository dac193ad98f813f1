// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Small helpers the quantization passes share to add tensors, constants and
// ops to a subgraph, and to read float constants.
#ifndef QFORGE_QUANTIZER_GRAPH_EDIT_H_
#define QFORGE_QUANTIZER_GRAPH_EDIT_H_

#include <cstring>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ir/model.h"
#include "numerics/quant_params.h"

namespace qforge::quantizer {

inline bool IsConstant(const ir::Model& m, const ir::Tensor& t) {
  return t.buffer != 0 && t.buffer < m.buffers.size() &&
         !m.buffers[t.buffer].data.empty();
}

// The float32 values of a constant tensor.
std::vector<float> FloatValues(const ir::Model& m, const ir::Tensor& t);
// The same values in place, without a copy: valid while the tensor's buffer
// is neither changed nor destroyed (adding buffers is fine).
absl::Span<const float> FloatSpan(const ir::Model& m, const ir::Tensor& t);

// Fails with a one-line error naming the tensor when a value is NaN/Inf.
absl::Status CheckFinite(const ir::Tensor& t, absl::Span<const float> v,
                         const std::string& where);

// Appends a buffer holding `bytes`; returns its index.
uint32_t AddBuffer(ir::Model& m, ir::Bytes bytes);

// Takes the values as the buffer's bytes (no copy).
template <typename T>
uint32_t AddTypedBuffer(ir::Model& m, std::vector<T>&& values) {
  return AddBuffer(m, ir::Bytes::Adopt(std::move(values)));
}
template <typename T>
uint32_t AddTypedBuffer(ir::Model& m, const std::vector<T>& values) {
  return AddTypedBuffer(m, std::vector<T>(values));
}

// Appends a tensor like `like` (shape, signature, name + suffix) with
// another type; returns its index.
int32_t AddTensorLike(ir::Subgraph& sg, const ir::Tensor& like,
                      ir::DataType type, const std::string& suffix);

ir::Quantization PerTensor(const numerics::QuantParams& p);

// Symmetric weights in [-qmax, qmax] (int8: 127; int4: 7, TFLite's narrow
// range), one scale per slice along `axis` of `shape` (-1: one scale for
// the tensor). All-zero channels get scale 1.
struct QuantizedWeights {
  std::vector<float> scales;
  std::vector<int8_t> data;       // one value per byte, int4 included
  ir::Quantization quantization;  // scales, zero points 0, the axis
};
inline int WeightQMax(int bits) { return bits == 4 ? 7 : 127; }
// `min_scales` (empty, or one per channel) floors the scales: a channel
// whose weights are (near) zero still needs a scale large enough for its
// bias to fit in int32 once divided by input_scale x weight_scale.
// The scales alone (QuantizeSymmetricInt8's), without quantizing.
std::vector<float> SymmetricScales(absl::Span<const float> values,
                                   const std::vector<int32_t>& shape, int axis,
                                   const std::vector<float>& min_scales = {},
                                   int qmax = 127);
QuantizedWeights QuantizeSymmetricInt8(
    absl::Span<const float> values, const std::vector<int32_t>& shape, int axis,
    const std::vector<float>& min_scales = {}, int qmax = 127);

// int4 values (in [-8, 7]) packed two per byte, low nibble first, as
// TFLite stores kTfLiteInt4 tensors.
std::vector<uint8_t> PackInt4(const std::vector<int8_t>& values);

// The dense bytes of a sparse constant (TFLite SparsityParameters), decoded
// by qforge's DENSIFY kernel: same type, the tensor's full shape.
absl::StatusOr<std::vector<uint8_t>> DensifiedBytes(const ir::Model& m,
                                                    const ir::Tensor& sparse);

ir::Operator MakeOp(ir::OpKind kind, std::vector<int32_t> inputs,
                    std::vector<int32_t> outputs);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_GRAPH_EDIT_H_
