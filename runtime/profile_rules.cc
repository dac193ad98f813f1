// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLM citations are tflite-micro @90b983c2 (the kernels of
// ../shared/tools/tflm); Arm NN citations are Debian 12's armnn 20.08-12
// source (TP: src/armnnTfLiteParser/TfLiteParser.cpp, RLS:
// src/backends/reference/RefLayerSupport.cpp, WD:
// src/backends/backendsCommon/WorkloadData.cpp).
#include "runtime/profile_rules.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/op_kind.h"

namespace qforge::runtime::profile_rules {
namespace {

using legality::Findings;
using legality::OpForm;
using legality::TensorForm;

bool IsInt16(const TensorForm* t) {
  return t != nullptr && t->type == ir::DataType::kInt16;
}

bool IntegerWeights(const TensorForm* w) {
  return w != nullptr &&
         (w->type == ir::DataType::kInt8 || w->type == ir::DataType::kInt4);
}

// The operands of a weighted op (the WEIGHTS trait): the bias follows the
// weights; the activation is input 0, or, for TRANSPOSE_CONV (whose input
// 0 is the output shape), input 2.
struct Gemm {
  ir::WeightLayout layout;
  const TensorForm* input;
  const TensorForm* weights;
  const TensorForm* bias;
};

Gemm GemmOf(const OpForm& op) {
  const ir::OpInfo& info = ir::GetOpInfo(op.kind);
  const size_t w = static_cast<size_t>(std::max(info.weight_input, 0));
  const bool transpose = info.weight_layout == ir::WeightLayout::kTransposeConv;
  return {info.weight_layout, op.in(transpose ? 2 : 0), op.in(w),
          op.in(transpose ? 3 : w + 1)};
}

}  // namespace

void TflmGemmRules(Findings& f) {
  const OpForm& op = f.form();
  const Gemm g = GemmOf(op);
  if (g.input == nullptr || g.weights == nullptr) return;
  if (g.input->type == ir::DataType::kFloat32 && IntegerWeights(g.weights)) {
    f.Refused(
        "float activations with integer weights: TFLite Micro has no hybrid "
        "kernels (conv_common.cc, fully_connected_common.cc)");
    return;
  }
  const bool per_channel = g.weights->scales.size() > 1;
  if (g.weights->type == ir::DataType::kInt4) {
    if (g.layout == ir::WeightLayout::kTransposeConv) {
      f.Refused("int4 weights: TFLite Micro's TRANSPOSE_CONV has none");
    } else if (g.layout == ir::WeightLayout::kFullyConnected && per_channel) {
      f.Refused(
          "per-channel int4 weights: TFLite Micro's FULLY_CONNECTED takes "
          "int4 per tensor only (fully_connected_common.cc:99)");
    }
  }
  const bool depthwise_like = g.layout == ir::WeightLayout::kDepthwise ||
                              g.layout == ir::WeightLayout::kTransposeConv;
  if (IsInt16(g.input) && depthwise_like && g.bias != nullptr &&
      g.bias->type == ir::DataType::kInt32) {
    f.Refused(absl::StrCat(
        "int32 bias with int16 activations: TFLite Micro's ", op.op_name,
        " reads an int64 bias (reference/integer_ops/depthwise_conv.h)"));
  }
  if (g.layout == ir::WeightLayout::kDepthwise && g.input->quantized() &&
      g.bias == nullptr) {
    f.Refused(
        "quantized DEPTHWISE_CONV_2D without a bias: TFLite Micro's "
        "reference kernel checks the bias size (TFLITE_DCHECK_EQ)");
  }
}

void TflmDivRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* a = op.in(0);
  const TensorForm* b = op.in(1);
  if (a != nullptr && b != nullptr && a->type == ir::DataType::kInt8 &&
      a->shape != b->shape) {
    f.Refused("broadcasting int8 DIV: TFLite Micro's kernel aborts (div.cc)");
  }
}

void TflmQuantizeRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* in = op.in(0);
  const TensorForm* out = op.out(0);
  if (in == nullptr || out == nullptr) return;
  if (out->type == ir::DataType::kUInt8 && in->type != ir::DataType::kInt8) {
    f.Refused(absl::StrCat("QUANTIZE ", ir::DataTypeName(in->type),
                           " -> uint8: TFLite Micro converts uint8 to and "
                           "from int8 only (quantize_common.cc)"));
  }
}

void TflmDequantizeRules(Findings& f) {
  const TensorForm* in = f.form().in(0);
  if (in != nullptr && in->scales.size() > 1) {
    f.Unreliable(
        "per-channel DEQUANTIZE: TFLite Micro reads only the first scale "
        "(dequantize.cc)");
  }
}

void ArmnnFullyConnectedRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* w = op.in(1);
  if (w != nullptr && w->quantized() && w->scales.size() > 1) {
    f.Refused(
        "per-channel FULLY_CONNECTED weights: Arm NN 20.08 aborts on them "
        "with a bias and refuses them without (LayerSupportRules.hpp:33 via "
        "RLS:974-978); --runtime armnn writes them per tensor");
  }
  const ir::FullyConnectedOptions* o =
      std::get_if<ir::FullyConnectedOptions>(&op.options);
  const TensorForm* in = op.in(0);
  if (o != nullptr && o->keep_num_dims && in != nullptr &&
      in->shape.size() > 2) {
    f.Refused("keep_num_dims with an input of rank above 2 (TP:2430)");
  }
}

void ArmnnTransposeConvRules(Findings& f) {
  if (f.form().in(3) != nullptr) {
    f.Refused(
        "a TRANSPOSE_CONV bias input: Arm NN's parser takes 3 inputs "
        "(TP:1187)");
  }
}

void ArmnnDequantizeRules(Findings& f) {
  const TensorForm* in = f.form().in(0);
  if (in != nullptr && in->scales.size() > 1) {
    f.Refused("per-channel DEQUANTIZE input (RLS:692-696)");
  }
}

void ArmnnSameParamsRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* out = op.out(0);
  if (out == nullptr || !out->quantized()) return;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const TensorForm* in = op.in(i);
    if (in != nullptr && in->quantized() &&
        (in->scales != out->scales || in->zero_points != out->zero_points)) {
      f.Refused(absl::StrCat(op.op_name,
                             " with inputs and output quantized differently "
                             "(TP:1367-1370)"));
      return;
    }
  }
}

void ArmnnPackRules(Findings& f) {
  const OpForm& op = f.form();
  const ir::PackOptions* o = std::get_if<ir::PackOptions>(&op.options);
  const TensorForm* out = op.out(0);
  if (o != nullptr && o->axis == 0 && out != nullptr && out->quantized()) {
    f.Refused(
        "quantized PACK on axis 0: CpuRef writes out of bounds "
        "(RefStackWorkload.cpp:26-42)");
  }
}

void ArmnnPadRules(Findings& f) {
  const TensorForm* out = f.form().out(0);
  if (out != nullptr && out->quantized() && out->zero_point() != 0) {
    f.Unreliable("quantized PAD with zero point " +
                 std::to_string(out->zero_point()) +
                 ": CpuRef pads with a raw 0 (Pad.cpp:73-79)");
  }
}

}  // namespace qforge::runtime::profile_rules
