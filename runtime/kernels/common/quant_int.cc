// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/common/quant_int.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "numerics/xnnpack_arithmetic.h"

namespace qforge::runtime::integer {
namespace {

// TFLite's PortableSymmetricQuantizeFloats.
void SymmetricQuantize(const float* x, int64_t n, int8_t* q, float* scale) {
  float lo = 0, hi = 0;
  if (n > 0) {
    const auto mm = std::minmax_element(x, x + n);
    lo = *mm.first;
    hi = *mm.second;
  }
  const float range = std::max(std::abs(lo), std::abs(hi));
  if (range == 0) {
    std::fill(q, q + n, 0);
    *scale = 1;
    return;
  }
  *scale = range / 127;
  const float inv = 127 / range;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(std::round(x[i] * inv));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-127, v)));
  }
}

// TFLite's PortableAsymmetricQuantizeFloats.
void AsymmetricQuantize(const float* x, int64_t n, int8_t* q, float* scale,
                        int32_t* offset) {
  const double qmin = -128, qmax = 127;
  float lo = 0, hi = 0;
  if (n > 0) {
    const auto mm = std::minmax_element(x, x + n);
    lo = *mm.first;
    hi = *mm.second;
  }
  const double rmin = static_cast<double>(std::min(0.0f, lo));
  const double rmax = static_cast<double>(std::max(0.0f, hi));
  if (rmin == rmax) {
    std::fill(q, q + n, 0);
    *scale = 1;
    *offset = 0;
    return;
  }
  const double s = (rmax - rmin) / (qmax - qmin);
  const double zp_from_min = qmin - rmin / s;
  const double zp_from_max = qmax - rmax / s;
  const double err_min = std::abs(qmin) + std::abs(rmin / s);
  const double err_max = std::abs(qmax) + std::abs(rmax / s);
  const double zp = err_min < err_max ? zp_from_min : zp_from_max;
  int8_t nudged = 0;
  if (zp <= qmin) {
    nudged = -128;
  } else if (zp >= qmax) {
    nudged = 127;
  } else {
    nudged = static_cast<int8_t>(std::round(zp));
  }
  *scale = static_cast<float>(s);
  *offset = nudged;
  const float inv = 1.0f / *scale;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(
        std::round(static_cast<float>(*offset) + UnfusedMul(x[i], inv)));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
  }
}

}  // namespace

bool IsActivationType(ir::DataType type) {
  return type == ir::DataType::kInt8 || type == ir::DataType::kUInt8 ||
         type == ir::DataType::kInt16;
}

int32_t TypeMin(ir::DataType type) {
  switch (type) {
    case ir::DataType::kInt8:
      return std::numeric_limits<int8_t>::min();
    case ir::DataType::kUInt8:
      return 0;
    case ir::DataType::kInt16:
      return std::numeric_limits<int16_t>::min();
    default:
      return std::numeric_limits<int32_t>::min();
  }
}

int32_t TypeMax(ir::DataType type) {
  switch (type) {
    case ir::DataType::kInt8:
      return std::numeric_limits<int8_t>::max();
    case ir::DataType::kUInt8:
      return std::numeric_limits<uint8_t>::max();
    case ir::DataType::kInt16:
      return std::numeric_limits<int16_t>::max();
    default:
      return std::numeric_limits<int32_t>::max();
  }
}

absl::Status ReadQuant(const OpContext& ctx, const RtTensor& t,
                       absl::string_view role, QuantInfo* q,
                       bool require_zero_zp) {
  const auto& qz = t.ir->quantization;
  if (!qz.has_value() || qz->scale.empty()) {
    return ctx.Error(absl::StrCat(role, " '", t.name(), "' (",
                                  ir::DataTypeName(t.type),
                                  ") has no quantization scale"));
  }
  if (qz->scale.size() != 1) {
    return ctx.Error(absl::StrCat(role, " '", t.name(), "' has ",
                                  qz->scale.size(),
                                  " scales; this kernel takes one"));
  }
  const float scale = qz->scale[0];
  if (!(scale > 0.0f) || !std::isfinite(scale)) {
    return ctx.Error(absl::StrCat(role, " '", t.name(), "' has scale ", scale,
                                  "; it must be positive and finite"));
  }
  const int64_t zp = qz->zero_point.empty() ? 0 : qz->zero_point[0];
  if (zp < TypeMin(t.type) || zp > TypeMax(t.type)) {
    return ctx.Error(absl::StrCat(role, " '", t.name(), "' has zero point ", zp,
                                  ", outside the ", ir::DataTypeName(t.type),
                                  " range"));
  }
  if (require_zero_zp && zp != 0) {
    return ctx.Error(absl::StrCat(role, " '", t.name(), "' has zero point ", zp,
                                  "; ", ir::DataTypeName(t.type),
                                  " tensors of this op must have 0"));
  }
  q->scale = scale;
  q->zero_point = static_cast<int32_t>(zp);
  return absl::OkStatus();
}

