// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize --target-sqnr: a cheap precision per op that meets an output
// SQNR target on held-out samples. Quantize as asked and measure on the
// check set; if short, rank the int8 ops by the noise each adds itself (the
// report's introduced_db) and find by bisection the fewest of the noisiest
// that must run in int16x8; if even all of them in int16x8 fall short,
// raise the culprit layer to float, one op at a time.
#ifndef QFORGE_CMD_PRECISION_SEARCH_H_
#define QFORGE_CMD_PRECISION_SEARCH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "quantizer/quantize.h"

namespace qforge::cmd {

struct SearchOptions {
  double target_db = 0;
  int max_steps = 32;  // ops raised to float at most
  int threads = 0;
  bool quiet = false;
};

struct SearchOutcome {
  quantizer::QuantizeResult result;  // the last model tried
  double check_db = 0;               // its worst output SQNR on the check set
  bool met = false;
  std::vector<std::string> steps;  // "op 12 CONV_2D int8 -> int16"
};

// `stats` were calibrated without the `check` samples of `data`.
absl::StatusOr<SearchOutcome> SearchPrecision(
    const ir::Model& model, const calibration::StatsFile& stats,
    const formats::SampleSource& data, const std::vector<int64_t>& check,
    quantizer::QuantizeOptions options, const SearchOptions& search);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_PRECISION_SEARCH_H_
