// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Wall time of AdaRound on one layer at the paper's defaults (10000 steps,
// batch 256): BM_AdaRound, a shared input (a convolution or fully connected
// layer), k = 256 weights per row, 256 rows, 1024 samples;
// BM_AdaRoundDepthwise, per-row inputs (a 3x3 depthwise convolution), k = 9,
// 256 rows, 1024 samples.
//
//   build/bench/adaround_bench [--benchmark_filter=AdaRound/2]
//
// Argument: threads.
#include <benchmark/benchmark.h>

#include <random>

#include "quantizer/adaround.h"
#include "runtime/thread_pool.h"

namespace qforge::quantizer {
namespace {

AdaRoundLayer MakeLayer(int rows, int k, int n, bool per_row) {
  std::mt19937_64 rng(0);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  AdaRoundLayer l;
  for (int i = 0; i < (per_row ? rows : 1); ++i) {
    Eigen::MatrixXf x(n, k);
    for (int s = 0; s < n; ++s) {
      const float common = normal(rng);
      for (int j = 0; j < k; ++j) x(s, j) = 0.6f * common + 0.8f * normal(rng);
    }
    l.inputs.push_back(x);
  }
  l.weights.resize(rows, k);
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < k; ++j) l.weights(r, j) = 0.05f * normal(rng);
  }
  for (int r = 0; r < rows; ++r) {
    l.scales.push_back(l.weights.row(r).cwiseAbs().maxCoeff() / 127.0f);
  }
  l.target.resize(n, rows);
  for (int r = 0; r < rows; ++r) {
    l.target.col(r) = l.inputs[per_row ? r : 0] * l.weights.row(r).transpose();
  }
  return l;
}

void Run(benchmark::State& state, const AdaRoundLayer& layer) {
  runtime::ThreadPool pool(static_cast<int>(state.range(0)));
  AdaRoundOptions options;
  options.pool = &pool;
  AdaRoundStats stats;
  for (auto _ : state) {
    benchmark::DoNotOptimize(AdaRound(layer, options, &stats));
  }
  state.counters["loss_ratio"] = stats.loss_adaround / stats.loss_nearest;
  state.counters["flipped"] = static_cast<double>(stats.flipped);
}

void BM_AdaRound(benchmark::State& state) {
  Run(state, MakeLayer(256, 256, 1024, false));
}

void BM_AdaRoundDepthwise(benchmark::State& state) {
  Run(state, MakeLayer(256, 9, 1024, true));
}

BENCHMARK(BM_AdaRound)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(BM_AdaRoundDepthwise)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace
}  // namespace qforge::quantizer
