// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Range methods on synthetic distributions whose optimum is known
// independently (closed forms, or a brute-force search over the analytic
// density written here without the histogram code).
#include "calibration/range.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"

namespace qforge::calibration {
namespace {

TensorStats FromSamples(const std::vector<float>& values) {
  TensorStats s;
  for (float v : values) {
    s.count++;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    s.histogram.Add(BucketOf(v));
  }
  return s;
}

std::vector<float> Uniform(float lo, float hi, int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

TEST(RangeTest, ParsesMethods) {
  EXPECT_EQ(ParseRangeMethod("minmax")->method, RangeMethod::kMinMax);
  EXPECT_EQ(ParseRangeMethod("kl")->method, RangeMethod::kKl);
  EXPECT_EQ(ParseRangeMethod("mse")->method, RangeMethod::kMse);
  EXPECT_DOUBLE_EQ(ParseRangeMethod("percentile:99.9")->percentile, 99.9);
  EXPECT_FALSE(ParseRangeMethod("percentile:40").ok());
  EXPECT_FALSE(ParseRangeMethod("percentile:abc").ok());
  EXPECT_FALSE(ParseRangeMethod("max").ok());
}

TEST(RangeTest, MinMaxIsExact) {
  const TensorStats s = FromSamples({-3.25f, 0.5f, 7.125f, 2.0f});
  const Range r = ComputeRange(s, *ParseRangeMethod("minmax"));
  EXPECT_EQ(r.min, -3.25f);
  EXPECT_EQ(r.max, 7.125f);
}

TEST(RangeTest, PercentileOfUniform) {
  // Uniform on [0, 10]: the 99th percentile is 9.9 and the 1st is 0.1; the
  // log-grid buckets near 10 are 1/32 of a binade (~0.25) wide, and the
  // sample quantile has its own noise.
  const TensorStats s = FromSamples(Uniform(0.0f, 10.0f, 200000, 1));
  const Range r = ComputeRange(s, *ParseRangeMethod("percentile:99"));
  EXPECT_NEAR(r.max, 9.9, 0.05);
  EXPECT_NEAR(r.min, 0.1, 0.01);
}

TEST(RangeTest, MseKeepsTheFullRangeOfAUniform) {
  // For a uniform distribution any clipping costs more than the rounding it
  // saves at 8 bits: the optimum is the full range.
  const TensorStats s = FromSamples(Uniform(-1.0f, 1.0f, 100000, 2));
  const Range r = ComputeRange(s, *ParseRangeMethod("mse"));
  EXPECT_NEAR(r.min, -1.0, 0.02);
  EXPECT_NEAR(r.max, 1.0, 0.02);
}

// Expected squared 8-bit quantization error of a Laplace(0, 1) clipped at
// +/-t, by numerical integration of the density (independent of range.cc).
double LaplaceMse(double t) {
  const double step = 2 * t / 255;
  double err = 0;
  const double dx = 4e-3;
  for (double x = dx / 2; x < 40; x += dx) {
    const double p = 0.5 * std::exp(-x);
    const double e = x <= t ? step * step / 12 : (x - t) * (x - t);
    err += 2 * p * e * dx;
  }
  return err;
}

TEST(RangeTest, MseFindsTheLaplaceOptimum) {
  // Brute-force optimum of the analytic error over t.
  double best_t = 1, best = 1e9;
  for (double t = 1; t < 20; t += 0.02) {
    const double e = LaplaceMse(t);
    if (e < best) {
      best = e;
      best_t = t;
    }
  }
  std::mt19937 rng(3);
  std::exponential_distribution<float> expo(1.0f);
  std::bernoulli_distribution sign(0.5);
  std::vector<float> v(400000);
  for (float& x : v) x = sign(rng) ? expo(rng) : -expo(rng);
  const TensorStats s = FromSamples(v);
  const Range r = ComputeRange(s, *ParseRangeMethod("mse"));
  const double t = 0.5 * (r.max - r.min);
  // The error curve is flat near its minimum; within 10% of the optimum.
  EXPECT_NEAR(t, best_t, 0.1 * best_t) << "analytic optimum " << best_t;
  EXPECT_LT(t, 0.8 * s.max);  // it clips
}

TEST(RangeTest, KlClipsOutliersButNotAUniform) {
  // A uniform distribution loses nothing to 8-bit quantization: KL keeps
  // (nearly) the whole range.
  const TensorStats u = FromSamples(Uniform(0.0f, 4.0f, 100000, 4));
  const Range ru = ComputeRange(u, *ParseRangeMethod("kl"));
  EXPECT_GT(ru.max, 3.8);
  // Gaussian mass plus a handful of huge outliers: the threshold lands far
  // below the outliers (TensorRT's rationale for the method).
  std::mt19937 rng(5);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(200000);
  for (float& x : v) x = g(rng);
  for (int i = 0; i < 20; ++i) v[i] = 100.0f;
  const TensorStats s = FromSamples(v);
  const Range r = ComputeRange(s, *ParseRangeMethod("kl"));
  EXPECT_LT(r.max, 20.0);
  EXPECT_GT(r.max, 2.0);
}

// A ReLU output: `zeros` exact zeros next to the given positive values.
TensorStats WithZeros(std::vector<float> values, int zeros) {
  values.insert(values.end(), zeros, 0.0f);
  return FromSamples(values);
}

TEST(RangeTest, KlIgnoresTheZeroSpikeOfAReluOutput) {
  // Zeros are exact at any range, so a ReLU of a uniform keeps (nearly) the
  // whole range, as the uniform alone does. With the zero spike counted,
  // TensorRT's group smearing of the spike made KL pick the smallest
  // threshold it tries (1/8 of the maximum).
  const TensorStats s = WithZeros(Uniform(0.0f, 4.0f, 100000, 6), 150000);
  const Range r = ComputeRange(s, *ParseRangeMethod("kl"));
  EXPECT_EQ(r.min, 0.0f);
  EXPECT_GT(r.max, 3.8);
  // Half-normal plus zeros: the same threshold as the half-normal alone.
  std::mt19937 rng(7);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> h(200000);
  for (float& x : h) x = std::fabs(g(rng));
  const Range alone = ComputeRange(FromSamples(h), *ParseRangeMethod("kl"));
  const Range relu =
      ComputeRange(WithZeros(h, 300000), *ParseRangeMethod("kl"));
  EXPECT_FLOAT_EQ(relu.max, alone.max);
  EXPECT_GT(alone.max, 0.5 * FromSamples(h).max);
}

TEST(RangeTest, MseIgnoresTheZeroSpikeOfAReluOutput) {
  // Zeros pay no rounding error; charging them step^2/12 made MSE shrink
  // ReLU ranges. A ReLU of a Laplace gets the range of the Laplace's
  // positive half alone, and a ReLU of a uniform its full range.
  std::mt19937 rng(8);
  std::exponential_distribution<float> expo(1.0f);
  std::vector<float> h(200000);
  for (float& x : h) x = expo(rng);
  const Range alone = ComputeRange(FromSamples(h), *ParseRangeMethod("mse"));
  const Range relu =
      ComputeRange(WithZeros(h, 600000), *ParseRangeMethod("mse"));
  EXPECT_FLOAT_EQ(relu.max, alone.max);
  const TensorStats u = WithZeros(Uniform(0.0f, 1.0f, 100000, 9), 400000);
  EXPECT_NEAR(ComputeRange(u, *ParseRangeMethod("mse")).max, 1.0, 0.02);
}

TEST(RangeTest, KlNeverClipsMostOfTheValues) {
  // model_ToyCar's bottleneck (FULLY_CONNECTED 4, ReLU, 8 units x 20 real
  // vectors): every value in [1.12, 3.62], none near zero. Its histogram
  // (value, count) as calibration recorded it. KL over |x| tried a
  // threshold at the minimum, where P and the normalized Q are the same
  // single spike (divergence 0), and clipped the tensor to [0, 1.13].
  const std::vector<std::pair<float, int>> hist = {
      {1.125f, 1}, {1.156f, 2},  {1.344f, 1}, {1.438f, 2}, {1.469f, 2},
      {1.531f, 3}, {1.562f, 1},  {1.594f, 1}, {1.625f, 1}, {1.656f, 6},
      {1.688f, 2}, {1.719f, 2},  {1.75f, 1},  {1.781f, 3}, {1.844f, 6},
      {1.875f, 2}, {1.906f, 7},  {1.938f, 5}, {1.969f, 3}, {2.0f, 8},
      {2.062f, 6}, {2.125f, 9},  {2.188f, 4}, {2.25f, 1},  {2.312f, 3},
      {2.438f, 3}, {2.5f, 1},    {2.562f, 4}, {2.625f, 2}, {2.688f, 2},
      {2.75f, 5},  {2.812f, 8},  {2.875f, 9}, {2.938f, 3}, {3.0f, 3},
      {3.062f, 6}, {3.125f, 10}, {3.188f, 5}, {3.25f, 6},  {3.312f, 1},
      {3.375f, 5}, {3.438f, 1},  {3.6219f, 4}};
  std::vector<float> v;
  for (const auto& [x, n] : hist) v.insert(v.end(), n, x);
  const TensorStats s = FromSamples(v);
  const Range r = ComputeRange(s, *ParseRangeMethod("kl"));
  // At most half of the values clipped: the threshold is at least the
  // median (2.44).
  EXPECT_GT(r.max, 2.4);
}

TEST(RangeTest, EmptyAndConstantStatsAreSafe) {
  TensorStats empty;
  for (const char* m : {"minmax", "percentile:99", "kl", "mse"}) {
    const Range r = ComputeRange(empty, *ParseRangeMethod(m));
    EXPECT_EQ(r.min, 0.0f) << m;
    EXPECT_EQ(r.max, 0.0f) << m;
  }
  const TensorStats c = FromSamples(std::vector<float>(100, 3.0f));
  for (const char* m : {"minmax", "percentile:99", "kl", "mse"}) {
    const Range r = ComputeRange(c, *ParseRangeMethod(m));
    EXPECT_TRUE(std::isfinite(r.min) && std::isfinite(r.max)) << m;
    EXPECT_LE(r.min, r.max) << m;
    EXPECT_LE(r.max, 3.0f) << m;
  }
}

}  // namespace
}  // namespace qforge::calibration
