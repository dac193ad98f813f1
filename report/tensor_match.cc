// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/tensor_match.h"

#include <cstring>

#include "absl/strings/match.h"

namespace qforge::report {
namespace {

bool IsConstant(const ir::Model& m, const ir::Tensor& t) {
  return t.buffer != 0 && t.buffer < m.buffers.size() &&
         !m.buffers[t.buffer].data.empty();
}

constexpr const char* kSuffixes[] = {"_quantized", "_requantized", "_int"};

}  // namespace

std::map<std::string, int> FloatActivationsByName(const ir::Model& model) {
  std::map<std::string, int> out;
  if (model.subgraphs.empty()) return out;
  const ir::Subgraph& sg = model.subgraphs[0];
  for (size_t i = 0; i < sg.tensors.size(); ++i) {
    const ir::Tensor& t = sg.tensors[i];
    if (t.type != ir::DataType::kFloat32 || IsConstant(model, t) ||
        t.name.empty()) {
      continue;
    }
    out.emplace(t.name, static_cast<int>(i));  // the first of equal names
  }
  return out;
}

std::string MatchFloatName(const std::string& name,
                           const std::map<std::string, int>& float_tensors) {
  if (float_tensors.count(name)) return name;
  for (const char* suffix : kSuffixes) {
    if (absl::EndsWith(name, suffix)) {
      std::string base = name.substr(0, name.size() - std::strlen(suffix));
      if (float_tensors.count(base)) return base;
    }
  }
  return "";
}

bool IsQuantizedActivation(const ir::Model& model, const ir::Tensor& t) {
  return (t.type == ir::DataType::kInt8 || t.type == ir::DataType::kUInt8 ||
          t.type == ir::DataType::kInt16) &&
         !IsConstant(model, t) && t.quantization.has_value() &&
         t.quantization->scale.size() == 1 &&
         t.quantization->zero_point.size() <= 1;
}

}  // namespace qforge::report
