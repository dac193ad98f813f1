// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/equalize.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "ir/clamp.h"
#include "ir/graph.h"
#include "quantizer/weighted_layer.h"

namespace qforge::quantizer {
namespace {

// How many times each tensor of subgraph 0 is read (by ops, each counted
// once, and as a subgraph output).
std::vector<int> UseCounts(const ir::Subgraph& sg, const ir::Graph& graph) {
  std::vector<int> uses(sg.tensors.size(), 0);
  for (size_t t = 0; t < uses.size(); ++t) {
    uses[t] = static_cast<int>(graph.consumers(static_cast<int32_t>(t)).size());
  }
  for (int32_t t : sg.outputs) {
    if (t >= 0 && static_cast<size_t>(t) < uses.size()) ++uses[t];
  }
  return uses;
}

// B reads A's channels: conv / depthwise input channels, or FC columns
// (a flattened NHWC input puts channel c at every column j with
// j % channels == c).
bool ChannelsMatch(const WeightedLayer& a, const WeightedLayer& b) {
  if (b.layout == ir::WeightLayout::kFullyConnected) {
    return b.k % a.rows == 0;
  }
  return b.in_channels == a.rows;
}

}  // namespace

std::vector<LayerPair> FindLayerPairs(const ir::Model& model,
                                      int* skipped_clamped) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const std::vector<WeightedLayer> layers = FindWeightedLayers(model);
  const ir::Graph graph(sg);
  const std::vector<int> uses = UseCounts(sg, graph);
  std::map<int32_t, const WeightedLayer*> by_input;  // single readers
  for (const WeightedLayer& l : layers) by_input[l.input] = &l;
  // The op reading a tensor read once (-1: none).
  auto reader = [&](int32_t t) {
    const absl::Span<const int> c = graph.consumers(t);
    return c.empty() ? -1 : c.back();
  };
  auto only_once = [&](int32_t t) { return t < 0 || uses[t] == 1; };
  std::vector<LayerPair> pairs;
  for (const WeightedLayer& a : layers) {
    if (!only_once(a.weights) || !only_once(a.bias)) continue;
    int32_t t = a.output;
    if (uses[t] != 1 || reader(t) < 0) continue;
    // A clamp with a bound other than 0 does not commute with the scales;
    // TANH and SIGN_BIT (no clamp) do not either.
    const std::optional<ir::ClampRange> fused =
        ir::FusedActivationClamp(a.activation);
    bool clamped = fused.has_value() && !fused->CommutesWithPositiveScale();
    const ir::Operator* next = &sg.operators[reader(t)];
    // One standalone activation between the layers.
    if (const ir::OpInfo& info = ir::GetOpInfo(next->kind); info.clamps) {
      clamped = clamped || !info.clamp.CommutesWithPositiveScale();
      if (next->outputs.size() != 1) continue;
      t = next->outputs[0];
      if (t < 0 || uses[t] != 1 || reader(t) < 0) continue;
    }
    auto it = by_input.find(t);
    if (it == by_input.end() || it->second->op_index != reader(t)) continue;
    const WeightedLayer& b = *it->second;
    if (b.op_index == a.op_index || !only_once(b.weights) ||
        !ChannelsMatch(a, b)) {
      continue;
    }
    if (!fused.has_value() && !clamped) {
      continue;  // TANH, SIGN_BIT: no positive scale commutes
    }
    if (clamped) {
      ++*skipped_clamped;
      continue;
    }
    pairs.push_back({a, b});
  }
  return pairs;
}

namespace {

// Largest |weight| per output row of `l`.
std::vector<double> RowRanges(const WeightedLayer& l,
                              const std::vector<float>& w) {
  std::vector<double> r(static_cast<size_t>(l.rows), 0.0);
  for (int64_t o = 0; o < l.rows; ++o) {
    for (int64_t j = 0; j < l.k; ++j) {
      r[o] = std::max(r[o], std::fabs(double{w[l.WeightIndex(o, j)]}));
    }
  }
  return r;
}

// Largest |weight| of `b` reading each of `channels` input channels.
std::vector<double> InputRanges(const WeightedLayer& b,
                                const std::vector<float>& w, int64_t channels) {
  std::vector<double> r(static_cast<size_t>(channels), 0.0);
  for (int64_t o = 0; o < b.rows; ++o) {
    for (int64_t j = 0; j < b.k; ++j) {
      const int64_t c = b.layout == ir::WeightLayout::kFullyConnected
                            ? j % channels
                            : b.InputChannel(o, j);
      r[c] = std::max(r[c], std::fabs(double{w[b.WeightIndex(o, j)]}));
    }
  }
  return r;
}

double Imbalance(const std::vector<double>& r1, const std::vector<double>& r2) {
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < r1.size(); ++i) {
    if (r1[i] > 0 && r2[i] > 0) {
      sum += std::fabs(std::log2(r1[i] / r2[i]));
      ++n;
    }
  }
  return n > 0 ? sum / n : 0.0;
}

}  // namespace

