// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Builtin op options. The options the project's kernels and quantizer read
// are typed structs mirroring TFLite's option tables field for field (same
// defaults), so a read-write round trip loses nothing. Every other options
// table is carried opaquely (OpaqueTable) and written back byte-equivalent.
#ifndef QFORGE_IR_OPTIONS_H_
#define QFORGE_IR_OPTIONS_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "ir/types.h"

namespace qforge::ir {

// A table of the wire format the IR does not model: the union tag it had and
// a standalone flatbuffer whose root is that table. Empty bytes = no table.
struct OpaqueTable {
  uint8_t type = 0;
  std::vector<uint8_t> bytes;
  bool operator==(const OpaqueTable& o) const {
    return type == o.type && bytes == o.bytes;
  }
};

enum class Padding : int8_t { kSame = 0, kValid = 1 };
enum class Activation : int8_t {
  kNone = 0,
  kRelu = 1,
  kReluN1To1 = 2,
  kRelu6 = 3,
  kTanh = 4,
  kSignBit = 5,
};

struct Conv2DOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  Activation activation = Activation::kNone;
  int32_t dilation_w = 1, dilation_h = 1;
  DataType quantized_bias_type = DataType::kFloat32;
};
struct DepthwiseConv2DOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t depth_multiplier = 0;
  Activation activation = Activation::kNone;
  int32_t dilation_w = 1, dilation_h = 1;
};
struct FullyConnectedOptions {
  Activation activation = Activation::kNone;
  int8_t weights_format = 0;  // 0 DEFAULT, 1 SHUFFLED4x16INT8
  bool keep_num_dims = false;
  bool asymmetric_quantize_inputs = false;
  DataType quantized_bias_type = DataType::kFloat32;
};
struct Pool2DOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t filter_width = 0, filter_height = 0;
  Activation activation = Activation::kNone;
};
// ADD and SUB (same fields).
struct AddSubOptions {
  Activation activation = Activation::kNone;
  bool pot_scale_int16 = true;
  bool is_sub = false;  // which table: SubOptions or AddOptions
};
// MUL, DIV, L2_NORMALIZATION: only a fused activation.
struct ActivationOptions {
  enum class Table : uint8_t { kMul, kDiv, kL2Norm };
  Activation activation = Activation::kNone;
  Table table = Table::kMul;
};
struct ConcatenationOptions {
  int32_t axis = 0;
  Activation activation = Activation::kNone;
};
struct ReshapeOptions {
  std::vector<int32_t> new_shape;
};
struct SoftmaxOptions {
  float beta = 0.0f;
};
struct ReducerOptions {
  bool keep_dims = false;
};
struct StridedSliceOptions {
  int32_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0,
          shrink_axis_mask = 0;
  bool offset = false;
};
struct GatherOptions {
  int32_t axis = 0;
  int32_t batch_dims = 0;
};
// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR.
struct ResizeOptions {
  bool align_corners = false;
  bool half_pixel_centers = false;
  bool is_nearest = false;  // which table
};
struct CastOptions {
  DataType in_data_type = DataType::kFloat32;
  DataType out_data_type = DataType::kFloat32;
};
struct BatchMatMulOptions {
  bool adj_x = false, adj_y = false;
  bool asymmetric_quantize_inputs = false;
};
struct PackOptions {
  int32_t values_count = 0;
  int32_t axis = 0;
};
struct UnpackOptions {
  int32_t num = 0;
  int32_t axis = 0;
};
struct TransposeConvOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  Activation activation = Activation::kNone;
  DataType quantized_bias_type = DataType::kFloat32;
};
struct LeakyReluOptions {
  float alpha = 0.0f;
};
struct SqueezeOptions {
  std::vector<int32_t> squeeze_dims;
};
// DEPTH_TO_SPACE and SPACE_TO_DEPTH.
struct BlockSizeOptions {
  int32_t block_size = 0;
  bool is_space_to_depth = false;  // which table
};
// ARG_MAX, ARG_MIN, SHAPE: an output type.
struct OutputTypeOptions {
  enum class Table : uint8_t { kArgMax, kArgMin, kShape };
  DataType output_type = DataType::kFloat32;
  Table table = Table::kArgMax;
};
// SPLIT and SPLIT_V.
struct SplitOptions {
  int32_t num_splits = 0;
  bool is_split_v = false;  // which table
};
struct SequenceLstmOptions {
  Activation activation = Activation::kNone;
  float cell_clip = 0.0f, proj_clip = 0.0f;
  bool time_major = false;
  bool asymmetric_quantize_inputs = false;
  bool diagonal_recurrent_tensors = false;
};
// LSTM (the op without a time axis). kernel_type: 0 FULL, 1 BASIC.
struct LstmOptions {
  Activation activation = Activation::kNone;
  float cell_clip = 0.0f, proj_clip = 0.0f;
  int8_t kernel_type = 0;
  bool asymmetric_quantize_inputs = false;
};
// SVDF: rank of the filter factorization, activation of the output.
struct SvdfOptions {
  int32_t rank = 0;
  Activation activation = Activation::kNone;
  bool asymmetric_quantize_inputs = false;
};
// CONV_3D (and CONV_3D_TRANSPOSE, which shares the table).
struct Conv3DOptions {
  Padding padding = Padding::kSame;
  int32_t stride_d = 0, stride_w = 0, stride_h = 0;
  Activation activation = Activation::kNone;
  int32_t dilation_d = 1, dilation_w = 1, dilation_h = 1;
};
struct MirrorPadOptions {
  int8_t mode = 0;  // 0 REFLECT, 1 SYMMETRIC
};
struct GeluOptions {
  bool approximate = false;
};
// Control flow: subgraph indices.
struct WhileOptions {
  int32_t cond_subgraph = 0, body_subgraph = 0;
};
struct IfOptions {
  int32_t then_subgraph = 0, else_subgraph = 0;
};
struct CallOnceOptions {
  int32_t init_subgraph = 0;
};
// Resource variables are identified by (container, shared_name).
struct VarHandleOptions {
  std::string container;
  std::string shared_name;
};

using Options = std::variant<
    std::monostate, OpaqueTable, Conv2DOptions, DepthwiseConv2DOptions,
    FullyConnectedOptions, Pool2DOptions, AddSubOptions, ActivationOptions,
    ConcatenationOptions, ReshapeOptions, SoftmaxOptions, ReducerOptions,
    StridedSliceOptions, GatherOptions, ResizeOptions, CastOptions,
    BatchMatMulOptions, PackOptions, UnpackOptions, TransposeConvOptions,
    LeakyReluOptions, SqueezeOptions, BlockSizeOptions, OutputTypeOptions,
    SplitOptions, SequenceLstmOptions, MirrorPadOptions, GeluOptions,
    WhileOptions, IfOptions, CallOnceOptions, VarHandleOptions, LstmOptions,
    Conv3DOptions, SvdfOptions>;

// The options of type T, or T's defaults when the op carries none (TFLite
// does the same). Returns defaults too when the op carries another type; the
// validator rejects such models before any kernel runs.
template <typename T>
T OptionsOr(const Options& options) {
  if (const T* typed = std::get_if<T>(&options)) return *typed;
  return T{};
}

}  // namespace qforge::ir

#endif  // QFORGE_IR_OPTIONS_H_