absl::Status ReadWeightScales(const OpContext& ctx, const RtTensor& w,
                              absl::string_view role, int64_t channels,
                              int axis, std::vector<float>* scales) {
  const auto& qz = w.ir->quantization;
  if (!qz.has_value() || qz->scale.empty()) {
    return ctx.Error(
        absl::StrCat(role, " '", w.name(), "' has no quantization scale"));
  }
  if (qz->scale.size() != 1 &&
      static_cast<int64_t>(qz->scale.size()) != channels) {
    return ctx.Error(absl::StrCat(role, " '", w.name(), "' has ",
                                  qz->scale.size(), " scales for ", channels,
                                  " output channels"));
  }
  if (qz->scale.size() > 1 && qz->quantized_dimension != axis) {
    return ctx.Error(
        absl::StrCat(role, " '", w.name(), "' is quantized along axis ",
                     qz->quantized_dimension, "; expected axis ", axis));
  }
  for (float s : qz->scale) {
    if (!(s > 0.0f) || !std::isfinite(s)) {
      return ctx.Error(absl::StrCat(role, " '", w.name(), "' has scale ", s,
                                    "; scales must be positive and finite"));
    }
  }
  for (int64_t zp : qz->zero_point) {
    if (zp != 0) {
      return ctx.Error(absl::StrCat(role, " '", w.name(), "' has zero point ",
                                    zp, "; weights must be symmetric (0)"));
    }
  }
  scales->assign(qz->scale.begin(), qz->scale.end());
  return absl::OkStatus();
}

absl::Status CheckBias(const OpContext& ctx, const RtTensor* bias,
                       int64_t channels, bool allow_int64, float input_scale,
                       const std::vector<float>& weight_scales,
                       float output_scale) {
  if (bias == nullptr) return absl::OkStatus();
  const bool ok_type = bias->type == ir::DataType::kInt32 ||
                       (allow_int64 && bias->type == ir::DataType::kInt64);
  if (!ok_type) {
    return ctx.Unsupported(absl::StrCat(
        "bias '", bias->name(), "' is ", ir::DataTypeName(bias->type),
        "; this kernel takes ", allow_int64 ? "int32 or int64" : "int32"));
  }
  if (bias->NumElements() != channels) {
    return ctx.Error(absl::StrCat("bias '", bias->name(), "' has shape ",
                                  DimsString(bias->shape), "; expected ",
                                  channels, " elements"));
  }
  const auto& qz = bias->ir->quantization;
  if (!qz.has_value() || qz->scale.empty()) return absl::OkStatus();
  const size_t n = qz->scale.size();
  if (n != 1 && static_cast<int64_t>(n) != channels) {
    return ctx.Error(absl::StrCat("bias '", bias->name(), "' has ", n,
                                  " scales for ", channels, " channels"));
  }
  // A single bias scale with per-channel weights carries no per-channel
  // information; only like-for-like pairs are compared.
  if (n != weight_scales.size() && n != 1) return absl::OkStatus();
  if (n == 1 && weight_scales.size() > 1) return absl::OkStatus();
  for (size_t c = 0; c < n; ++c) {
    const double expected = static_cast<double>(input_scale) *
                            static_cast<double>(weight_scales[c]);
    const double diff = std::abs(expected - static_cast<double>(qz->scale[c]));
    if (diff / static_cast<double>(output_scale) > 0.02) {
      return ctx.Error(absl::StrCat(
          "bias '", bias->name(), "' channel ", c, " has scale ", qz->scale[c],
          "; expected input_scale * weight_scale = ", expected));
    }
  }
  return absl::OkStatus();
}

