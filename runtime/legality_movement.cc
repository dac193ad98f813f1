// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Rules of pooling, concatenation, data movement, QUANTIZE and DEQUANTIZE.
// XNNPACK's data-movement operators copy bytes, so xnn_define_* requires the
// output to carry the input's scale and zero point exactly (TRANSPOSE,
// SLICE, STRIDED_SLICE, PAD, SPACE_TO_DEPTH, DEPTH_TO_SPACE, RESIZE_BILINEAR,
// SPLIT, CONCATENATION, MAX_POOL_2D); TFLite's EXPAND_DIMS, PACK, UNPACK and
// CONCATENATION check the same in Prepare.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "runtime/legality_rules.h"

namespace qforge::runtime::legality {
namespace {

bool SameParams(const TensorForm& a, const TensorForm& b) {
  return a.scale() == b.scale() && a.zero_point() == b.zero_point();
}

void RequireSameParams(Findings& f, const TensorForm& in, const TensorForm& out,
                       const char* source) {
  if (!SameParams(in, out)) {
    f.Refused(absl::StrCat(
        "output '", out.name, "' (scale ", Num(out.scale()), ", zero point ",
        out.zero_point(), ") must have input '", in.name, "''s (",
        Num(in.scale()), ", ", in.zero_point(), "); ", source));
  }
}

}  // namespace

void AveragePoolRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* out = op.out(0);
  if (out == nullptr || !out->integer()) return;
  // pooling.cc evaluates the fused activation's bounds in Eval and ignores
  // the failure: the clamp is then garbage.
  const auto o = ir::OptionsOr<ir::Pool2DOptions>(op.options);
  if (!ActivationBoundsFit(o.activation, out->scale())) {
    f.Unreliable(absl::StrCat(
        "the fused activation's bounds divided by the output scale ",
        Num(out->scale()), " leave int32 (pooling.cc)"));
  }
}

void MaxPoolRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* in = op.in(0);
  const TensorForm* out = op.out(0);
  if (in == nullptr || out == nullptr || !out->integer()) return;
  const auto o = ir::OptionsOr<ir::Pool2DOptions>(op.options);
  // The delegate takes int8 max pooling unless a stride exceeds the filter
  // (CheckPoolingParams); a filter larger than 1x1 becomes
  // xnn_define_max_pooling_2d, which needs equal parameters.
  const bool delegated = !IsInt16(*out) && o.stride_h <= o.filter_height &&
                         o.stride_w <= o.filter_width && o.stride_h > 0 &&
                         o.stride_w > 0 &&
                         !(o.filter_height == 1 && o.filter_width == 1);
  if (delegated) {
    RequireSameParams(f, *in, *out, "XNNPACK xnn_define_max_pooling_2d");
  } else if (!ActivationBoundsFit(o.activation, out->scale())) {
    f.Unreliable(absl::StrCat(
        "the fused activation's bounds divided by the output scale ",
        Num(out->scale()), " leave int32 (pooling.cc)"));
  }
}

void ConcatenationRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* out = op.out(0);
  if (out == nullptr || !out->integer()) return;
  // int8: XNNPACK (2 to 5 inputs, xnn_define_concatenate) and TFLite
  // (concatenation.cc Prepare) both need every input at the output's
  // parameters. int16 TFLite takes any scales (zero points are 0); uint8
  // runs TFLite's ConcatenationWithScaling (XNNPACK declines it).
  if (IsInt16(*out) || out->type == ir::DataType::kUInt8) return;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const TensorForm* in = op.in(i);
    if (in != nullptr && in->integer()) {
      RequireSameParams(f, *in, *out, "concatenation.cc / XNNPACK");
    }
  }
}

