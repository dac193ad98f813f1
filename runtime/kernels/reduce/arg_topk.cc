// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ARG_MAX, ARG_MIN and TOPK_V2: selections along one axis, as TFLite's
// tensorflow/lite/kernels/arg_min_max.cc and topk_v2.cc.
//  - ARG_MAX/ARG_MIN: input 1 holds one axis (int32 or int64, negative
//    counts from the end); the output (int32 or int64, from the options'
//    output_type and the output tensor) drops that axis. The scan keeps the
//    first index on ties (strict comparison from index 0, as TFLite's
//    reference ArgMinMax); a NaN at index 0 is kept, later NaNs never win.
//  - TOPK_V2: input 1 holds k (int32, one element, 0 <= k <= last dim).
//    Output 0 holds the k largest values of each last-axis row in
//    decreasing order, output 1 (int32) their indices; equal values are
//    ordered by lower index (TFLite's TopContainer). TFLite leaves NaN
//    ordering undefined; here NaN ranks below every number.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/type_dispatch.h"
#include "runtime/kernels/reduce/reduce.h"

namespace qforge::runtime {
namespace {

bool IsIndexType(ir::DataType t) {
  return t == ir::DataType::kInt32 || t == ir::DataType::kInt64;
}

bool IsSelectableType(ir::DataType t) {
  return t == ir::DataType::kFloat32 || t == ir::DataType::kInt32 ||
         t == ir::DataType::kInt64 || t == ir::DataType::kInt8 ||
         t == ir::DataType::kUInt8 || t == ir::DataType::kInt16;
}

// Input 0 (present) has a selectable type and rank >= 1.
absl::Status CheckSelectableInput(const OpContext& ctx) {
  const RtTensor& input = *ctx.input(0);
  if (!IsSelectableType(input.type)) {
    return ctx.Unsupported(absl::StrCat("input '", input.name(), "' is ",
                                        ir::DataTypeName(input.type)));
  }
  if (input.rank() < 1) {
    return ctx.Error(absl::StrCat("input '", input.name(),
                                  "' is a scalar; it needs rank >= 1"));
  }
  return absl::OkStatus();
}

// Runs fn(T{}) for input 0's element type T (a selectable type).
template <typename Fn>
absl::Status ForSelectableType(const OpContext& ctx, const Fn& fn) {
  const ir::DataType type = ctx.input(0)->type;
  if (ForTypeIn<float, int32_t, int64_t, int8_t, uint8_t, int16_t>(type, fn)) {
    return absl::OkStatus();
  }
  return ctx.Unsupported(absl::StrCat("input type ", ir::DataTypeName(type)));
}

// ARG_MAX, ARG_MIN and TOPK_V2 plan from input 1's value (axis, k):
// prepare plans when it is known, else marks the op data-dependent, and
// eval plans then. Every output gets the planned shape.
template <typename Plan, typename PlanFn>
absl::Status PrepareWithPlan(OpContext& ctx, PlanFn plan_fn) {
  Plan* plan = ctx.StateOrNew<Plan>();
  plan->ready = false;
  if (!ctx.input(1)->is_constant) ctx.SetShapeDependsOnData();
  if (!ctx.InputValueKnown(1)) return absl::OkStatus();
  Dims out_shape;
  RETURN_IF_ERROR(plan_fn(ctx, plan, &out_shape));
  for (int o = 0; o < ctx.num_outputs(); ++o) {
    ctx.SetOutputShape(o, out_shape);
  }
  return absl::OkStatus();
}
template <typename Plan, typename PlanFn>
absl::StatusOr<Plan*> ReadyPlan(OpContext& ctx, PlanFn plan_fn) {
  Plan* plan = ctx.state<Plan>();
  if (plan == nullptr) return ctx.Error("eval before prepare");
  if (!plan->ready) {
    Dims out_shape;
    RETURN_IF_ERROR(plan_fn(ctx, plan, &out_shape));
    for (int o = 0; o < ctx.num_outputs(); ++o) {
      RETURN_IF_ERROR(ctx.ResizeOutput(o, out_shape));
    }
    plan->ready = false;
  }
  return plan;
}

// Reads the single integer of `t` (int32 or int64).
absl::Status ReadScalarIndex(const OpContext& ctx, const RtTensor& t,
                             absl::string_view what, int64_t* value) {
  if (!IsIndexType(t.type)) {
    return ctx.Error(absl::StrCat(what, " input '", t.name(), "' is ",
                                  ir::DataTypeName(t.type),
                                  "; it must be int32 or int64"));
  }
  if (t.NumElements() != 1) {
    return ctx.Error(absl::StrCat(what, " input '", t.name(), "' has shape ",
                                  DimsString(t.shape),
                                  "; it must hold exactly one value"));
  }
  *value =
      t.type == ir::DataType::kInt32 ? *t.Data<int32_t>() : *t.Data<int64_t>();
  return absl::OkStatus();
}

// ---------------------------------------------------------------- ARG_MAX/MIN

struct ArgPlan : KernelState {
  int64_t outer = 0, axis_size = 0, inner = 0;
  bool ready = false;
};

absl::Status PlanArg(const OpContext& ctx, ArgPlan* plan, Dims* out_shape) {
  const RtTensor& input = *ctx.input(0);
  int64_t axis = 0;
  RETURN_IF_ERROR(ReadScalarIndex(ctx, *ctx.input(1), "axis", &axis));
  const int rank = input.rank();
  if (axis < -rank || axis >= rank) {
    return ctx.Error(absl::StrCat("axis ", axis, " is out of range for input '",
                                  input.name(), "' of rank ", rank));
  }
  if (axis < 0) axis += rank;
  plan->outer = 1;
  plan->inner = 1;
  out_shape->clear();
  for (int i = 0; i < rank; ++i) {
    if (i < axis) plan->outer *= input.dim(i);
    if (i > axis) plan->inner *= input.dim(i);
    if (i != axis) out_shape->push_back(input.dim(i));
  }
  plan->axis_size = input.dim(static_cast<int>(axis));
  if (plan->axis_size == 0 && plan->outer * plan->inner > 0) {
    return ctx.Error(absl::StrCat("input '", input.name(), "' has shape ",
                                  DimsString(input.shape), "; axis ", axis,
                                  " is empty, so there is no index to return"));
  }
  plan->ready = true;
  return absl::OkStatus();
}

absl::Status PrepareArg(OpContext& ctx, bool is_max) {
  const char* name = is_max ? "ARG_MAX" : "ARG_MIN";
  if (ctx.num_inputs() != 2 || ctx.num_outputs() != 1 ||
      ctx.input(0) == nullptr || ctx.input(1) == nullptr) {
    return ctx.Error(absl::StrCat(name, " takes 2 inputs and 1 output"));
  }
  RETURN_IF_ERROR(CheckSelectableInput(ctx));
  const ir::DataType out_type = ctx.output(0)->type;
  if (!IsIndexType(out_type)) {
    return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' is ",
                                  ir::DataTypeName(out_type),
                                  "; it must be int32 or int64"));
  }
  // TFLite takes the index type from the options; a file whose options and
  // output tensor disagree is inconsistent.
  if (const auto* opts =
          std::get_if<ir::OutputTypeOptions>(&ctx.op().options)) {
    if (IsIndexType(opts->output_type) && opts->output_type != out_type) {
      return ctx.Error(absl::StrCat(
          "options output_type ", ir::DataTypeName(opts->output_type),
          " differs from output '", ctx.output(0)->name(), "' type ",
          ir::DataTypeName(out_type)));
    }
  }
  if (!IsIndexType(ctx.input(1)->type)) {
    return ctx.Error(absl::StrCat("axis input '", ctx.input(1)->name(), "' is ",
                                  ir::DataTypeName(ctx.input(1)->type),
                                  "; it must be int32 or int64"));
  }
  return PrepareWithPlan<ArgPlan>(ctx, PlanArg);
}