std::vector<float> XnnpackChannelScales(const OpContext& ctx, bool is_int16,
                                        float input_scale,
                                        const std::vector<float>& weight_scales,
                                        float output_scale, int64_t channels) {
  if (is_int16 || ctx.arithmetic() != numerics::Arithmetic::kXnnpack) return {};
  std::vector<float> scales(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    const float ws = weight_scales.size() == 1
                         ? weight_scales[0]
                         : weight_scales[static_cast<size_t>(c)];
    if (!numerics::XnnpackRequantizationScale(
            input_scale, ws, output_scale, &scales[static_cast<size_t>(c)])) {
      return {};
    }
  }
  return scales;
}

int32_t QuantizeReal(float x, const QuantInfo& q) {
  return q.zero_point + static_cast<int32_t>(std::round(x / q.scale));
}

absl::Status ActivationRange(const OpContext& ctx, ir::Activation act,
                             ir::DataType out_type, const QuantInfo& out,
                             int32_t* act_min, int32_t* act_max) {
  const int32_t qmin = TypeMin(out_type);
  const int32_t qmax = TypeMax(out_type);
  auto quantize = [&](float x, int32_t* q) -> absl::Status {
    const float r = std::round(x / out.scale);
    if (std::isnan(r)) {
      return ctx.Error(absl::StrCat("fused activation bound ", x,
                                    " is NaN at output scale ", out.scale));
    }
    // A bound beyond int32 saturates, as XNNPACK's float clamp does; the
    // forms where TFLite's own kernels would wrap instead are refused
    // before this runs (runtime/legality.cc, ActivationBoundsFit).
    constexpr float kLimit = 1073741824.0f;  // 2^30: zp + r stays in int32
    *q = out.zero_point +
         static_cast<int32_t>(std::max(-kLimit, std::min(kLimit, r)));
    return absl::OkStatus();
  };
  int32_t lo = 0, hi = 0;
  switch (act) {
    case ir::Activation::kNone:
      *act_min = qmin;
      *act_max = qmax;
      return absl::OkStatus();
    case ir::Activation::kRelu: {
      absl::Status s = quantize(0.0f, &lo);
      if (!s.ok()) return s;
      *act_min = std::max(qmin, lo);
      *act_max = qmax;
      return absl::OkStatus();
    }
    case ir::Activation::kRelu6: {
      absl::Status s = quantize(0.0f, &lo);
      if (s.ok()) s = quantize(6.0f, &hi);
      if (!s.ok()) return s;
      *act_min = std::max(qmin, lo);
      *act_max = std::min(qmax, hi);
      return absl::OkStatus();
    }
    case ir::Activation::kReluN1To1: {
      absl::Status s = quantize(-1.0f, &lo);
      if (s.ok()) s = quantize(1.0f, &hi);
      if (!s.ok()) return s;
      *act_min = std::max(qmin, lo);
      *act_max = std::min(qmax, hi);
      return absl::OkStatus();
    }
    case ir::Activation::kTanh:
    case ir::Activation::kSignBit:
      break;
  }
  return ctx.Unsupported(absl::StrCat(
      "fused activation ", static_cast<int>(act), " on a quantized output"));
}

absl::Status PlanBroadcast2(const OpContext& ctx, const Dims& a, const Dims& b,
                            BroadcastPlan* plan, Dims* out) {
  RETURN_IF_ERROR(BroadcastShapes(ctx, a, b, out));
  if (out->size() > 6) {
    return ctx.Unsupported(
        absl::StrCat("broadcast of rank ", out->size(), " (at most 6)"));
  }
  const Dims* shapes[2] = {&a, &b};
  return MakeBroadcastPlan(ctx, shapes, *out, plan);
}

void ScratchSlots::Resize(int slots, size_t bytes) {
  if (slots != slots_) {
    buffers_.assign(static_cast<size_t>(slots), {});
    busy_ = std::make_unique<std::atomic<bool>[]>(static_cast<size_t>(slots));
    for (int i = 0; i < slots; ++i) busy_[static_cast<size_t>(i)] = false;
    slots_ = slots;
  }
  for (auto& b : buffers_) b.resize(std::max<size_t>(bytes, 1));
}

int ScratchSlots::Acquire() {
  for (;;) {
    for (int i = 0; i < slots_; ++i) {
      bool expected = false;
      if (busy_[static_cast<size_t>(i)].compare_exchange_strong(expected,
                                                                true)) {
        return i;
      }
    }
    std::this_thread::yield();
  }
}

