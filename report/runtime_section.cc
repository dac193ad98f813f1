// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/runtime_section.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "report/float_ops.h"
#include "runtime/latency.h"

namespace qforge::report {

void RuntimeOpGrouper::Add(int op_index, const std::string& op,
                           const std::string& reason) {
  auto [it, added] = index_.try_emplace({op, reason}, groups_.size());
  if (added) groups_.push_back({op, {}, reason});
  if (op_index >= 0) groups_[it->second].op_indices.push_back(op_index);
}

const char* RuntimeDisplayName(runtime::Runtime runtime) {
  switch (runtime) {
    case runtime::Runtime::kLitert:
      return "LiteRT";
    case runtime::Runtime::kTflm:
      return "TFLite Micro";
    case runtime::Runtime::kArmnn:
      return "Arm NN 20.08";
  }
  return "LiteRT";
}

std::string OpIndexList(const std::vector<int>& indices, size_t max) {
  std::string out = indices.size() == 1 ? "op " : "ops ";
  for (size_t i = 0; i < indices.size() && i < max; ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ", indices[i]);
  }
  if (indices.size() > max) {
    absl::StrAppend(&out, ", ... (", indices.size(), " ops)");
  }
  return out;
}

std::string GroupLine(const RuntimeOpGroup& g) {
  if (g.op_indices.empty()) return absl::StrCat("model: ", g.reason);
  return absl::StrCat(
      g.op,
      g.op_indices.size() > 1 ? absl::StrCat(" x", g.op_indices.size()) : "",
      " (", OpIndexList(g.op_indices), "): ", g.reason);
}

std::string RuntimeHeadline(const RuntimeSection& s) {
  if (s.profile == runtime::Runtime::kLitert) {
    return absl::StrFormat(
        "LiteRT, estimated on one thread: float model %.3f ms, quantized "
        "%.3f ms; %d of %d ops on XNNPACK in %d partitions",
        s.float_ms, s.quant_ms, s.xnnpack_ops, s.ops, s.partitions);
  }
  // Ops breaking at least one rule, and rules of the model as a whole.
  std::set<int> bad;
  bool whole = false;
  for (const RuntimeOpGroup& g : s.unsupported) {
    whole |= g.op_indices.empty();
    bad.insert(g.op_indices.begin(), g.op_indices.end());
  }
  std::string out = RuntimeDisplayName(s.profile);
  if (bad.empty() && !whole) {
    absl::StrAppend(&out, ": runs every op");
  } else if (bad.empty()) {
    absl::StrAppend(&out, ": cannot run the model as a whole");
  } else {
    absl::StrAppend(&out, ": cannot run ", bad.size(), " of ", s.ops, " ops",
                    whole ? " nor the model as a whole" : "");
  }
  if (s.profile == runtime::Runtime::kTflm) {
    size_t floats = 0;
    for (const RuntimeOpGroup& g : s.not_integer) {
      floats += g.op_indices.size();
    }
    absl::StrAppend(&out, floats == 0
                              ? "; every op is integer"
                              : absl::StrCat("; ", floats, " ops not integer"));
  }
  return out;
}

RuntimeSection DescribeRuntime(const ir::Model& float_model,
                               const ir::Model& quant_model,
                               runtime::Runtime rt) {
  RuntimeSection s;
  s.profile = rt;
  if (!quant_model.subgraphs.empty()) {
    s.ops = static_cast<int>(quant_model.subgraphs[0].operators.size());
  }
  switch (rt) {
    case runtime::Runtime::kLitert: {
      s.float_ms = runtime::EstimateLitertLatency(float_model).ms;
      const runtime::LatencyEstimate est =
          runtime::EstimateLitertLatency(quant_model);
      s.quant_ms = est.ms;
      s.partitions = est.partitions;
      RuntimeOpGrouper off;
      for (const runtime::OpLatency& op : est.ops) {
        if (op.xnnpack) {
          ++s.xnnpack_ops;
        } else {
          off.Add(op.op_index, op.op, op.why_builtin);
        }
      }
      s.off_xnnpack = off.Take();
      return s;
    }
    case runtime::Runtime::kTflm:
    case runtime::Runtime::kArmnn: {
      RuntimeOpGrouper bad;
      for (const runtime::UnsupportedOp& u :
           runtime::FindUnsupportedOps(rt, quant_model)) {
        bad.Add(u.op_index, u.op, u.reason);
      }
      s.unsupported = bad.Take();
      if (rt == runtime::Runtime::kTflm) {
        RuntimeOpGrouper floats;
        for (const FloatOp& f : FindFloatOps(quant_model)) {
          floats.Add(f.op_index, f.op, "computes in float32");
        }
        s.not_integer = floats.Take();
      }
      return s;
    }
  }
  return s;
}

}  // namespace qforge::report