struct ArgArgs {
  const ArgPlan* plan;
  const void* in;
  void* out;
  int64_t rows_per_task;
  int64_t rows;
};

template <typename T, typename Index, bool kIsMax>
void ArgRows(const ArgArgs& a, int64_t task) {
  const ArgPlan& p = *a.plan;
  const T* in = static_cast<const T*>(a.in);
  Index* out = static_cast<Index*>(a.out);
  const int64_t r0 = task * a.rows_per_task;
  const int64_t r1 = std::min(a.rows, r0 + a.rows_per_task);
  // A "row" is one outer index; its outputs are the `inner` positions.
  for (int64_t o = r0; o < r1; ++o) {
    const T* base = in + o * p.axis_size * p.inner;
    for (int64_t i = 0; i < p.inner; ++i) {
      T best = base[i];
      int64_t best_index = 0;
      for (int64_t k = 1; k < p.axis_size; ++k) {
        const T v = base[k * p.inner + i];
        if (kIsMax ? (v > best) : (v < best)) {
          best = v;
          best_index = k;
        }
      }
      out[o * p.inner + i] = static_cast<Index>(best_index);
    }
  }
}

template <typename T, typename Index>
void RunArg(OpContext& ctx, const ArgPlan& plan, bool is_max) {
  ArgArgs args;
  args.plan = &plan;
  args.in = ctx.input(0)->Data<T>();
  args.out = ctx.output(0)->Data<Index>();
  args.rows = plan.outer;
  constexpr int64_t kWorkPerTask = 32 * 1024;
  args.rows_per_task = std::max<int64_t>(
      1, kWorkPerTask / std::max<int64_t>(1, plan.axis_size * plan.inner));
  const int64_t num_tasks =
      plan.inner == 0
          ? 0
          : (args.rows + args.rows_per_task - 1) / args.rows_per_task;
  const ArgArgs* a = &args;
  if (is_max) {
    ctx.pool().ParallelFor(
        num_tasks, [a](int64_t task) { ArgRows<T, Index, true>(*a, task); });
  } else {
    ctx.pool().ParallelFor(
        num_tasks, [a](int64_t task) { ArgRows<T, Index, false>(*a, task); });
  }
}