absl::Status ReadWeightedQuant(const OpContext& ctx, const RtTensor& in,
                               const RtTensor& out, ir::Activation act,
                               QuantInfo* qi, QuantInfo* qo, WeightedQuant* q) {
  const bool is_int16 = in.type == ir::DataType::kInt16;
  RETURN_IF_ERROR(ReadQuant(ctx, in, "input", qi, is_int16));
  RETURN_IF_ERROR(ReadQuant(ctx, out, "output", qo, is_int16));
  q->input_offset = -qi->zero_point;
  q->output_offset = qo->zero_point;
  return ActivationRange(ctx, act, out.type, *qo, &q->act_min, &q->act_max);
}

absl::Status RequireActivation(const OpContext& ctx, int i,
                               const RtTensor** t) {
  const RtTensor* in = ctx.input(i);
  if (in == nullptr) return ctx.Error(absl::StrCat("input ", i, " is missing"));
  if (!IsActivationType(in->type)) {
    return ctx.Unsupported(absl::StrCat("input ", i, " '", in->name(), "' is ",
                                        ir::DataTypeName(in->type),
                                        "; expected int8, uint8 or int16"));
  }
  *t = in;
  return absl::OkStatus();
}

absl::Status RequireWeightedInOut(OpContext& ctx, absl::string_view role,
                                  const RtTensor** in, const RtTensor** w,
                                  const RtTensor** bias, RtTensor** out) {
  RETURN_IF_ERROR(RequireActivationInOut(ctx, in, out));
  RETURN_IF_ERROR(RequireWeights(ctx, (*in)->type, role, w));
  *bias = ctx.input(2);
  return absl::OkStatus();
}

absl::Status RequireBinaryInOut(OpContext& ctx, const RtTensor** a,
                                const RtTensor** b, RtTensor** out) {
  RETURN_IF_ERROR(RequireActivation(ctx, 0, a));
  RETURN_IF_ERROR(RequireActivation(ctx, 1, b));
  *out = ctx.output(0);
  return absl::OkStatus();
}

absl::Status RequireActivationInOut(OpContext& ctx, const RtTensor** in,
                                    RtTensor** out) {
  RETURN_IF_ERROR(RequireActivation(ctx, 0, in));
  *out = ctx.output(0);
  if ((*out)->type != (*in)->type) {
    return ctx.Unsupported(
        absl::StrCat("input '", (*in)->name(), "' is ",
                     ir::DataTypeName((*in)->type), " but output '",
                     (*out)->name(), "' is ", ir::DataTypeName((*out)->type)));
  }
  return absl::OkStatus();
}

absl::Status RequireConstant(const OpContext& ctx, int i,
                             absl::string_view role, const RtTensor** t) {
  const RtTensor* in = ctx.input(i);
  if (in == nullptr) {
    return ctx.Error(absl::StrCat(role, " (input ", i, ") is missing"));
  }
  if (!ctx.InputValueKnown(i)) {
    return ctx.Unsupported(
        absl::StrCat(role, " '", in->name(), "' is not a constant"));
  }
  *t = in;
  return absl::OkStatus();
}

absl::Status RequireWeights(const OpContext& ctx, ir::DataType activations,
                            absl::string_view role, const RtTensor** w) {
  RETURN_IF_ERROR(RequireConstant(ctx, 1, role, w));
  const ir::DataType want = activations == ir::DataType::kUInt8
                                ? ir::DataType::kUInt8
                                : ir::DataType::kInt8;
  if ((*w)->type != want) {
    return ctx.Unsupported(absl::StrCat(
        role, " '", (*w)->name(), "' is ", ir::DataTypeName((*w)->type),
        " with ", ir::DataTypeName(activations), " activations; expected ",
        ir::DataTypeName(want)));
  }
  return absl::OkStatus();
}

void QuantizeHybridInput(const float* x, int64_t n, bool asymmetric, int8_t* q,
                         float* scale, int32_t* offset) {
  if (asymmetric) {
    AsymmetricQuantize(x, n, q, scale, offset);
  } else {
    SymmetricQuantize(x, n, q, scale);
    *offset = 0;
  }
}

}  // namespace qforge::runtime::integer
