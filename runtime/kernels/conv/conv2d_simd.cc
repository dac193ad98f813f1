// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/conv/conv2d_simd.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace qforge::runtime::integer {
namespace {

// Rows of a GEMM per task: several tiles, so that a task reuses the packed
// weights it brought into cache; the split depends on the shape alone.
constexpr int kTilesPerTask = 4;

// int16 inputs reach |x| = 32768; with sum |w| below this per channel no
// int32 partial sum overflows, so the int32 accumulator equals the
// reference's int64 one.
constexpr int64_t kInt16WeightSumLimit = 65536;

template <typename T>
void ToInt16Parallel(const OpContext& ctx, Isa isa, const T* src,
                     int32_t zero_point, int64_t pixels, int64_t channels,
                     int64_t kc, int16_t* dst) {
  const int64_t chunk = std::max<int64_t>(1, kElementwiseChunk / kc);
  ParallelChunks(ctx, pixels, chunk, [&](int64_t b, int64_t e) {
    ToInt16Rows(isa, src + b * channels, zero_point, e - b, channels, kc,
                dst + b * kc);
  });
}

void ToInt16(const OpContext& ctx, Isa isa, ir::DataType type, const void* src,
             int32_t zero_point, int64_t pixels, int64_t channels, int64_t kc,
             int16_t* dst) {
  switch (type) {
    case ir::DataType::kUInt8:
      ToInt16Parallel(ctx, isa, static_cast<const uint8_t*>(src), zero_point,
                      pixels, channels, kc, dst);
      return;
    case ir::DataType::kInt16:
      ToInt16Parallel(ctx, isa, static_cast<const int16_t*>(src), zero_point,
                      pixels, channels, kc, dst);
      return;
    default:
      ToInt16Parallel(ctx, isa, static_cast<const int8_t*>(src), zero_point,
                      pixels, channels, kc, dst);
      return;
  }
}

// Whether a GEMM takes the dot4 (vpdpbusd) form: int8 activations and
// weights without a zero point, int32 accumulation.
bool UseDot4(Isa isa, ir::DataType type, int32_t weights_zp, bool acc64) {
  return isa == Isa::kAvx512Vnni && type == ir::DataType::kInt8 &&
         weights_zp == 0 && !acc64;
}

// int8 rows of `channels` copied to rows of kc (the padding is never
// written: its weights are zero).
void PadRows(const OpContext& ctx, const int8_t* src, int64_t pixels,
             int64_t channels, int64_t kc, int8_t* dst) {
  const int64_t chunk = std::max<int64_t>(1, kElementwiseChunk / kc);
  ParallelChunks(ctx, pixels, chunk, [&](int64_t b, int64_t e) {
    if (channels < 16) {  // the first layer's 1-3 channels: no calls
      for (int64_t i = b; i < e; ++i) {
        for (int64_t c = 0; c < channels; ++c) {
          dst[i * kc + c] = src[i * channels + c];
        }
      }
      return;
    }
    for (int64_t i = b; i < e; ++i) {
      std::memcpy(dst + i * kc, src + i * channels,
                  static_cast<size_t>(channels));
    }
  });
}

// Bias of ctx's input `i` for the output stage.
void SetBias(const OpContext& ctx, int i, OutputStage::Params* p) {
  const RtTensor* bias = ctx.input(i);
  if (bias == nullptr) return;
  if (bias->type == ir::DataType::kInt64) {
    p->bias64 = bias->Data<int64_t>();
  } else {
    p->bias32 = bias->Data<int32_t>();
  }
}

// GEMM tasks over (image, row chunk, panel group).
struct GemmTasks {
  int64_t m = 0, rows_per_task = 0, m_tasks = 0;
  int64_t panels = 0, panels_per_task = 0, n_tasks = 0;
  int64_t images = 1;
  int64_t count() const { return images * m_tasks * n_tasks; }
};

GemmTasks SplitGemm(Isa isa, int64_t images, int64_t m, int64_t panels) {
  GemmTasks t;
  t.images = images;
  t.m = m;
  t.rows_per_task = GemmTileRows(isa) * kTilesPerTask;
  t.m_tasks = (m + t.rows_per_task - 1) / t.rows_per_task;
  t.panels = panels;
  // Few rows (a fully connected layer on one sample): split the channels.
  t.panels_per_task = images * t.m_tasks >= 4 ? panels : 4;
  t.n_tasks = (panels + t.panels_per_task - 1) / t.panels_per_task;
  return t;
}

}  // namespace

