// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Hybrid FULLY_CONNECTED (TFLite's EvalHybridDense, portable path): float
// input quantized per batch row to int8, symmetric (scale = max|x| / 127)
// or, with asymmetric_quantize_inputs, asymmetric with a zero point; int32
// dot products with the int8 weights (the input zero point removed through
// the weights' row sums), then output = bias + dot * (input_scale *
// weight_scale) in float, then the fused activation. Blockwise weights
// (int4 with float16 scales per block of the input axis, XNNPACK's qd8 x
// qb4w kernel) take one int32 dot product per block, each scaled by its
// block's scale and summed in float.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/block_scales.h"
#include "runtime/kernels/common/quant_int.h"
#include "runtime/kernels/conv/conv.h"
#include "runtime/kernels/kernel_functions.h"

namespace qforge::runtime {
namespace {

using conv_internal::FcOutputShape;
using conv_internal::FcShape;
using conv_internal::kFcUnitsPerTask;

struct HybridFcState : KernelState {
  FcShape shape;
  bool asymmetric = false;
  ir::Activation act = ir::Activation::kNone;
  std::vector<float> channel_scales;  // per unit, or empty (per tensor)
  float tensor_scale = 1.0f;
  std::vector<int32_t> weight_row_sums;
  // Blockwise: weights per block, the scales and the weight sums per
  // (unit, block); block 0 otherwise.
  int64_t block = 0;
  std::vector<float> block_scales;
  std::vector<int32_t> block_sums;
  // Per-run buffers, sized in prepare.
  std::vector<int8_t> quantized;  // batch x depth
  std::vector<float> scaling;     // per batch
  std::vector<int32_t> offsets;   // per batch
};

float ApplyFloatActivation(ir::Activation act, float v) {
  switch (act) {
    case ir::Activation::kNone:
      return v;
    case ir::Activation::kRelu:
      return std::max(0.0f, v);
    case ir::Activation::kReluN1To1:
      return std::max(-1.0f, std::min(1.0f, v));
    case ir::Activation::kRelu6:
      return std::max(0.0f, std::min(6.0f, v));
    case ir::Activation::kTanh:
      return std::tanh(v);
    case ir::Activation::kSignBit:
      return std::signbit(v) ? 1.0f : 0.0f;
  }
  return v;
}

}  // namespace

absl::Status PrepareHybridFullyConnected(OpContext& ctx) {
  RETURN_IF_ERROR(ExpectType(ctx, 0, ir::DataType::kFloat32));
  const RtTensor* in = ctx.input(0);
  const RtTensor* w = nullptr;
  RETURN_IF_ERROR(integer::RequireConstant(ctx, 1, "weights", &w));
  if (w->type != ir::DataType::kInt8) {
    return ctx.Unsupported(absl::StrCat("hybrid weights '", w->name(), "' are ",
                                        ir::DataTypeName(w->type),
                                        "; expected int8"));
  }
  const RtTensor* bias = ctx.input(2);
  if (bias != nullptr && bias->type != ir::DataType::kFloat32) {
    return ctx.Unsupported(absl::StrCat("hybrid bias '", bias->name(), "' is ",
                                        ir::DataTypeName(bias->type),
                                        "; expected float32"));
  }
  if (ctx.output(0)->type != ir::DataType::kFloat32) {
    return ctx.Unsupported("hybrid FULLY_CONNECTED output must be float32");
  }
  auto state = std::make_unique<HybridFcState>();
  HybridFcState& s = *state;
  RETURN_IF_ERROR(FcOutputShape(ctx, *in, *w, &s.shape));
  if (bias != nullptr && bias->NumElements() != s.shape.units) {
    return ctx.Error(absl::StrCat("bias '", bias->name(), "' has shape ",
                                  DimsString(bias->shape), "; expected ",
                                  s.shape.units, " elements"));
  }
  const auto o = ir::OptionsOr<ir::FullyConnectedOptions>(ctx.op().options);
  s.asymmetric = o.asymmetric_quantize_inputs;
  s.act = o.activation;
  std::vector<float> scales;
  const bool blockwise =
      w->ir->quantization.has_value() && w->ir->quantization->IsBlockwise();
  if (blockwise) {
    integer::RowScales rs;
    RETURN_IF_ERROR(integer::ReadRowScales(ctx, *w, "weights", s.shape.units,
                                           s.shape.depth, &rs));
    s.block = rs.block;
    s.block_scales = std::move(rs.scales);
    // XNNPACK converts the float16 block scales to bfloat16 (round to
    // nearest even) before its qd8 x qb4w kernels use them.
    for (float& v : s.block_scales) {
      uint32_t b;
      std::memcpy(&b, &v, 4);
      b = (b + 0x7fffu + ((b >> 16) & 1u)) & 0xffff0000u;
      std::memcpy(&v, &b, 4);
    }
    const int64_t blocks = s.shape.depth / s.block;
    s.block_sums.assign(static_cast<size_t>(s.shape.units * blocks), 0);
    const int8_t* wd = w->Data<int8_t>();
    for (int64_t u = 0; u < s.shape.units; ++u) {
      for (int64_t i = 0; i < s.shape.depth; ++i) {
        s.block_sums[static_cast<size_t>(u * blocks + i / s.block)] +=
            wd[u * s.shape.depth + i];
      }
    }
    scales.push_back(1.0f);
  } else {
    RETURN_IF_ERROR(integer::ReadWeightScales(ctx, *w, "weights", s.shape.units,
                                              0, &scales));
  }
  if (scales.size() > 1) {
    s.channel_scales = scales;
  } else {
    s.tensor_scale = scales[0];
  }
  s.weight_row_sums.assign(static_cast<size_t>(s.shape.units), 0);
  const int8_t* wd = w->Data<int8_t>();
  for (int64_t u = 0; u < s.shape.units; ++u) {
    int32_t sum = 0;
    for (int64_t i = 0; i < s.shape.depth; ++i)
      sum += wd[u * s.shape.depth + i];
    s.weight_row_sums[static_cast<size_t>(u)] = sum;
  }
  s.quantized.assign(static_cast<size_t>(s.shape.batch * s.shape.depth), 0);
  s.scaling.assign(static_cast<size_t>(s.shape.batch), 1.0f);
  s.offsets.assign(static_cast<size_t>(s.shape.batch), 0);
  ctx.set_state(std::move(state));
  return absl::OkStatus();
}

absl::Status EvalHybridFullyConnected(OpContext& ctx) {
  HybridFcState& s = *ctx.state<HybridFcState>();
  const int64_t batch = s.shape.batch, depth = s.shape.depth,
                units = s.shape.units;
  if (batch * units == 0) return absl::OkStatus();
  const float* x = ctx.input(0)->Data<float>();
  // Per-batch input quantization (each row independent).
  for (int64_t b = 0; b < batch; ++b) {
    int8_t* q = s.quantized.data() + b * depth;
    float* sf = &s.scaling[static_cast<size_t>(b)];
    integer::QuantizeHybridInput(x + b * depth, depth, s.asymmetric, q, sf,
                                 &s.offsets[static_cast<size_t>(b)]);
    if (s.channel_scales.empty()) *sf *= s.tensor_scale;
  }
  const auto io =
      integer::GetWeightedTensors<float, int8_t, float>(ctx, 0, 1, 2);
  const int64_t unit_tasks = (units + kFcUnitsPerTask - 1) / kFcUnitsPerTask;
  ctx.pool().ParallelFor(batch * unit_tasks, [&](int64_t t) {
    const int64_t b = t / unit_tasks;
    const int64_t u0 = (t % unit_tasks) * kFcUnitsPerTask;
    const int64_t u1 = std::min(s.shape.units, u0 + kFcUnitsPerTask);
    const int64_t d = s.shape.depth;
    const int8_t* q = s.quantized.data() + b * d;
    const float batch_scale = s.scaling[static_cast<size_t>(b)];
    const int32_t offset = s.offsets[static_cast<size_t>(b)];
    if (s.block > 0) {
      const int64_t blocks = d / s.block;
      for (int64_t u = u0; u < u1; ++u) {
        const int8_t* w = io.w + u * d;
        float acc = 0.0f;
        for (int64_t k = 0; k < blocks; ++k) {
          int32_t dot = 0;
          for (int64_t i = k * s.block; i < (k + 1) * s.block; ++i) {
            dot += static_cast<int32_t>(w[i]) * static_cast<int32_t>(q[i]);
          }
          const size_t at = static_cast<size_t>(u * blocks + k);
          dot -= s.block_sums[at] * offset;
          acc += static_cast<float>(dot) * s.block_scales[at];
        }
        float v = io.bias != nullptr ? io.bias[u] : 0.0f;
        v += integer::UnfusedMul(acc, batch_scale);
        io.y[b * s.shape.units + u] = ApplyFloatActivation(s.act, v);
      }
      return;
    }
    for (int64_t u = u0; u < u1; ++u) {
      const int8_t* w = io.w + u * d;
      int32_t dot = 0;
      for (int64_t i = 0; i < d; ++i) {
        dot += static_cast<int32_t>(w[i]) * static_cast<int32_t>(q[i]);
      }
      dot -= s.weight_row_sums[static_cast<size_t>(u)] * offset;
      float scale = batch_scale;
      if (!s.channel_scales.empty()) {
        scale *= s.channel_scales[static_cast<size_t>(u)];
      }
      float v = io.bias != nullptr ? io.bias[u] : 0.0f;
      v += integer::UnfusedMul(static_cast<float>(dot), scale);
      io.y[b * s.shape.units + u] = ApplyFloatActivation(s.act, v);
    }
  });
  return absl::OkStatus();
}

}  // namespace qforge::runtime
