// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The planner behind BuildPlan (plan.h), shared by its two files: plan.cc
// (each op's form, the plan as a whole) and plan_checks.cc (what keeps a
// tensor or an op float: insane ranges, structural rules, masks, float
// islands). Internal to the quantizer library.
#ifndef QFORGE_QUANTIZER_PLANNER_H_
#define QFORGE_QUANTIZER_PLANNER_H_

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calibration/range.h"
#include "quantizer/plan.h"
#include "runtime/legality.h"

namespace qforge::quantizer::plan_internal {

using numerics::QuantParams;
// The legality rules' op form (not quantizer::OpForm, the op's precision).
using LegalityForm = runtime::legality::OpForm;
using runtime::legality::TensorForm;

// Calibrated values beyond this are sentinels (float lowest(), -1e38 masks)
// or overflow, never data a scale should cover.
constexpr float kSaneMagnitude = 1e30f;

inline std::string Short(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

class Planner {
 public:
  Planner(const ir::Model& model, const calibration::StatsFile& stats,
          const QuantizeOptions& options,
          const std::vector<std::optional<UserRequest>>& requests)
      : model_(model),
        sg_(model.subgraphs[0]),
        options_(options),
        requests_(requests),
        graph_(sg_) {
    for (const calibration::TensorStats& t : stats.tensors) {
      if (t.subgraph == 0) stats_[t.tensor] = &t;
    }
    default_ = options.scheme == Scheme::kInt16x8 ? Precision::kInt16
                                                  : Precision::kInt8;
  }

  absl::StatusOr<QuantPlan> Build();

 private:
  using Override = std::map<std::pair<int, int>, calibration::Range>;

  bool Constant(int32_t t) const {
    return IsConstant(model_, sg_.tensors[static_cast<size_t>(t)]);
  }
  const ir::Tensor& T(int32_t t) const {
    return sg_.tensors[static_cast<size_t>(t)];
  }
  bool HasStats(int32_t t) const {
    auto it = stats_.find(t);
    return it != stats_.end() && !it->second->empty();
  }
  // The range of `t` for a tensor of precision `p`: range methods that
  // trade clipping for resolution (mse, kl) choose for that many levels.
  calibration::Range StatsRange(int32_t t, Precision p) const {
    auto it = repaired_.find(t);
    if (it != repaired_.end()) return it->second;
    calibration::RangeSpec spec = options_.range;
    if (!options_.range_overrides.empty()) {
      auto o = options_.range_overrides.find(sg_.tensors[t].name);
      if (o != options_.range_overrides.end()) spec = o->second;
    }
    // Over any override: --method auto, which chooses on the
    // calibration samples, cannot see the clipping this avoids.
    const bool largest = ReadForLargest(sg_, graph_, t);
    if (largest) spec.method = calibration::RangeMethod::kMinMax;
    spec.num_bits = p == Precision::kInt16 ? 16 : 8;
    calibration::Range r = calibration::ComputeRange(*stats_.at(t), spec);
    // int16 ranges get int16_headroom below instead.
    if (largest && p != Precision::kInt16) r = WidenedForLargest(r);
    if (p == Precision::kInt16) {
      // int16 has resolution to spare, and a range fitted to a few
      // calibration samples clips on the next ones (see int16_headroom).
      r.min *= options_.int16_headroom;
      r.max *= options_.int16_headroom;
    }
    return r;
  }
  // "" when the calibrated range of `t` can become a scale, else why not.
  std::string InsaneRange(int32_t t) const;
  QuantParams ForRange(float lo, float hi, Precision p) const;
  ActParams ParamsOf(int32_t t, Precision p, const calibration::Range& r) const;

  // Pass A: the form each op asks for, and structural reasons to stay float.
  void Request(QuantPlan& plan);
  std::string Structural(size_t i, const OpQuantSpec& spec) const;
  // A sentinel-masked ADD feeding SOFTMAX: clamps the mask's range so the
  // op is legal and its softmax result unchanged. True when applied.
  bool ClampMask(size_t i, OpPlan& op);

  // Pass B: parameters and legality, in op order.
  absl::Status Plan(QuantPlan& plan);
  absl::Status PlanOp(size_t i, const OpQuantSpec& spec, OpPlan& op);
  std::string Illegal(size_t i, const OpQuantSpec& spec, const OpPlan& op);
  // Why op i must stay float because a constant its integer form drops is
  // read by a float consumer; "" otherwise.
  std::string DroppedConstantNeeded(size_t i, const QuantPlan& plan);
  // Why op i, weightless and fed and read by float only, stays float.
  std::string FloatIsland(size_t i, const QuantPlan& plan) const;
  TensorForm FormOfTensor(int32_t t) const;
  // The integer form of `t` available before op i runs, if any.
  std::optional<ActParams> Available(int32_t t) const {
    auto it = available_.find(t);
    if (it == available_.end()) return std::nullopt;
    return it->second;
  }

  const ir::Model& model_;
  const ir::Subgraph& sg_;
  const QuantizeOptions& options_;
  const std::vector<std::optional<UserRequest>>& requests_;
  const ir::Graph graph_;
  std::map<int32_t, const calibration::TensorStats*> stats_;
  Precision default_ = Precision::kInt8;
  std::vector<Precision> requested_;
  std::vector<int> weight_bits_;  // PlannedWeightBits: 4 or 8 per op
  std::vector<std::string> requested_reason_;
  Override input_range_, output_range_;  // (op, index) -> range
  // Tensors whose range a repair replaced (a clamped mask's sum): their
  // consumers see the repaired range, not the sentinel.
  std::map<int32_t, calibration::Range> repaired_;
  std::vector<std::vector<std::string>> range_notes_;
  std::map<int32_t, ActParams> available_;
  // Per op: the standalone activation (both int8) whose output parameters
  // its output takes, so that the activation folds into it exactly
  // (quantizer/fold_activations.h); -1 for none.
  std::vector<int> fold_into_;
};

}  // namespace qforge::quantizer::plan_internal

#endif  // QFORGE_QUANTIZER_PLANNER_H_
