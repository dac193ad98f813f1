// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// MEAN, SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN: reductions over the axes
// listed in input 1 (negative axes count from the end, duplicates are
// ignored, keep_dims keeps reduced axes as size 1), as TFLite's
// tensorflow/lite/kernels/reduce.cc.
//
// Order: each output element is reduced by one task, over its input
// elements in increasing flat input index (see reduce.h). The geometry is
// simplified once in prepare: size-1 axes are dropped and neighbouring axes
// that are both reduced (or both kept) are merged, which leaves the visiting
// order unchanged.
//
// Semantics taken from TFLite:
//  - MEAN float: float sum, then sum / float(count). MEAN int32/int64: int64
//    sum, then truncating integer division.
//  - SUM/PROD of integers wrap around (two's complement) as TFLite's int
//    accumulation does in practice.
//  - MAX/MIN start from lowest()/max() and keep `acc > x ? acc : x`
//    (TFLite's optimized MaxOp/MinOp, the registered kernels).
//  - An empty input gives the neutral value (MEAN: NaN for float, 0 for
//    integers).
//  - A scalar input is returned unchanged (axes are not used).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/reduce/reduce.h"

namespace qforge::runtime {
namespace {

enum class ReduceKind { kMean, kSum, kProd, kMax, kMin };

constexpr int kMaxDims = 16;  // input rank limit (odometer arrays)

absl::string_view KindName(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::kMean:
      return "MEAN";
    case ReduceKind::kSum:
      return "SUM";
    case ReduceKind::kProd:
      return "REDUCE_PROD";
    case ReduceKind::kMax:
      return "REDUCE_MAX";
    case ReduceKind::kMin:
      return "REDUCE_MIN";
  }
  return "";
}

// The reduction as prepared for the current input shape.
struct ReducePlan : KernelState {
  // Merged axes, outermost first: sizes and input strides (elements).
  Dims kept_sizes, kept_strides;
  Dims red_sizes, red_strides;
  int64_t num_outputs = 0;
  int64_t reduce_count = 0;  // input elements per output
  int64_t input_count = 0;
  // Outputs are processed in groups of `run`: when the innermost input axis
  // is kept, a group is a contiguous run along it (the innermost merged kept
  // axis, stride 1), accumulated together; otherwise run = 1.
  int64_t run = 1;
  Dims outer_kept_sizes, outer_kept_strides;    // kept axes but the run's
  int64_t inner_red = 1, inner_red_stride = 0;  // innermost reduced axis
  Dims outer_red_sizes, outer_red_strides;      // the other reduced axes
  bool ready = false;                           // axes were known in prepare
};

absl::Status ReadAxes(const OpContext& ctx, const RtTensor& axes,
                      std::vector<int64_t>* out) {
  out->clear();
  const int64_t n = axes.NumElements();
  if (axes.type == ir::DataType::kInt32) {
    const int32_t* p = axes.Data<int32_t>();
    for (int64_t i = 0; i < n; ++i) out->push_back(p[i]);
  } else if (axes.type == ir::DataType::kInt64) {
    const int64_t* p = axes.Data<int64_t>();
    for (int64_t i = 0; i < n; ++i) out->push_back(p[i]);
  } else {
    return ctx.Error(absl::StrCat("axes input '", axes.name(), "' is ",
                                  ir::DataTypeName(axes.type),
                                  "; it must be int32 or int64"));
  }
  return absl::OkStatus();
}

// Builds `plan` and the output shape from the input shape and axes.
absl::Status PlanReduction(const OpContext& ctx, const RtTensor& input,
                           const std::vector<int64_t>& axes, bool keep_dims,
                           ReducePlan* plan, Dims* out_shape) {
  const int rank = input.rank();
  if (rank > kMaxDims) {
    return ctx.Unsupported(absl::StrCat("input '", input.name(), "' has rank ",
                                        rank, "; at most ", kMaxDims,
                                        " is supported"));
  }
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  if (rank > 0) {
    for (int64_t a : axes) {
      if (a < -rank || a >= rank) {
        return ctx.Error(absl::StrCat("axis ", a,
                                      " is out of range for input '",
                                      input.name(), "' of rank ", rank));
      }
      reduced[static_cast<size_t>(a < 0 ? a + rank : a)] = true;
    }
  }
  out_shape->clear();
  for (int i = 0; i < rank; ++i) {
    if (!reduced[static_cast<size_t>(i)]) {
      out_shape->push_back(input.dim(i));
    } else if (keep_dims) {
      out_shape->push_back(1);
    }
  }

  plan->kept_sizes.clear();
  plan->kept_strides.clear();
  plan->red_sizes.clear();
  plan->red_strides.clear();
  plan->num_outputs = 1;
  plan->reduce_count = 1;
  plan->input_count = input.NumElements();
  int64_t stride = 1;
  int last_kind = -1;  // 0 kept, 1 reduced: kind of the axis merged last
  int innermost_kind = -1;
  for (int i = rank - 1; i >= 0; --i) {
    const int64_t size = input.dim(i);
    const bool red = reduced[static_cast<size_t>(i)];
    if (red) {
      plan->reduce_count *= size;
    } else {
      plan->num_outputs *= size;
    }
    if (size != 1) {
      Dims& sizes = red ? plan->red_sizes : plan->kept_sizes;
      Dims& strides = red ? plan->red_strides : plan->kept_strides;
      const int kind = red ? 1 : 0;
      if (innermost_kind < 0) innermost_kind = kind;
      if (kind == last_kind) {
        sizes.back() *= size;  // merge with the (inner) neighbour
      } else {
        sizes.push_back(size);
        strides.push_back(stride);
      }
      last_kind = kind;
    }
    stride *= size;
  }
  // Collected innermost first; store outermost first.
  std::reverse(plan->kept_sizes.begin(), plan->kept_sizes.end());
  std::reverse(plan->kept_strides.begin(), plan->kept_strides.end());
  std::reverse(plan->red_sizes.begin(), plan->red_sizes.end());
  std::reverse(plan->red_strides.begin(), plan->red_strides.end());
  const bool inner_kept = innermost_kind == 0;
  plan->run = inner_kept ? plan->kept_sizes.back() : 1;
  const size_t num_outer_kept = plan->kept_sizes.size() - (inner_kept ? 1 : 0);
  plan->outer_kept_sizes.assign(plan->kept_sizes.begin(),
                                plan->kept_sizes.begin() + num_outer_kept);
  plan->outer_kept_strides.assign(plan->kept_strides.begin(),
                                  plan->kept_strides.begin() + num_outer_kept);
  const size_t num_red = plan->red_sizes.size();
  plan->inner_red = num_red > 0 ? plan->red_sizes.back() : 1;
  plan->inner_red_stride = num_red > 0 ? plan->red_strides.back() : 0;
  const size_t num_outer_red = num_red > 0 ? num_red - 1 : 0;
  plan->outer_red_sizes.assign(plan->red_sizes.begin(),
                               plan->red_sizes.begin() + num_outer_red);
  plan->outer_red_strides.assign(plan->red_strides.begin(),
                                 plan->red_strides.begin() + num_outer_red);
  plan->ready = true;
  return absl::OkStatus();
}

absl::Status PrepareReduce(OpContext& ctx, ReduceKind kind) {
  if (ctx.num_inputs() != 2 || ctx.num_outputs() != 1) {
    return ctx.Error(
        absl::StrCat(KindName(kind), " takes 2 inputs and 1 output; got ",
                     ctx.num_inputs(), " and ", ctx.num_outputs()));
  }
  const RtTensor* input = ctx.input(0);
  const RtTensor* axes = ctx.input(1);
  if (input == nullptr || axes == nullptr) {
    return ctx.Error("input 0 (data) and input 1 (axes) are required");
  }
  const ir::DataType t = input->type;
  if (t != ir::DataType::kFloat32 && t != ir::DataType::kInt32 &&
      t != ir::DataType::kInt64) {
    return ctx.Unsupported(absl::StrCat("input '", input->name(), "' is ",
                                        ir::DataTypeName(t),
                                        "; this kernel takes float32, int32 "
                                        "or int64"));
  }
  if (ctx.output(0)->type != t) {
    return ctx.Error(absl::StrCat("output '", ctx.output(0)->name(), "' is ",
                                  ir::DataTypeName(ctx.output(0)->type),
                                  "; it must have the input's type ",
                                  ir::DataTypeName(t)));
  }
  if (axes->type != ir::DataType::kInt32 &&
      axes->type != ir::DataType::kInt64) {
    return ctx.Error(absl::StrCat("axes input '", axes->name(), "' is ",
                                  ir::DataTypeName(axes->type),
                                  "; it must be int32 or int64"));
  }
  ReducePlan* plan = ctx.StateOrNew<ReducePlan>();
  plan->ready = false;
  if (!axes->is_constant) ctx.SetShapeDependsOnData();
  if (!ctx.InputValueKnown(1)) return absl::OkStatus();
  const bool keep_dims =
      ir::OptionsOr<ir::ReducerOptions>(ctx.op().options).keep_dims;
  std::vector<int64_t> axis_values;
  RETURN_IF_ERROR(ReadAxes(ctx, *axes, &axis_values));
  Dims out_shape;
  RETURN_IF_ERROR(
      PlanReduction(ctx, *input, axis_values, keep_dims, plan, &out_shape));
  ctx.SetOutputShape(0, std::move(out_shape));
  return absl::OkStatus();
}

// Wrapping integer arithmetic (signed overflow is undefined in C++).
template <typename T>
T WrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
T WrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// Accumulator type and reducer per kind. MEAN of integers sums in int64.
template <ReduceKind K, typename T>
struct Reducer {
  using Acc =
      std::conditional_t<K == ReduceKind::kMean && std::is_integral_v<T>,
                         int64_t, T>;
  static Acc Init() {
    switch (K) {
      case ReduceKind::kMean:
      case ReduceKind::kSum:
        return Acc(0);
      case ReduceKind::kProd:
        return Acc(1);
      case ReduceKind::kMax:
        return std::numeric_limits<Acc>::lowest();
      case ReduceKind::kMin:
        return std::numeric_limits<Acc>::max();
    }
    return Acc(0);
  }
  static Acc Apply(Acc acc, T x) {
    switch (K) {
      case ReduceKind::kMean:
      case ReduceKind::kSum:
        return WrapAdd<Acc>(acc, static_cast<Acc>(x));
      case ReduceKind::kProd:
        return WrapMul<Acc>(acc, static_cast<Acc>(x));
      case ReduceKind::kMax:
        return acc > x ? acc : x;
      case ReduceKind::kMin:
        return acc < x ? acc : x;
    }
    return acc;
  }
  // The output value of an accumulated `acc` over `count` elements.
  static T Finish(Acc acc, int64_t count) {
    if constexpr (K == ReduceKind::kMean) {
      if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(acc / count);
      } else {
        return acc / static_cast<T>(count);
      }
    } else {
      (void)count;
      return static_cast<T>(acc);
    }
  }
  // The output value of an empty reduction.
  static T Empty() {
    if constexpr (K == ReduceKind::kMean) {
      if constexpr (std::is_floating_point_v<T>) {
        return std::numeric_limits<T>::quiet_NaN();
      } else {
        return T(0);
      }
    } else {
      return static_cast<T>(Init());
    }
  }
};