namespace {

// Every output of a data-movement op at the parameters of its data input
// `data` (XNNPACK's byte-copy operators, TFLite's Prepare).
void OutputsAtInputParams(Findings& f, size_t data) {
  const OpForm& op = f.form();
  const TensorForm* in = op.in(data);
  if (in == nullptr || !in->integer()) return;
  const char* source = "XNNPACK's byte-copy operators / TFLite Prepare";
  for (const TensorForm& out : op.outputs) {
    if (out.integer()) RequireSameParams(f, *in, out, source);
  }
}

}  // namespace

// Ops whose output must carry input 0's parameters: data movement that
// XNNPACK or TFLite's Prepare implements as a byte copy.
void SameParamsRules(Findings& f) { OutputsAtInputParams(f, 0); }

// SPLIT: input 0 is the axis, input 1 the data.
void SplitRules(Findings& f) { OutputsAtInputParams(f, 1); }

// PACK: and every other input at the output's parameters too.
void PackRules(Findings& f) {
  OutputsAtInputParams(f, 0);
  const OpForm& op = f.form();
  const TensorForm* in = op.in(0);
  if (in == nullptr || !in->integer()) return;
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    const TensorForm* other = op.in(i);
    if (other != nullptr && other->integer() && op.out(0) != nullptr) {
      RequireSameParams(f, *other, *op.out(0), "pack.cc Prepare");
    }
  }
}

// SPACE_TO_DEPTH, DEPTH_TO_SPACE: int8 moves bytes; TFLite has no int16
// kernel (space_to_depth.cc / depth_to_space.cc Prepare).
void Int8OnlyRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* out = op.out(0);
  if (out != nullptr && IsInt16(*out)) {
    f.Refused("no int16 kernel in TFLite");
    return;
  }
  SameParamsRules(f);
}

// MATRIX_SET_DIAG: TFLite's kernel (matrix_set_diag.cc FillDiagImpl) copies
// the input's and the diagonal's raw values into the output, int8 and int16
// alike, and its Prepare checks neither parameters nor the diagonal's type:
// LiteRT runs any form, but only one where both inputs carry the output's
// type, scale and zero point computes the op.
void MatrixSetDiagRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* out = op.out(0);
  if (out == nullptr || !out->integer()) return;
  for (size_t i = 0; i < 2; ++i) {
    const TensorForm* in = op.in(i);
    if (in == nullptr) continue;
    if (in->type != out->type || !SameParams(*in, *out)) {
      f.Unreliable(absl::StrCat(
          i == 0 ? "input '" : "diagonal '", in->name, "' (",
          ir::DataTypeName(in->type), ", scale ", Num(in->scale()),
          ", zero point ", in->zero_point(),
          ") is copied unconverted into output '", out->name, "' (",
          ir::DataTypeName(out->type), ", ", Num(out->scale()), ", ",
          out->zero_point(), ") (matrix_set_diag.cc)"));
    }
  }
}

void QuantizeRules(Findings& f) {
  const OpForm& op = f.form();
  const TensorForm* in = op.in(0);
  const TensorForm* out = op.out(0);
  if (in == nullptr || out == nullptr || !out->integer()) return;
  if (!in->integer()) return;  // float -> integer: the tensor rules cover it
  if (IsInt16(*in) && IsInt16(*out) &&
      (in->zero_point() != 0 || out->zero_point() != 0)) {
    f.Refused("int16 -> int16 QUANTIZE requires zero points 0 (quantize.cc)");
  }
  // Requantization: TFLite's quantize.cc multiplies (x - zi) by
  // input / output scale in fixed point; from 2^23 up, (x - zi) << shift
  // leaves int32 and wraps (XNNPACK takes only ratios in [2^-8, 2^7]).
  const double ratio = static_cast<double>(in->scale()) / out->scale();
  const int max_shift = IsInt16(*in) ? 15 : 23;
  if (MultiplierShift(ratio) > max_shift) {
    f.Unreliable(absl::StrCat("requantization ratio ", Num(ratio), " is 2^",
                              max_shift,
                              " or more: TFLite's fixed-point rescale wraps"));
  }
}

}  // namespace qforge::runtime::legality
