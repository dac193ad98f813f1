// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "runtime/kernels/conv/fully_connected_simd.h"

namespace qforge::runtime::integer {

std::unique_ptr<FastFcPlan> PrepareFastFc(const OpContext& ctx,
                                          const FcDesc& d) {
  const Isa isa = ctx.isa();
  if (isa == Isa::kScalar || d.depth <= 0 || d.units <= 0) return nullptr;
  const RtTensor* w = ctx.input(1);
  if (d.acc64) {
    const int64_t most = d.type == ir::DataType::kUInt8
                             ? MaxAbsWeightSum(w->Data<uint8_t>(), d.weights_zp,
                                               d.units, d.depth)
                             : MaxAbsWeightSum(w->Data<int8_t>(), d.weights_zp,
                                               d.units, d.depth);
    if (most >= kInt16WeightSumLimit) return nullptr;
  }
  auto plan = std::make_unique<FastFcPlan>();
  FastFcPlan& p = *plan;
  p.d = d;
  p.isa = isa;
  PackPlanWeights(*w, d, d.acc64, d.units, 1, d.depth, isa, &p.gemm);
  InitPlanOutputStage(ctx, d, d.units, d.acc64, p.gemm, d.depth, isa, &p.os);
  if (p.gemm.dot4) {
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
  const void* input =
      PlanInputRows(ctx, d, p.isa, p.gemm.kc, p.gemm.dot4, ctx.input(0)->data,
                    d.batch, d.depth, &p.rows, &p.rows8);
  RunGemmTasks(
      ctx, SplitGemm(p.isa, 1, d.batch, p.gemm), p.gemm, p.os,
      [&](int64_t) {
        GemmA ga;
        ga.base = input;
        return ga;
      },
      ctx.output(0)->data, &p.scratch);
}

}  // namespace qforge::runtime::integer
