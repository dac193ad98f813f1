// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Rules of the GEMM-like ops: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
// TRANSPOSE_CONV, BATCH_MATMUL. In int8, LiteRT's XNNPACK delegate takes
// them when weights and bias are well-formed constants (xnnpack_delegate.cc
// Visit*Node); XNNPACK then refuses a requantization scale
// input_scale * weight_scale / output_scale of 256 or more, computed in
// float (convolution-nhwc.c, fully-connected-nc.c, deconvolution-nhwc.c:
// "requantization scale ... is greater or equal to 256.0"), which fails the
// whole model. Otherwise TFLite's kernels run them in double arithmetic
// (kernel_util.cc PopulateConvolutionQuantizationParams). int16x8 forms
// always run in TFLite's kernels.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "runtime/legality_rules.h"

namespace qforge::runtime::legality {
namespace {

bool Normal(const TensorForm& t) {
  return std::all_of(t.scales.begin(), t.scales.end(), IsNormalScale);
}

bool AllZero(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t z) { return z == 0; });
}

int64_t Product(const std::vector<int32_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to && i < shape.size(); ++i) n *= shape[i];
  return n;
}

struct Gemm {
  const TensorForm* input = nullptr;
  const TensorForm* weights = nullptr;
  const TensorForm* bias = nullptr;
  const TensorForm* output = nullptr;
  int weight_axis = 0;    // output channels of per-channel weights
  int64_t reduction = 0;  // products summed into one accumulator
  ir::Activation activation = ir::Activation::kNone;
};

// XNNPACK's requantization scale per output channel, as
// init_requantization_scale computes it: float product, float quotient.
float RequantScale(const Gemm& g, size_t c) {
  const float sw = g.weights->scales[std::min(c, g.weights->scales.size() - 1)];
  const float product = g.input->scale() * sw;
  return product / g.output->scale();
}

// The rules every GEMM-like int8/int16 form shares, given whether LiteRT's
// XNNPACK delegate takes the int8 node.
void GemmRules(Findings& f, const Gemm& g, bool delegated) {
  const bool int16 = IsInt16(*g.output);
  const size_t channels = g.weights->scales.size();
  float worst = 0.0f;
  size_t worst_c = 0;
  for (size_t c = 0; c < channels; ++c) {
    const float r = RequantScale(g, c);
    if (!(r <= worst)) {  // also takes a NaN
      worst = r;
      worst_c = c;
    }
  }
  if (!int16 && delegated && !(worst < 256.0f)) {
    f.Refused(absl::StrCat(
        "requantization scale input x weight / output = ", Num(worst),
        " (channel ", worst_c, ") is 256 or more; XNNPACK refuses it (",
        "init_requantization_scale) and the model fails "
        "to load"));
  } else if (!(worst < 256.0f)) {
    f.Unreliable(absl::StrCat(
        "requantization scale input x weight / output = ", Num(worst),
        " (channel ", worst_c,
        ") is 256 or more: every non-zero accumulator saturates, and "
        "TFLite's fixed-point multiply wraps"));
  }
  // An accumulator times a multiplier >= 1 that leaves int32: TFLite's
  // MultiplyByQuantizedMultiplier wraps it, XNNPACK saturates it.
  if (g.bias != nullptr && !g.bias->int_data.empty() && g.reduction > 0) {
    const int64_t products =
        g.reduction * (int16 ? 32768 : 256) * 128;  // |x - zp| * |w|
    for (size_t c = 0; c < g.bias->int_data.size(); ++c) {
      const double r = RequantScale(g, c);
      if (r < 1.0) continue;
      const double bound =
          (static_cast<double>(std::llabs(g.bias->int_data[c])) + products) * r;
      if (bound >= 2147483648.0) {
        f.Unreliable(absl::StrCat(
            "channel ", c, ": bias ", g.bias->int_data[c],
            " plus the products, times the requantization scale ", Num(r),
            ", can leave int32 (TFLite wraps, XNNPACK saturates)"));
        break;
      }
    }
  }
  if (int16 || !delegated) {
    ActivationBoundsRule(f, g.activation, g.output->scale());
  }
  if (g.bias != nullptr && !g.bias->quantized()) return;
  if (g.bias != nullptr && !AllZero(g.bias->zero_points)) {
    f.Refused(absl::StrCat("bias '", g.bias->name,
                           "' has a non-zero zero point (TFLite conv.cc)"));
  }
}

