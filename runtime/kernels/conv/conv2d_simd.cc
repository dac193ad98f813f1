// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/conv/conv2d_simd.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace qforge::runtime::integer {

std::unique_ptr<FastConvPlan> PrepareFastConv(const OpContext& ctx,
                                              const ConvDesc& d) {
  const Isa isa = ctx.isa();
  if (isa == Isa::kScalar) return nullptr;
  if (d.depthwise ? d.depth_mult != 1 || d.k_h * d.k_w > 64 : d.groups != 1) {
    return nullptr;
  }
  if (d.in_c <= 0 || d.out_c <= 0) return nullptr;
  const RtTensor* w = ctx.input(1);
  const RtTensor* bias = ctx.input(2);
  const int64_t taps = d.k_h * d.k_w;
  // The reference accumulates int16 convolutions with an int64 bias, and
  // every int16 depthwise one, in int64.
  const bool acc64 =
      d.type == ir::DataType::kInt16 &&
      (d.depthwise || (bias != nullptr && bias->type == ir::DataType::kInt64));
  if (acc64) {
    const int64_t most = d.depthwise ? 0
                                     : MaxAbsWeightSum(w->Data<int8_t>(), 0,
                                                       d.out_c, taps * d.in_c);
    int64_t dw_most = 0;
    if (d.depthwise) {
      const int8_t* wd = w->Data<int8_t>();
      for (int64_t c = 0; c < d.out_c; ++c) {
        int64_t sum = 0;
        for (int64_t t = 0; t < taps; ++t) {
          sum += std::abs(int64_t{wd[t * d.out_c + c]});
        }
        dw_most = std::max(dw_most, sum);
      }
    }
    if (std::max(most, dw_most) >= kInt16WeightSumLimit) return nullptr;
  }
  auto plan = std::make_unique<FastConvPlan>();
  FastConvPlan& p = *plan;
  p.d = d;
  p.isa = isa;
  if (d.depthwise) {
    if (d.type == ir::DataType::kUInt8) {
      PackDepthwiseWeights(w->Data<uint8_t>(), d.weights_zp, taps, d.out_c, isa,
                           &p.dw);
    } else {
      PackDepthwiseWeights(w->Data<int8_t>(), d.weights_zp, taps, d.out_c, isa,
                           &p.dw);
    }
    p.kc = p.dw.cpad;
    p.dw_bytes = isa == Isa::kAvx512Vnni && (d.type == ir::DataType::kInt8 ||
                                             d.type == ir::DataType::kUInt8);
    p.geom = DepthwiseGeometry{d.in_h,  d.in_w,     d.out_w,    d.k_h,
                               d.k_w,   d.stride_h, d.stride_w, d.dil_h,
                               d.dil_w, d.pad_top,  d.pad_left};
  } else {
    PackPlanWeights(*w, d, acc64, d.out_c, taps, d.in_c, isa, &p.gemm);
    p.kc = p.gemm.kc;
    // A 1x1 window with stride 1 reads output pixel i from input pixel i:
    // no table (GemmA's direct rows).
    p.pointwise = taps == 1 && d.stride_h == 1 && d.stride_w == 1 &&
                  d.pad_top == 0 && d.pad_left == 0 && d.out_h == d.in_h &&
                  d.out_w == d.in_w;
    // Input pixel of each output pixel's taps (-1: padding).
    p.indirection.resize(
        p.pointwise ? 0 : static_cast<size_t>(d.out_h * d.out_w * taps));
    int32_t* ind = p.indirection.data();
    const int64_t table_rows = p.pointwise ? 0 : d.out_h;
    for (int64_t oy = 0; oy < table_rows; ++oy) {
      for (int64_t ox = 0; ox < d.out_w; ++ox) {
        for (int64_t ky = 0; ky < d.k_h; ++ky) {
          const int64_t iy = oy * d.stride_h - d.pad_top + ky * d.dil_h;
          for (int64_t kx = 0; kx < d.k_w; ++kx, ++ind) {
            const int64_t ix = ox * d.stride_w - d.pad_left + kx * d.dil_w;
            const bool inside =
                iy >= 0 && iy < d.in_h && ix >= 0 && ix < d.in_w;
            *ind = inside ? static_cast<int32_t>(iy * d.in_w + ix) : -1;
          }
        }
      }
    }
  }
  InitPlanOutputStage(ctx, d, d.out_c, acc64, p.gemm, taps * d.in_c, isa,
                      &p.os);
  if (p.dw_bytes) {
    p.os.AddToBias(DepthwiseInputCorrection(p.dw, d.input_zp).data());
    EnableDepthwisePairs(p.geom, &p.dw, &p.os);
  }
  const int64_t in_pixels = d.in_h * d.in_w;
  const int64_t pixels = d.batch * in_pixels;
  if (p.gemm.dot4) {
    // Per image: the flipped rows, then the padded taps' row.
    const int64_t block = (in_pixels + 1) * p.kc;
    if (block > INT32_MAX) return nullptr;
    p.flipped.assign(static_cast<size_t>(d.batch * block), 0);
    const uint8_t zp_u8 = static_cast<uint8_t>(d.input_zp) ^ 0x80;
    for (int64_t b = 0; b < d.batch; ++b) {
      std::fill_n(p.flipped.begin() + b * block + in_pixels * p.kc, p.kc,
                  zp_u8);
    }
    const int64_t m = d.out_h * d.out_w;
    p.offsets.resize(static_cast<size_t>(m * taps));
    for (int64_t i = 0; i < m * taps; ++i) {
      const int64_t idx = p.pointwise ? i : p.indirection[i];
      p.offsets[i] = static_cast<int32_t>((idx < 0 ? in_pixels : idx) * p.kc);
    }
    p.indirection.clear();
  } else if (!p.dw_bytes) {
    p.rows.assign(static_cast<size_t>((pixels + 1) * p.kc), 0);
  }
  p.scratch.Resize(ScratchSlotCount(ctx), GemmScratchBytes(taps));
  return plan;
}

