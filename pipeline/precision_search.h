// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --target-sqnr: a cheap precision per op that meets an output
// SQNR target on held-out samples. Quantize as asked and measure on the
// check set; if short, rank the int8 ops by the noise each adds itself (the
// report's introduced_db) and find by bisection the fewest of the noisiest
// that must run in int16x8; if even all of them in int16x8 fall short,
// raise the culprit layer to float, one op at a time.
#ifndef QFORGE_PIPELINE_PRECISION_SEARCH_H_
#define QFORGE_PIPELINE_PRECISION_SEARCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "pipeline/hooks.h"
#include "quantizer/options.h"

namespace qforge::pipeline {

// What the target bounds, on the check samples: the worst output's SQNR
// (dB), the mean of the outputs' SQNRs (dB), or the classifier outputs'
// top-1 agreement with the float model (percent, the worst output's).
enum class TargetMetric { kWorst, kMean, kTop1 };

struct SearchOptions {
  double target_db = 0;
  TargetMetric metric = TargetMetric::kWorst;
  int max_steps = 32;      // float steps at most
  int64_t max_size = 0;    // bytes of the model written; 0: no bound
  int max_float_ops = -1;  // ops left float at most; -1: no bound
  int threads = 0;
};

struct SearchOutcome {
  quantizer::QuantizeResult result;  // the last model tried
  double check_db = 0;               // its worst output SQNR on the check set
  bool met = false;
  std::vector<std::string> steps;  // "op 12 CONV_2D int8 -> int16"
  // Not met: what stopped the search (a bound), or the layers that still
  // add the most noise ("op 12 CONV_2D 'conv1' adds 21.3 dB; ...").
  std::string limit;
};

// Quantizes `work` (the float model `model`, or its weights after
// recovery) and measures against `model`. Ops raised to float take their
// constants from `model`: recovered weights serve only the integer grid.
// `stats` were calibrated without the `check` samples of `data`.
absl::StatusOr<SearchOutcome> SearchPrecision(
    const ir::Model& model, const ir::Model& work,
    const calibration::StatsFile& stats, const formats::SampleSource& data,
    const std::vector<int64_t>& check, quantizer::QuantizeOptions options,
    const SearchOptions& search, const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_PRECISION_SEARCH_H_
