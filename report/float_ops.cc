// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/float_ops.h"

#include "report/tensor_match.h"
#include "runtime/kernels/custom/custom.h"

namespace qforge::report {
namespace {

bool IsConstant(const ir::Model& m, const ir::Tensor& t) {
  return t.buffer != 0 && t.buffer < m.buffers.size() &&
         !m.buffers[t.buffer].data.empty();
}

bool IsFloatActivation(const ir::Model& m, const ir::Subgraph& sg,
                       int32_t index) {
  if (index < 0 || index >= static_cast<int32_t>(sg.tensors.size()))
    return false;
  const ir::Tensor& t = sg.tensors[index];
  return t.type == ir::DataType::kFloat32 && !IsConstant(m, t);
}

}  // namespace

bool HasIntegerActivations(const ir::Model& model) {
  if (model.subgraphs.empty()) return false;
  for (const ir::Tensor& t : model.subgraphs[0].tensors) {
    if (IsQuantizedActivation(model, t)) return true;
  }
  return false;
}

std::vector<FloatOp> FindFloatOps(const ir::Model& model) {
  std::vector<FloatOp> out;
  if (model.subgraphs.empty()) return out;
  const ir::Subgraph& sg = model.subgraphs[0];
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    const ir::Operator& op = sg.operators[i];
    if (ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter)) continue;
    bool float_io = false;
    for (int32_t t : op.inputs) float_io |= IsFloatActivation(model, sg, t);
    for (int32_t t : op.outputs) float_io |= IsFloatActivation(model, sg, t);
    if (!float_io) continue;
    FloatOp f;
    f.op_index = static_cast<int>(i);
    f.op = op.DisplayName();
    if (!op.outputs.empty() && op.outputs[0] >= 0)
      f.output = sg.tensors[op.outputs[0]].name;
    if (op.kind == ir::OpKind::kCustom) {
      f.reason = runtime::CustomOpRuntimeNote(op.custom_code);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace qforge::report