template <typename T>
void RunArgIndex(OpContext& ctx, const ArgPlan& plan, bool is_max) {
  if (ctx.output(0)->type == ir::DataType::kInt32) {
    RunArg<T, int32_t>(ctx, plan, is_max);
  } else {
    RunArg<T, int64_t>(ctx, plan, is_max);
  }
}

absl::Status EvalArg(OpContext& ctx, bool is_max) {
  ASSIGN_OR_RETURN(ArgPlan* const plan, ReadyPlan<ArgPlan>(ctx, PlanArg));
  return ForSelectableType(
      ctx, [&](auto t) { RunArgIndex<decltype(t)>(ctx, *plan, is_max); });
}

// --------------------------------------------------------------------- TOPK_V2

struct TopKPlan : KernelState {
  int64_t rows = 0, row_size = 0, k = 0;
  int64_t rows_per_task = 1, num_tasks = 0;
  std::vector<int32_t> scratch;  // row_size indices per task
  bool ready = false;
};

absl::Status PlanTopK(const OpContext& ctx, TopKPlan* plan, Dims* out_shape) {
  const RtTensor& input = *ctx.input(0);
  const RtTensor& k_tensor = *ctx.input(1);
  if (k_tensor.type != ir::DataType::kInt32) {
    return ctx.Error(absl::StrCat("k input '", k_tensor.name(), "' is ",
                                  ir::DataTypeName(k_tensor.type),
                                  "; it must be int32"));
  }
  int64_t k = 0;
  RETURN_IF_ERROR(ReadScalarIndex(ctx, k_tensor, "k", &k));
  const int64_t row_size = input.dim(input.rank() - 1);
  if (k < 0 || k > row_size) {
    return ctx.Error(absl::StrCat("k = ", k, " is outside [0, ", row_size,
                                  "] (the last dim of input '", input.name(),
                                  "')"));
  }
  if (row_size > INT32_MAX) {
    return ctx.Unsupported("rows longer than 2^31 - 1 elements");
  }
  plan->k = k;
  plan->row_size = row_size;
  plan->rows = 1;
  for (int i = 0; i + 1 < input.rank(); ++i) plan->rows *= input.dim(i);
  // Tasks of about 16K elements, at most 64 (each has its own index
  // buffer); boundaries depend on the sizes only.
  constexpr int64_t kWorkPerTask = 16 * 1024;
  constexpr int64_t kMaxTasks = 64;
  const int64_t work = plan->rows * std::max<int64_t>(1, row_size);
  plan->num_tasks = std::min<int64_t>(
      {plan->rows, kMaxTasks, std::max<int64_t>(1, work / kWorkPerTask)});
  plan->rows_per_task =
      plan->num_tasks == 0
          ? 1
          : (plan->rows + plan->num_tasks - 1) / plan->num_tasks;
  plan->scratch.assign(
      static_cast<size_t>(std::max<int64_t>(1, plan->num_tasks) *
                          std::max<int64_t>(1, row_size)),
      0);
  *out_shape = input.shape;
  out_shape->back() = k;
  plan->ready = true;
  return absl::OkStatus();
}