absl::StatusOr<EqualizeResult> EqualizeCrossLayer(ir::Model& model) {
  EqualizeResult result;
  if (model.subgraphs.empty()) return result;
  const std::vector<LayerPair> pairs =
      FindLayerPairs(model, &result.skipped_clamped);
  result.pairs = static_cast<int>(pairs.size());
  if (pairs.empty()) return result;
  // Working copies of every weight and bias the pairs touch, by tensor.
  std::map<int32_t, std::vector<float>> values;
  auto load = [&](int32_t t) {
    if (t >= 0 && !values.count(t)) values[t] = LayerWeights(model, t);
  };
  for (const LayerPair& p : pairs) {
    load(p.a.weights), load(p.a.bias), load(p.b.weights);
  }
  for (const auto& [t, v] : values) {
    for (float x : v) {
      if (!std::isfinite(x)) {
        return absl::InvalidArgumentError("--equalize: constant tensor '" +
                                          model.subgraphs[0].tensors[t].name +
                                          "' holds a NaN or infinite value");
      }
    }
  }
  // Sweeps until no scale moves by more than 0.1% (chains converge in a
  // few; the bound only guards against oscillation).
  constexpr int kMaxSweeps = 50;
  // Each channel's total scale so far, per pair (bounded, see below).
  std::vector<std::vector<double>> total(pairs.size());
  for (size_t k = 0; k < pairs.size(); ++k) {
    total[k].assign(static_cast<size_t>(pairs[k].a.rows), 1.0);
  }
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double worst = 0;
    double after = 0;
    for (size_t k = 0; k < pairs.size(); ++k) {
      const LayerPair& p = pairs[k];
      std::vector<float>& w1 = values[p.a.weights];
      std::vector<float>& w2 = values[p.b.weights];
      const std::vector<double> r1 = RowRanges(p.a, w1);
      const std::vector<double> r2 = InputRanges(p.b, w2, p.a.rows);
      if (sweep == 0) result.imbalance_before += Imbalance(r1, r2);
      // Near-dead channels (a range below 1e-4 of the layer's largest) are
      // left alone: scaling them up by thousands moves their noise into
      // the activation and the next layer's requantization, and can make
      // XNNPACK refuse the model. Scales are bounded to 2^+-4 in all for
      // the same reason.
      const double m1 = *std::max_element(r1.begin(), r1.end());
      const double m2 = *std::max_element(r2.begin(), r2.end());
      std::vector<double> s(r1.size(), 1.0);
      for (size_t i = 0; i < s.size(); ++i) {
        if (r1[i] > 1e-4 * m1 && r2[i] > 1e-4 * m2) {
          const double bounded = std::clamp(
              total[k][i] * std::sqrt(r1[i] / r2[i]), 1.0 / 16, 16.0);
          s[i] = bounded / total[k][i];
          total[k][i] = bounded;
        }
        worst = std::max(worst, std::fabs(std::log(s[i])));
      }
      for (int64_t o = 0; o < p.a.rows; ++o) {
        for (int64_t j = 0; j < p.a.k; ++j) {
          float& x = w1[p.a.WeightIndex(o, j)];
          x = static_cast<float>(x / s[o]);
        }
      }
      if (p.a.bias >= 0) {
        std::vector<float>& b1 = values[p.a.bias];
        for (int64_t o = 0; o < p.a.rows; ++o) {
          b1[o] = static_cast<float>(b1[o] / s[o]);
        }
      }
      for (int64_t o = 0; o < p.b.rows; ++o) {
        for (int64_t j = 0; j < p.b.k; ++j) {
          const int64_t c = p.b.layout == ir::WeightLayout::kFullyConnected
                                ? j % p.a.rows
                                : p.b.InputChannel(o, j);
          float& x = w2[p.b.WeightIndex(o, j)];
          x = static_cast<float>(x * s[c]);
        }
      }
      after += Imbalance(RowRanges(p.a, w1), InputRanges(p.b, w2, p.a.rows));
    }
    result.sweeps = sweep + 1;
    result.imbalance_after = after;
    if (worst < 1e-3) break;
  }
  result.imbalance_before /= result.pairs;
  result.imbalance_after /= result.pairs;
  for (const auto& [t, v] : values) SetTensorValues(model, t, v);
  return result;
}

}  // namespace qforge::quantizer
