// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A quantize job's flags and --recipe resolved into quantizer options: the
// scheme, per-op rules, weight forms, io types and runtime profile, each
// combination the runtime or the scheme cannot take refused as a usage
// error (exit 2) before any work.
#ifndef QFORGE_PIPELINE_QUANTIZE_OPTIONS_H_
#define QFORGE_PIPELINE_QUANTIZE_OPTIONS_H_

#include <string>

#include "absl/status/statusor.h"
#include "pipeline/quantize_job.h"
#include "quantizer/options.h"

namespace qforge::pipeline {

// The job's flags and recipe as quantizer options.
struct Resolved {
  quantizer::QuantizeOptions options;
  std::string scheme;
  // Every holdout-th sample is left out of calibration and recovery:
  // --target-sqnr's check set, or the one a recipe it saved records.
  int holdout = 0;
  bool needs_stats = false;  // int8 / int16x8
  std::string method;        // --method, else the recipe's ("": default)
};

absl::StatusOr<Resolved> ResolveOptions(const QuantizeJob& job);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_QUANTIZE_OPTIONS_H_