// XNNPACK's well-formed constant weights and bias (CheckTensorStaticAllocation,
// CheckTensorFloat32OrQCInt8Type, CheckTensorFloat32OrQCInt32Type).
bool ConstantsDelegable(const Gemm& g, int channel_axis) {
  if (!g.weights->constant || !Normal(*g.weights)) return false;
  if (g.weights->scales.size() > 1 && g.weights->axis != channel_axis) {
    return false;
  }
  if (g.bias != nullptr &&
      (!g.bias->constant || !Normal(*g.bias) || !AllZero(g.bias->zero_points)))
    return false;
  return true;
}

bool Complete(const Gemm& g) {
  return g.input != nullptr && g.weights != nullptr && g.output != nullptr &&
         g.input->integer() && g.weights->quantized() && g.output->integer() &&
         !g.weights->scales.empty();
}

}  // namespace

void ConvRules(Findings& f) {
  const OpForm& op = f.form();
  Gemm g{op.in(0), op.in(1), op.in(2), op.out(0)};
  if (!Complete(g)) return;
  const auto o = ir::OptionsOr<ir::Conv2DOptions>(op.options);
  g.activation = o.activation;
  g.reduction = Product(g.weights->shape, 1, 4);
  const bool delegated = !IsInt16(*g.output) && g.bias != nullptr &&
                         ConstantsDelegable(g, 0) &&
                         o.activation != ir::Activation::kTanh &&
                         o.activation != ir::Activation::kSignBit;
  GemmRules(f, g, delegated);
  // TFLite's conv.cc (not delegated) allocates an im2col temporary of
  // output pixels x filter taps x input channels for a filter larger than
  // 1x1; LiteRT's WebAssembly build fails to allocate one of 1 GiB or more
  // ("Failed to allocate tensors"; docs/legality.md).
  bool known = g.output->shape.size() == 4;
  for (int32_t d : g.output->shape) known &= d > 0;
  const int64_t pixels = known ? Product(g.output->shape, 0, 3) : 0;
  const int64_t taps = Product(g.weights->shape, 1, 3);
  if (!delegated && taps > 1 && pixels > 0) {
    const double bytes = static_cast<double>(pixels) *
                         static_cast<double>(g.reduction) *
                         (IsInt16(*g.input) ? 2.0 : 1.0);
    if (bytes >= 1073741824.0) {
      f.Refused(absl::StrCat("the im2col temporary takes ", Num(bytes),
                             " bytes (1 GiB or more): LiteRT fails to "
                             "allocate it (conv.cc)"));
    }
  }
  if (IsInt16(*g.output) && g.bias != nullptr &&
      g.bias->type == ir::DataType::kInt32 &&
      o.quantized_bias_type != ir::DataType::kInt32) {
    f.Unreliable(
        "int16x8 CONV_2D with an int32 bias and no "
        "quantized_bias_type saturates in LiteRT; use an int64 bias");
  }
}

void DepthwiseConvRules(Findings& f) {
  const OpForm& op = f.form();
  Gemm g{op.in(0), op.in(1), op.in(2), op.out(0)};
  if (!Complete(g)) return;
  const auto o = ir::OptionsOr<ir::DepthwiseConv2DOptions>(op.options);
  g.activation = o.activation;
  g.reduction = Product(g.weights->shape, 1, 3);
  const bool delegated = !IsInt16(*g.output) && g.bias != nullptr &&
                         ConstantsDelegable(g, 3) && o.depth_multiplier > 0 &&
                         o.activation != ir::Activation::kTanh &&
                         o.activation != ir::Activation::kSignBit;
  GemmRules(f, g, delegated);
  if (IsInt16(*g.output) &&
      (g.bias == nullptr || g.bias->type != ir::DataType::kInt64)) {
    f.Refused(
        "int16x8 DEPTHWISE_CONV_2D needs an int64 bias "
        "(depthwise_conv.cc Prepare)");
  }
}

