// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// GPTQ's column loop. With a shared H, rows are independent given U, so
// they are split into chunks of fixed size (the same matrix shapes, hence
// the same arithmetic, whatever the thread count).
#include "quantizer/gptq.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "Eigen/Cholesky"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace qforge::quantizer {
namespace {

using Eigen::Index;
using Eigen::MatrixXd;

constexpr Index kGptqRowChunk = 64;

template <typename... Parts>
absl::Status GptqInvalid(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("GPTQ: ", parts...));
}

absl::Status ValidateGptq(const GptqLayer& l, const GptqOptions& o) {
  const Index rows = l.weights.rows(), k = l.weights.cols();
  if (rows == 0 || k == 0) {
    return GptqInvalid("weights is empty (", rows, "x", k, ")");
  }
  if (l.hessians.size() != 1 && static_cast<Index>(l.hessians.size()) != rows) {
    return GptqInvalid("hessians has ", l.hessians.size(),
                       " matrices; expected 1 (shared) or one per row (", rows,
                       ")");
  }
  for (size_t i = 0; i < l.hessians.size(); ++i) {
    const MatrixXd& h = l.hessians[i];
    if (h.rows() != k || h.cols() != k) {
      return GptqInvalid("hessians[", i, "] is ", h.rows(), "x", h.cols(),
                         "; expected ", k, "x", k);
    }
    if (!h.allFinite()) {
      return GptqInvalid("hessians[", i, "] has a non-finite value");
    }
  }
  if (!l.weights.allFinite()) {
    return GptqInvalid("weights has a non-finite value");
  }
  if (l.grid.qmax < 1 || l.grid.group_size < 0) {
    return GptqInvalid("grid qmax ", l.grid.qmax, " / group size ",
                       l.grid.group_size, " out of range");
  }
  if (l.scales.rows() != rows || l.scales.cols() != l.grid.Groups(k)) {
    return GptqInvalid("scales is ", l.scales.rows(), "x", l.scales.cols(),
                       "; expected ", rows, "x", l.grid.Groups(k));
  }
  for (Index i = 0; i < l.scales.size(); ++i) {
    const float s = l.scales.data()[i];
    if (!std::isfinite(s) || s <= 0) {
      return GptqInvalid("a scale is ", s, "; must be finite and > 0");
    }
  }
  if (!(o.damp >= 0) || !std::isfinite(o.damp)) {
    return GptqInvalid("damp must be finite and >= 0");
  }
  if (o.block_size <= 0) return GptqInvalid("block_size must be > 0");
  return absl::OkStatus();
}

// The column order and the upper Cholesky factor of (P (H + damping) P^T)^-1.
struct Factor {
  std::vector<Index> perm;  // perm[a]: the column taken a-th
  MatrixXd u;               // [k, k] upper, in permuted order
  int raised = 0;
};

Factor Factorize(const MatrixXd& hessian, const GptqOptions& o) {
  const Index k = hessian.rows();
  MatrixXd h = hessian;
  // An input that is always zero has no row in H; any rounding of its
  // weights is as good, so it is given a unit diagonal to stay invertible.
  for (Index i = 0; i < k; ++i) {
    if (!(h(i, i) > 0)) h(i, i) = 1;
  }
  Factor f;
  f.perm.resize(static_cast<size_t>(k));
  std::iota(f.perm.begin(), f.perm.end(), Index{0});
  if (o.act_order) {
    std::stable_sort(f.perm.begin(), f.perm.end(),
                     [&](Index a, Index b) { return h(a, a) > h(b, b); });
  }
  MatrixXd hp(k, k);
  for (Index a = 0; a < k; ++a) {
    for (Index b = 0; b < k; ++b) hp(a, b) = h(f.perm[a], f.perm[b]);
  }
  const double mean = h.diagonal().mean();
  double damp = o.damp * mean;
  // Raised tenfold while H + damping is not numerically positive definite
  // (few samples for many inputs); the last try is heavily damped, which
  // tends to nearest rounding.
  for (int attempt = 0; attempt < 8; ++attempt) {
    MatrixXd m = hp;
    m.diagonal().array() += damp;
    Eigen::LLT<MatrixXd> llt(m);
    if (llt.info() == Eigen::Success) {
      const MatrixXd inv = llt.solve(MatrixXd::Identity(k, k));
      Eigen::LLT<MatrixXd> llt_inv(inv);
      if (llt_inv.info() == Eigen::Success && inv.allFinite()) {
        f.u = llt_inv.matrixU();
        if (f.u.allFinite() && (f.u.diagonal().array() > 0).all()) return f;
      }
    }
    ++f.raised;
    damp = damp > 0 ? damp * 10 : 1e-6 * mean;
  }
  // Diagonal: plain nearest rounding, no error feedback.
  f.u = MatrixXd::Identity(k, k);
  return f;
}

