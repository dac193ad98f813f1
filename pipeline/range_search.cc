// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "pipeline/range_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "ir/graph.h"
#include "quantizer/largest_values.h"
#include "quantizer/quantize.h"
#include "report/report.h"

namespace qforge::pipeline {
namespace {

constexpr int64_t kMaxSamples = 64;
// A candidate must gain this much on both halves of the samples: below it
// the difference is the noise of a few samples, and keeping mse is the
// simpler model.
constexpr double kMinGainDb = 0.05;

std::vector<calibration::RangeSpec> Candidates() {
  std::vector<calibration::RangeSpec> out(3);
  out[0].method = calibration::RangeMethod::kMinMax;
  out[1].method = calibration::RangeMethod::kPercentile;
  out[1].percentile = 99.99;
  out[2].method = calibration::RangeMethod::kKl;
  return out;
}

// The mean output SQNR on each half of the samples.
struct Score {
  double db[2] = {0, 0};
  double mean() const { return (db[0] + db[1]) / 2; }
  bool exact() const { return !std::isfinite(db[0]) || !std::isfinite(db[1]); }
};

}  // namespace

absl::StatusOr<RangeSearchOutcome> SearchRanges(
    const ir::Model& model, const ir::Model& work,
    const calibration::StatsFile& stats, const formats::SampleSource& data,
    const std::vector<int64_t>& samples,
    const quantizer::QuantizeOptions& options, int threads,
    numerics::Modes numerics, const Hooks& hooks) {
  RangeSearchOutcome out;
  // Two halves of the samples (alternate ones): a choice is kept only when
  // it raises the SQNR on both, so that it is not fitted to a few samples
  // (choosing on all of them at once overfits: it gains on the calibration
  // samples and loses on held-out ones).
  report::ReportOptions half[2];
  for (report::ReportOptions& ro : half) {
    ro.threads = threads;
    ro.histogram_layers = 0;
    ro.numerics = numerics;
  }
  const int64_t n = static_cast<int64_t>(samples.size());
  const int64_t take = std::min(n, kMaxSamples);
  for (int64_t i = 0; i < take; ++i) {
    half[i % 2].samples.push_back(samples[static_cast<size_t>(i * n / take)]);
  }
  if (half[1].samples.empty()) half[1].samples = half[0].samples;
  out.samples = take;
  auto measure =
      [&](const quantizer::QuantizeOptions& o) -> absl::StatusOr<Score> {
    ASSIGN_OR_RETURN(const quantizer::QuantizeResult q,
                     quantizer::Quantize(work, &stats, o));
    Score score;
    for (int h = 0; h < 2; ++h) {
      ASSIGN_OR_RETURN(const report::Report r,
                       report::BuildReport(model, q.model, data, half[h]));
      score.db[h] = report::MeanOutputSqnr(r);
    }
    ++out.trials;
    return score;
  };
  quantizer::QuantizeOptions current = options;
  ASSIGN_OR_RETURN(Score now, measure(current));
  out.start_db = now.mean();
  out.final_db = now.mean();

  // Tensors with statistics in op order (subgraph inputs first): upstream
  // choices are settled before the layers that read them.
  const ir::Subgraph& sg = work.subgraphs[0];
  std::map<int, const calibration::TensorStats*> by_index;
  for (const calibration::TensorStats& t : stats.tensors) {
    if (t.subgraph == 0 && !t.empty()) by_index[t.tensor] = &t;
  }
  std::vector<int32_t> order(sg.inputs.begin(), sg.inputs.end());
  for (const ir::Operator& op : sg.operators) {
    order.insert(order.end(), op.outputs.begin(), op.outputs.end());
  }
  std::vector<bool> seen(sg.tensors.size(), false);
  const ir::Graph graph(sg);
  for (int32_t t : order) {
    if (now.exact()) break;  // nothing left to gain
    if (t < 0 || static_cast<size_t>(t) >= seen.size() || seen[t]) continue;
    seen[t] = true;
    // The planner fixes its range whatever the override: trials would
    // change nothing.
    if (quantizer::ReadForLargest(sg, graph, t)) continue;
    auto it = by_index.find(t);
    if (it == by_index.end()) continue;
    const calibration::TensorStats& ts = *it->second;
    const calibration::Range base =
        calibration::ComputeRange(ts, options.range);
    calibration::RangeSpec best_spec = options.range;
    Score best = now;
    bool tried = false, improved = false;
    for (calibration::RangeSpec spec : Candidates()) {
      spec.num_bits = options.range.num_bits;
      const calibration::Range r = calibration::ComputeRange(ts, spec);
      if (r.min == base.min && r.max == base.max) continue;  // no change
      tried = true;
      quantizer::QuantizeOptions trial = current;
      trial.range_overrides[ts.name] = spec;
      ASSIGN_OR_RETURN(const Score score, measure(trial));
      if (score.db[0] > best.db[0] + kMinGainDb &&
          score.db[1] > best.db[1] + kMinGainDb) {
        best = score;
        best_spec = spec;
        improved = true;
      }
    }
    out.tensors += tried;
    if (!improved) continue;
    current.range_overrides[ts.name] = best_spec;
    out.overrides[ts.name] = best_spec;
    hooks.Note(absl::StrFormat("method auto: '%s' %s: %.2f -> %.2f dB", ts.name,
                               calibration::RangeMethodName(best_spec),
                               now.mean(), best.mean()));
    now = best;
    out.final_db = now.mean();
  }
  return out;
}

}  // namespace qforge::pipeline
