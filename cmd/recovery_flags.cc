// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/recovery_flags.h"

namespace qforge::cmd {

void AddRecoveryFlags(CLI::App* sub, pipeline::RecoverySettings& args) {
  sub->add_option("--optimize", args.optimize,
                  "none: plain post-training quantization; fast: one-pass "
                  "bias correction (needs --data); accuracy: "
                  "--bias-correction --adaround (docs/recovery.md)")
      ->check(CLI::IsMember({"none", "fast", "accuracy"}))
      ->default_str("none");
  sub->add_flag("--equalize", args.equalize,
                "Cross-layer equalization of CONV/DEPTHWISE/FC pairs joined "
                "by ReLU or nothing (the float function is unchanged)");
  sub->add_flag("--bias-correction", args.bias_correction,
                "Fold each layer's mean output shift from weight rounding "
                "into its bias (needs --data)");
  sub->add_flag("--adaround", args.adaround,
                "Learn each weight's rounding (up or down) on the --data "
                "samples, layer by layer (AdaRound)");
  sub->add_option("--adaround-iterations", args.adaround_iterations,
                  "AdaRound steps per layer")
      ->check(CLI::Range(1, 1000000))
      ->default_str("10000; 2000 with --optimize accuracy");
  sub->add_option("--adaround-batch", args.adaround_batch,
                  "Input windows per AdaRound step")
      ->check(CLI::Range(1, 1 << 20))
      ->default_str("256");
  sub->add_option("--recovery-samples", args.samples,
                  "At most this many --data samples (evenly spaced) are run "
                  "per layer by --bias-correction / --adaround; 0: all")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->default_str("64");
  sub->add_option("--seed", args.seed,
                  "Seed of the windows and batches AdaRound draws")
      ->default_str("0");
}

}  // namespace qforge::cmd
