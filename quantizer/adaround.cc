// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// AdaRound's optimizer. The loss is a sum over output rows and Adam is
// elementwise, so each row's problem is independent: rows are split into
// chunks of fixed size, each optimized on its own (own Adam state, own replay
// of the seeded batch stream), which makes the result independent of the
// thread count.
#include "quantizer/adaround.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace qforge::quantizer {
namespace {

using Eigen::ArrayXd;
using Eigen::ArrayXf;
using Eigen::ArrayXXf;
using Eigen::Index;
using Eigen::MatrixXf;

// The rectified sigmoid's stretch (paper, section 4.1).
constexpr float kZeta = 1.1f;
constexpr float kGamma = -0.1f;
// Rows per task. Fixed, so every row goes through the same arithmetic (GEMM
// shapes included) whatever the thread count.
constexpr Index kRowChunk = 64;
// Samples per block when computing full-set losses, to bound memory.
constexpr Index kLossBlock = 2048;
// Adam's usual constants (Kingma & Ba; PyTorch's defaults, as in the paper).
constexpr float kAdamBeta1 = 0.9f;
constexpr float kAdamBeta2 = 0.999f;
constexpr float kAdamEps = 1e-8f;

template <typename... Parts>
absl::Status Invalid(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("AdaRound: ", parts...));
}

absl::Status Validate(const AdaRoundLayer& l, const AdaRoundOptions& o) {
  const Index rows = l.weights.rows(), k = l.weights.cols();
  if (rows == 0 || k == 0) {
    return Invalid("weights is empty (", rows, "x", k, ")");
  }
  if (l.inputs.size() != 1 && static_cast<Index>(l.inputs.size()) != rows) {
    return Invalid("inputs has ", l.inputs.size(),
                   " matrices; expected 1 (shared) or one per row (", rows,
                   ")");
  }
  const Index n = l.inputs[0].rows();
  if (n == 0) return Invalid("inputs have no samples");
  // Sample indices are drawn as 32-bit integers.
  if (n > std::numeric_limits<int32_t>::max()) {
    return Invalid("too many samples (", n, ")");
  }
  for (size_t i = 0; i < l.inputs.size(); ++i) {
    const MatrixXf& x = l.inputs[i];
    if (x.rows() != n || x.cols() != k) {
      return Invalid("inputs[", i, "] is ", x.rows(), "x", x.cols(),
                     "; expected ", n, "x", k, " (samples x weights per row)");
    }
    if (!x.allFinite())
      return Invalid("inputs[", i, "] has a non-finite value");
  }
  if (l.target.rows() != n || l.target.cols() != rows) {
    return Invalid("target is ", l.target.rows(), "x", l.target.cols(),
                   "; expected ", n, "x", rows, " (samples x rows)");
  }
  if (!l.target.allFinite()) return Invalid("target has a non-finite value");
  if (!l.weights.allFinite()) return Invalid("weights has a non-finite value");
  if (static_cast<Index>(l.scales.size()) != rows) {
    return Invalid("scales has ", l.scales.size(), " values; expected ", rows);
  }
  for (size_t r = 0; r < l.scales.size(); ++r) {
    if (!std::isfinite(l.scales[r]) || l.scales[r] <= 0) {
      return Invalid("scales[", r, "] is ", l.scales[r],
                     "; must be finite and > 0");
    }
  }
  // Integers are carried in float: they must be exact there.
  constexpr int kFloatExact = 1 << 24;
  if (l.qmin >= l.qmax || l.qmin < -kFloatExact || l.qmax > kFloatExact) {
    return Invalid("qmin (", l.qmin, ") must be < qmax (", l.qmax,
                   "), both within +-2^24");
  }
  if (o.iterations < 0) return Invalid("iterations is negative");
  if (o.batch_size <= 0) return Invalid("batch_size must be > 0");
  if (!std::isfinite(o.reg_weight) || o.reg_weight < 0) {
    return Invalid("reg_weight must be finite and >= 0");
  }
  if (!std::isfinite(o.beta_start) || !std::isfinite(o.beta_end) ||
      o.beta_start <= 0 || o.beta_end <= 0) {
    return Invalid("beta_start and beta_end must be finite and > 0");
  }
  if (!(o.warmup >= 0 && o.warmup <= 1)) {
    return Invalid("warmup must be in [0, 1]");
  }
  if (!std::isfinite(o.learning_rate) || o.learning_rate <= 0) {
    return Invalid("learning_rate must be finite and > 0");
  }
  return absl::OkStatus();
}

