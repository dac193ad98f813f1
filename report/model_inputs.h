// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// One sample for two models: the float model's inputs and the quantized
// model's differ in type when the quantized model takes integers
// (--input-type int8). Float data is quantized with the input's scale and
// zero point (round half away from zero, clamped, as TFLite's QUANTIZE);
// integer data is dequantized for a float input.
#ifndef QFORGE_REPORT_MODEL_INPUTS_H_
#define QFORGE_REPORT_MODEL_INPUTS_H_

#include "absl/status/statusor.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "report/metrics.h"

namespace qforge::report {

// The per-tensor quantization of an integer tensor (qmin/qmax from its
// type); an error naming the tensor when it has no single scale.
absl::StatusOr<QuantGrid> TensorGrid(const ir::Tensor& t);

// `given` is data for input tensor `from` (of another model); returns it
// as input tensor `to` takes it.
absl::StatusOr<ir::HostTensor> ConvertInput(const ir::HostTensor& given,
                                            const ir::Tensor& from,
                                            const ir::Tensor& to);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_MODEL_INPUTS_H_
