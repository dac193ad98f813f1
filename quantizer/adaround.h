// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// AdaRound (Nagel et al. 2020, "Up or Down? Adaptive Rounding for
// Post-Training Quantization"): chooses, weight by weight, whether to round
// down or up so that a layer's outputs on calibration data stay close to the
// float model's, instead of rounding each weight to its nearest integer.
// See docs/quantization.md, section "AdaRound".
#ifndef QFORGE_QUANTIZER_ADAROUND_H_
#define QFORGE_QUANTIZER_ADAROUND_H_

#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "runtime/thread_pool.h"

namespace qforge::quantizer {

// One layer seen as independent rows: for output channel o, the layer
// computes y[n] = sum_k x_o[n, k] * w_o[k] (+ bias). Convolutions and fully
// connected layers share one input matrix for all rows (im2col patches);
// depthwise convolutions give each row its own (its channel's patches).
struct AdaRoundLayer {
  // Input matrices, [num_samples, k]: either one shared by every output row,
  // or one per output row (inputs.size() == num rows).
  // Inputs as the quantized model sees them (upstream already rounded).
  std::vector<Eigen::MatrixXf> inputs;
  // [num_samples, num_rows]: the float model's pre-activation outputs minus
  // bias, for the same samples.
  Eigen::MatrixXf target;
  Eigen::MatrixXf weights;      // [num_rows, k] float weights
  std::vector<float> scales;    // per row, symmetric; zero point 0
  int qmin = -127, qmax = 127;  // int8; int4 would be -7..7
};

struct AdaRoundOptions {
  int iterations = 10000;  // paper default
  // Sample rows per step, drawn without replacement within a step by the
  // seeded RNG; with num_samples <= batch_size every step uses all samples.
  int batch_size = 256;
  float reg_weight = 0.01f;  // lambda
  // Annealed linearly over the iterations after the warmup.
  float beta_start = 20.0f, beta_end = 2.0f;
  float warmup = 0.2f;  // fraction of iterations without the regularizer
  float learning_rate = 1e-3f;  // Adam
  uint64_t seed = 0;
  // Splits rows over its threads; nullptr: caller thread. Not from inside
  // another ParallelFor of the same pool (ParallelFor is not reentrant).
  runtime::ThreadPool* pool = nullptr;
};

struct AdaRoundStats {
  // Full-set losses: sum over rows of the mean over all samples of the
  // squared output error, for nearest rounding and for the returned one.
  double loss_nearest = 0, loss_adaround = 0;
  int64_t flipped = 0;            // weights whose integer differs from nearest
  int64_t rows_kept_nearest = 0;  // rows where the safety net kept nearest
};

// The integer of each weight, row-major [num_rows, k], each in [qmin, qmax],
// each floor(w/s) or floor(w/s)+1 (clamped). Deterministic for a given seed
// whatever the pool's thread count. InvalidArgument on inconsistent shapes,
// non-finite or non-positive scales, non-finite weights, inputs or targets,
// or out-of-range options.
absl::StatusOr<std::vector<int32_t>> AdaRound(const AdaRoundLayer& layer,
                                              const AdaRoundOptions& options,
                                              AdaRoundStats* stats = nullptr);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_ADAROUND_H_
