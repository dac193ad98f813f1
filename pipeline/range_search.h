// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --method auto: per activation tensor, the range method (mse,
// minmax, percentile:99.99 or kl) under which the quantized model's outputs
// come closest to the float model's on calibration samples. Greedy and
// deterministic: from mse everywhere, the tensors are visited once in op
// order, each candidate whose range differs is tried with the choices made
// so far, and the best is kept when it raises the outputs' mean SQNR on
// both halves of the samples (alternate ones). So a tensor is judged by the
// error it leaves at the outputs, downstream layers included, not by its
// own rounding error alone.
#ifndef QFORGE_PIPELINE_RANGE_SEARCH_H_
#define QFORGE_PIPELINE_RANGE_SEARCH_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/range.h"
#include "calibration/stats_file.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "pipeline/hooks.h"
#include "quantizer/options.h"

namespace qforge::pipeline {

struct RangeSearchOutcome {
  std::map<std::string, calibration::RangeSpec> overrides;  // by tensor name
  double start_db = 0, final_db = 0;  // mean output SQNR, mse vs chosen
  int tensors = 0;                    // tensors whose candidates differed
  int trials = 0;
  int64_t samples = 0;  // calibration samples each trial ran
};

// `model` is the float model the outputs are compared with, `work` the
// model quantized (the float model, or its weights after recovery);
// `samples` the calibration samples to measure on (at most 64 of them are
// used, evenly spaced). `options.range` is the starting method.
absl::StatusOr<RangeSearchOutcome> SearchRanges(
    const ir::Model& model, const ir::Model& work,
    const calibration::StatsFile& stats, const formats::SampleSource& data,
    const std::vector<int64_t>& samples,
    const quantizer::QuantizeOptions& options, int threads,
    numerics::Modes numerics, const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_RANGE_SEARCH_H_