// Steps `coords` (row-major odometer over `sizes`) by one; returns the
// change of the input offset.
inline int64_t Advance(const Dims& sizes, const Dims& strides,
                       int64_t* coords) {
  int64_t delta = 0;
  for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
    const size_t i = static_cast<size_t>(d);
    if (++coords[i] < sizes[i]) return delta + strides[i];
    delta -= (sizes[i] - 1) * strides[i];
    coords[i] = 0;
  }
  return delta;
}

struct ReduceArgs {
  const ReducePlan* plan;
  const void* in;
  void* out;
  int64_t groups_per_task;
};

// Reduces the outputs of groups [g0, g1).
template <ReduceKind K, typename T>
void ReduceGroups(const ReduceArgs& a, int64_t g0, int64_t g1) {
  using R = Reducer<K, T>;
  using Acc = typename R::Acc;
  const ReducePlan& p = *a.plan;
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  const int64_t run = p.run;
  // Coordinates (over the outer kept axes) and input offset of group g0.
  int64_t kept[kMaxDims] = {};
  int64_t base = 0;
  {
    int64_t rest = g0;
    for (int d = static_cast<int>(p.outer_kept_sizes.size()) - 1; d >= 0; --d) {
      const size_t i = static_cast<size_t>(d);
      kept[i] = rest % p.outer_kept_sizes[i];
      rest /= p.outer_kept_sizes[i];
      base += kept[i] * p.outer_kept_strides[i];
    }
  }
  const int64_t inner_red = p.inner_red;
  const int64_t inner_stride = p.inner_red_stride;
  const int64_t outer_red_count = p.reduce_count / inner_red;
  for (int64_t g = g0; g < g1; ++g) {
    T* dst = out + g * run;
    bool done = false;
    if constexpr (std::is_same_v<Acc, T>) {
      if (run > 1) {
        // The run's outputs accumulate together; each still sees its
        // reduced positions in row-major order.
        for (int64_t j = 0; j < run; ++j) dst[j] = R::Init();
        int64_t red[kMaxDims] = {};
        int64_t off = base;
        for (int64_t r = 0; r < outer_red_count; ++r) {
          for (int64_t k = 0; k < inner_red; ++k) {
            const T* src = in + off + k * inner_stride;
            for (int64_t j = 0; j < run; ++j) dst[j] = R::Apply(dst[j], src[j]);
          }
          off += Advance(p.outer_red_sizes, p.outer_red_strides, red);
        }
        for (int64_t j = 0; j < run; ++j) {
          dst[j] = R::Finish(dst[j], p.reduce_count);
        }
        done = true;
      }
    }
    if (!done) {
      for (int64_t j = 0; j < run; ++j) {
        Acc acc = R::Init();
        int64_t red[kMaxDims] = {};
        int64_t off = base + j;
        for (int64_t r = 0; r < outer_red_count; ++r) {
          const T* src = in + off;
          for (int64_t k = 0; k < inner_red; ++k) {
            acc = R::Apply(acc, src[k * inner_stride]);
          }
          off += Advance(p.outer_red_sizes, p.outer_red_strides, red);
        }
        dst[j] = R::Finish(acc, p.reduce_count);
      }
    }
    base += Advance(p.outer_kept_sizes, p.outer_kept_strides, kept);
  }
}

