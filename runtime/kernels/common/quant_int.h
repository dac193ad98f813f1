// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared machinery of the integer family (not part of the kernel
// interface): reading and validating quantization parameters, TFLite's
// fused-activation ranges, broadcasting index plans, and scratch slots for
// parallel tasks. (Window arithmetic: window.h.)
//
// Every integer kernel computes each output element independently with
// integer arithmetic (or a fixed float expression), so results never depend
// on how work is split; tasks still split only output elements, in chunks
// whose size depends on the problem alone.
#ifndef QFORGE_RUNTIME_KERNELS_COMMON_QUANT_INT_H_
#define QFORGE_RUNTIME_KERNELS_COMMON_QUANT_INT_H_

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "ir/options.h"
#include "numerics/fixed_point.h"
#include "runtime/kernel.h"
#include "runtime/kernels/common/broadcast.h"
#include "runtime/kernels/common/parallel.h"
#include "runtime/kernels/common/type_dispatch.h"

namespace qforge::runtime::integer {

// Per-tensor quantization of an activation.
struct QuantInfo {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// int8, uint8, int16 (the activation types of integer kernels).
bool IsActivationType(ir::DataType type);
int32_t TypeMin(ir::DataType type);
int32_t TypeMax(ir::DataType type);

// The per-tensor scale and zero point of `t` (role names it in errors:
// "input", "output", ...). Errors when the tensor carries no quantization,
// more than one scale, a non-positive or non-finite scale, or a zero point
// outside its type's range. `require_zero_zp`: TFLite's symmetric int16
// kernels need zero point 0.
absl::Status ReadQuant(const OpContext& ctx, const RtTensor& t,
                       absl::string_view role, QuantInfo* q,
                       bool require_zero_zp = false);

// Weight scales of `w` for `channels` output channels along `axis`: either
// one scale (broadcast) or exactly `channels`, all positive and finite, and
// every zero point 0 (TFLite's int8 weights are symmetric).
absl::Status ReadWeightScales(const OpContext& ctx, const RtTensor& w,
                              absl::string_view role, int64_t channels,
                              int axis, std::vector<float>* scales);

// Checks an optional bias: type (int32, or int32/int64 when `allow_int64`),
// `channels` elements, constant data, and — when it carries scales — that
// each bias scale is input_scale * weight_scale[c] within TFLite's
// tolerance (|difference| / output_scale <= 0.02).
absl::Status CheckBias(const OpContext& ctx, const RtTensor* bias,
                       int64_t channels, bool allow_int64, float input_scale,
                       const std::vector<float>& weight_scales,
                       float output_scale);

// With --arithmetic xnnpack and 8-bit activations (not int16), XNNPACK's
// float requantization scale of each of `channels` channels from the input,
// weight (one, or one per channel) and output scales; empty otherwise, and
// when XNNPACK refuses one of them (TFLite's kernel runs then).
std::vector<float> XnnpackChannelScales(const OpContext& ctx, bool is_int16,
                                        float input_scale,
                                        const std::vector<float>& weight_scales,
                                        float output_scale, int64_t channels);

// TFLite's CalculateActivationRangeQuantized for `out_type`: NONE gives the
// type range; RELU, RELU6, RELU_N1_TO_1 clamp at the quantized 0, 6, +-1
// (zero_point + round(x / scale)). Other activations are unsupported.
absl::Status ActivationRange(const OpContext& ctx, ir::Activation act,
                             ir::DataType out_type, const QuantInfo& out,
                             int32_t* act_min, int32_t* act_max);

// Runs fn(T{}) with T the C++ type of an activation type (int8_t, uint8_t,
// int16_t): the per-type instantiation an eval picks. Unsupported
// naming `what` for other types.
template <typename Fn>
absl::Status ForActivationType(const OpContext& ctx, ir::DataType type,
                               absl::string_view what, const Fn& fn) {
  if (ForTypeIn<int8_t, uint8_t, int16_t>(type, fn)) return absl::OkStatus();
  return ctx.Unsupported(what);
}

// The per-tensor requantization of a weighted op (conv, transpose conv,
// fully connected): zero point offsets and the fused activation's range.
struct WeightedQuant {
  int32_t input_offset = 0, output_offset = 0;
  int32_t act_min = 0, act_max = 0;
};
// Reads the input's and output's quantization into qi, qo (int16: zero
// point 0, as TFLite's int16x8 kernels require) and fills q from them and
// the fused activation `act`.
absl::Status ReadWeightedQuant(const OpContext& ctx, const RtTensor& in,
                               const RtTensor& out, ir::Activation act,
                               QuantInfo* qi, QuantInfo* qo, WeightedQuant* q);

// Quantizes a real value for parameter checks: zp + round(x / scale).
int32_t QuantizeReal(float x, const QuantInfo& q);

// The broadcast plan (broadcast.h) of two inputs into their NumPy output
// shape, which is returned in `out`. TFLite's integer kernels broadcast up
// to rank 6, and so do these.
absl::Status PlanBroadcast2(const OpContext& ctx, const Dims& a, const Dims& b,
                            BroadcastPlan* plan, Dims* out);

// Elements per chunk of elementwise work (ParallelChunks).
inline constexpr int64_t kElementwiseChunk = kBroadcastGrain;

// Per-task scratch memory: `slots` buffers of `bytes` each; a running task
// borrows a free one for its duration. Sized in prepare, used in eval.
class ScratchSlots {
 public:
  void Resize(int slots, size_t bytes);
  // A free slot (spins until one is; there are at least as many slots as
  // threads, so one always is).
  int Acquire();
  void Release(int slot) { busy_[static_cast<size_t>(slot)].store(false); }
  uint8_t* data(int slot) { return buffers_[static_cast<size_t>(slot)].data(); }

