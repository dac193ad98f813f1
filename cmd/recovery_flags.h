// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// quantize's accuracy-recovery options (--equalize, --bias-correction,
// --adaround, --optimize): they change the float model's weights before it
// is calibrated and quantized (quantizer/equalize.h, quantizer/recover.h).
#ifndef QFORGE_CMD_RECOVERY_FLAGS_H_
#define QFORGE_CMD_RECOVERY_FLAGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"

namespace qforge::cmd {

struct RecoveryArgs {
  std::string optimize = "none";  // none | fast | accuracy
  bool equalize = false;
  bool bias_correction = false;
  bool bias_one_pass = false;  // set by --optimize fast
  bool adaround = false;
  int adaround_iterations = 0;  // 0: the default
  int adaround_batch = 0;
  uint64_t seed = 0;
  int64_t samples = 64;  // --recovery-samples

  // After Resolve(): what runs.
  bool Any() const { return equalize || bias_correction || adaround; }
  bool NeedsData() const { return bias_correction || adaround; }
};

void AddRecoveryFlags(CLI::App* sub, RecoveryArgs& args);

// Turns --optimize into the methods it stands for.
absl::Status ResolveRecovery(RecoveryArgs& args);

// Applies the methods asked to `work` (the float model), with the
// calibration `samples` of `data` where a method needs data; `keep_float`
// (by op index) are layers the plan keeps float, `weight_bits` (by op
// index) the width of each layer's weights. Prints a one-line summary
// per method unless `quiet`.
absl::Status ApplyRecovery(const RecoveryArgs& args, ir::Model& work,
                           const formats::SampleSource* data,
                           const std::vector<int64_t>& samples,
                           const std::vector<bool>& keep_float,
                           const std::vector<int>& weight_bits,
                           bool fc_per_tensor, int threads,
                           const numerics::Modes& numerics, bool quiet);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_RECOVERY_FLAGS_H_
