// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/fast_path_plan.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/graph.h"
#include "quantizer/folded_model.h"
#include "quantizer/graph_edit.h"
#include "quantizer/plan.h"
#include "quantizer/quantize.h"
#include "quantizer/sparse_weights.h"
#include "runtime/fast_path.h"
#include "runtime/latency.h"
#include "runtime/legality.h"

namespace qforge::pipeline {

namespace {

// The int8 ops between float ones: each connected group of `eligible` ops
// not in `in_float` (connected through the tensors one writes and another
// reads) whose every other producer and consumer is float, and that reads
// no model input and writes no model output. Rules keeping them float.
template <typename Eligible>
std::vector<quantizer::PrecisionRule> FloatBetween(
    const ir::Model& model, const std::vector<bool>& in_float,
    const Eligible& eligible) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const size_t n = in_float.size();
  const ir::Graph graph(sg);
  std::vector<int> group(n, -1);
  std::vector<std::vector<size_t>> groups;
  auto candidate = [&](int j) {
    return j >= 0 && static_cast<size_t>(j) < n &&
           !in_float[static_cast<size_t>(j)] &&
           eligible(static_cast<size_t>(j));
  };
  for (size_t start = 0; start < n; ++start) {
    if (!candidate(static_cast<int>(start)) || group[start] >= 0) continue;
    const int g = static_cast<int>(groups.size());
    groups.emplace_back();
    std::vector<size_t> stack = {start};
    group[start] = g;
    bool closed = true;
    while (!stack.empty()) {
      const size_t j = stack.back();
      stack.pop_back();
      groups.back().push_back(j);
      const ir::Operator& op = sg.operators[j];
      std::vector<int> neighbours;
      for (int32_t t : op.inputs) {
        if (t < 0 ||
            quantizer::IsConstant(model, sg.tensors[static_cast<size_t>(t)])) {
          continue;
        }
        const int p = graph.producer(t);
        if (p < 0) closed = false;  // a model input
        neighbours.push_back(p);
      }
      for (int32_t t : op.outputs) {
        if (t < 0) continue;
        if (std::find(sg.outputs.begin(), sg.outputs.end(), t) !=
            sg.outputs.end()) {
          closed = false;
        }
        for (int c : graph.consumers(t)) neighbours.push_back(c);
      }
      for (int k : neighbours) {
        if (k < 0 || static_cast<size_t>(k) >= n) continue;
        if (candidate(k)) {
          if (group[static_cast<size_t>(k)] < 0) {
            group[static_cast<size_t>(k)] = g;
            stack.push_back(static_cast<size_t>(k));
          }
        } else if (!in_float[static_cast<size_t>(k)]) {
          closed = false;  // an integer op that is not a candidate
        }
      }
    }
    if (!closed) groups.back().clear();
  }
  std::vector<size_t> ops;
  for (const std::vector<size_t>& g : groups) {
    ops.insert(ops.end(), g.begin(), g.end());
  }
  std::sort(ops.begin(), ops.end());
  std::vector<quantizer::PrecisionRule> rules;
  for (size_t j : ops) {
    rules.push_back({std::to_string(j), "float", kSparseBetweenReason});
  }
  return rules;
}

}  // namespace

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
  // Candidates: integer ops off XNNPACK whose float form runs on it, and
  // whose precision the user did not ask for.
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
  for (size_t j = 0; j < asked.op_choices.size() && j < fsg.operators.size();
       ++j) {
    const quantizer::QuantizeResult::OpChoice& c = asked.op_choices[j];
    if ((c.precision != "int8" && c.precision != "int4") ||
        builtin_output.count(c.output) == 0 ||
        (j < requests.size() && requests[j].has_value()) ||
        touches_integer_io(fsg.operators[j])) {
      continue;
    }
    runtime::legality::OpForm form =
        runtime::legality::FormOf(folded.model(), fsg, fsg.operators[j]);
    if (!runtime::fast_path::XnnpackRefusal(form).empty()) continue;
    trial.rules.push_back({std::to_string(j), "float", kFastPathFloatReason});
    plan.ops.push_back(absl::StrCat("op ", j, " ", c.op));
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
  // int8 ones, all of them at once; then with the int8 ops between them
  // float too, whose converters would cost more than their int8 saves.
  const quantizer::SparseChains sparse = quantizer::FindSparseChains(work);
  if (sparse.empty()) return plan;
  const size_t n = std::min(asked.op_choices.size(), fsg.operators.size());
  auto eligible = [&](size_t j) {
    const quantizer::QuantizeResult::OpChoice& c = asked.op_choices[j];
    return (c.precision == "int8" || c.precision == "int4") &&
           !(j < requests.size() && requests[j].has_value()) &&
           !touches_integer_io(fsg.operators[j]);
  };
  // The 1x1 CONV_2Ds with sparse weights (the ones XNNPACK's sparse
  // kernels compute: runtime/latency.h).
  std::vector<bool> in_float(n, false);
  for (size_t j = 0; j < n; ++j) {
    const ir::Operator& op = fsg.operators[j];
    const ir::OpInfo& info = ir::GetOpInfo(op.kind);
    in_float[j] = asked.op_choices[j].precision == "float";
    if (!eligible(j) || info.weight_input < 0 ||
        info.weight_layout != ir::WeightLayout::kConv ||
        static_cast<size_t>(info.weight_input) >= op.inputs.size()) {
      continue;
    }
    const int32_t w = op.inputs[static_cast<size_t>(info.weight_input)];
    const std::vector<int32_t>& shape =
        fsg.tensors[static_cast<size_t>(w)].shape;
    if (sparse.count(w) && shape.size() == 4 && shape[1] == 1 &&
        shape[2] == 1) {
      in_float[j] = true;
      plan.sparse_ops.push_back(
          absl::StrCat("op ", j, " ", asked.op_choices[j].op));
    }
  }
  if (plan.sparse_ops.empty()) return plan;
  std::vector<quantizer::PrecisionRule> sparse_rules;
  for (size_t j = 0; j < n; ++j) {
    if (in_float[j] && asked.op_choices[j].precision != "float") {
      sparse_rules.push_back({std::to_string(j), "float", kSparseFloatReason});
    }
  }
  const std::vector<quantizer::PrecisionRule> between_rules =
      FloatBetween(folded.model(), in_float, eligible);
  double best = plan.ms_after;
  std::vector<quantizer::PrecisionRule> chosen;
  for (int grown = 0; grown < 2; ++grown) {
    if (grown == 1 && between_rules.empty()) break;
    trial = options;
    trial.rules.insert(trial.rules.end(), plan.rules.begin(), plan.rules.end());
    trial.rules.insert(trial.rules.end(), sparse_rules.begin(),
                       sparse_rules.end());
    if (grown == 1) {
      trial.rules.insert(trial.rules.end(), between_rules.begin(),
                         between_rules.end());
    }
    ASSIGN_OR_RETURN(const quantizer::QuantizeResult kept,
                     quantizer::Quantize(work, stats, trial));
    const double after = runtime::EstimateLitertLatency(kept.model).ms;
    if (after < best) {
      best = after;
      chosen.assign(
          trial.rules.begin() +
              static_cast<ptrdiff_t>(options.rules.size() + plan.rules.size()),
          trial.rules.end());
      plan.between_ops = grown == 1 ? between_rules.size() : 0;
    }
  }
  if (chosen.empty()) {
    plan.sparse_ops.clear();
    return plan;
  }
  plan.ms_after = best;
  plan.rules.insert(plan.rules.end(), chosen.begin(), chosen.end());
  return plan;
}

bool KeptFloatForSpeed(const std::string& reason) {
  return reason.find(kFastPathFloatReason) != std::string::npos ||
         reason.find(kSparseFloatReason) != std::string::npos ||
         reason.find(kSparseBetweenReason) != std::string::npos;
}

}  // namespace qforge::pipeline
