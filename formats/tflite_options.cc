// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "formats/tflite_options.h"

#include <utility>
#include <variant>

#include "formats/tflite_reader.h"

namespace qforge::formats {
namespace {

using tflite::BuiltinOptions;

ir::Padding Pad(tflite::Padding p) { return static_cast<ir::Padding>(p); }
tflite::Padding Pad(ir::Padding p) { return static_cast<tflite::Padding>(p); }
ir::Activation Act(tflite::ActivationFunctionType a) {
  return static_cast<ir::Activation>(a);
}
tflite::ActivationFunctionType Act(ir::Activation a) {
  return static_cast<tflite::ActivationFunctionType>(a);
}
ir::DataType Type(tflite::TensorType t) { return static_cast<ir::DataType>(t); }
tflite::TensorType Type(ir::DataType t) {
  return static_cast<tflite::TensorType>(t);
}

template <typename T>
const T& As(const tflite::BuiltinOptionsUnion& u) {
  return *static_cast<const T*>(u.value);
}

// Wraps a typed object-API table into a union.
template <typename T>
tflite::BuiltinOptionsUnion Union(T&& table) {
  tflite::BuiltinOptionsUnion u;
  u.Set(std::forward<T>(table));
  return u;
}

}  // namespace

ir::Options DecodeBuiltinOptions(const tflite::BuiltinOptionsUnion& u) {
  if (u.type == tflite::BuiltinOptions_NONE) return std::monostate{};
  if (u.value == nullptr) return PackOpaque(u);
  switch (u.type) {
    case BuiltinOptions::BuiltinOptions_Conv2DOptions: {
      const auto& o = As<tflite::Conv2DOptionsT>(u);
      return ir::Conv2DOptions{Pad(o.padding),
                               o.stride_w,
                               o.stride_h,
                               Act(o.fused_activation_function),
                               o.dilation_w_factor,
                               o.dilation_h_factor,
                               Type(o.quantized_bias_type)};
    }
    case BuiltinOptions::BuiltinOptions_DepthwiseConv2DOptions: {
      const auto& o = As<tflite::DepthwiseConv2DOptionsT>(u);
      return ir::DepthwiseConv2DOptions{Pad(o.padding),
                                        o.stride_w,
                                        o.stride_h,
                                        o.depth_multiplier,
                                        Act(o.fused_activation_function),
                                        o.dilation_w_factor,
                                        o.dilation_h_factor};
    }
    case BuiltinOptions::BuiltinOptions_FullyConnectedOptions: {
      const auto& o = As<tflite::FullyConnectedOptionsT>(u);
      return ir::FullyConnectedOptions{
          Act(o.fused_activation_function),
          static_cast<int8_t>(o.weights_format), o.keep_num_dims,
          o.asymmetric_quantize_inputs, Type(o.quantized_bias_type)};
    }
    case BuiltinOptions::BuiltinOptions_Pool2DOptions: {
      const auto& o = As<tflite::Pool2DOptionsT>(u);
      return ir::Pool2DOptions{
          Pad(o.padding), o.stride_w,      o.stride_h,
          o.filter_width, o.filter_height, Act(o.fused_activation_function)};
    }
    case BuiltinOptions::BuiltinOptions_AddOptions: {
      const auto& o = As<tflite::AddOptionsT>(u);
      return ir::AddSubOptions{Act(o.fused_activation_function),
                               o.pot_scale_int16, false};
    }
    case BuiltinOptions::BuiltinOptions_SubOptions: {
      const auto& o = As<tflite::SubOptionsT>(u);
      return ir::AddSubOptions{Act(o.fused_activation_function),
                               o.pot_scale_int16, true};
    }
    case BuiltinOptions::BuiltinOptions_MulOptions:
      return ir::ActivationOptions{
          Act(As<tflite::MulOptionsT>(u).fused_activation_function),
          ir::ActivationOptions::Table::kMul};
    case BuiltinOptions::BuiltinOptions_DivOptions:
      return ir::ActivationOptions{
          Act(As<tflite::DivOptionsT>(u).fused_activation_function),
          ir::ActivationOptions::Table::kDiv};
    case BuiltinOptions::BuiltinOptions_L2NormOptions:
      return ir::ActivationOptions{
          Act(As<tflite::L2NormOptionsT>(u).fused_activation_function),
          ir::ActivationOptions::Table::kL2Norm};
    case BuiltinOptions::BuiltinOptions_ConcatenationOptions: {
      const auto& o = As<tflite::ConcatenationOptionsT>(u);
      return ir::ConcatenationOptions{o.axis, Act(o.fused_activation_function)};
    }
    case BuiltinOptions::BuiltinOptions_ReshapeOptions:
      return ir::ReshapeOptions{As<tflite::ReshapeOptionsT>(u).new_shape};
    case BuiltinOptions::BuiltinOptions_SoftmaxOptions:
      return ir::SoftmaxOptions{As<tflite::SoftmaxOptionsT>(u).beta};
    case BuiltinOptions::BuiltinOptions_ReducerOptions:
      return ir::ReducerOptions{As<tflite::ReducerOptionsT>(u).keep_dims};
    case BuiltinOptions::BuiltinOptions_StridedSliceOptions: {
      const auto& o = As<tflite::StridedSliceOptionsT>(u);
      return ir::StridedSliceOptions{o.begin_mask,       o.end_mask,
                                     o.ellipsis_mask,    o.new_axis_mask,
                                     o.shrink_axis_mask, o.offset};
    }
    case BuiltinOptions::BuiltinOptions_GatherOptions: {
      const auto& o = As<tflite::GatherOptionsT>(u);
      return ir::GatherOptions{o.axis, o.batch_dims};
    }
    case BuiltinOptions::BuiltinOptions_ResizeBilinearOptions: {
      const auto& o = As<tflite::ResizeBilinearOptionsT>(u);
      return ir::ResizeOptions{o.align_corners, o.half_pixel_centers, false};
    }
    case BuiltinOptions::BuiltinOptions_ResizeNearestNeighborOptions: {
      const auto& o = As<tflite::ResizeNearestNeighborOptionsT>(u);
      return ir::ResizeOptions{o.align_corners, o.half_pixel_centers, true};
    }
    case BuiltinOptions::BuiltinOptions_CastOptions: {
      const auto& o = As<tflite::CastOptionsT>(u);
      return ir::CastOptions{Type(o.in_data_type), Type(o.out_data_type)};
    }
    case BuiltinOptions::BuiltinOptions_BatchMatMulOptions: {
      const auto& o = As<tflite::BatchMatMulOptionsT>(u);
      return ir::BatchMatMulOptions{o.adj_x, o.adj_y,
                                    o.asymmetric_quantize_inputs};
    }
    case BuiltinOptions::BuiltinOptions_PackOptions: {
      const auto& o = As<tflite::PackOptionsT>(u);
      return ir::PackOptions{o.values_count, o.axis};
    }
    case BuiltinOptions::BuiltinOptions_UnpackOptions: {
      const auto& o = As<tflite::UnpackOptionsT>(u);
      return ir::UnpackOptions{o.num, o.axis};
    }
    case BuiltinOptions::BuiltinOptions_TransposeConvOptions: {
      const auto& o = As<tflite::TransposeConvOptionsT>(u);
      return ir::TransposeConvOptions{Pad(o.padding), o.stride_w, o.stride_h,
                                      Act(o.fused_activation_function),
                                      Type(o.quantized_bias_type)};
    }
    case BuiltinOptions::BuiltinOptions_LeakyReluOptions:
      return ir::LeakyReluOptions{As<tflite::LeakyReluOptionsT>(u).alpha};
    case BuiltinOptions::BuiltinOptions_SqueezeOptions:
      return ir::SqueezeOptions{As<tflite::SqueezeOptionsT>(u).squeeze_dims};
    case BuiltinOptions::BuiltinOptions_DepthToSpaceOptions:
      return ir::BlockSizeOptions{
          As<tflite::DepthToSpaceOptionsT>(u).block_size, false};
    case BuiltinOptions::BuiltinOptions_SpaceToDepthOptions:
      return ir::BlockSizeOptions{
          As<tflite::SpaceToDepthOptionsT>(u).block_size, true};
    case BuiltinOptions::BuiltinOptions_ArgMaxOptions:
      return ir::OutputTypeOptions{
          Type(As<tflite::ArgMaxOptionsT>(u).output_type),
          ir::OutputTypeOptions::Table::kArgMax};
    case BuiltinOptions::BuiltinOptions_ArgMinOptions:
      return ir::OutputTypeOptions{
          Type(As<tflite::ArgMinOptionsT>(u).output_type),
          ir::OutputTypeOptions::Table::kArgMin};
    case BuiltinOptions::BuiltinOptions_ShapeOptions:
      return ir::OutputTypeOptions{Type(As<tflite::ShapeOptionsT>(u).out_type),
                                   ir::OutputTypeOptions::Table::kShape};
    case BuiltinOptions::BuiltinOptions_SplitOptions:
      return ir::SplitOptions{As<tflite::SplitOptionsT>(u).num_splits, false};
    case BuiltinOptions::BuiltinOptions_SplitVOptions:
      return ir::SplitOptions{As<tflite::SplitVOptionsT>(u).num_splits, true};
    case BuiltinOptions::BuiltinOptions_UnidirectionalSequenceLSTMOptions: {
      const auto& o = As<tflite::UnidirectionalSequenceLSTMOptionsT>(u);
      return ir::SequenceLstmOptions{Act(o.fused_activation_function),
                                     o.cell_clip,
                                     o.proj_clip,
                                     o.time_major,
                                     o.asymmetric_quantize_inputs,
                                     o.diagonal_recurrent_tensors};
    }
    case BuiltinOptions::BuiltinOptions_LSTMOptions: {
      const auto& o = As<tflite::LSTMOptionsT>(u);
      return ir::LstmOptions{Act(o.fused_activation_function), o.cell_clip,
                             o.proj_clip, static_cast<int8_t>(o.kernel_type),
                             o.asymmetric_quantize_inputs};
    }
    case BuiltinOptions::BuiltinOptions_SVDFOptions: {
      const auto& o = As<tflite::SVDFOptionsT>(u);
      return ir::SvdfOptions{o.rank, Act(o.fused_activation_function),
                             o.asymmetric_quantize_inputs};
    }
    case BuiltinOptions::BuiltinOptions_Conv3DOptions: {
      const auto& o = As<tflite::Conv3DOptionsT>(u);
      return ir::Conv3DOptions{Pad(o.padding),
                               o.stride_d,
                               o.stride_w,
                               o.stride_h,
                               Act(o.fused_activation_function),
                               o.dilation_d_factor,
                               o.dilation_w_factor,
                               o.dilation_h_factor};
    }
    case BuiltinOptions::BuiltinOptions_MirrorPadOptions:
      return ir::MirrorPadOptions{
          static_cast<int8_t>(As<tflite::MirrorPadOptionsT>(u).mode)};
    case BuiltinOptions::BuiltinOptions_GeluOptions:
      return ir::GeluOptions{As<tflite::GeluOptionsT>(u).approximate};
    case BuiltinOptions::BuiltinOptions_WhileOptions: {
      const auto& o = As<tflite::WhileOptionsT>(u);
      return ir::WhileOptions{o.cond_subgraph_index, o.body_subgraph_index};
    }
    case BuiltinOptions::BuiltinOptions_IfOptions: {
      const auto& o = As<tflite::IfOptionsT>(u);
      return ir::IfOptions{o.then_subgraph_index, o.else_subgraph_index};
    }
    case BuiltinOptions::BuiltinOptions_CallOnceOptions:
      return ir::CallOnceOptions{
          As<tflite::CallOnceOptionsT>(u).init_subgraph_index};
    case BuiltinOptions::BuiltinOptions_VarHandleOptions: {
      const auto& o = As<tflite::VarHandleOptionsT>(u);
      return ir::VarHandleOptions{o.container, o.shared_name};
    }
    default:
      // Every other table is carried as it came.
      return PackOpaque(u);
  }
}

namespace {

struct Encoder {
  tflite::BuiltinOptionsUnion operator()(std::monostate) const { return {}; }
  tflite::BuiltinOptionsUnion operator()(const ir::OpaqueTable& t) const {
    return UnpackOpaque<tflite::BuiltinOptionsUnion, tflite::BuiltinOptions>(t);
  }
  tflite::BuiltinOptionsUnion operator()(const ir::Conv2DOptions& o) const {
    tflite::Conv2DOptionsT t;
    t.padding = Pad(o.padding);
    t.stride_w = o.stride_w;
    t.stride_h = o.stride_h;
    t.fused_activation_function = Act(o.activation);
    t.dilation_w_factor = o.dilation_w;
    t.dilation_h_factor = o.dilation_h;
    t.quantized_bias_type = Type(o.quantized_bias_type);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::DepthwiseConv2DOptions& o) const {
    tflite::DepthwiseConv2DOptionsT t;
    t.padding = Pad(o.padding);
    t.stride_w = o.stride_w;
    t.stride_h = o.stride_h;
    t.depth_multiplier = o.depth_multiplier;
    t.fused_activation_function = Act(o.activation);
    t.dilation_w_factor = o.dilation_w;
    t.dilation_h_factor = o.dilation_h;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::FullyConnectedOptions& o) const {
    tflite::FullyConnectedOptionsT t;
    t.fused_activation_function = Act(o.activation);
    t.weights_format = static_cast<tflite::FullyConnectedOptionsWeightsFormat>(
        o.weights_format);
    t.keep_num_dims = o.keep_num_dims;
    t.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
    t.quantized_bias_type = Type(o.quantized_bias_type);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::Pool2DOptions& o) const {
    tflite::Pool2DOptionsT t;
    t.padding = Pad(o.padding);
    t.stride_w = o.stride_w;
    t.stride_h = o.stride_h;
    t.filter_width = o.filter_width;
    t.filter_height = o.filter_height;
    t.fused_activation_function = Act(o.activation);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::AddSubOptions& o) const {
    if (o.is_sub) {
      tflite::SubOptionsT t;
      t.fused_activation_function = Act(o.activation);
      t.pot_scale_int16 = o.pot_scale_int16;
      return Union(std::move(t));
    }
    tflite::AddOptionsT t;
    t.fused_activation_function = Act(o.activation);
    t.pot_scale_int16 = o.pot_scale_int16;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::ActivationOptions& o) const {
    switch (o.table) {
      case ir::ActivationOptions::Table::kMul: {
        tflite::MulOptionsT t;
        t.fused_activation_function = Act(o.activation);
        return Union(std::move(t));
      }
      case ir::ActivationOptions::Table::kDiv: {
        tflite::DivOptionsT t;
        t.fused_activation_function = Act(o.activation);
        return Union(std::move(t));
      }
      case ir::ActivationOptions::Table::kL2Norm: {
        tflite::L2NormOptionsT t;
        t.fused_activation_function = Act(o.activation);
        return Union(std::move(t));
      }
    }
    return {};
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::ConcatenationOptions& o) const {
    tflite::ConcatenationOptionsT t;
    t.axis = o.axis;
    t.fused_activation_function = Act(o.activation);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::ReshapeOptions& o) const {
    tflite::ReshapeOptionsT t;
    t.new_shape = o.new_shape;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::SoftmaxOptions& o) const {
    tflite::SoftmaxOptionsT t;
    t.beta = o.beta;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::ReducerOptions& o) const {
    tflite::ReducerOptionsT t;
    t.keep_dims = o.keep_dims;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::StridedSliceOptions& o) const {
    tflite::StridedSliceOptionsT t;
    t.begin_mask = o.begin_mask;
    t.end_mask = o.end_mask;
    t.ellipsis_mask = o.ellipsis_mask;
    t.new_axis_mask = o.new_axis_mask;
    t.shrink_axis_mask = o.shrink_axis_mask;
    t.offset = o.offset;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::GatherOptions& o) const {
    tflite::GatherOptionsT t;
    t.axis = o.axis;
    t.batch_dims = o.batch_dims;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::ResizeOptions& o) const {
    if (o.is_nearest) {
      tflite::ResizeNearestNeighborOptionsT t;
      t.align_corners = o.align_corners;
      t.half_pixel_centers = o.half_pixel_centers;
      return Union(std::move(t));
    }
    tflite::ResizeBilinearOptionsT t;
    t.align_corners = o.align_corners;
    t.half_pixel_centers = o.half_pixel_centers;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::CastOptions& o) const {
    tflite::CastOptionsT t;
    t.in_data_type = Type(o.in_data_type);
    t.out_data_type = Type(o.out_data_type);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::BatchMatMulOptions& o) const {
    tflite::BatchMatMulOptionsT t;
    t.adj_x = o.adj_x;
    t.adj_y = o.adj_y;
    t.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::PackOptions& o) const {
    tflite::PackOptionsT t;
    t.values_count = o.values_count;
    t.axis = o.axis;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::UnpackOptions& o) const {
    tflite::UnpackOptionsT t;
    t.num = o.num;
    t.axis = o.axis;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::TransposeConvOptions& o) const {
    tflite::TransposeConvOptionsT t;
    t.padding = Pad(o.padding);
    t.stride_w = o.stride_w;
    t.stride_h = o.stride_h;
    t.fused_activation_function = Act(o.activation);
    t.quantized_bias_type = Type(o.quantized_bias_type);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::LeakyReluOptions& o) const {
    tflite::LeakyReluOptionsT t;
    t.alpha = o.alpha;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::SqueezeOptions& o) const {
    tflite::SqueezeOptionsT t;
    t.squeeze_dims = o.squeeze_dims;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::BlockSizeOptions& o) const {
    if (o.is_space_to_depth) {
      tflite::SpaceToDepthOptionsT t;
      t.block_size = o.block_size;
      return Union(std::move(t));
    }
    tflite::DepthToSpaceOptionsT t;
    t.block_size = o.block_size;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::OutputTypeOptions& o) const {
    switch (o.table) {
      case ir::OutputTypeOptions::Table::kArgMax: {
        tflite::ArgMaxOptionsT t;
        t.output_type = Type(o.output_type);
        return Union(std::move(t));
      }
      case ir::OutputTypeOptions::Table::kArgMin: {
        tflite::ArgMinOptionsT t;
        t.output_type = Type(o.output_type);
        return Union(std::move(t));
      }
      case ir::OutputTypeOptions::Table::kShape: {
        tflite::ShapeOptionsT t;
        t.out_type = Type(o.output_type);
        return Union(std::move(t));
      }
    }
    return {};
  }
  tflite::BuiltinOptionsUnion operator()(const ir::SplitOptions& o) const {
    if (o.is_split_v) {
      tflite::SplitVOptionsT t;
      t.num_splits = o.num_splits;
      return Union(std::move(t));
    }
    tflite::SplitOptionsT t;
    t.num_splits = o.num_splits;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(
      const ir::SequenceLstmOptions& o) const {
    tflite::UnidirectionalSequenceLSTMOptionsT t;
    t.fused_activation_function = Act(o.activation);
    t.cell_clip = o.cell_clip;
    t.proj_clip = o.proj_clip;
    t.time_major = o.time_major;
    t.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
    t.diagonal_recurrent_tensors = o.diagonal_recurrent_tensors;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::LstmOptions& o) const {
    tflite::LSTMOptionsT t;
    t.fused_activation_function = Act(o.activation);
    t.cell_clip = o.cell_clip;
    t.proj_clip = o.proj_clip;
    t.kernel_type = static_cast<tflite::LSTMKernelType>(o.kernel_type);
    t.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::SvdfOptions& o) const {
    tflite::SVDFOptionsT t;
    t.rank = o.rank;
    t.fused_activation_function = Act(o.activation);
    t.asymmetric_quantize_inputs = o.asymmetric_quantize_inputs;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::Conv3DOptions& o) const {
    tflite::Conv3DOptionsT t;
    t.padding = Pad(o.padding);
    t.stride_d = o.stride_d;
    t.stride_w = o.stride_w;
    t.stride_h = o.stride_h;
    t.fused_activation_function = Act(o.activation);
    t.dilation_d_factor = o.dilation_d;
    t.dilation_w_factor = o.dilation_w;
    t.dilation_h_factor = o.dilation_h;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::MirrorPadOptions& o) const {
    tflite::MirrorPadOptionsT t;
    t.mode = static_cast<tflite::MirrorPadMode>(o.mode);
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::GeluOptions& o) const {
    tflite::GeluOptionsT t;
    t.approximate = o.approximate;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::WhileOptions& o) const {
    tflite::WhileOptionsT t;
    t.cond_subgraph_index = o.cond_subgraph;
    t.body_subgraph_index = o.body_subgraph;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::IfOptions& o) const {
    tflite::IfOptionsT t;
    t.then_subgraph_index = o.then_subgraph;
    t.else_subgraph_index = o.else_subgraph;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::CallOnceOptions& o) const {
    tflite::CallOnceOptionsT t;
    t.init_subgraph_index = o.init_subgraph;
    return Union(std::move(t));
  }
  tflite::BuiltinOptionsUnion operator()(const ir::VarHandleOptions& o) const {
    tflite::VarHandleOptionsT t;
    t.container = o.container;
    t.shared_name = o.shared_name;
    return Union(std::move(t));
  }
};

}  // namespace

tflite::BuiltinOptionsUnion EncodeBuiltinOptions(const ir::Options& options) {
  return std::visit(Encoder{}, options);
}

tflite::BuiltinOptions OptionsType(const ir::Options& options) {
  if (const auto* opaque = std::get_if<ir::OpaqueTable>(&options)) {
    return static_cast<tflite::BuiltinOptions>(opaque->type);
  }
  return EncodeBuiltinOptions(options).type;
}

tflite::BuiltinOptions ExpectedOptionsType(ir::OpKind kind) {
  constexpr tflite::BuiltinOptions kNONE = tflite::BuiltinOptions_NONE;
  switch (kind) {
#define QF_OP(kind, name, code, opts, ...) \
  case ir::OpKind::k##kind:                \
    return tflite::BuiltinOptions_##opts;
#include "ir/ops.def"
#undef QF_OP
    case ir::OpKind::kOtherBuiltin:
    case ir::OpKind::kCustom:
      return kNONE;
  }
  return kNONE;
}

ir::Options OptionsOrDefaults(const ir::Operator& op) {
  if (!std::holds_alternative<std::monostate>(op.options)) return op.options;
  const tflite::BuiltinOptions type = ExpectedOptionsType(op.kind);
  if (type == tflite::BuiltinOptions_NONE) return op.options;
  // The table with no field set: every field at its schema default.
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(
      flatbuffers::Offset<flatbuffers::Table>(fbb.EndTable(fbb.StartTable())));
  ir::OpaqueTable empty;
  empty.type = static_cast<uint8_t>(type);
  empty.bytes.assign(fbb.GetBufferPointer(),
                     fbb.GetBufferPointer() + fbb.GetSize());
  return DecodeBuiltinOptions(
      UnpackOpaque<tflite::BuiltinOptionsUnion, tflite::BuiltinOptions>(empty));
}

}  // namespace qforge::formats