// Draws each step's batch: sample indices without replacement within a step
// (partial Fisher-Yates over a persistent permutation). Every chunk replays
// the same stream from the same seed, so all rows see the same batches.
class BatchSampler {
 public:
  BatchSampler(uint64_t seed, Index n) : rng_(seed), perm_(n) {
    std::iota(perm_.begin(), perm_.end(), 0);
  }

  // The first `b` entries are the batch; b <= n.
  const std::vector<int32_t>& Next(Index b) {
    const Index n = static_cast<Index>(perm_.size());
    for (Index i = 0; i < b; ++i) {
      std::swap(perm_[i], perm_[i + Below(static_cast<uint64_t>(n - i))]);
    }
    return perm_;
  }

 private:
  // Lemire's multiply-shift on 32 random bits (range < 2^32):
  // std::uniform_int_distribution's output differs between standard
  // libraries, this does not.
  Index Below(uint64_t range) {
    return static_cast<Index>(((rng_() >> 32) * range) >> 32);
  }

  std::mt19937_64 rng_;
  std::vector<int32_t> perm_;
};

// Rows [r0, r0 + c) of the result and their per-row statistics.
struct ChunkOut {
  int32_t* ints;       // [c, k] row-major
  double* loss_near;   // [c]
  double* loss_final;  // [c]
  int64_t* flipped;    // [c]
  uint8_t* kept_near;  // [c]
};

// Per row, the mean over all samples of the squared output error of
// `w` ([c, k], dequantized weights of rows r0..r0+c).
ArrayXd FullSetLoss(const AdaRoundLayer& l, Index r0, const MatrixXf& w) {
  const Index c = w.rows(), n = l.target.rows();
  ArrayXd sum = ArrayXd::Zero(c);
  if (l.inputs.size() == 1) {
    const MatrixXf& x = l.inputs[0];
    MatrixXf e;
    for (Index n0 = 0; n0 < n; n0 += kLossBlock) {
      const Index nb = std::min(kLossBlock, n - n0);
      e.noalias() = x.middleRows(n0, nb) * w.transpose();
      e -= l.target.block(n0, r0, nb, c);
      sum += e.colwise().squaredNorm().transpose().array().cast<double>();
    }
  } else {
    for (Index i = 0; i < c; ++i) {
      const MatrixXf& x = l.inputs[r0 + i];
      for (Index n0 = 0; n0 < n; n0 += kLossBlock) {
        const Index nb = std::min(kLossBlock, n - n0);
        sum[i] +=
            static_cast<double>((x.middleRows(n0, nb) * w.row(i).transpose() -
                                 l.target.col(r0 + i).segment(n0, nb))
                                    .squaredNorm());
      }
    }
  }
  return sum / static_cast<double>(n);
}