 private:
  std::vector<std::vector<uint8_t>> buffers_;
  std::unique_ptr<std::atomic<bool>[]> busy_;
  int slots_ = 0;
};

// Borrows a slot for a scope.
class ScratchLease {
 public:
  explicit ScratchLease(ScratchSlots* s) : s_(s), slot_(s->Acquire()) {}
  ~ScratchLease() { s_->Release(slot_); }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  template <typename T>
  T* As() {
    return reinterpret_cast<T*>(s_->data(slot_));
  }

 private:
  ScratchSlots* s_;
  int slot_;
};

// Number of scratch slots to reserve: one per pool thread (plus the
// caller).
inline int ScratchSlotCount(const OpContext& ctx) {
  return ctx.pool().num_threads() + 1;
}

// TFLite's int16 lookup tables (LUTPopulateInt16 / LUTLookup): 512
// interpolation intervals over the input's real range, each sample biased
// by half the midpoint interpolation error, evaluated in FloatT as TFLite
// does for the transform's type (float for RSQRT, double for SOFTMAX).
inline constexpr int kLut16Size = 513;
template <typename FloatT, typename F>
void PopulateLut16(FloatT input_scale, int32_t input_zp, FloatT output_scale,
                   int32_t output_zp, const F& fn, int16_t* lut) {
  const FloatT input_min = input_scale * static_cast<FloatT>(-32768 - input_zp);
  const FloatT input_max = input_scale * static_cast<FloatT>(32767 - input_zp);
  const FloatT output_min =
      output_scale * static_cast<FloatT>(-32768 - output_zp);
  const FloatT output_max =
      output_scale * static_cast<FloatT>(32767 - output_zp);
  constexpr int kSteps = 512;
  const FloatT step = (input_max - input_min) / kSteps;
  const FloatT half_step = step / 2;
  const FloatT scaling_inv =
      static_cast<FloatT>(65536) / (output_max - output_min);
  const FloatT table_min = -32768, table_max = 32767;
  for (int i = 0; i < kSteps; ++i) {
    const FloatT val = fn(input_min + static_cast<FloatT>(i) * step);
    const FloatT val_mid =
        fn(input_min + static_cast<FloatT>(i) * step + half_step);
    const FloatT val_next = fn(input_min + static_cast<FloatT>(i + 1) * step);
    const FloatT sample = std::round(val * scaling_inv);
    const FloatT mid_interp = std::round(
        (val_next * scaling_inv + std::round(val * scaling_inv)) / 2);
    const FloatT mid = std::round(val_mid * scaling_inv);
    const FloatT bias = std::round((mid_interp - mid) / 2);
    lut[i] = static_cast<int16_t>(
        std::min(std::max(sample - bias, table_min), table_max));
  }
  lut[kSteps] = static_cast<int16_t>(std::min(
      std::max(std::round(fn(input_max) * scaling_inv), table_min), table_max));
}

// TFLite's int16 LUTLookup: 7 fractional bits interpolated.
inline int16_t Lut16Lookup(int16_t value, const int16_t* lut) {
  const uint16_t index = static_cast<uint16_t>(256 + (value >> 7));
  const int16_t offset = static_cast<int16_t>(value & 0x7f);
  const int16_t base = lut[index];
  const int16_t slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  const int32_t delta = (static_cast<int32_t>(slope) * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

// Checks input i exists and is one of the activation types; returns it.
absl::Status RequireActivation(const OpContext& ctx, int i, const RtTensor** t);
// The operands of a weighted op (conv, fully connected): RequireActivation
// for input 0 (*in), RequireWeights for input 1 (*w, named `role`), *out
// output 0 of input 0's type, *bias input 2 (may be null).
absl::Status RequireWeightedInOut(OpContext& ctx, absl::string_view role,
                                  const RtTensor** in, const RtTensor** w,
                                  const RtTensor** bias, RtTensor** out);
// RequireActivation for inputs 0 and 1 of a two-input op; *out is output
// 0 (unchecked: the ops differ in what they allow).
absl::Status RequireBinaryInOut(OpContext& ctx, const RtTensor** a,
                                const RtTensor** b, RtTensor** out);
// RequireActivation for input 0, and output 0 must have its type.
absl::Status RequireActivationInOut(OpContext& ctx, const RtTensor** in,
                                    RtTensor** out);
// Checks input i exists and is a constant.
absl::Status RequireConstant(const OpContext& ctx, int i,
                             absl::string_view role, const RtTensor** t);
// Input 1, the constant weights of a conv or fully connected op: uint8 with
// uint8 activations (TFLite's legacy asymmetric form), int8 otherwise.
absl::Status RequireWeights(const OpContext& ctx, ir::DataType activations,
                            absl::string_view role, const RtTensor** w);

// numerics::Requantize for a kernel's accumulator type: int32
// accumulators round in the op's mode `r`, int64 ones (int16x8 kernels) in
// the one way TFLite has for them.
template <typename TAcc>
inline int32_t RequantizeAcc(TAcc acc, int32_t multiplier, int shift,
                             int32_t zero_point, int32_t act_min,
                             int32_t act_max, numerics::Rounding r) {
  if constexpr (std::is_same_v<TAcc, int32_t>) {
    return numerics::Requantize(acc, multiplier, shift, zero_point, act_min,
                                act_max, r);
  } else {
    return numerics::Requantize(static_cast<int64_t>(acc), multiplier, shift,
                                zero_point, act_min, act_max);
  }
}

// a * b rounded to float by itself, for hybrid kernels' float epilogues.
// TFLite adds such products unfused; GCC (-march=native, -ffp-contract=fast
// by default) would fuse the following add into an FMA, 1 ulp off now and
// then, which moves hybrid outputs away from TFLite's.
inline float UnfusedMul(float a, float b) {
  volatile float p = a * b;
  return p;
}

// The tensors of a weighted op's eval (conv, transpose conv, fully
// connected): input `x`, weights `w`, the optional bias (nullptr when
// absent) and output 0.
template <typename TX, typename TW, typename TBias, typename TY>
struct WeightedTensors {
  const TX* x;
  const TW* w;
  const TBias* bias;
  TY* y;
};
template <typename TX, typename TW, typename TBias, typename TY = TX>
WeightedTensors<TX, TW, TBias, TY> GetWeightedTensors(const OpContext& ctx,
                                                      int x, int w, int bias) {
  const RtTensor* b = ctx.input(bias);
  return {ctx.input(x)->Data<TX>(), ctx.input(w)->Data<TW>(),
          b != nullptr ? b->Data<TBias>() : nullptr, ctx.output(0)->Data<TY>()};
}

// Quantizes one row of a hybrid kernel's float input to int8 as TFLite
// does: PortableAsymmetricQuantizeFloats (scale and zero point from the
// row's [min, max] widened to 0) when `asymmetric`, else
// PortableSymmetricQuantizeFloats (scale max|x| / 127, offset 0).
void QuantizeHybridInput(const float* x, int64_t n, bool asymmetric, int8_t* q,
                         float* scale, int32_t* offset);

}  // namespace qforge::runtime::integer

#endif  // QFORGE_RUNTIME_KERNELS_COMMON_QUANT_INT_H_
