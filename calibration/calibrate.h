// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Calibration: run the float model over a data set (or one shard of it) and
// collect the statistics of every float activation.
#ifndef QFORGE_CALIBRATION_CALIBRATE_H_
#define QFORGE_CALIBRATION_CALIBRATE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "calibration/stats_file.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"

namespace qforge::calibration {

inline constexpr int kDefaultHistogramStride = 31;

struct CalibrateOptions {
  int threads = 0;  // <= 0: all cores; samples run in parallel
  int shard_index = 0, shard_count = 1;  // samples i with i % count == index
  // > 1: samples i with i % holdout_every == holdout_every - 1 are a check
  // set (quantize --target-sqnr) and are not calibrated on.
  int holdout_every = 0;
  // Prime: no aliasing with power-of-2 channels. 31 keeps the statistics
  // overhead a small share of inference with no measurable change in the
  // ranges chosen from it (docs/performance.md has the measurement).
  int histogram_stride = kDefaultHistogramStride;
  // The interpreters' integer arithmetic, for models with integer ops.
  numerics::Modes numerics;
  // Called after each sample with (done, total).
  std::function<void(int64_t, int64_t)> progress;
};

// `model_bytes` is the model file (its hash goes into the fingerprint).
absl::StatusOr<StatsFile> Calibrate(const ir::Model& model,
                                    absl::Span<const uint8_t> model_bytes,
                                    const formats::SampleSource& data,
                                    const CalibrateOptions& options);

}  // namespace qforge::calibration

#endif  // QFORGE_CALIBRATION_CALIBRATE_H_
