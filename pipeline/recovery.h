// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Weight recovery before quantizing (--equalize, --bias-correction,
// --adaround, --optimize fast|accuracy): the methods change the float
// model's weights so that their quantized form loses less
// (quantizer/equalize.h, quantizer/recover.h, docs/recovery.md).
#ifndef QFORGE_PIPELINE_RECOVERY_H_
#define QFORGE_PIPELINE_RECOVERY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "pipeline/hooks.h"
#include "quantizer/options.h"
#include "quantizer/weight_grid.h"

namespace qforge::pipeline {

struct RecoverySettings {
  std::string optimize = "none";  // none | fast | accuracy
  bool equalize = false;
  bool bias_correction = false;
  bool bias_one_pass = false;  // set by --optimize fast
  bool adaround = false;
  // Set by --optimize accuracy: int4 layers take GPTQ instead of AdaRound.
  bool gptq_low_bits = false;
  int adaround_iterations = 0;  // 0: the default
  int adaround_batch = 0;
  uint64_t seed = 0;
  int64_t samples = 64;  // --recovery-samples
  // --gptq, --awq, --weight-clip: how the weights are rounded.
  quantizer::WeightRounding rounding;

  // After ResolveRecovery(): what runs.
  bool Any() const {
    return equalize || bias_correction || adaround || rounding.Any();
  }
  bool NeedsData() const {
    return bias_correction || adaround || rounding.Any();
  }
};

// Turns `optimize` into the methods it stands for.
absl::Status ResolveRecovery(RecoverySettings& args);

// Applies the methods asked to `work` (the float model), with the
// calibration `samples` of `data` where a method needs data; `keep_float`
// (by op index of `work`) are layers the plan keeps float, `weight_bits`
// the width of each layer's weights; `grids` (weight-only and dynamic
// forms, by op index) the grid each layer's weights are written on, whose
// layers read float activations (there --awq may insert MULs: the op
// indices of `work` then move). Notes one summary line per method.
absl::Status ApplyRecovery(
    const RecoverySettings& args, ir::Model& work,
    const formats::SampleSource* data, const std::vector<int64_t>& samples,
    std::vector<bool> keep_float, std::vector<int> weight_bits,
    std::vector<std::optional<quantizer::WeightGrid>> grids, bool fc_per_tensor,
    int threads, const numerics::Modes& numerics, const Hooks& hooks);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_RECOVERY_H_