// Strict total order of "ranks higher": larger value, NaN below every
// number, equal values (and NaNs) by lower index.
template <typename T>
struct RanksHigher {
  const T* v;
  bool operator()(int32_t a, int32_t b) const {
    const T va = v[a], vb = v[b];
    if constexpr (std::is_floating_point_v<T>) {
      const bool na = std::isnan(va), nb = std::isnan(vb);
      if (na || nb) return na == nb ? a < b : nb;
    }
    if (va != vb) return va > vb;
    return a < b;
  }
};

struct TopKArgs {
  TopKPlan* plan;
  const void* in;
  void* values;
  int32_t* indices;
};

template <typename T>
void TopKRows(const TopKArgs& a, int64_t task) {
  TopKPlan& p = *a.plan;
  const T* in = static_cast<const T*>(a.in);
  T* values = static_cast<T*>(a.values);
  int32_t* idx = p.scratch.data() + task * p.row_size;
  const int64_t r0 = task * p.rows_per_task;
  const int64_t r1 = std::min(p.rows, r0 + p.rows_per_task);
  for (int64_t r = r0; r < r1; ++r) {
    const T* row = in + r * p.row_size;
    for (int64_t i = 0; i < p.row_size; ++i) idx[i] = static_cast<int32_t>(i);
    std::partial_sort(idx, idx + p.k, idx + p.row_size, RanksHigher<T>{row});
    for (int64_t j = 0; j < p.k; ++j) {
      a.indices[r * p.k + j] = idx[j];
      values[r * p.k + j] = row[idx[j]];
    }
  }
}

template <typename T>
void RunTopK(OpContext& ctx, TopKPlan* plan) {
  TopKArgs args;
  args.plan = plan;
  args.in = ctx.input(0)->Data<T>();
  args.values = ctx.output(0)->Data<T>();
  args.indices = ctx.output(1)->Data<int32_t>();
  const TopKArgs* a = &args;
  ctx.pool().ParallelFor(plan->k == 0 ? 0 : plan->num_tasks,
                         [a](int64_t task) { TopKRows<T>(*a, task); });
}

}  // namespace

absl::Status PrepareTopKV2(OpContext& ctx) {
  if (ctx.num_inputs() != 2 || ctx.num_outputs() != 2 ||
      ctx.input(0) == nullptr || ctx.input(1) == nullptr) {
    return ctx.Error("TOPK_V2 takes 2 inputs (data, k) and 2 outputs");
  }
  RETURN_IF_ERROR(CheckSelectableInput(ctx));
  const RtTensor& input = *ctx.input(0);
  if (ctx.output(0)->type != input.type) {
    return ctx.Error(absl::StrCat(
        "values output '", ctx.output(0)->name(), "' is ",
        ir::DataTypeName(ctx.output(0)->type),
        "; it must have the input's type ", ir::DataTypeName(input.type)));
  }
  if (ctx.output(1)->type != ir::DataType::kInt32) {
    return ctx.Error(absl::StrCat(
        "indices output '", ctx.output(1)->name(), "' is ",
        ir::DataTypeName(ctx.output(1)->type), "; it must be int32"));
  }
  if (ctx.input(1)->type != ir::DataType::kInt32) {
    return ctx.Error(absl::StrCat("k input '", ctx.input(1)->name(), "' is ",
                                  ir::DataTypeName(ctx.input(1)->type),
                                  "; it must be int32"));
  }
  return PrepareWithPlan<TopKPlan>(ctx, PlanTopK);
}

absl::Status EvalTopKV2(OpContext& ctx) {
  ASSIGN_OR_RETURN(TopKPlan* const plan, ReadyPlan<TopKPlan>(ctx, PlanTopK));
  return ForSelectableType(ctx,
                           [&](auto t) { RunTopK<decltype(t)>(ctx, plan); });
}

absl::Status PrepareArgMax(OpContext& ctx) { return PrepareArg(ctx, true); }
absl::Status EvalArgMax(OpContext& ctx) { return EvalArg(ctx, true); }
absl::Status PrepareArgMin(OpContext& ctx) { return PrepareArg(ctx, false); }
absl::Status EvalArgMin(OpContext& ctx) { return EvalArg(ctx, false); }

}  // namespace qforge::runtime
