// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Builds small single-op (or few-op) models in memory for kernel tests, and
// runs them through the interpreter.
//
//   OpModel m;
//   int x = m.Input(ir::DataType::kFloat32, {1, 4, 4, 3});
//   int w = m.Constant<float>({8, 3, 3, 3}, weights);
//   int y = m.Output(ir::DataType::kFloat32, {1, 4, 4, 8});
//   m.Op(ir::OpKind::kConv2D, {x, w, -1}, {y}, ir::Conv2DOptions{...});
//   auto out = m.Run({input});
#ifndef QFORGE_TESTS_SUPPORT_OP_MODEL_H_
#define QFORGE_TESTS_SUPPORT_OP_MODEL_H_

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "numerics/modes.h"

namespace qforge::testing {

class OpModel {
 public:
  OpModel();

  // A subgraph input.
  int Input(ir::DataType type, std::vector<int32_t> shape,
            std::string name = "");
  // A tensor some op produces; `Output` also makes it a subgraph output.
  int Tensor(ir::DataType type, std::vector<int32_t> shape,
             std::string name = "");
  int Output(ir::DataType type, std::vector<int32_t> shape,
             std::string name = "");
  // A constant with raw bytes / typed values.
  int ConstantBytes(ir::DataType type, std::vector<int32_t> shape,
                    std::vector<uint8_t> bytes, std::string name = "");
  template <typename T>
  int Constant(std::vector<int32_t> shape, const std::vector<T>& values,
               std::string name = "") {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return ConstantBytes(TypeOf<T>(), std::move(shape), std::move(bytes),
                         std::move(name));
  }
  // Adds an op to subgraph 0. Use -1 for an absent optional input.
  void Op(ir::OpKind kind, std::vector<int32_t> inputs,
          std::vector<int32_t> outputs, ir::Options options = {});

  ir::Model& model() { return model_; }
  ir::Tensor& tensor(int index) { return model_.subgraphs[0].tensors[index]; }

  // Validates the model, builds an interpreter (with numerics `modes`) and
  // runs it once.
  absl::StatusOr<std::vector<ir::HostTensor>> Run(
      const std::vector<ir::HostTensor>& inputs, int threads = 1,
      const numerics::Modes& modes = {});

  template <typename T>
  static ir::DataType TypeOf();

 private:
  int AddTensor(ir::DataType type, std::vector<int32_t> shape,
                std::string name);
  ir::Model model_;
};

// A tensor with the given values.
template <typename T>
ir::HostTensor MakeTensor(std::vector<int64_t> shape,
                          const std::vector<T>& values) {
  ir::HostTensor t(OpModel::TypeOf<T>(), std::move(shape));
  const size_t bytes = std::min(t.ByteSize(), values.size() * sizeof(T));
  if (bytes > 0) std::memcpy(t.data(), values.data(), bytes);
  return t;
}

template <typename T>
std::vector<T> Values(const ir::HostTensor& t) {
  auto flat = t.Flat<T>();
  return std::vector<T>(flat.begin(), flat.end());
}

// start, start + 1, ..., n values.
template <typename T = float>
std::vector<T> Iota(int n, T start = T{0}) {
  std::vector<T> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_SUPPORT_OP_MODEL_H_
