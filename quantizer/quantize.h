// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// From a float model and calibration statistics to a quantized model.
//   int8     full integer: asymmetric int8 activations, per-channel
//            symmetric int8 weights, int32 bias
//   int16x8  symmetric int16 activations, int8 weights, int64 bias for
//            CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED
//   dynamic  int8 weights only; activations stay float (hybrid kernels)
//   float16  float16 weights behind DEQUANTIZE
// Ops without an integer form (or excluded) stay float; QUANTIZE and
// DEQUANTIZE ops are placed at the borders of float regions.
#ifndef QFORGE_QUANTIZER_QUANTIZE_H_
#define QFORGE_QUANTIZER_QUANTIZE_H_

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "ir/model.h"
#include "quantizer/options.h"

namespace qforge::quantizer {

// Fails (InvalidArgument) on a model qforge cannot quantize whatever the
// options: no subgraph, or already quantized. Quantize() checks it too; the
// CLI calls it first, before spending time on calibration.
absl::Status CheckFloatModel(const ir::Model& model);

// `stats` is required for int8 / int16x8 and ignored by dynamic / float16.
// Errors: InvalidArgument for NaN/Inf weights, an already quantized model,
// missing statistics; Unimplemented (exit code 3) for --strict failures.
absl::StatusOr<QuantizeResult> Quantize(const ir::Model& model,
                                        const calibration::StatsFile* stats,
                                        const QuantizeOptions& options);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_QUANTIZE_H_