void FullyConnectedRules(Findings& f) {
  const OpForm& op = f.form();
  Gemm g{op.in(0), op.in(1), op.in(2), op.out(0)};
  if (!Complete(g)) return;
  const auto o = ir::OptionsOr<ir::FullyConnectedOptions>(op.options);
  g.activation = o.activation;
  g.reduction = g.weights->shape.size() == 2 ? g.weights->shape[1] : 0;
  const bool per_channel = g.weights->scales.size() > 1;
  if (per_channel && !AllZero(g.weights->zero_points) && !IsInt16(*g.output)) {
    f.Refused(
        "per-channel weights with a non-zero zero point (XNNPACK "
        "rejects the tensor)");
  }
  const bool delegated = !IsInt16(*g.output) && o.weights_format == 0 &&
                         g.weights->shape.size() == 2 &&
                         ConstantsDelegable(g, 0) &&
                         (per_channel || AllZero(g.weights->zero_points));
  GemmRules(f, g, delegated);
  if (!per_channel && !delegated) {
    // TFLite's per-tensor path: GetQuantizedConvolutionMultipler
    // (kernel_util.cc) checks the bias scale against input x weight within
    // 2% of the output scale; the product is a float.
    const float product = g.input->scale() * g.weights->scale();
    if (g.bias != nullptr && g.bias->quantized()) {
      const double diff =
          std::fabs(static_cast<double>(product) - g.bias->scale());
      if (!(diff / g.output->scale() <= 0.02)) {
        f.Refused(absl::StrCat("bias scale ", Num(g.bias->scale()),
                               " differs from input x weight scale ",
                               Num(product),
                               " (TFLite GetQuantizedConvolutionMultipler)"));
      }
    } else if (std::isinf(product)) {
      f.Refused(
          "input x weight scale overflows float: TFLite's "
          "QuantizeMultiplier aborts");
    }
  }
}

void TransposeConvRules(Findings& f) {
  const OpForm& op = f.form();
  // Inputs: output shape, weights (OHWI), activation, optional bias.
  Gemm g{op.in(2), op.in(1), op.in(3), op.out(0)};
  if (!Complete(g)) return;
  const auto o = ir::OptionsOr<ir::TransposeConvOptions>(op.options);
  g.activation = o.activation;
  g.reduction = Product(g.weights->shape, 0, 3);
  const std::vector<int32_t>& w = g.weights->shape;
  // XNNPACK's delegate leaves SAME-padded kernels smaller than the stride
  // to TFLite (CalculateTransposeConvPaddings).
  const bool small_kernel = w.size() == 4 && o.padding == ir::Padding::kSame &&
                            (w[1] < o.stride_h || w[2] < o.stride_w);
  const bool delegated = !IsInt16(*g.output) && op.in(0) != nullptr &&
                         op.in(0)->constant && ConstantsDelegable(g, 0) &&
                         !small_kernel;
  GemmRules(f, g, delegated);
}

void BatchMatMulRules(Findings& f) {
  const OpForm& op = f.form();
  const Binary bin = IntegerBinary(op);
  if (!bin.ok()) return;
  const TensorForm *a = bin.a, *b = bin.b, *out = bin.out;
  // TFLite batch_matmul.cc: the product of the input scales is a float and
  // QuantizeMultiplier aborts on its overflow.
  const float product = a->scale() * b->scale();
  if (std::isinf(product)) {
    f.Refused(absl::StrCat("input scales ", Num(a->scale()), " x ",
                           Num(b->scale()),
                           " overflow float: TFLite's QuantizeMultiplier "
                           "aborts (batch_matmul.cc Prepare)"));
    return;
  }
  const float requant = product / out->scale();
  if (!(requant < 256.0f)) {
    f.Unreliable(absl::StrCat(
        "requantization scale ", Num(requant),
        " is 256 or more: XNNPACK returns zeros, TFLite's fixed-point "
        "multiply wraps"));
  }
}

}  // namespace qforge::runtime::legality