// ------------------------------------------------------------------ conv

struct FastConvPlan {
  ConvDesc d;
  Isa isa = Isa::kScalar;
  int64_t kc = 0;  // int16 per input pixel row (conv: even; dw: cpad)
  PackedGemmWeights gemm;
  DepthwiseWeights dw;
  DepthwiseGeometry geom;
  std::vector<int32_t> indirection;  // [out pixel][tap]
  bool pointwise = false;            // no indirection needed
  OutputStage os;
  std::vector<int16_t> rows;  // the input as int16 rows, + a zero row
  // dot4: the input's int8 rows padded to kc when in_c is not (else the
  // input is read in place), and a row of input zero points.
  std::vector<int8_t> rows8, zp_row;
  ScratchSlots scratch;
};

void FastConvPlanDeleter::operator()(FastConvPlan* p) const { delete p; }

FastConvPlanPtr PrepareFastConv(const OpContext& ctx, const ConvDesc& d) {
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
  FastConvPlanPtr plan(new FastConvPlan);
  FastConvPlan& p = *plan;
  p.d = d;
  p.isa = isa;
  const bool is_uint8 = d.type == ir::DataType::kUInt8;
  if (d.depthwise) {
    if (is_uint8) {
      PackDepthwiseWeights(w->Data<uint8_t>(), d.filter_zp, taps, d.out_c, isa,
                           &p.dw);
    } else {
      PackDepthwiseWeights(w->Data<int8_t>(), d.filter_zp, taps, d.out_c, isa,
                           &p.dw);
    }
    p.kc = p.dw.cpad;
    p.geom = DepthwiseGeometry{d.in_h,  d.in_w,     d.out_w,    d.k_h,
                               d.k_w,   d.stride_h, d.stride_w, d.dil_h,
                               d.dil_w, d.pad_top,  d.pad_left};
  } else {
    if (is_uint8) {
      PackGemmWeights(w->Data<uint8_t>(), d.filter_zp, d.out_c, taps, d.in_c,
                      isa, &p.gemm);
    } else if (UseDot4(isa, d.type, d.filter_zp, acc64)) {
      PackGemmWeightsDot4(w->Data<int8_t>(), d.out_c, taps, d.in_c, &p.gemm);
    } else {
      PackGemmWeights(w->Data<int8_t>(), d.filter_zp, d.out_c, taps, d.in_c,
                      isa, &p.gemm);
    }
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
  OutputStage::Params op;
  op.out_type = d.type;
  op.channels = d.out_c;
  op.zero_point = d.output_zp;
  op.act_min = d.act_min;
  op.act_max = d.act_max;
  op.acc64 = acc64;
  op.rounding = d.rounding;
  op.multiplier = d.multiplier->data();
  op.shift = d.shift->data();
  if (!acc64 && d.xnn_scale != nullptr && !d.xnn_scale->empty()) {
    op.scheme = OutputStage::Scheme::kXnnpack;
    op.xnn_scale = d.xnn_scale->data();
  }
  SetBias(ctx, 2, &op);
  p.os.Init(op, isa);
  const int64_t pixels = d.batch * d.in_h * d.in_w;
  if (p.gemm.dot4) {
    p.os.AddToBias(Dot4BiasCorrection(w->Data<int8_t>(), d.out_c, taps * d.in_c,
                                      d.input_zp)
                       .data());
    if (p.kc != d.in_c) p.rows8.assign(static_cast<size_t>(pixels * p.kc), 0);
    p.zp_row.assign(static_cast<size_t>(p.kc), static_cast<int8_t>(d.input_zp));
  } else {
    p.rows.assign(static_cast<size_t>((pixels + 1) * p.kc), 0);
  }
  p.scratch.Resize(ScratchSlotCount(ctx), GemmScratchBytes(taps));
  return plan;
}

void RunFastConv(const OpContext& ctx, FastConvPlan& p) {
  const ConvDesc& d = p.d;
  const int64_t in_pixels = d.in_h * d.in_w;
  const void* input = ctx.input(0)->data;
  if (p.gemm.dot4) {
    if (!p.rows8.empty()) {
      PadRows(ctx, static_cast<const int8_t*>(input), d.batch * in_pixels,
              d.in_c, p.kc, p.rows8.data());
      input = p.rows8.data();
    }
  } else {
    ToInt16(ctx, p.isa, d.type, input, d.input_zp, d.batch * in_pixels, d.in_c,
            p.kc, p.rows.data());
    input = p.rows.data();
  }
  void* out = ctx.output(0)->data;
  const size_t es = p.os.out_bytes();
  const int64_t out_pixels = d.out_h * d.out_w;
  if (d.depthwise) {
    struct Args {
      FastConvPlan* p;
      void* out;
      size_t es;
    } args{&p, out, es};
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
  const GemmTasks t = SplitGemm(p.isa, d.batch, out_pixels, p.gemm.panels);
  struct Args {
    FastConvPlan* p;
    const GemmTasks* t;
    const void* input;
    void* out;
    size_t es;
  } args{&p, &t, input, out, es};
  const Args* a = &args;
  ctx.pool().ParallelFor(t.count(), [a](int64_t task) {
    FastConvPlan& p = *a->p;
    const GemmTasks& t = *a->t;
    const int64_t n_task = task % t.n_tasks;
    const int64_t m_task = (task / t.n_tasks) % t.m_tasks;
    const int64_t b = task / (t.n_tasks * t.m_tasks);
    const int64_t in_pixels = p.d.in_h * p.d.in_w;
    GemmA ga;
    if (p.gemm.dot4) {
      ga.base = static_cast<const int8_t*>(a->input) + b * in_pixels * p.kc;
      ga.zero = p.zp_row.data();
    } else {
      ga.base = p.rows.data() + b * in_pixels * p.kc;
      ga.zero = p.rows.data() + p.d.batch * in_pixels * p.kc;
    }
    ga.indirection = p.pointwise ? nullptr : p.indirection.data();
    const int64_t m0 = m_task * t.rows_per_task;
    const int64_t m1 = std::min(t.m, m0 + t.rows_per_task);
    const int64_t p0 = n_task * t.panels_per_task;
    const int64_t p1 = std::min(t.panels, p0 + t.panels_per_task);
    ScratchLease lease(&p.scratch);
    GemmRows(p.gemm, ga, m0, m1, p0, p1, p.os,
             static_cast<uint8_t*>(a->out) + b * t.m * p.d.out_c * a->es,
             lease.As<uint8_t>());
  });
}

// -------------------------------------------------------------------- FC

struct FastFcPlan {
  FcDesc d;
  Isa isa = Isa::kScalar;
  PackedGemmWeights gemm;
  OutputStage os;
  std::vector<int16_t> rows;
  std::vector<int8_t> rows8;  // dot4 with depth not a multiple of 4
  ScratchSlots scratch;
};

void FastFcPlanDeleter::operator()(FastFcPlan* p) const { delete p; }

FastFcPlanPtr PrepareFastFc(const OpContext& ctx, const FcDesc& d) {
  const Isa isa = ctx.isa();
  if (isa == Isa::kScalar || d.depth <= 0 || d.units <= 0) return nullptr;
  const RtTensor* w = ctx.input(1);
  const bool is_uint8 = d.type == ir::DataType::kUInt8;
  if (d.acc64) {
    const int64_t most = is_uint8
                             ? MaxAbsWeightSum(w->Data<uint8_t>(), d.weights_zp,
                                               d.units, d.depth)
                             : MaxAbsWeightSum(w->Data<int8_t>(), d.weights_zp,
                                               d.units, d.depth);
    if (most >= kInt16WeightSumLimit) return nullptr;
  }
  FastFcPlanPtr plan(new FastFcPlan);
  FastFcPlan& p = *plan;
  p.d = d;
  p.isa = isa;
  if (is_uint8) {
    PackGemmWeights(w->Data<uint8_t>(), d.weights_zp, d.units, 1, d.depth, isa,
                    &p.gemm);
  } else if (UseDot4(isa, d.type, d.weights_zp, d.acc64)) {
    PackGemmWeightsDot4(w->Data<int8_t>(), d.units, 1, d.depth, &p.gemm);
  } else {
    PackGemmWeights(w->Data<int8_t>(), d.weights_zp, d.units, 1, d.depth, isa,
                    &p.gemm);
  }
  OutputStage::Params op;
  op.out_type = d.type;
  op.channels = d.units;
  op.zero_point = d.output_zp;
  op.act_min = d.act_min;
  op.act_max = d.act_max;
  op.acc64 = d.acc64;
  op.scheme = d.scheme;
  op.rounding = d.rounding;
  op.multiplier = d.multiplier->data();
  op.shift = d.shift->data();
  if (d.xnn_scale != nullptr && !d.xnn_scale->empty()) {
    op.xnn_scale = d.xnn_scale->data();
  }
  if (d.real_scale != nullptr && !d.real_scale->empty()) {
    op.real_scale = d.real_scale->data();
  }
  SetBias(ctx, 2, &op);
  p.os.Init(op, isa);
  if (p.gemm.dot4) {
    p.os.AddToBias(
        Dot4BiasCorrection(w->Data<int8_t>(), d.units, d.depth, d.input_zp)
            .data());
    if (p.gemm.kc != d.depth) {
      p.rows8.assign(static_cast<size_t>(d.batch * p.gemm.kc), 0);
    }
  } else {
    p.rows.assign(static_cast<size_t>(d.batch * p.gemm.kc), 0);
  }
  p.scratch.Resize(ScratchSlotCount(ctx), GemmScratchBytes(1));
  return plan;
}

void RunFastFc(const OpContext& ctx, FastFcPlan& p) {
  const FcDesc& d = p.d;
  const void* input = ctx.input(0)->data;
  if (p.gemm.dot4) {
    if (!p.rows8.empty()) {
      PadRows(ctx, static_cast<const int8_t*>(input), d.batch, d.depth,
              p.gemm.kc, p.rows8.data());
      input = p.rows8.data();
    }
  } else {
    ToInt16(ctx, p.isa, d.type, input, d.input_zp, d.batch, d.depth, p.gemm.kc,
            p.rows.data());
    input = p.rows.data();
  }
  const GemmTasks t = SplitGemm(p.isa, 1, d.batch, p.gemm.panels);
  struct Args {
    FastFcPlan* p;
    const GemmTasks* t;
    const void* input;
    void* out;
  } args{&p, &t, input, ctx.output(0)->data};
  const Args* a = &args;
  ctx.pool().ParallelFor(t.count(), [a](int64_t task) {
    FastFcPlan& p = *a->p;
    const GemmTasks& t = *a->t;
    const int64_t n_task = task % t.n_tasks;
    const int64_t m_task = task / t.n_tasks;
    GemmA ga;
    ga.base = a->input;
    const int64_t m0 = m_task * t.rows_per_task;
    const int64_t m1 = std::min(t.m, m0 + t.rows_per_task);
    const int64_t p0 = n_task * t.panels_per_task;
    const int64_t p1 = std::min(t.panels, p0 + t.panels_per_task);
    ScratchLease lease(&p.scratch);
    GemmRows(p.gemm, ga, m0, m1, p0, p1, p.os, a->out, lease.As<uint8_t>());
  });
}

}  // namespace qforge::runtime::integer
