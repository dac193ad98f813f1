// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The error measures of the quantization report, computed from sums that
// stream: a tensor's values of one sample are folded into an ErrorSums and
// thrown away, sums of samples merge by addition (in sample order, so that
// the result does not depend on the thread count), and Finish() turns them
// into the reported metrics. Definitions (docs/report-json.md):
//   noise e = dequantized - float, over finite pairs only
//   SQNR    = 10 log10(sum f^2 / sum e^2) dB (+inf when e is all zero)
//   cosine  = sum f q / sqrt(sum f^2 sum q^2) (1 when both are all zero)
//   MSE     = sum e^2 / n;  max abs error = max |e|
//   RMSE / scale: sqrt(MSE) / scale; 1/sqrt(12) ~ 0.29 is pure rounding
//   clipped: the integer value sits at qmin (qmax) while the float value
//            lies more than half a step below (above) the representable
//            range [scale (qmin - zp), scale (qmax - zp)]
//   range used: (largest - smallest integer seen + 1) / (qmax - qmin + 1)
//   channel SQNR: the SQNR of each channel (last axis, NHWC) on its own;
//            the median over channels whose float signal is not all zero.
//            A layer that loses most of its channels to one loud channel
//            (a per-tensor range stretched by an outlier channel) keeps a
//            high tensor SQNR, because the loud channel carries the signal
//            power, but a low channel SQNR.
//   rank:    min(SQNR, channel SQNR); layers are listed by it, worst first.
//   masked:  quantized tensors only: pairs whose float value is a
//            sentinel far beyond the grid's clamp: |f| >= 1e30 (float
//            lowest() / max(), as attention masks hold), or f beyond the
//            grid's range by 1e6 times its width (-1e9 masks). No grid
//            holds such a value; a mask clamped onto one
//            (quantizer/plan_checks.cc), and the sums it feeds, lose the
//            sentinel's magnitude by design, and its error would swamp
//            every figure, so such pairs are counted in `masked` and left
//            out of all the others, as non-finite pairs are.
#ifndef QFORGE_REPORT_METRICS_H_
#define QFORGE_REPORT_METRICS_H_

#include <cstdint>
#include <limits>
#include <vector>

namespace qforge::report {

// How a quantized tensor maps to real numbers.
struct QuantGrid {
  double scale = 1.0;
  int64_t zero_point = 0;
  int64_t qmin = -128, qmax = 127;
  double lo() const { return scale * static_cast<double>(qmin - zero_point); }
  double hi() const { return scale * static_cast<double>(qmax - zero_point); }
};

struct ErrorSums {
  uint64_t count = 0;      // finite pairs
  uint64_t nonfinite = 0;  // pairs with a NaN or Inf on either side
  uint64_t masked = 0;     // sentinel pairs at the grid's clamp (above)
  double sum_ff = 0, sum_ee = 0, sum_fq = 0, sum_qq = 0;
  double max_abs_error = 0;
  uint64_t clipped = 0;
  int64_t q_lo = std::numeric_limits<int64_t>::max();
  int64_t q_hi = std::numeric_limits<int64_t>::min();
  double f_min = std::numeric_limits<double>::infinity();
  double f_max = -std::numeric_limits<double>::infinity();
  // Per channel (the innermost axis of `channels` values; empty when the
  // tensor has fewer than 2 channels): sums of f^2 and e^2.
  std::vector<double> ch_ff, ch_ee;

  // Float reference `f` against another float tensor `g` (n values each,
  // `channels` = the innermost dimension).
  void AddFloat(const float* f, const float* g, int64_t n, int64_t channels);
  // Float reference `f` against integers `q` on `grid`.
  template <typename T>
  void AddQuantized(const float* f, const T* q, int64_t n, int64_t channels,
                    const QuantGrid& grid);
  void Merge(const ErrorSums& o);
  // Pairs added, whatever became of them.
  uint64_t seen() const { return count + nonfinite + masked; }
};

// The sentinel rule of `masked` (above).
inline constexpr double kMaskSentinel = 1e30;
inline constexpr double kMaskSpans = 1e6;

struct Metrics {
  uint64_t count = 0;
  uint64_t nonfinite = 0;
  uint64_t masked = 0;
  double sqnr_db = 0;  // may be +inf (no error) or -inf (zero signal)
  // Median per-channel SQNR and the worst channel (NaN / -1 when the
  // tensor has fewer than 2 channels with signal).
  double channel_sqnr_db = std::numeric_limits<double>::quiet_NaN();
  double worst_channel_sqnr_db = std::numeric_limits<double>::quiet_NaN();
  int64_t worst_channel = -1;
  double rank_db = 0;  // min(sqnr_db, channel_sqnr_db): the sort key
  double cosine = 1;
  double mse = 0;
  double max_abs_error = 0;
  // Quantized tensors only (NaN otherwise).
  double rmse_over_scale = std::numeric_limits<double>::quiet_NaN();
  double clipped_fraction = std::numeric_limits<double>::quiet_NaN();
  double range_used = std::numeric_limits<double>::quiet_NaN();
  double float_min = 0, float_max = 0;
};

// `grid` is null for float-vs-float comparisons.
Metrics Finish(const ErrorSums& sums, const QuantGrid* grid);

// 10 log10(signal / noise) with the conventions above.
double SqnrDb(double signal, double noise);

extern template void ErrorSums::AddQuantized<int8_t>(const float*,
                                                     const int8_t*, int64_t,
                                                     int64_t, const QuantGrid&);
extern template void ErrorSums::AddQuantized<uint8_t>(const float*,
                                                      const uint8_t*, int64_t,
                                                      int64_t,
                                                      const QuantGrid&);
extern template void ErrorSums::AddQuantized<int16_t>(const float*,
                                                      const int16_t*, int64_t,
                                                      int64_t,
                                                      const QuantGrid&);

}  // namespace qforge::report

#endif  // QFORGE_REPORT_METRICS_H_
