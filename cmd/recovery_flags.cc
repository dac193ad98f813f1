// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "cmd/recovery_flags.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "base/exit_codes.h"
#include "base/status_macros.h"
#include "cmd/progress.h"
#include "quantizer/equalize.h"
#include "quantizer/recover.h"
#include "quantizer/weighted_layer.h"

namespace qforge::cmd {

void AddRecoveryFlags(CLI::App* sub, RecoveryArgs& args) {
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

absl::Status ResolveRecovery(RecoveryArgs& args) {
  // Bias correction + AdaRound: together they never lost to plain int8 in
  // the measurements of docs/recovery.md; CLE lost on every model with
  // per-channel weights. 2000 AdaRound steps instead of the paper's 10000:
  // within noise of 5000 on the corpus models, at a fifth of the time.
  if (args.optimize == "accuracy") {
    args.bias_correction = true;
    args.adaround = true;
    if (args.adaround_iterations == 0) args.adaround_iterations = 2000;
  }
  if (args.optimize == "fast") {
    if (args.bias_correction || args.adaround) {
      return UsageError(
          "--optimize fast is one-pass bias correction; with "
          "--bias-correction or --adaround use --optimize accuracy or none");
    }
    args.bias_correction = true;
    args.bias_one_pass = true;
  }
  return absl::OkStatus();
}

absl::Status ApplyRecovery(const RecoveryArgs& args, ir::Model& work,
                           const formats::SampleSource* data,
                           const std::vector<int64_t>& samples,
                           const std::vector<bool>& keep_float,
                           const std::vector<int>& weight_bits,
                           bool fc_per_tensor, int threads,
                           const numerics::Modes& numerics, bool quiet) {
  if (args.equalize) {
    // Layers with float16 weights behind DEQUANTIZE (MediaPipe's models)
    // get float32 copies first, so that equalization can rescale them.
    quantizer::WidenHalfWeights(work, keep_float);
    ASSIGN_OR_RETURN(quantizer::EqualizeResult eq,
                     quantizer::EqualizeCrossLayer(work));
    if (!quiet) {
      std::fprintf(stderr,
                   "equalize: %d layer pairs (weight range imbalance %.2f -> "
                   "%.2f octaves, %d sweeps); %d pairs behind RELU6 or "
                   "RELU_N1_TO_1 left alone\n",
                   eq.pairs, eq.imbalance_before, eq.imbalance_after, eq.sweeps,
                   eq.skipped_clamped);
    }
  }
  if (!args.NeedsData()) return absl::OkStatus();
  if (data == nullptr) {
    return UsageError("--bias-correction and --adaround need --data");
  }
  quantizer::RecoverOptions ro;
  ro.bias_correction = args.bias_correction;
  ro.one_pass = args.bias_one_pass;
  ro.adaround = args.adaround;
  if (args.adaround_iterations > 0) {
    ro.adaround_options.iterations = args.adaround_iterations;
  }
  if (args.adaround_batch > 0) {
    ro.adaround_options.batch_size = args.adaround_batch;
  }
  ro.fc_per_tensor = fc_per_tensor;
  ro.keep_float = keep_float;
  ro.weight_bits = weight_bits;
  ro.threads = threads;
  ro.seed = args.seed;
  ro.max_samples = args.samples;
  ro.numerics = numerics;
  const char* what = args.adaround && args.bias_correction ? "adaround+bias"
                     : args.adaround                       ? "adaround"
                     : args.bias_one_pass ? "bias-correction (one pass)"
                                          : "bias-correction";
  Progress progress(what, quiet);
  ro.progress = [&progress](int64_t d, int64_t t) { progress.Update(d, t); };
  ASSIGN_OR_RETURN(quantizer::RecoverResult r,
                   quantizer::RecoverWeights(work, *data, samples, ro));
  if (!quiet) {
    double before = 0, after = 0;
    int64_t flipped = 0;
    for (const quantizer::RecoveredLayer& l : r.layers) {
      before += l.loss_nearest;
      after += l.loss_adaround;
      flipped += l.flipped;
    }
    std::fprintf(stderr, "%s: %zu layers on %lld of %zu samples", what,
                 r.layers.size(), static_cast<long long>(r.samples),
                 samples.size());
    if (args.adaround) {
      std::fprintf(stderr,
                   "; layer output error %.4g -> %.4g (sum over layers), "
                   "%lld weights rounded the other way",
                   before, after, static_cast<long long>(flipped));
    }
    std::fprintf(stderr, "\n");
  }
  return absl::OkStatus();
}

}  // namespace qforge::cmd
