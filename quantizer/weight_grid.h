// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The integer grid a layer's weights are rounded to, seen as rows (output
// channels) over k inputs (weighted_layer.h): symmetric, integers in
// [-qmax, qmax], one scale per (row, group). A group is the whole row (per
// channel) or `group_size` consecutive inputs of it (blockwise: groups of
// 32 / 64 / 128 / 256 along the input dimension; the last group of a row
// may be shorter). The rounding methods (weight clipping, GPTQ) take the
// grid as a parameter, so per-channel and blockwise forms share them.
//
// Clipping search: per (row, group), the scale max|w| * r / qmax whose
// ratio r from a grid (1.0, 0.95, ..., 0.5) minimizes the group's
// quantization error sum_j d_j (w_j - s q_j)^2, where d_j is an importance
// per input (the mean squared input value, diag(X^T X) / n, when data is
// there; 1 otherwise). Ties keep the larger ratio.
//
// Scales are held as the writer stores them: float32 (per-channel forms),
// or float16 (blockwise forms, `BlockwiseQuantization` scales), chosen on
// the bfloat16 grid for XNNPACK's blockwise FULLY_CONNECTED, which reads
// them as bfloat16. A rounding method that picks scales with GridScale()
// puts weights on exactly the grid the writer then derives from them.
#ifndef QFORGE_QUANTIZER_WEIGHT_GRID_H_
#define QFORGE_QUANTIZER_WEIGHT_GRID_H_

#include <cstdint>
#include <vector>

#include "Eigen/Core"

namespace qforge::quantizer {

enum class ScaleType : uint8_t { kFloat32, kFloat16, kBfloat16 };

// The scale the writer stores for a group whose largest magnitude is
// `absmax`. kFloat32: numerics::ChooseSymmetric. kFloat16 / kBfloat16:
// absmax / qmax on that grid (held in float16), 1 for a zero group,
// saturating at float16's largest value, never zero; `half` (optional)
// receives the float16 bits.
float GridScale(float absmax, int qmax, ScaleType type,
                uint16_t* half = nullptr);

struct WeightGrid {
  int qmax = 127;          // 7: int4
  int64_t group_size = 0;  // 0: one group per row (per channel)
  ScaleType scale_type = ScaleType::kFloat32;

  int64_t Groups(int64_t k) const {
    return group_size > 0 ? (k + group_size - 1) / group_size : 1;
  }
  int64_t GroupOf(int64_t j) const {
    return group_size > 0 ? j / group_size : 0;
  }
  // The integer nearest w / scale (ties away from zero, in double as the
  // quantizer rounds weights), clamped to [-qmax, qmax].
  int32_t Round(double w, double scale) const;
};

// GridScale(max|w|) per (row, group): [rows, groups].
Eigen::MatrixXf GroupScales(const Eigen::MatrixXf& weights,
                            const WeightGrid& grid);

// The clip ratios searched by default: 1.0, 0.95, ..., 0.5.
std::vector<float> DefaultClipRatios();

// Scales [rows, groups] from the clipping search. `importance` has 0 rows
// (every input weighs 1), 1 row (shared by every row) or one row per weight
// row, each of k values >= 0. `chosen` (optional) receives each group's
// ratio.
Eigen::MatrixXf ClipScales(const Eigen::MatrixXf& weights,
                           const WeightGrid& grid,
                           const Eigen::MatrixXf& importance,
                           const std::vector<float>& ratios,
                           Eigen::MatrixXf* chosen = nullptr);

// Sum over all weights of importance * (w - s q)^2 for nearest rounding on
// `scales` (importance as in ClipScales).
double GridError(const Eigen::MatrixXf& weights, const WeightGrid& grid,
                 const Eigen::MatrixXf& scales,
                 const Eigen::MatrixXf& importance);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_WEIGHT_GRID_H_
