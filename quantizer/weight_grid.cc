// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/weight_grid.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "numerics/float16.h"
#include "numerics/quant_params.h"

namespace qforge::quantizer {
namespace {

double Importance(const Eigen::MatrixXf& importance, Eigen::Index r,
                  Eigen::Index j) {
  if (importance.rows() == 0) return 1.0;
  return importance(importance.rows() == 1 ? 0 : r, j);
}

// Error of nearest rounding of row r's columns [j0, j1) on `scale`.
double GroupError(const Eigen::MatrixXf& w, const WeightGrid& grid,
                  Eigen::Index r, Eigen::Index j0, Eigen::Index j1,
                  double scale, const Eigen::MatrixXf& importance) {
  double sum = 0;
  for (Eigen::Index j = j0; j < j1; ++j) {
    const double e = double{w(r, j)} - scale * grid.Round(w(r, j), scale);
    sum += Importance(importance, r, j) * e * e;
  }
  return sum;
}

// `v` rounded to bfloat16 (nearest, ties to even), as a float.
float RoundToBfloat16(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  b = (b + 0x7fffu + ((b >> 16) & 1u)) & 0xffff0000u;
  std::memcpy(&v, &b, sizeof(v));
  return v;
}

}  // namespace

float GridScale(float absmax, int qmax, ScaleType type, uint16_t* half) {
  switch (type) {
    case ScaleType::kFloat32:
      return numerics::ChooseSymmetric(absmax, qmax).scale;
    case ScaleType::kFloat16:
    case ScaleType::kBfloat16:
      break;
  }
  // The kernels read the float16 value, so values are rounded with it.
  // Zero blocks take 1; scales float16 cannot hold saturate (values clamp).
  float s = absmax > 0.0f ? absmax / static_cast<float>(qmax) : 1.0f;
  s = std::min(s, 65504.0f);
  if (type == ScaleType::kBfloat16) s = std::min(RoundToBfloat16(s), 65280.0f);
  uint16_t h = numerics::FloatToHalf(s);
  if (numerics::HalfToFloat(h) <= 0.0f) h = 0x0400;  // 2^-14
  if (half != nullptr) *half = h;
  return numerics::HalfToFloat(h);
}

int32_t WeightGrid::Round(double w, double scale) const {
  const double q = std::round(w / scale);
  return static_cast<int32_t>(
      std::clamp(q, static_cast<double>(-qmax), static_cast<double>(qmax)));
}

Eigen::MatrixXf GroupScales(const Eigen::MatrixXf& weights,
                            const WeightGrid& grid) {
  const Eigen::Index rows = weights.rows(), k = weights.cols();
  Eigen::MatrixXf absmax = Eigen::MatrixXf::Zero(rows, grid.Groups(k));
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (Eigen::Index j = 0; j < k; ++j) {
      float& m = absmax(r, grid.GroupOf(j));
      m = std::max(m, std::fabs(weights(r, j)));
    }
  }
  return absmax.unaryExpr(
      [&](float m) { return GridScale(m, grid.qmax, grid.scale_type); });
}

std::vector<float> DefaultClipRatios() {
  std::vector<float> ratios;
  for (int i = 20; i >= 10; --i) ratios.push_back(static_cast<float>(i) / 20);
  return ratios;
}

Eigen::MatrixXf ClipScales(const Eigen::MatrixXf& weights,
                           const WeightGrid& grid,
                           const Eigen::MatrixXf& importance,
                           const std::vector<float>& ratios,
                           Eigen::MatrixXf* chosen) {
  const Eigen::Index rows = weights.rows(), k = weights.cols();
  const Eigen::Index groups = grid.Groups(k);
  Eigen::MatrixXf absmax = Eigen::MatrixXf::Zero(rows, groups);
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (Eigen::Index j = 0; j < k; ++j) {
      float& m = absmax(r, grid.GroupOf(j));
      m = std::max(m, std::fabs(weights(r, j)));
    }
  }
  Eigen::MatrixXf scales(rows, groups);
  if (chosen != nullptr) chosen->resize(rows, groups);
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (Eigen::Index g = 0; g < groups; ++g) {
      const Eigen::Index j0 = grid.group_size > 0 ? g * grid.group_size : 0;
      const Eigen::Index j1 =
          grid.group_size > 0 ? std::min(k, j0 + grid.group_size) : k;
      float best_scale = GridScale(absmax(r, g), grid.qmax, grid.scale_type);
      float best_ratio = 1.0f;
      double best = -1;
      for (float ratio : ratios) {
        const float s =
            GridScale(absmax(r, g) * ratio, grid.qmax, grid.scale_type);
        const double e = GroupError(weights, grid, r, j0, j1, s, importance);
        if (best < 0 || e < best) {
          best = e;
          best_scale = s;
          best_ratio = ratio;
        }
      }
      scales(r, g) = best_scale;
      if (chosen != nullptr) (*chosen)(r, g) = best_ratio;
    }
  }
  return scales;
}

double GridError(const Eigen::MatrixXf& weights, const WeightGrid& grid,
                 const Eigen::MatrixXf& scales,
                 const Eigen::MatrixXf& importance) {
  double sum = 0;
  for (Eigen::Index r = 0; r < weights.rows(); ++r) {
    for (Eigen::Index j = 0; j < weights.cols(); ++j) {
      const double s = scales(r, grid.GroupOf(j));
      const double e = double{weights(r, j)} - s * grid.Round(weights(r, j), s);
      sum += Importance(importance, r, j) * e * e;
    }
  }
  return sum;
}

}  // namespace qforge::quantizer