// Rows [r0, r0 + c) of `l` rounded with factor `f`; ints row-major [c, k].
void RoundRows(const GptqLayer& l, const Factor& f, const GptqOptions& o,
               Index r0, Index c, int32_t* ints) {
  const Index k = l.weights.cols();
  const WeightGrid& grid = l.grid;
  // Each group's pinned column: its largest weight, when that rounds to
  // +-qmax (-1: none).
  const Index groups = grid.Groups(k);
  std::vector<Index> pinned(static_cast<size_t>(c * groups), -1);
  for (Index r = 0; r < c; ++r) {
    std::vector<float> best(static_cast<size_t>(groups), -1.0f);
    for (Index j = 0; j < k; ++j) {
      const Index g = grid.GroupOf(j);
      const float a = std::fabs(l.weights(r0 + r, j));
      if (a > best[g]) {
        best[g] = a;
        pinned[r * groups + g] = j;
      }
    }
    for (Index g = 0; g < groups; ++g) {
      Index& p = pinned[r * groups + g];
      if (p >= 0 && std::abs(grid.Round(l.weights(r0 + r, p),
                                        l.scales(r0 + r, g))) != grid.qmax) {
        p = -1;
      }
    }
  }
  MatrixXd w(c, k);
  for (Index a = 0; a < k; ++a) {
    w.col(a) = l.weights.block(r0, f.perm[a], c, 1).cast<double>();
  }
  const Index bs = o.block_size;
  MatrixXd err(c, bs);
  for (Index i1 = 0; i1 < k; i1 += bs) {
    const Index i2 = std::min(i1 + bs, k), n = i2 - i1;
    for (Index a = i1; a < i2; ++a) {
      const Index j = f.perm[a];
      const Index g = grid.GroupOf(j);
      const double d = f.u(a, a);
      for (Index r = 0; r < c; ++r) {
        const double s = l.scales(r0 + r, g);
        int32_t q = grid.Round(w(r, a), s);
        if (pinned[r * groups + g] == j) {
          q = l.weights(r0 + r, j) < 0 ? -grid.qmax : grid.qmax;
        }
        ints[r * k + j] = q;
        err(r, a - i1) = (w(r, a) - s * q) / d;
      }
      // Within the block, column by column.
      const Index rest = i2 - a - 1;
      if (rest > 0) {
        w.block(0, a + 1, c, rest).noalias() -=
            err.col(a - i1) * f.u.block(a, a + 1, 1, rest);
      }
    }
    // The block's errors onto every later column at once.
    if (i2 < k) {
      w.rightCols(k - i2).noalias() -=
          err.leftCols(n) * f.u.block(i1, i2, n, k - i2);
    }
  }
}

// Per row of [r0, r0 + c): (w - s q)^T H (w - s q) for the integers `ints`.
Eigen::VectorXd RowLosses(const GptqLayer& l, const MatrixXd& h, Index r0,
                          Index c, const int32_t* ints) {
  const Index k = l.weights.cols();
  MatrixXd e(c, k);
  for (Index r = 0; r < c; ++r) {
    for (Index j = 0; j < k; ++j) {
      const double s = l.scales(r0 + r, l.grid.GroupOf(j));
      e(r, j) = double{l.weights(r0 + r, j)} - s * ints[r * k + j];
    }
  }
  return (e * h).cwiseProduct(e).rowwise().sum();
}

}  // namespace

absl::StatusOr<std::vector<int32_t>> Gptq(const GptqLayer& layer,
                                          const GptqOptions& options,
                                          GptqStats* stats) {
  if (absl::Status s = ValidateGptq(layer, options); !s.ok()) return s;
  const Index rows = layer.weights.rows(), k = layer.weights.cols();
  const bool shared = layer.hessians.size() == 1;
  std::vector<int32_t> ints(static_cast<size_t>(rows * k));
  std::vector<int32_t> nearest(ints.size());
  for (Index r = 0; r < rows; ++r) {
    for (Index j = 0; j < k; ++j) {
      nearest[r * k + j] = layer.grid.Round(
          layer.weights(r, j), layer.scales(r, layer.grid.GroupOf(j)));
    }
  }
  Factor common;
  if (shared) common = Factorize(layer.hessians[0], options);
  const Index chunk = shared ? kGptqRowChunk : 1;
  const int64_t chunks = (rows + chunk - 1) / chunk;
  std::vector<double> loss_near(rows), loss_final(rows);
  std::vector<uint8_t> kept(rows);
  std::vector<int> raised(static_cast<size_t>(chunks), 0);
  const auto run = [&](int64_t t) {
    const Index r0 = t * chunk, c = std::min(chunk, rows - r0);
    const MatrixXd& h = layer.hessians[shared ? 0 : r0];
    Factor own;
    if (!shared) {
      own = Factorize(h, options);
      raised[t] = own.raised;
    }
    int32_t* out = ints.data() + r0 * k;
    RoundRows(layer, shared ? common : own, options, r0, c, out);
    const Eigen::VectorXd near =
        RowLosses(layer, h, r0, c, nearest.data() + r0 * k);
    const Eigen::VectorXd got = RowLosses(layer, h, r0, c, out);
    for (Index r = 0; r < c; ++r) {
      // Safety net: with few samples, H's damped inverse can mislead; a
      // row whose loss is higher than nearest rounding's keeps nearest.
      const bool keep = got[r] > near[r];
      kept[r0 + r] = keep;
      loss_near[r0 + r] = near[r];
      loss_final[r0 + r] = keep ? near[r] : got[r];
      if (keep) {
        std::copy(nearest.begin() + (r0 + r) * k,
                  nearest.begin() + (r0 + r + 1) * k, out + r * k);
      }
    }
  };
  if (options.pool != nullptr) {
    options.pool->ParallelFor(chunks, run);
  } else {
    for (int64_t t = 0; t < chunks; ++t) run(t);
  }
  if (stats != nullptr) {
    *stats = GptqStats{};
    stats->damping_raised = common.raised;
    for (int r : raised) stats->damping_raised += r;
    for (Index r = 0; r < rows; ++r) {
      stats->loss_nearest += loss_near[r];
      stats->loss_gptq += loss_final[r];
      stats->rows_kept_nearest += kept[r];
    }
    for (size_t i = 0; i < ints.size(); ++i) {
      stats->changed += ints[i] != nearest[i];
    }
  }
  return ints;
}

}  // namespace qforge::quantizer
