// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// GPTQ (Frantar et al. 2022, "GPTQ: Accurate Post-Training Quantization
// for Generative Pre-trained Transformers"): rounds a layer's weights
// column by column (input by input), and after each column spreads its
// rounding error over the columns not yet rounded, so that the layer's
// output error on calibration inputs, (w - w~)^T H (w - w~) per row with
// H = X^T X / n, stays small. The update uses the upper Cholesky factor U
// of H^-1 (after damping H by `damp` x mean diag(H)): rounding column i
// with error e = (w_i - s q_i) / U_ii moves every later column j by
// -e U_ij. Updates are applied lazily in blocks of columns (the paper's
// "lazy batch" form: the same result as column by column, as matrix
// products). With act_order, columns are taken in decreasing diag(H).
//
// Scales are fixed before rounding (the paper's "static groups"), one per
// (row, group) of the grid (weight_grid.h), so per-channel and blockwise
// grids share the code. A group's largest weight whose nearest integer is
// +-qmax stays there, so that max|w~| / qmax gives the group's scale back:
// the quantizer, which picks scales from the weights it is given, then
// rounds each weight exactly to the integer chosen here.
#ifndef QFORGE_QUANTIZER_GPTQ_H_
#define QFORGE_QUANTIZER_GPTQ_H_

#include <cstdint>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "quantizer/weight_grid.h"
#include "runtime/thread_pool.h"

namespace qforge::quantizer {

struct GptqLayer {
  Eigen::MatrixXf weights;  // [rows, k] float weights
  // X^T X / n of the layer's inputs, [k, k]: one shared by every row, or
  // one per row (depthwise rows each read their own channel).
  std::vector<Eigen::MatrixXd> hessians;
  Eigen::MatrixXf scales;  // [rows, grid.Groups(k)]
  WeightGrid grid;
};

struct GptqOptions {
  double damp = 0.01;        // fraction of mean diag(H) added to the diagonal
  int64_t block_size = 128;  // columns per lazy batch update
  bool act_order = true;
  // Splits rows over its threads; nullptr: caller thread. Not from inside
  // another ParallelFor of the same pool.
  runtime::ThreadPool* pool = nullptr;
};

struct GptqStats {
  // Sums over rows of (w - w~)^T H (w - w~) (undamped H): the mean squared
  // output error over the calibration inputs, for nearest rounding and for
  // the returned rounding.
  double loss_nearest = 0, loss_gptq = 0;
  int64_t changed = 0;            // weights whose integer differs from nearest
  int64_t rows_kept_nearest = 0;  // rows where GPTQ's loss was not lower
  int damping_raised = 0;         // times H + damping was not positive definite
};

// The integer of each weight, row-major [rows, k], in [-qmax, qmax].
// Deterministic whatever the pool's thread count. InvalidArgument on
// inconsistent shapes, non-finite values or non-positive scales.
absl::StatusOr<std::vector<int32_t>> Gptq(const GptqLayer& layer,
                                          const GptqOptions& options,
                                          GptqStats* stats = nullptr);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_GPTQ_H_
