// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/model_inputs.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace qforge::report {
namespace {

bool IntegerType(ir::DataType t) {
  return t == ir::DataType::kInt8 || t == ir::DataType::kUInt8 ||
         t == ir::DataType::kInt16;
}

}  // namespace

absl::StatusOr<QuantGrid> TensorGrid(const ir::Tensor& t) {
  if (!t.quantization.has_value() || t.quantization->scale.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("tensor '", t.name, "' is ", ir::DataTypeName(t.type),
                     " without a per-tensor scale"));
  }
  QuantGrid g;
  g.scale = t.quantization->scale[0];
  g.zero_point =
      t.quantization->zero_point.empty() ? 0 : t.quantization->zero_point[0];
  switch (t.type) {
    case ir::DataType::kUInt8:
      g.qmin = 0, g.qmax = 255;
      break;
    case ir::DataType::kInt16:
      g.qmin = -32768, g.qmax = 32767;
      break;
    default:
      g.qmin = -128, g.qmax = 127;
      break;
  }
  return g;
}

namespace {

template <typename T>
void QuantizeInto(absl::Span<const float> in, const QuantGrid& g, T* out) {
  for (size_t i = 0; i < in.size(); ++i) {
    // As numerics::QuantizeValue: x / scale, rounded half away from zero.
    const double q =
        std::round(static_cast<double>(in[i]) /
                   static_cast<double>(static_cast<float>(g.scale))) +
        static_cast<double>(g.zero_point);
    out[i] = static_cast<T>(std::clamp<double>(q, static_cast<double>(g.qmin),
                                               static_cast<double>(g.qmax)));
  }
}

template <typename T>
void DequantizeInto(const T* in, size_t n, const QuantGrid& g, float* out) {
  for (size_t i = 0; i < n; ++i) {
    out[i] =
        static_cast<float>(g.scale * static_cast<double>(in[i] - g.zero_point));
  }
}

}  // namespace

absl::StatusOr<ir::HostTensor> ConvertInput(const ir::HostTensor& given,
                                            const ir::Tensor& from,
                                            const ir::Tensor& to) {
  if (given.type() == to.type) return given;
  if (given.type() == ir::DataType::kFloat32 && IntegerType(to.type)) {
    absl::StatusOr<QuantGrid> g = TensorGrid(to);
    if (!g.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("model input: ", g.status().message(),
                       ": cannot convert sample data"));
    }
    ir::HostTensor out(to.type, given.shape());
    absl::Span<const float> in = given.Flat<float>();
    switch (to.type) {
      case ir::DataType::kUInt8:
        QuantizeInto(in, *g, out.Flat<uint8_t>().data());
        break;
      case ir::DataType::kInt16:
        QuantizeInto(in, *g, out.Flat<int16_t>().data());
        break;
      default:
        QuantizeInto(in, *g, out.Flat<int8_t>().data());
        break;
    }
    return out;
  }
  if (IntegerType(given.type()) && to.type == ir::DataType::kFloat32) {
    absl::StatusOr<QuantGrid> g = TensorGrid(from);
    if (!g.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("model input: ", g.status().message(),
                       ": cannot convert sample data"));
    }
    ir::HostTensor out(ir::DataType::kFloat32, given.shape());
    float* o = out.Flat<float>().data();
    const size_t n = static_cast<size_t>(given.NumElements());
    switch (given.type()) {
      case ir::DataType::kUInt8:
        DequantizeInto(given.Flat<uint8_t>().data(), n, *g, o);
        break;
      case ir::DataType::kInt16:
        DequantizeInto(given.Flat<int16_t>().data(), n, *g, o);
        break;
      default:
        DequantizeInto(given.Flat<int8_t>().data(), n, *g, o);
        break;
    }
    return out;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "input '", to.name, "' takes ", ir::DataTypeName(to.type),
      ", the data is ", ir::DataTypeName(given.type()), ": no conversion"));
}

}  // namespace qforge::report
