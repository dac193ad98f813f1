// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/fast_path_plan.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/graph.h"
#include "quantizer/folded_model.h"
#include "quantizer/plan.h"
#include "quantizer/quantize.h"
#include "quantizer/sparse_weights.h"
#include "runtime/fast_path.h"
#include "runtime/latency.h"
#include "runtime/legality.h"

namespace qforge::pipeline {

absl::StatusOr<FastPathPlan> PlanForFastPath(
    const ir::Model& work, const calibration::StatsFile* stats,
    const quantizer::QuantizeOptions& options) {
  FastPathPlan plan;
  // int8 only: a user who asks for int16x8 knows it runs in the builtin
  // kernels (docs/runtimes.md), and would get a float model.
  if (options.runtime != runtime::Runtime::kLitert ||
      options.scheme != quantizer::Scheme::kInt8) {
    return plan;
  }
  ASSIGN_OR_RETURN(const quantizer::QuantizeResult asked,
                   quantizer::Quantize(work, stats, options));
  const runtime::LatencyEstimate before =
      runtime::EstimateLitertLatency(asked.model);
  plan.ms_before = plan.ms_after = before.ms;
  // The written model's ops off XNNPACK, by their first output's name, or
  // by the model output's name when the quantizer renamed the op's output
  // and a converter (DEQUANTIZE) took over the name.
  std::set<std::string> builtin_output;
  const ir::Subgraph& qsg = asked.model.subgraphs[0];
  const ir::Graph graph(qsg);
  auto name = [&](int32_t t) {
    return qsg.tensors[static_cast<size_t>(t)].name;
  };
  for (const runtime::OpLatency& l : before.ops) {
    const ir::Operator& op = qsg.operators[static_cast<size_t>(l.op_index)];
    if (l.xnnpack || op.outputs.empty() || op.outputs[0] < 0) continue;
    builtin_output.insert(name(op.outputs[0]));
    for (int c : graph.consumers(op.outputs[0])) {
      const ir::Operator& next = qsg.operators[static_cast<size_t>(c)];
      if (ir::GetOpInfo(next.kind).Has(ir::op_flags::kConverter) &&
          !next.outputs.empty() && next.outputs[0] >= 0) {
        builtin_output.insert(name(next.outputs[0]));
      }
    }
  }
  // Candidates: int8 ops off XNNPACK whose float form runs on it, and whose
  // precision the user did not ask for. Not int4 ones: --weight-bits 4 asks
  // for the size, which float would undo (4-8x the weight bytes).
  ASSIGN_OR_RETURN(const quantizer::FoldedModel folded,
                   quantizer::FoldedModel::Fold(work));
  const ir::Subgraph& fsg = folded.model().subgraphs[0];
  ASSIGN_OR_RETURN(
      const std::vector<std::optional<quantizer::UserRequest>> requests,
      quantizer::ResolveRequests(fsg, options));
  // Integer model inputs and outputs asked for stay integer: the ops that
  // read or write them are not candidates.
  std::set<int32_t> integer_io;
  if (options.input_type != ir::DataType::kFloat32) {
    integer_io.insert(fsg.inputs.begin(), fsg.inputs.end());
  }
  if (options.output_type != ir::DataType::kFloat32) {
    integer_io.insert(fsg.outputs.begin(), fsg.outputs.end());
  }
  auto touches_integer_io = [&](const ir::Operator& op) {
    for (const std::vector<int32_t>* list : {&op.inputs, &op.outputs}) {
      for (int32_t t : *list) {
        if (integer_io.count(t)) return true;
      }
    }
    return false;
  };
  quantizer::QuantizeOptions trial = options;
  std::set<size_t> floated;
  for (size_t j = 0; j < asked.op_choices.size() && j < fsg.operators.size();
       ++j) {
    const quantizer::QuantizeResult::OpChoice& c = asked.op_choices[j];
    if (c.precision != "int8" || builtin_output.count(c.output) == 0 ||
        (j < requests.size() && requests[j].has_value()) ||
        touches_integer_io(fsg.operators[j])) {
      continue;
    }
    runtime::legality::OpForm form =
        runtime::legality::FormOf(folded.model(), fsg, fsg.operators[j]);
    if (!runtime::fast_path::XnnpackRefusal(form).empty()) continue;
    floated.insert(j);
  }
  // A masked-attention ADD the quantizer repaired (its mask's range
  // clamped onto the int8 grid), all of whose readers are SOFTMAXes kept
  // float here, goes float with them: the clamp's gap coarsens the sum's
  // int8 grid, and in int8 the ADD pays a QUANTIZE of the mask and a
  // DEQUANTIZE of the sum where float pays one DEQUANTIZE of the scores.
  const ir::Graph fgraph(fsg);
  // (The planner clamps a mask only on an ADD whose readers are SOFTMAXes.)
  for (const quantizer::Repair& r : asked.repairs) {
    const size_t j = static_cast<size_t>(r.op_index);
    if (!r.mask_clamped || r.op_index < 0 || j >= fsg.operators.size() ||
        floated.count(j) || (j < requests.size() && requests[j].has_value())) {
      continue;
    }
    const ir::Operator& op = fsg.operators[j];
    if (op.outputs.size() != 1 || op.outputs[0] < 0 || touches_integer_io(op)) {
      continue;
    }
    const absl::Span<const int> readers = fgraph.consumers(op.outputs[0]);
    const bool softmax_floated =
        !readers.empty() &&
        std::all_of(readers.begin(), readers.end(), [&](int c) {
          return floated.count(static_cast<size_t>(c)) > 0;
        });
    if (softmax_floated) floated.insert(j);
  }
  for (size_t j : floated) {
    trial.rules.push_back({std::to_string(j), "float", kFastPathFloatReason});
    plan.ops.push_back(absl::StrCat("op ", j, " ", asked.op_choices[j].op));
  }
  if (!plan.ops.empty()) {
    ASSIGN_OR_RETURN(const quantizer::QuantizeResult kept,
                     quantizer::Quantize(work, stats, trial));
    const double after = runtime::EstimateLitertLatency(kept.model).ms;
    if (after < before.ms) {
      plan.ms_after = after;
      plan.rules.assign(
          trial.rules.end() - static_cast<ptrdiff_t>(plan.ops.size()),
          trial.rules.end());
    } else {
      plan.ops.clear();
    }
  }
  // Sparse convolutions: XNNPACK's sparse float kernels against its dense
  // int8 ones. They run only in a float graph (runtime/latency.h), so the
  // trial keeps every integer op float, the sparse convolutions with their
  // sparse weights.
  const quantizer::SparseChains sparse = quantizer::FindSparseChains(work);
  if (sparse.empty()) return plan;
  const size_t n = std::min(asked.op_choices.size(), fsg.operators.size());
  std::vector<quantizer::PrecisionRule> sparse_rules, with_rules;
  for (size_t j = 0; j < n; ++j) {
    const quantizer::QuantizeResult::OpChoice& c = asked.op_choices[j];
    const ir::Operator& op = fsg.operators[j];
    if (c.precision == "float") continue;
    if ((j < requests.size() && requests[j].has_value()) ||
        touches_integer_io(op)) {
      return plan;  // asked integer: the graph cannot be float
    }
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    bool sparse_conv = false;
    if (info.weight_input >= 0 &&
        info.weight_layout == ir::WeightLayout::kConv &&
        static_cast<size_t>(info.weight_input) < op.inputs.size()) {
      const int32_t w = op.inputs[static_cast<size_t>(info.weight_input)];
      const std::vector<int32_t>& shape =
          fsg.tensors[static_cast<size_t>(w)].shape;
      sparse_conv = sparse.count(w) > 0 && shape.size() == 4 && shape[1] == 1 &&
                    shape[2] == 1;
    }
    if (sparse_conv) {
      sparse_rules.push_back({std::to_string(j), "float", kSparseFloatReason});
      plan.sparse_ops.push_back(absl::StrCat("op ", j, " ", c.op));
    } else {
      with_rules.push_back({std::to_string(j), "float", kSparseBetweenReason});
    }
  }
  if (sparse_rules.empty()) return plan;
  trial = options;
  trial.rules.insert(trial.rules.end(), sparse_rules.begin(),
                     sparse_rules.end());
  trial.rules.insert(trial.rules.end(), with_rules.begin(), with_rules.end());
  ASSIGN_OR_RETURN(const quantizer::QuantizeResult kept,
                   quantizer::Quantize(work, stats, trial));
  const double after = runtime::EstimateLitertLatency(kept.model).ms;
  if (after >= plan.ms_after) {
    plan.sparse_ops.clear();
    return plan;
  }
  // Replaces the plan so far: every op is float now.
  plan.ops.clear();
  plan.rules = sparse_rules;
  plan.rules.insert(plan.rules.end(), with_rules.begin(), with_rules.end());
  plan.between_ops = with_rules.size();
  plan.ms_after = after;
  return plan;
}

bool KeptFloatForSpeed(const std::string& reason) {
  return reason.find(kFastPathFloatReason) != std::string::npos ||
         reason.find(kSparseFloatReason) != std::string::npos ||
         reason.find(kSparseBetweenReason) != std::string::npos;
}

}  // namespace qforge::pipeline
