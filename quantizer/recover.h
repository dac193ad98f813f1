// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Accuracy recovery on the weights, before quantization: the float model's
// weighted layers (weighted_layer.h) are visited in op order and each one's
// weights are put on the int8 grid the quantizer will choose for them
// (per-channel symmetric, the same scales), by nearest rounding or by
// AdaRound (adaround.h); with bias correction, the mean change of each
// output channel this causes, upstream rounding included, is taken out of
// the bias. Layer l is measured in the model whose layers before l are
// already rounded and corrected (sequential, as in the papers), against the
// untouched float model on the same samples and windows; or, with one_pass,
// all layers against the float model's input means of a single pass. The result
// is a float model whose weights the quantizer then rounds exactly to the
// chosen integers (they are already on the grid), so every scheme, plan and
// recipe works on it unchanged.
#ifndef QFORGE_QUANTIZER_RECOVER_H_
#define QFORGE_QUANTIZER_RECOVER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "quantizer/adaround.h"
#include "quantizer/options.h"
#include "quantizer/weight_grid.h"

namespace qforge::quantizer {

struct RecoverOptions {
  bool bias_correction = false;
  // Bias correction in one float pass: each layer's shift is
  // sum((Wq - W) * mean float input), every layer's means taken from the
  // untouched float model at once. It leaves out how upstream rounding
  // moves a layer's input mean (the sequential form measures that, one
  // pass per layer), which keeps it near the cost of one calibration pass.
  // Not with AdaRound, which needs the rounded model's inputs.
  bool one_pass = false;
  bool adaround = false;
  AdaRoundOptions adaround_options;  // its pool is set by RecoverWeights
  // GPTQ in place of nearest rounding, and the clipping search of each
  // channel's scale (weighted by the mean squared input of each weight);
  // `awq` is applied before (awq.h), not here. GPTQ does not go with
  // AdaRound: both choose the integers.
  WeightRounding rounding;
  // GPTQ in place of AdaRound on layers whose weights have 4 bits or
  // fewer (--optimize accuracy): with bias correction it measured above
  // AdaRound on int4 (docs/recovery.md).
  bool gptq_low_bits = false;
  bool fc_per_tensor = false;    // as QuantizeOptions::fc_per_tensor
  std::vector<bool> keep_float;  // by op index: layers left alone
  // By op index: b puts a layer's weights on the grid of integers in
  // [-(2^(b-1)-1), 2^(b-1)-1] (4: int4 weights); absent: 8.
  std::vector<int> weight_bits;
  // By op index: the grid of the weight-only and dynamic forms
  // (weight_forms.h: one scale per block of inputs, float16 or bfloat16
  // scales), which overrides weight_bits; absent: per channel, float32
  // scales. Each group's scale is GridScale() of the weights put on it, so
  // the writer, which derives scales from the weights it is given, stores
  // those scales and integers. Not with AdaRound (one scale per row).
  std::vector<std::optional<WeightGrid>> grids;
  // At most this many of the samples (evenly spaced) are run per layer
  // (0: all). Means and windows settle long before the hundreds of images
  // a calibration may use, and each layer costs one or two passes.
  int64_t max_samples = 64;
  // Input windows drawn per sample for AdaRound; 0: enough for ~4096 rows
  // per layer.
  int64_t patches_per_sample = 0;
  int threads = 0;
  uint64_t seed = 0;
  numerics::Modes numerics;
  // (layer done, layers) after each layer.
  std::function<void(int64_t, int64_t)> progress;
};

struct RecoveredLayer {
  int op_index = -1;
  std::string op;                  // "CONV_2D"
  std::string output;              // output tensor name
  double mean_abs_bias_shift = 0;  // bias correction, in output units
  double loss_nearest = 0, loss_adaround = 0;  // AdaRound, per window
  double loss_gptq = 0;  // GPTQ (loss_nearest then is nearest's)
  int64_t flipped = 0;   // weights not rounded nearest
  double mean_clip = 1;  // --weight-clip: mean clip ratio over channels
};

struct RecoverResult {
  std::vector<RecoveredLayer> layers;
  int64_t samples = 0;  // samples run per layer
};

// `model` is the float model (already equalized, if asked); `samples` of
// `data` are the calibration samples.
absl::StatusOr<RecoverResult> RecoverWeights(ir::Model& model,
                                             const formats::SampleSource& data,
                                             absl::Span<const int64_t> samples,
                                             const RecoverOptions& options);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_RECOVER_H_