void OptimizeChunk(const AdaRoundLayer& l, const AdaRoundOptions& o, Index r0,
                   Index c, const ChunkOut& out) {
  const Index k = l.weights.cols(), n = l.target.rows();
  const bool shared = l.inputs.size() == 1;
  const float qmin = static_cast<float>(l.qmin);
  const float qmax = static_cast<float>(l.qmax);
  const double lo = l.qmin, hi = l.qmax;

  // floor(w/s), kept in [qmin - 1, qmax] so a huge w/s stays representable
  // and clamp(base + h) still gives the clamped value. A weight is free when
  // both of its candidates, base and base + 1, lie in [qmin, qmax]; otherwise
  // it is fixed to the clamped value and its V is unused. Quotients in double,
  // as quantizer/rewrite.cc rounds weights.
  ArrayXXf base(c, k), free(c, k), v_param(c, k), q_near(c, k);
  ArrayXf scale(c);
  for (Index i = 0; i < c; ++i) {
    const double s = l.scales[r0 + i];
    scale[i] = static_cast<float>(s);
    for (Index j = 0; j < k; ++j) {
      const double q = static_cast<double>(l.weights(r0 + i, j)) / s;
      const double f = std::clamp(std::floor(q), lo - 1, hi);
      base(i, j) = static_cast<float>(f);
      const bool is_free = f >= l.qmin && f + 1 <= l.qmax;
      free(i, j) = is_free ? 1.0f : 0.0f;
      // h(V) starts at the fractional part: V = -log((zeta - gamma) /
      // (rest - gamma) - 1).
      const float rest = is_free ? static_cast<float>(q - f) : 0.0f;
      v_param(i, j) = -std::log((kZeta - kGamma) / (rest - kGamma) - 1.0f);
      q_near(i, j) = static_cast<float>(std::clamp(std::round(q), lo, hi));
    }
  }

  // h(V) = clip(sigmoid(V) (zeta - gamma) + gamma, 0, 1) and dh/dV.
  ArrayXXf h(c, k), dh(c, k);
  const auto rectified = [&] {
    const ArrayXXf sig = (1.0f + (-v_param).exp()).inverse();
    const ArrayXXf raw = sig * (kZeta - kGamma) + kGamma;
    h = raw.max(0.0f).min(1.0f);
    dh = (raw > 0.0f && raw < 1.0f)
             .select(sig * (1.0f - sig) * (kZeta - kGamma), 0.0f) *
         free;
  };

  const Index b = std::min<Index>(o.batch_size, n);
  const bool full_batch = b == n;
  const int warm =
      static_cast<int>(o.warmup * static_cast<float>(o.iterations));
  const int annealed = o.iterations - warm;
  BatchSampler sampler(o.seed, n);
  ArrayXXf adam_m = ArrayXXf::Zero(c, k), adam_v = ArrayXXf::Zero(c, k);
  ArrayXXf grad(c, k);
  MatrixXf w(c, k), xb(b, k), tb(b, c), e(b, c), g(c, k);
  Eigen::VectorXf ev(b);
  if (full_batch && shared) {
    xb = l.inputs[0];
    tb = l.target.middleCols(r0, c);
  }
  // With fewer inputs per row than batch windows (depthwise rows, 1x1
  // convolutions), the loss over all windows is a quadratic form:
  // mean ||X w - t||^2 has gradient 2 (G w - c), G = X^T X / n,
  // c = X^T t / n, at k x k per row and step instead of a batch product.
  // The full-set gradient then replaces the sampled one: cheaper and
  // exact.
  const bool gram = k < b;
  std::vector<MatrixXf> grams;
  MatrixXf cross;  // [c, k]: row i is c of row r0 + i
  if (gram) {
    const float inv_n = 1.0f / static_cast<float>(n);
    cross.resize(c, k);
    for (Index i = 0; i < c; ++i) {
      const MatrixXf& x = l.inputs[shared ? 0 : r0 + i];
      if (!shared || i == 0) grams.push_back(x.transpose() * x * inv_n);
      cross.row(i) = (x.transpose() * l.target.col(r0 + i)).transpose() * inv_n;
    }
  }
  double bias1 = 1.0, bias2 = 1.0;
  for (int t = 0; t < o.iterations; ++t) {
    const std::vector<int32_t>* idx =
        full_batch || gram ? nullptr : &sampler.Next(b);
    rectified();
    // W~ = s * clamp(floor(W/s) + h(V), qmin, qmax); fixed weights get h = 0.
    w = ((base + h * free).max(qmin).min(qmax).colwise() * scale).matrix();

    // Reconstruction loss mean_n ||x_n W~^T - t_n||^2: its gradient wrt W~
    // is (2/B) E^T X with E = X W~^T - T on the batch.
    if (gram) {
      // b (G w - c) per row, so that the (2 / b) below gives 2 (G w - c).
      if (shared) {
        g.noalias() = w * grams[0];
      } else {
        for (Index i = 0; i < c; ++i) {
          g.row(i).noalias() = w.row(i) * grams[static_cast<size_t>(i)];
        }
      }
      g = (g - cross) * static_cast<float>(b);
    } else if (shared) {
      if (idx != nullptr) {
        for (Index j = 0; j < k; ++j) {
          const float* src = l.inputs[0].col(j).data();
          float* dst = xb.col(j).data();
          for (Index s = 0; s < b; ++s) dst[s] = src[(*idx)[s]];
        }
        for (Index i = 0; i < c; ++i) {
          const float* src = l.target.col(r0 + i).data();
          float* dst = tb.col(i).data();
          for (Index s = 0; s < b; ++s) dst[s] = src[(*idx)[s]];
        }
      }
      e.noalias() = xb * w.transpose();
      e -= tb;
      g.noalias() = e.transpose() * xb;
    } else {
      for (Index i = 0; i < c; ++i) {
        const MatrixXf& x = l.inputs[r0 + i];
        if (idx == nullptr) {
          ev.noalias() = x * w.row(i).transpose();
          ev -= l.target.col(r0 + i);
          g.row(i).noalias() = ev.transpose() * x;
          continue;
        }
        for (Index j = 0; j < k; ++j) {
          const float* src = x.col(j).data();
          float* dst = xb.col(j).data();
          for (Index s = 0; s < b; ++s) dst[s] = src[(*idx)[s]];
        }
        const float* tsrc = l.target.col(r0 + i).data();
        for (Index s = 0; s < b; ++s) ev[s] = tsrc[(*idx)[s]];
        ev = xb * w.row(i).transpose() - ev;
        g.row(i).noalias() = ev.transpose() * xb;
      }
    }
    // dW~/dh = s inside the clamp (free weights); dh carries the mask.
    grad = (g.array().colwise() * scale) * (2.0f / static_cast<float>(b)) * dh;

    // Regularizer lambda * sum(1 - |2h - 1|^beta) after the warmup, beta
    // annealed linearly (not cosine) from beta_start at the first step after
    // the warmup to beta_end at the last.
    // d/dh = -2 lambda beta sign(2h - 1) |2h - 1|^(beta - 1).
    if (t >= warm && o.reg_weight > 0) {
      const float rel = annealed > 1 ? static_cast<float>(t - warm) /
                                           static_cast<float>(annealed - 1)
                                     : 0.0f;
      const float beta = o.beta_start + (o.beta_end - o.beta_start) * rel;
      const ArrayXXf d = 2.0f * h - 1.0f;
      // |d|^(beta - 1) as exp(log) on a floored |d|: vectorized, and finite
      // at d = 0, where sign(d) zeroes the term anyway.
      const ArrayXXf pw = ((beta - 1.0f) * d.abs().max(1e-30f).log()).exp();
      grad -= (2.0f * o.reg_weight * beta) * d.sign() * pw * dh;
    }

    // Adam on V.
    bias1 *= kAdamBeta1;
    bias2 *= kAdamBeta2;
    adam_m = kAdamBeta1 * adam_m + (1.0f - kAdamBeta1) * grad;
    adam_v = kAdamBeta2 * adam_v + (1.0f - kAdamBeta2) * grad.square();
    const float step = o.learning_rate / static_cast<float>(1.0 - bias1);
    const float inv_bias2 = static_cast<float>(1.0 / (1.0 - bias2));
    v_param -= step * adam_m / ((adam_v * inv_bias2).sqrt() + kAdamEps);
  }

  // Final rounding: up where h(V) >= 0.5.
  rectified();
  const ArrayXXf up = (h >= 0.5f).select(free, 0.0f);
  const ArrayXXf q_final = (base + up).max(qmin).min(qmax);
  // Both dequantized the same way, so a row AdaRound left at nearest
  // compares equal.
  const ArrayXd loss_near =
      FullSetLoss(l, r0, (q_near.colwise() * scale).matrix());
  const ArrayXd loss_ada =
      FullSetLoss(l, r0, (q_final.colwise() * scale).matrix());
  for (Index i = 0; i < c; ++i) {
    // Safety net: a row whose AdaRound loss on all samples is worse than
    // nearest rounding's (possible with few samples, a short schedule or
    // batches unlike the full set) keeps nearest rounding.
    const bool keep_near = loss_ada[i] > loss_near[i];
    out.kept_near[i] = keep_near;
    out.loss_near[i] = loss_near[i];
    out.loss_final[i] = keep_near ? loss_near[i] : loss_ada[i];
    int64_t flipped = 0;
    for (Index j = 0; j < k; ++j) {
      const auto near = static_cast<int32_t>(q_near(i, j));
      const int32_t v = keep_near ? near : static_cast<int32_t>(q_final(i, j));
      out.ints[i * k + j] = v;
      flipped += v != near;
    }
    out.flipped[i] = flipped;
  }
}

}  // namespace

