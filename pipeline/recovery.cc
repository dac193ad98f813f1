// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/recovery.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/exit_codes.h"
#include "base/status_macros.h"
#include "quantizer/awq.h"
#include "quantizer/equalize.h"
#include "quantizer/recover.h"
#include "quantizer/weighted_layer.h"

namespace qforge::pipeline {

absl::Status ResolveRecovery(RecoverySettings& args) {
  if (args.rounding.awq_mul) args.rounding.awq = true;
  // Bias correction + AdaRound, without CLE, 2000 AdaRound steps: the
  // choice the ablation in docs/recovery.md (bench/recovery) supports; on
  // int4 layers GPTQ in place of AdaRound (bench/weights/rounding.sh).
  if (args.optimize == "accuracy") {
    args.bias_correction = true;
    if (!args.rounding.gptq) args.adaround = true;
    args.gptq_low_bits = true;
    if (args.adaround_iterations == 0) args.adaround_iterations = 2000;
  }
  if (args.rounding.gptq && args.adaround) {
    return UsageError(
        "--gptq and --adaround both choose how each weight rounds; use one "
        "(--optimize accuracy includes --adaround)");
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

namespace {

// `v` (by op index) with `fill` at each index of `inserted` (ascending op
// indices of ops added; those after move up by one).
template <typename T>
std::vector<T> WithInserted(const std::vector<T>& v,
                            const std::vector<int>& inserted, const T& fill) {
  if (v.empty() || inserted.empty()) return v;
  std::vector<T> out;
  out.reserve(v.size() + inserted.size());
  size_t next = 0;
  for (size_t i = 0; i < v.size() || next < inserted.size();) {
    if (next < inserted.size() &&
        static_cast<size_t>(inserted[next]) == out.size()) {
      out.push_back(fill);
      ++next;
    } else if (i < v.size()) {
      out.push_back(v[i++]);
    } else {
      break;
    }
  }
  return out;
}

}  // namespace

absl::Status ApplyRecovery(
    const RecoverySettings& args, ir::Model& work,
    const formats::SampleSource* data, const std::vector<int64_t>& samples,
    std::vector<bool> keep_float, std::vector<int> weight_bits,
    std::vector<std::optional<quantizer::WeightGrid>> grids, bool fc_per_tensor,
    int threads, const numerics::Modes& numerics, const Hooks& hooks) {
  if (args.equalize) {
    // Layers with float16 weights behind DEQUANTIZE (MediaPipe's models)
    // get float32 copies first, so that equalization can rescale them.
    quantizer::WidenHalfWeights(work, keep_float);
    ASSIGN_OR_RETURN(quantizer::EqualizeResult eq,
                     quantizer::EqualizeCrossLayer(work));
    hooks.Note(absl::StrFormat(
        "equalize: %d layer pairs (weight range imbalance %.2f -> %.2f "
        "octaves, %d sweeps); %d pairs behind RELU6 or RELU_N1_TO_1 left "
        "alone",
        eq.pairs, eq.imbalance_before, eq.imbalance_after, eq.sweeps,
        eq.skipped_clamped));
  }
  if (!args.NeedsData()) return absl::OkStatus();
  if (data == nullptr) {
    return UsageError(
        "--bias-correction, --adaround, --gptq, --awq and --weight-clip mse "
        "need --data");
  }
  if (args.rounding.awq) {
    quantizer::AwqOptions ao;
    ao.keep_float = keep_float;
    ao.weight_bits = weight_bits;
    ao.fc_per_tensor = fc_per_tensor;
    ao.grids = grids;
    ao.float_inputs = !grids.empty();
    ao.insert_muls = args.rounding.awq_mul;
    ao.max_samples = args.samples;
    ao.threads = threads;
    ao.seed = args.seed;
    ao.numerics = numerics;
    ASSIGN_OR_RETURN(quantizer::AwqResult awq,
                     quantizer::ScaleActivationAware(work, *data, samples, ao));
    int scaled = 0;
    double before = 0, after = 0;
    for (const quantizer::AwqLayer& l : awq.layers) {
      scaled += l.alpha > 0;
      before += l.error_unscaled;
      after += l.error_scaled;
    }
    const std::string where =
        ao.float_inputs
            ? absl::StrFormat("layer pairs, LayerNorm ends and %zu new MULs",
                              awq.inserted_ops.size())
            : absl::StrFormat(
                  "layer pairs and LayerNorm ends; %d pairs behind RELU6 and "
                  "the like left alone",
                  awq.skipped_clamped);
    hooks.Note(absl::StrFormat(
        "awq: %d of %d inputs scaled (%s); layer output error %.4g -> %.4g "
        "(sum over inputs)",
        scaled, awq.pairs, where, before, after));
    // The later methods index layers by op: the new MULs are float ops
    // without weights.
    keep_float = WithInserted(keep_float, awq.inserted_ops, false);
    weight_bits = WithInserted(weight_bits, awq.inserted_ops, 8);
    grids = WithInserted(grids, awq.inserted_ops,
                         std::optional<quantizer::WeightGrid>());
  }
  if (!args.bias_correction && !args.adaround && !args.rounding.gptq &&
      !args.rounding.clip_mse) {
    return absl::OkStatus();
  }
  quantizer::RecoverOptions ro;
  ro.bias_correction = args.bias_correction;
  ro.one_pass = args.bias_one_pass;
  ro.adaround = args.adaround;
  ro.rounding = args.rounding;
  ro.gptq_low_bits = args.gptq_low_bits;
  if (args.adaround_iterations > 0) {
    ro.adaround_options.iterations = args.adaround_iterations;
  }
  if (args.adaround_batch > 0) {
    ro.adaround_options.batch_size = args.adaround_batch;
  }
  ro.fc_per_tensor = fc_per_tensor;
  ro.keep_float = keep_float;
  ro.weight_bits = weight_bits;
  ro.grids = grids;
  ro.threads = threads;
  ro.seed = args.seed;
  ro.max_samples = args.samples;
  ro.numerics = numerics;
  std::string what = args.adaround && args.bias_correction ? "adaround+bias"
                     : args.adaround                       ? "adaround"
                     : args.bias_one_pass   ? "bias-correction (one pass)"
                     : args.bias_correction ? "bias-correction"
                                            : "";
  for (const char* method : {args.rounding.gptq ? "gptq" : "",
                             args.rounding.clip_mse ? "weight-clip" : ""}) {
    if (*method == 0) continue;
    what = what.empty() ? method : absl::StrCat(what, "+", method);
  }
  bool low_bits = false;
  for (int bits : weight_bits) low_bits = low_bits || bits <= 4;
  for (const std::optional<quantizer::WeightGrid>& g : grids) {
    low_bits = low_bits || (g.has_value() && g->qmax <= 7);
  }
  if (args.gptq_low_bits && !args.rounding.gptq && low_bits) {
    absl::StrAppend(&what, "+gptq (int4 layers)");
  }
  ro.progress = hooks.Progress(what);
  absl::StatusOr<quantizer::RecoverResult> recovered =
      quantizer::RecoverWeights(work, *data, samples, ro);
  ro.progress = nullptr;  // the progress line ends before the summary
  if (!recovered.ok()) return recovered.status();
  const quantizer::RecoverResult& r = *recovered;
  if (!hooks.quiet()) {
    double before = 0, after = 0;
    int64_t flipped = 0;
    for (const quantizer::RecoveredLayer& l : r.layers) {
      before += l.loss_nearest;
      after += l.loss_adaround + l.loss_gptq;
      flipped += l.flipped;
    }
    std::string line = absl::StrFormat(
        "%s: %zu layers on %lld of %zu samples", what, r.layers.size(),
        static_cast<long long>(r.samples), samples.size());
    if (args.rounding.gptq) {
      double gptq = 0;
      for (const quantizer::RecoveredLayer& l : r.layers) gptq += l.loss_gptq;
      absl::StrAppendFormat(&line,
                            "; layer output error %.4g -> %.4g (sum over "
                            "layers), %lld weights rounded otherwise",
                            before, gptq, static_cast<long long>(flipped));
    }
    if (args.adaround) {
      absl::StrAppendFormat(&line,
                            "; layer output error %.4g -> %.4g (sum over "
                            "layers), %lld weights rounded the other way",
                            before, after, static_cast<long long>(flipped));
    }
    hooks.Note(line);
  }
  return absl::OkStatus();
}

}  // namespace qforge::pipeline
