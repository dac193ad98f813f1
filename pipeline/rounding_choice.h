// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// --optimize accuracy on the weight-only and dynamic forms: which weight
// rounding to use is measured, not assumed. No method wins everywhere
// (bench/weights/forms_rounding.md: GPTQ gains 10 dB on int4 weight-only
// on average but loses 7 dB on one int8 model; clipping and AWQ win on
// layers with outlier input channels), so each candidate (nearest, clip
// search, GPTQ, AWQ and their pairs) is applied to a copy of the float
// model, the copy is quantized in the job's form, and the candidates are
// ranked by the worst output SQNR against the float model on the check
// samples, which no candidate fitted on. GPTQ, the best single method over
// the corpus, stays unless a candidate beats it by 1 dB on at least 8
// check samples (fewer follow noise). The choice is then fitted again on
// every sample for the model written: the same bytes as its flags alone
// on the same --data.
#ifndef QFORGE_PIPELINE_ROUNDING_CHOICE_H_
#define QFORGE_PIPELINE_ROUNDING_CHOICE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "pipeline/hooks.h"
#include "quantizer/options.h"
#include "quantizer/weight_grid.h"

namespace qforge::pipeline {

struct RoundingCandidate {
  std::string name;  // "nearest", "gptq", "awq+weight-clip", ...
  quantizer::WeightRounding rounding;
  double worst_sqnr_db = 0;  // on the check samples (+inf: exact)
};

struct RoundingChoice {
  std::vector<RoundingCandidate> candidates;  // in the order tried
  int chosen = 0;                             // index into candidates
  int64_t check_samples = 0;
  int64_t fit_samples = 0;
  int64_t refit_samples = 0;  // the chosen method's fit for the output
};

// What RecoverWeightForms knows of the job (pipeline/quantize.cc).
struct RoundingChoiceInputs {
  const ir::Model* float_model = nullptr;
  const formats::SampleSource* data = nullptr;
  std::vector<int64_t> fit, check;                          // sample indices
  std::vector<bool> keep_float;                             // by op index
  std::vector<std::optional<quantizer::WeightGrid>> grids;  // by op index
  bool fc_per_tensor = false;
  quantizer::QuantizeOptions options;  // the job's weight-only / dynamic
  int64_t max_samples = 64;            // --recovery-samples
  uint64_t seed = 0;
  int threads = 0;
  numerics::Modes numerics;
};

// Tries the candidates; `work` becomes the float model with the chosen
// rounding applied, fitted on fit and check samples together.
absl::StatusOr<RoundingChoice> ChooseWeightRounding(
    const RoundingChoiceInputs& in, ir::Model& work, const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_ROUNDING_CHOICE_H_