absl::StatusOr<std::vector<int32_t>> AdaRound(const AdaRoundLayer& layer,
                                              const AdaRoundOptions& options,
                                              AdaRoundStats* stats) {
  if (absl::Status s = Validate(layer, options); !s.ok()) return s;
  const Index rows = layer.weights.rows(), k = layer.weights.cols();
  std::vector<int32_t> ints(static_cast<size_t>(rows * k));
  std::vector<double> loss_near(rows), loss_final(rows);
  std::vector<int64_t> flipped(rows);
  std::vector<uint8_t> kept_near(rows);
  const int64_t chunks = (rows + kRowChunk - 1) / kRowChunk;
  const auto run = [&](int64_t chunk) {
    const Index r0 = chunk * kRowChunk;
    const Index c = std::min(kRowChunk, rows - r0);
    OptimizeChunk(layer, options, r0, c,
                  ChunkOut{ints.data() + r0 * k, loss_near.data() + r0,
                           loss_final.data() + r0, flipped.data() + r0,
                           kept_near.data() + r0});
  };
  if (options.pool != nullptr) {
    options.pool->ParallelFor(chunks, run);
  } else {
    for (int64_t i = 0; i < chunks; ++i) run(i);
  }
  if (stats != nullptr) {
    // Summed in row order, so the totals do not depend on the thread count.
    *stats = AdaRoundStats{};
    for (Index r = 0; r < rows; ++r) {
      stats->loss_nearest += loss_near[r];
      stats->loss_adaround += loss_final[r];
      stats->flipped += flipped[r];
      stats->rows_kept_nearest += kept_near[r];
    }
  }
  return ints;
}

}  // namespace qforge::quantizer
