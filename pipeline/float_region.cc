// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/float_region.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/kernels/custom/custom.h"
#include "runtime/unrunnable.h"

namespace qforge::pipeline {
namespace {

constexpr char kNoIntegerForm[] = "no integer form in qforge";

// The name inside the first '...' of `text`, or "".
std::string QuotedName(const std::string& text) {
  const size_t a = text.find('\'');
  if (a == std::string::npos) return "";
  const size_t b = text.find('\'', a + 1);
  return b == std::string::npos ? "" : text.substr(a + 1, b - a - 1);
}

}  // namespace

std::vector<std::string> UncalibratedNotes(const ir::Model& model) {
  std::vector<std::string> notes;
  if (model.subgraphs.empty()) return notes;
  const std::vector<runtime::SkippedOp> skipped =
      runtime::UnrunnableOps(model, 0);
  std::map<int, std::vector<std::string>> after;  // root -> dependents
  for (const runtime::SkippedOp& k : skipped) {
    if (k.root != k.op_index)
      after[k.root].push_back(absl::StrCat(k.op_index, " ", k.op_name));
  }
  for (const runtime::SkippedOp& k : skipped) {
    if (k.root != k.op_index) continue;
    std::string line =
        absl::StrCat("not calibrated: op ", k.op_index, " ", k.op_name,
                     " (qforge has no kernel for it)");
    const std::vector<std::string>& deps = after[k.op_index];
    if (!deps.empty()) {
      absl::StrAppend(&line, " and the ", deps.size(),
                      deps.size() == 1 ? " op" : " ops",
                      " that depend on it: ", absl::StrJoin(deps, ", "));
    }
    notes.push_back(std::move(line));
  }
  return notes;
}

std::string ExplainKeptFloat(const ir::Model& float_model,
                             const quantizer::KeptFloat& k) {
  if (k.reason == kNoIntegerForm) {
    const std::string note = runtime::CustomOpRuntimeNote(k.op_name);
    if (!note.empty()) return note;
  }
  if (float_model.subgraphs.empty()) return k.reason;
  const ir::Subgraph& sg = float_model.subgraphs[0];
  // Tensors the unrunnable region produces -> the op it starts from.
  std::map<std::string, const runtime::SkippedOp*> blocked;
  const std::vector<runtime::SkippedOp> skipped =
      runtime::UnrunnableOps(float_model, 0);
  bool is_root_code = false;
  for (const runtime::SkippedOp& s : skipped) {
    for (int32_t out : sg.operators[static_cast<size_t>(s.op_index)].outputs)
      blocked.emplace(sg.tensors[static_cast<size_t>(out)].name, &s);
    is_root_code |= s.root == s.op_index && s.op_name == k.op_name;
  }
  if (k.reason == kNoIntegerForm && is_root_code) {
    return "qforge has no kernel for it: not calibrated";
  }
  if (k.reason.rfind("no calibration statistics", 0) == 0) {
    auto it = blocked.find(QuotedName(k.reason));
    if (it != blocked.end()) {
      const runtime::SkippedOp& s = *it->second;
      const ir::Operator& root = sg.operators[static_cast<size_t>(s.root)];
      const std::string out =
          root.outputs.empty() || root.outputs[0] < 0
              ? ""
              : absl::StrCat(
                    " (output '",
                    sg.tensors[static_cast<size_t>(root.outputs[0])].name,
                    "')");
      return absl::StrCat(k.reason, ": downstream of ", s.root_name, out,
                          ", which qforge cannot run");
    }
  }
  return k.reason;
}

}  // namespace qforge::pipeline