template <ReduceKind K, typename T>
absl::Status EvalReduceTyped(OpContext& ctx, const ReducePlan& plan) {
  T* out = ctx.output(0)->Data<T>();
  if (plan.input_count == 0) {
    for (int64_t i = 0; i < plan.num_outputs; ++i) {
      out[i] = Reducer<K, T>::Empty();
    }
    return absl::OkStatus();
  }
  ReduceArgs args;
  args.plan = &plan;
  args.in = ctx.input(0)->Data<T>();
  args.out = out;
  const int64_t groups = plan.num_outputs / plan.run;
  // About 32K input elements per task; boundaries depend on sizes only.
  constexpr int64_t kWorkPerTask = 32 * 1024;
  const int64_t work_per_group =
      std::max<int64_t>(1, plan.reduce_count * plan.run);
  args.groups_per_task = std::max<int64_t>(1, kWorkPerTask / work_per_group);
  const int64_t num_tasks =
      (groups + args.groups_per_task - 1) / args.groups_per_task;
  const ReduceArgs* a = &args;
  ctx.pool().ParallelFor(num_tasks, [a, groups](int64_t task) {
    const int64_t g0 = task * a->groups_per_task;
    ReduceGroups<K, T>(*a, g0, std::min(groups, g0 + a->groups_per_task));
  });
  return absl::OkStatus();
}

