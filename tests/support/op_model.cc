// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/support/op_model.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "ir/validate.h"
#include "runtime/interpreter.h"

namespace qforge::testing {

template <>
ir::DataType OpModel::TypeOf<float>() {
  return ir::DataType::kFloat32;
}
template <>
ir::DataType OpModel::TypeOf<int32_t>() {
  return ir::DataType::kInt32;
}
template <>
ir::DataType OpModel::TypeOf<int64_t>() {
  return ir::DataType::kInt64;
}
template <>
ir::DataType OpModel::TypeOf<int16_t>() {
  return ir::DataType::kInt16;
}
template <>
ir::DataType OpModel::TypeOf<int8_t>() {
  return ir::DataType::kInt8;
}
template <>
ir::DataType OpModel::TypeOf<uint8_t>() {
  return ir::DataType::kUInt8;
}
template <>
ir::DataType OpModel::TypeOf<bool>() {
  return ir::DataType::kBool;
}
template <>
ir::DataType OpModel::TypeOf<uint16_t>() {
  return ir::DataType::kFloat16;
}

OpModel::OpModel() {
  model_.buffers.emplace_back();  // the empty sentinel
  model_.subgraphs.emplace_back();
}

int OpModel::AddTensor(ir::DataType type, std::vector<int32_t> shape,
                       std::string name) {
  ir::Subgraph& sg = model_.subgraphs[0];
  ir::Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.name = name.empty() ? absl::StrCat("t", sg.tensors.size()) : name;
  sg.tensors.push_back(std::move(t));
  return static_cast<int>(sg.tensors.size() - 1);
}

int OpModel::Input(ir::DataType type, std::vector<int32_t> shape,
                   std::string name) {
  const int t = AddTensor(type, std::move(shape), std::move(name));
  model_.subgraphs[0].inputs.push_back(t);
  return t;
}

int OpModel::Tensor(ir::DataType type, std::vector<int32_t> shape,
                    std::string name) {
  return AddTensor(type, std::move(shape), std::move(name));
}

int OpModel::Output(ir::DataType type, std::vector<int32_t> shape,
                    std::string name) {
  const int t = AddTensor(type, std::move(shape), std::move(name));
  model_.subgraphs[0].outputs.push_back(t);
  return t;
}

int OpModel::ConstantBytes(ir::DataType type, std::vector<int32_t> shape,
                           std::vector<uint8_t> bytes, std::string name) {
  const int t = AddTensor(type, std::move(shape), std::move(name));
  model_.buffers.push_back(ir::Buffer{std::move(bytes), false});
  model_.subgraphs[0].tensors[t].buffer =
      static_cast<uint32_t>(model_.buffers.size() - 1);
  return t;
}

void OpModel::Op(ir::OpKind kind, std::vector<int32_t> inputs,
                 std::vector<int32_t> outputs, ir::Options options) {
  ir::Operator op;
  op.kind = kind;
  op.builtin_code = ir::GetOpInfo(kind).builtin_code;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  op.options = std::move(options);
  model_.subgraphs[0].operators.push_back(std::move(op));
}

absl::StatusOr<std::vector<ir::HostTensor>> OpModel::Run(
    const std::vector<ir::HostTensor>& inputs, int threads,
    const numerics::Modes& modes) {
  RETURN_IF_ERROR(ir::ValidateModel(model_));
  runtime::InterpreterOptions options;
  options.threads = threads;
  options.numerics = modes;
  ASSIGN_OR_RETURN(std::unique_ptr<runtime::Interpreter> interpreter,
                   runtime::Interpreter::Create(model_, options));
  RETURN_IF_ERROR(interpreter->Run(inputs));
  std::vector<ir::HostTensor> out;
  for (int i = 0; i < interpreter->num_outputs(); ++i) {
    out.push_back(interpreter->OutputHost(i));
  }
  return out;
}

}  // namespace qforge::testing
