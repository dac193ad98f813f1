// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The in-memory graph: a TFLite model as the rest of qforge sees it. It keeps
// everything the wire format carries (so `copy` is lossless) but resolves the
// indirections a pass should not care about: an op holds its builtin code,
// custom code and version directly (no operator-code table), and buffers
// hold their bytes whether the file stored them inline or after the
// flatbuffer.
#ifndef QFORGE_IR_MODEL_H_
#define QFORGE_IR_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/bytes.h"
#include "ir/op_kind.h"
#include "ir/options.h"
#include "ir/types.h"

namespace qforge::ir {

// Index of an optional (absent) op input, as in the file.
inline constexpr int32_t kNoTensor = -1;

struct Quantization {
  std::vector<float> min, max;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
  OpaqueTable details;  // QuantizationDetails union (custom, multi-axis)
  // BlockwiseQuantization details (read into these fields, not `details`,
  // so that tensor renumbering keeps them): `block_scales` is the tensor of
  // float16 scales [rows, cols / block_size] of a 2-D weight whose blocks
  // run along its last axis; `block_zero_points` -1: zero points 0.
  int32_t block_scales = -1;
  int32_t block_zero_points = -1;
  int32_t block_size = 0;

  bool IsPerAxis() const { return scale.size() > 1; }
  bool HasScale() const { return !scale.empty(); }
  bool IsBlockwise() const { return block_size > 0; }
};

struct DimensionMetadata {
  bool sparse_csr = false;  // DimensionType: DENSE (false) or SPARSE_CSR
  int32_t dense_size = 0;
  // SparseIndexVector arrays, widened to int32; the element type they were
  // stored with (1 Int32Vector, 2 Uint16Vector, 3 Uint8Vector, 0 absent).
  uint8_t segments_type = 0, indices_type = 0;
  std::vector<int32_t> array_segments, array_indices;
};

struct Sparsity {
  std::vector<int32_t> traversal_order;
  std::vector<int32_t> block_map;
  std::vector<DimensionMetadata> dim_metadata;
};

struct Tensor {
  std::string name;
  DataType type = DataType::kFloat32;
  std::vector<int32_t> shape;
  std::vector<int32_t> shape_signature;  // empty: same as shape (static)
  uint32_t buffer = 0;                   // 0: no constant data
  std::optional<Quantization> quantization;
  bool is_variable = false;
  std::optional<Sparsity> sparsity;
  bool has_rank = false;
  std::vector<OpaqueTable> variant_tensors;  // VariantSubType tables
  uint32_t external_buffer = 0;

  // -1 dims (from shape_signature) are dynamic.
  bool HasDynamicDims() const;
  // Product of `shape`; nullopt if it overflows int64 or has a negative dim.
  std::optional<int64_t> NumElements() const;
};

struct Operator {
  OpKind kind = OpKind::kOtherBuiltin;
  int32_t builtin_code = 0;  // resolved from builtin_code / deprecated code
  std::string custom_code;   // for CUSTOM (and carried for others)
  int32_t version = 1;
  std::vector<int32_t> inputs, outputs, intermediates;
  Options options;       // builtin_options
  OpaqueTable options2;  // builtin_options_2 (StableHLO ops)
  std::vector<uint8_t> custom_options;
  int8_t custom_options_format = 0;  // FLEXBUFFERS
  std::vector<bool> mutating_variable_inputs;
  int32_t debug_metadata_index = -1;
  // Where the opcode came from, so a write keeps the file's op-code table
  // order. Not meaningful after a pass adds ops.
  int32_t source_opcode_index = -1;
  // The code was read from deprecated_builtin_code (an old file).
  int8_t deprecated_builtin_code = 0;

  // "CONV_2D", or the custom code for custom ops.
  std::string DisplayName() const;
};

struct Subgraph {
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<int32_t> inputs, outputs;
  std::vector<Operator> operators;
  int32_t debug_metadata_index = -1;
};

struct Buffer {
  Bytes data;
  // The file stored this buffer after the flatbuffer (offset/size), or
  // wrote an explicit offset=0/size=0 pair. Informational only: the writer
  // decides the layout itself.
  bool was_external = false;
};

struct Metadata {
  std::string name;
  uint32_t buffer = 0;
};

struct TensorMap {
  std::string name;
  uint32_t tensor_index = 0;
};

struct SignatureDef {
  std::string key;
  uint32_t subgraph_index = 0;
  std::vector<TensorMap> inputs, outputs;
};

struct OperatorCodeEntry {
  int8_t deprecated_builtin_code = 0;
  int32_t builtin_code = 0;
  std::string custom_code;
  int32_t version = 1;
};

struct Model {
  uint32_t version = 3;
  std::string description;
  std::vector<Subgraph> subgraphs;
  std::vector<Buffer> buffers;
  std::vector<int32_t> metadata_buffer;  // deprecated list of buffer indices
  std::vector<Metadata> metadata;
  std::vector<SignatureDef> signature_defs;
  // The op-code table as read: the writer emits its entries first, in order,
  // so that a copy keeps opcode indices.
  std::vector<OperatorCodeEntry> operator_codes;
  // Model-level tables the IR does not model (ExternalBufferGroup,
  // ExternalBuffer); carried through.
  std::vector<OpaqueTable> external_buffer_groups, external_buffers;
};

}  // namespace qforge::ir

#endif  // QFORGE_IR_MODEL_H_