template <ReduceKind K>
absl::Status EvalReduce(OpContext& ctx) {
  ReducePlan* plan = ctx.state<ReducePlan>();
  if (plan == nullptr || !plan->ready) {
    // The axes were not known in prepare (the interpreter prepares again
    // once they are); plan now and give the output its buffer.
    if (plan == nullptr) {
      ctx.set_state(std::make_unique<ReducePlan>());
      plan = ctx.state<ReducePlan>();
    }
    std::vector<int64_t> axis_values;
    RETURN_IF_ERROR(ReadAxes(ctx, *ctx.input(1), &axis_values));
    Dims out_shape;
    RETURN_IF_ERROR(PlanReduction(
        ctx, *ctx.input(0), axis_values,
        ir::OptionsOr<ir::ReducerOptions>(ctx.op().options).keep_dims, plan,
        &out_shape));
    RETURN_IF_ERROR(ctx.ResizeOutput(0, std::move(out_shape)));
    plan->ready = false;  // re-plan on the next run as well
  }
  switch (ctx.input(0)->type) {
    case ir::DataType::kFloat32:
      return EvalReduceTyped<K, float>(ctx, *plan);
    case ir::DataType::kInt32:
      return EvalReduceTyped<K, int32_t>(ctx, *plan);
    case ir::DataType::kInt64:
      return EvalReduceTyped<K, int64_t>(ctx, *plan);
    default:
      return ctx.Unsupported(
          absl::StrCat("input type ", ir::DataTypeName(ctx.input(0)->type)));
  }
}

}  // namespace

QF_KERNEL_AS(PrepareMean, PrepareReduce(ctx, ReduceKind::kMean))
QF_KERNEL_AS(EvalMean, EvalReduce<ReduceKind::kMean>(ctx))
QF_KERNEL_AS(PrepareSum, PrepareReduce(ctx, ReduceKind::kSum))
QF_KERNEL_AS(EvalSum, EvalReduce<ReduceKind::kSum>(ctx))
QF_KERNEL_AS(PrepareReduceProd, PrepareReduce(ctx, ReduceKind::kProd))
QF_KERNEL_AS(EvalReduceProd, EvalReduce<ReduceKind::kProd>(ctx))
QF_KERNEL_AS(PrepareReduceMax, PrepareReduce(ctx, ReduceKind::kMax))
QF_KERNEL_AS(EvalReduceMax, EvalReduce<ReduceKind::kMax>(ctx))
QF_KERNEL_AS(PrepareReduceMin, PrepareReduce(ctx, ReduceKind::kMin))
QF_KERNEL_AS(EvalReduceMin, EvalReduce<ReduceKind::kMin>(ctx))

}  // namespace qforge::runtime
