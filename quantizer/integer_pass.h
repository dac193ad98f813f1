// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The int8 / int16x8 rewrite of subgraph 0: quantizes every op that has an
// integer form (op_quant_spec), its weights and biases, and places
// QUANTIZE / DEQUANTIZE ops where float and integer regions meet.
#ifndef QFORGE_QUANTIZER_INTEGER_PASS_H_
#define QFORGE_QUANTIZER_INTEGER_PASS_H_

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "ir/model.h"
#include "numerics/quant_params.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/quantize.h"

namespace qforge::quantizer {

class IntegerPass {
 public:
  IntegerPass(ir::Model& model, const calibration::StatsFile& stats,
              const QuantizeOptions& options, const std::vector<bool>& excluded,
              QuantizeResult& result);
  absl::Status Run();

 private:
  // "" if `op` can be quantized, else why not.
  std::string CanQuantize(const ir::Operator& op,
                          const OpQuantSpec& spec) const;
  absl::Status QuantizeOp(ir::Operator op, const OpQuantSpec& spec,
                          std::vector<ir::Operator>& ops);
  bool HasStats(int32_t t) const;
  numerics::QuantParams ActivationParams(int32_t t) const;
  numerics::QuantParams ParamsForRange(float lo, float hi) const;
  // A QUANTIZE of `t` to `p`, added to `ops` once and reused.
  int32_t Quantized(int32_t t, const numerics::QuantParams& p,
                    std::vector<ir::Operator>& ops);
  // A DEQUANTIZE of integer `t`, added once and reused.
  int32_t Dequantized(int32_t t, std::vector<ir::Operator>& ops);
  int32_t QuantizedConstant(int32_t t, const numerics::QuantParams& p);
  // Replaces input k by its per-channel int8 version; returns the scales.
  absl::StatusOr<std::vector<float>> QuantizeWeight(
      ir::Operator& op, size_t k, int axis,
      const std::vector<float>& min_scales);
  // Per-channel weight-scale floors that keep the bias within +/-2^30
  // (TFLite's AdjustWeightsForBiasScale); empty when there is no bias.
  std::vector<float> BiasScaleFloors(const ir::Operator& op, size_t bias_index,
                                     float input_scale, int64_t channels) const;
  absl::Status QuantizeBias(ir::Operator& op, size_t k, float input_scale,
                            const std::vector<float>& weight_scales);

  ir::Model& model_;
  ir::Subgraph& sg_;
  const QuantizeOptions& options_;
  const std::vector<bool>& excluded_;
  QuantizeResult& result_;
  bool int16_ = false;
  ir::DataType qtype_ = ir::DataType::kInt8;
  int32_t qmin_ = -128, qmax_ = 127;
  std::map<int32_t, const calibration::TensorStats*> stats_;
  std::set<int32_t> int_domain_;  // tensors that are integer now
  std::map<int32_t, numerics::QuantParams> params_;
  std::map<std::tuple<int32_t, float, int32_t>, int32_t> quantized_;
  std::map<int32_t, int32_t> dequantized_;
};

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_INTEGER_PASS_H_
