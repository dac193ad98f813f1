// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/detector_head.h"

#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/graph.h"
#include "quantizer/folded_model.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/plan.h"

namespace qforge::pipeline {

absl::StatusOr<DetectorHeadPlan> PlanDetectorHead(
    const ir::Model& work, const quantizer::QuantizeOptions& options,
    const std::vector<report::TaskOverride>& tasks) {
  DetectorHeadPlan plan;
  if (options.runtime != runtime::Runtime::kLitert ||
      options.scheme != quantizer::Scheme::kInt8 ||
      options.output_type != ir::DataType::kFloat32) {
    return plan;
  }
  ASSIGN_OR_RETURN(const std::vector<report::OutputTask> detected,
                   report::DetectTasks(work, tasks));
  std::vector<size_t> head_outputs;
  for (const report::OutputTask& t : detected) {
    if (t.kind != report::TaskKind::kDetection || t.postprocess ||
        t.role != report::DetectionRole::kBoxes || !t.logits) {
      continue;
    }
    head_outputs.push_back(static_cast<size_t>(t.boxes));
    head_outputs.push_back(static_cast<size_t>(t.scores));
  }
  if (head_outputs.empty()) return plan;
  // Op indices are the folded model's, as the quantizer's rules take them.
  ASSIGN_OR_RETURN(const quantizer::FoldedModel folded,
                   quantizer::FoldedModel::Fold(work));
  const ir::Subgraph& sg = folded.model().subgraphs[0];
  const ir::Graph graph(sg);
  ASSIGN_OR_RETURN(
      const std::vector<std::optional<quantizer::UserRequest>> requests,
      quantizer::ResolveRequests(sg, options));
  std::set<int> head;
  std::vector<int32_t> pending;
  for (size_t j : head_outputs) {
    if (j < sg.outputs.size()) pending.push_back(sg.outputs[j]);
  }
  // Back from the outputs through the ops that only move values (RESHAPE
  // and its kin, CONCATENATION, PACK: one range shared by any number of
  // inputs) to the ops that compute them.
  while (!pending.empty()) {
    const int p = graph.producer(pending.back());
    pending.pop_back();
    if (p < 0 || !head.insert(p).second) continue;
    const ir::Operator& op = sg.operators[static_cast<size_t>(p)];
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    const std::optional<quantizer::OpQuantSpec> spec =
        quantizer::GetOpQuantSpec(op.kind);
    const bool joins = spec.has_value() &&
                       spec->output == quantizer::OutputRule::kSharedInputs &&
                       info.max_inputs < 0;
    if (!info.Has(ir::op_flags::kShapeOnly) && !joins) continue;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      const bool data = spec.has_value() ? quantizer::RoleOf(*spec, i) ==
                                               quantizer::Role::kActivation
                                         : i == 0;
      if (data && op.inputs[i] >= 0) pending.push_back(op.inputs[i]);
    }
  }
  for (int p : head) {
    if (static_cast<size_t>(p) < requests.size() &&
        requests[static_cast<size_t>(p)].has_value()) {
      continue;
    }
    plan.rules.push_back(
        {std::to_string(p), "float", kDetectorHeadFloatReason});
    plan.ops.push_back(absl::StrCat(
        "op ", p, " ",
        ir::GetOpInfo(sg.operators[static_cast<size_t>(p)].kind).name));
  }
  return plan;
}

}  // namespace qforge::pipeline
