// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The rows of the legality property test (op_property_cases.cc): a random
// generator of shapes, ranges and constants, and one builder of random
// single-op float models per op kind the quantizer quantizes.
#ifndef QFORGE_TESTS_TOOLS_OP_PROPERTY_ROWS_H_
#define QFORGE_TESTS_TOOLS_OP_PROPERTY_ROWS_H_

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/op_model.h"

namespace qforge::op_property {

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  std::mt19937& rng() { return rng_; }
  double U(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  int I(int lo, int hi) {  // inclusive
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool P(double p) { return U(0, 1) < p; }
  // A magnitude across 40 orders: 10^U(-20, 20); 10^U(-2, 1) in plain mode.
  float Mag() {
    return static_cast<float>(std::pow(10.0, plain_ ? U(-2, 1) : U(-20, 20)));
  }
  // Plain mode: ordinary ranges and weights only (no sentinels, zero
  // widths or huge values), every scale a power of two, for the rows whose
  // cases tell LiteRT's path by its rounding: with power-of-two scales many
  // requantized values are exact halves, which XNNPACK (half to even) and
  // TFLite's fixed-point kernels round differently.
  void set_plain(bool plain) { plain_ = plain; }
  // [-128 s, 127 s]: an int8 scale of exactly s, zero point 0.
  static std::pair<float, float> Pow2Range(float s) {
    return {-128.0f * s, 127.0f * s};
  }
  // Plain rows also take larger shapes (x `Size()` per dimension), so that
  // the two paths' roundings part on some element.
  int Size() const { return plain_ ? 4 : 1; }

  // A calibration range: ordinary ranges at any magnitude, one-sided,
  // zero-width, sentinel-bounded and huge ones.
  std::pair<float, float> Range() {
    constexpr float kLowest = std::numeric_limits<float>::lowest();
    constexpr float kMax = std::numeric_limits<float>::max();
    const float m = Mag();
    if (plain_) return Pow2Range(std::ldexp(1.0f, I(-8, 2)));
    switch (I(0, 9)) {
      case 0:
        return {0.0f, m};
      case 1:
        return {-m, 0.0f};
      case 2: {
        const float c = P(0.5) ? 0.0f : static_cast<float>(U(-1, 1)) * m;
        return {c, c};
      }
      case 3:
        return {kLowest, P(0.5) ? 0.0f : m};  // masks: lowest() where padded
      case 4:
        return {P(0.5) ? -m : 0.0f, kMax};
      case 5: {
        const float h = static_cast<float>(std::pow(10.0, U(30, 38.5)));
        return {-h, h};
      }
      case 6: {  // offset range, not containing 0
        const float a = static_cast<float>(U(0.5, 4)) * m;
        return P(0.5) ? std::pair<float, float>{a, 2 * a}
                      : std::pair<float, float>{-2 * a, -a};
      }
      default: {
        const float lo = -static_cast<float>(U(0, 1)) * m;
        const float hi = static_cast<float>(U(0, 1)) * m;
        return {lo, std::max(hi, lo)};
      }
    }
  }

  // Constant values: N(0, 1) x magnitude, sometimes with a zero channel,
  // one huge value, or all equal.
  std::vector<float> Values(size_t n) {
    std::normal_distribution<float> d(0.0f, 1.0f);
    const float m = Mag();
    std::vector<float> v(n);
    for (float& x : v) x = d(rng_) * m;
    if (plain_) {
      // Largest magnitude 127 x 2^e: a symmetric int8 scale of exactly 2^e.
      float top = 0.0f;
      for (float x : v) top = std::max(top, std::fabs(x));
      const float want = 127.0f * std::ldexp(1.0f, I(-9, -3));
      for (float& x : v) x = top > 0.0f ? x / top * want : want;
      return v;
    }
    const int style = I(0, 7);
    if (style == 0 && n > 0) v[I(0, static_cast<int>(n) - 1)] = 3e38f;
    if (style == 1) {
      const float c = d(rng_) * m;
      for (float& x : v) x = c;
    }
    if (style == 2) {
      for (size_t i = 0; i < n / 2; ++i) v[i] = 0.0f;
    }
    return v;
  }

 private:
  std::mt19937 rng_;
  bool plain_ = false;
};

// A single-op float model; `act` lists its non-constant float tensors.
struct Case {
  std::string op;
  testing::OpModel m;
};

using Builder = std::function<void(Gen&, Case&)>;

struct OpRow {
  const char* name;  // the op's name; "+plain" marks plain-mode rows
  Builder build;
  bool plain = false;
};

// Every row, in the order cases cycle through them.
std::vector<OpRow> Rows();

}  // namespace qforge::op_property

#endif  // QFORGE_TESTS_TOOLS_OP_PROPERTY_ROWS_H_
