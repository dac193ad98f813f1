// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// What the accuracy-recovery passes need to know of a weighted layer's
// input, gathered by running a float model over calibration samples:
//  - tap means: the mean input value each weight multiplies, per kernel
//    tap and channel ([kh, kw, channel], the CONV_2D weight row order), with
//    zero padding counted as zeros, so that for any weight change dW the
//    mean change of a pre-activation output is exactly sum(dW * tap mean);
//  - patches: input windows (im2col rows, [kh, kw, channel]) at output
//    positions drawn from a seed, the same positions in any model of the
//    same shapes, so that a float and a rounded model can be compared
//    window by window.
// Deterministic whatever the thread count: samples are reduced in fixed
// blocks, in sample order.
#ifndef QFORGE_QUANTIZER_LAYER_INPUTS_H_
#define QFORGE_QUANTIZER_LAYER_INPUTS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "quantizer/weighted_layer.h"

namespace qforge::quantizer {

struct InputCapture {
  WeightedLayer layer;
  bool tap_means = false;
  int64_t patches_per_sample = 0;
};

struct CapturedInput {
  int64_t width = 0;             // kh * kw * channels
  std::vector<double> tap_mean;  // [width]
  std::vector<float> patches;    // [num_patches, width], row-major
  int64_t num_patches = 0;
  int64_t positions = 0;  // output positions averaged over
};

struct CaptureOptions {
  int threads = 0;  // <= 0: all cores
  uint64_t seed = 0;
  numerics::Modes numerics;
};

// Runs `model` (float) over `samples` of `data`. A layer whose input was
// never seen as a float32 tensor of the expected shape fails
// (FailedPrecondition naming it).
absl::StatusOr<std::vector<CapturedInput>> CaptureLayerInputs(
    const ir::Model& model, const formats::SampleSource& data,
    absl::Span<const int64_t> samples, absl::Span<const InputCapture> captures,
    const CaptureOptions& options);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_LAYER_INPUTS_H_