void RunFastConv(const OpContext& ctx, FastConvPlan& p) {
  const ConvDesc& d = p.d;
  const int64_t in_pixels = d.in_h * d.in_w;
  void* out = ctx.output(0)->data;
  if (p.dw_bytes) {
    struct Args {
      const FastConvPlan* p;
      const uint8_t* in;
      void* out;
      size_t es;
    } args{&p, static_cast<const uint8_t*>(ctx.input(0)->data), out,
           p.os.out_bytes()};
    const Args* a = &args;
    ctx.pool().ParallelFor(d.batch * d.out_h, [a](int64_t r) {
      const FastConvPlan& p = *a->p;
      const ConvDesc& d = p.d;
      const int64_t b = r / d.out_h, oy = r % d.out_h;
      DepthwiseRowBytes(
          p.dw, p.geom, a->in + b * d.in_h * d.in_w * d.in_c,
          d.type == ir::DataType::kInt8, d.input_zp, oy, p.os,
          static_cast<uint8_t*>(a->out) + r * d.out_w * d.out_c * a->es);
    });
    return;
  }
  if (p.gemm.dot4) {
    FlipRows(ctx, ctx.input(0)->Data<int8_t>(), d.batch, in_pixels, d.in_c,
             p.kc, p.flipped.data());
    const int64_t block = (in_pixels + 1) * p.kc;
    RunGemmTasks(
        ctx, SplitGemm(p.isa, d.batch, d.out_h * d.out_w, p.gemm), p.gemm, p.os,
        [&](int64_t b) {
          GemmA ga;
          ga.base = p.flipped.data() + b * block;
          ga.offsets = p.offsets.data();
          return ga;
        },
        out, &p.scratch);
    return;
  }
  PlanInputRows(ctx, d, p.isa, p.kc, false, ctx.input(0)->data,
                d.batch * in_pixels, d.in_c, &p.rows, &p.rows8);
  if (d.depthwise) {
    struct Args {
      FastConvPlan* p;
      void* out;
      size_t es;
    } args{&p, out, p.os.out_bytes()};
    const Args* a = &args;
    ctx.pool().ParallelFor(d.batch * d.out_h, [a](int64_t r) {
      const FastConvPlan& p = *a->p;
      const int64_t b = r / p.d.out_h, oy = r % p.d.out_h;
      DepthwiseRow(
          p.dw, p.geom, p.rows.data() + b * p.d.in_h * p.d.in_w * p.kc, oy,
          p.os,
          static_cast<uint8_t*>(a->out) + r * p.d.out_w * p.d.out_c * a->es);
    });
    return;
  }
  RunGemmTasks(
      ctx, SplitGemm(p.isa, d.batch, d.out_h * d.out_w, p.gemm), p.gemm, p.os,
      [&](int64_t b) {
        GemmA ga;
        ga.base = p.rows.data() + b * in_pixels * p.kc;
        ga.zero = p.rows.data() + d.batch * in_pixels * p.kc;
        ga.indirection = p.pointwise ? nullptr : p.indirection.data();
        return ga;
      },
      out, &p.scratch);
}

}  // namespace qforge::runtime::integer
