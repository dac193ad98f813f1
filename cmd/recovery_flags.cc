// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/recovery_flags.h"

namespace qforge::cmd {

void AddRecoveryFlags(CLI::App* sub, pipeline::RecoverySettings& args) {
  sub->add_option("--optimize", args.optimize,
                  "none: plain post-training quantization; fast: one-pass "
                  "bias correction (needs --data); accuracy: "
                  "--bias-correction --adaround (GPTQ on int4 layers; "
                  "docs/recovery.md)")
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
  // Weight rounding (docs/recovery.md, "Weight rounding").
  sub->add_flag("--gptq", args.rounding.gptq,
                "Round each layer's weights with GPTQ's error feedback over "
                "the --data inputs (not with --adaround)");
  sub->add_option("--gptq-damp", args.rounding.gptq_damp,
                  "GPTQ's damping, a fraction of the mean of diag(H)")
      ->check(CLI::Range(0.0, 10.0))
      ->default_str("0.01");
  sub->add_flag("--awq", args.rounding.awq,
                "Activation-aware scales per input channel, folded into the "
                "preceding CONV/FC where that is exact (needs --data)");
  sub->add_flag("--awq-mul", args.rounding.awq_mul,
                "--awq, and with --scheme weight-only or dynamic a new float "
                "MUL before the layers whose input no op can take the scales "
                "(a graph input, a GELU's output)");
  sub->add_option_function<std::string>(
         "--weight-clip",
         [&args](const std::string& v) { args.rounding.clip_mse = v == "mse"; },
         "mse: choose each channel's weight range from clip ratios 1.0 .. "
         "0.5 by the rounding error, weighted by each input's mean square "
         "on --data")
      ->check(CLI::IsMember({"mse", "none"}))
      ->default_str("none");
  sub->add_option("--seed", args.seed,
                  "Seed of the windows and batches AdaRound draws")
      ->default_str("0");
}

}  // namespace qforge::cmd
