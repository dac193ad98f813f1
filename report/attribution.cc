// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/attribution.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ir/graph.h"
#include "ir/op_kind.h"

namespace qforge::report {
namespace {

// std::round(y) for |y| < 2^62: truncation, then the fraction (exact in
// double) decides. std::round is a libm call the loop below cannot inline;
// it took 40% of a report's time (mobilenet_v1_0.25_224, 15 photos).
inline double RoundHalfAway(double y) {
  const double t = static_cast<double>(static_cast<int64_t>(y));
  const double d = y - t;
  return t + (d >= 0.5 ? 1.0 : 0.0) - (d <= -0.5 ? 1.0 : 0.0);
}

// `f` on `grid`: round to nearest (half away from zero, as TFLite's
// QUANTIZE), clamped to the integer range; NaN goes to the zero point.
// f / scale is clamped first to one step beyond the range, which rounds
// and clamps to the same integer and keeps RoundHalfAway in its domain.
template <typename T>
void RoundOnto(const float* f, T* q, int64_t n, const QuantGrid& grid) {
  const double lo = static_cast<double>(grid.qmin);
  const double hi = static_cast<double>(grid.qmax);
  const double zp = static_cast<double>(grid.zero_point);
  const double ylo = lo - zp - 1, yhi = hi - zp + 1;
  for (int64_t i = 0; i < n; ++i) {
    double v = zp;
    if (!std::isnan(f[i])) {
      const double y =
          std::clamp(static_cast<double>(f[i]) / grid.scale, ylo, yhi);
      v = std::clamp(RoundHalfAway(y) + zp, lo, hi);
    }
    q[i] = static_cast<T>(v);
  }
}

template <typename T>
void MeasureAndRound(const float* f, T* q, int64_t n, int64_t channels,
                     const QuantGrid& grid, ErrorSums& own,
                     ErrorSums& rounding) {
  own.AddQuantized(f, q, n, channels, grid);
  RoundOnto(f, q, n, grid);
  rounding.AddQuantized(f, q, n, channels, grid);
}

// Relative noise of a tensor (0 when not measured or exact).
double RelativeNoise(const ErrorSums& s) {
  if (s.count == 0) return 0.0;
  return std::pow(10.0, -Finish(s, nullptr).rank_db / 10);
}

bool SameValues(const ErrorSums& a, const ErrorSums& b) {
  auto close = [](double x, double y) {
    return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
  };
  return a.count > 0 && a.count == b.count && close(a.sum_ff, b.sum_ff) &&
         close(a.sum_ee, b.sum_ee);
}

// Slot k's float values for tensor `t` of one sample, and the channel
// count its sums take; null when the float run did not see them (or saw
// another shape).
const std::vector<float>* FloatsFor(const Plan& plan,
                                    const CapturedFloats& floats, size_t k,
                                    const runtime::RtTensor& t,
                                    int64_t& channels) {
  const Slot& slot = plan.slots[k];
  const std::vector<float>* f = floats.Get(slot.capture);
  if (f == nullptr || static_cast<int64_t>(f->size()) != t.NumElements()) {
    return nullptr;
  }
  channels = slot.channels && t.rank() > 0 ? t.dim(t.rank() - 1) : 0;
  return f;
}

}  // namespace

void ExactInputs::Replace(int subgraph, int /*op_index*/, int tensor,
                          runtime::RtTensor& t) {
  if (subgraph != 0 || t.data == nullptr) return;
  auto it = plan_.slot_of_q.find(tensor);
  if (it == plan_.slot_of_q.end()) return;
  const size_t k = static_cast<size_t>(it->second);
  const Slot& slot = plan_.slots[k];
  int64_t channels = 0;
  const std::vector<float>* f = FloatsFor(plan_, floats_, k, t, channels);
  if (f == nullptr) return;
  const int64_t n = t.NumElements();
  if (!slot.quantized) {
    if (t.type != ir::DataType::kFloat32) return;
    own_[k].AddFloat(f->data(), t.Data<float>(), n, channels);
    std::memcpy(t.data, f->data(), static_cast<size_t>(n) * sizeof(float));
    rounding_[k].AddFloat(f->data(), t.Data<float>(), n, channels);
    return;
  }
  switch (t.type) {
    case ir::DataType::kInt8:
      MeasureAndRound(f->data(), t.Data<int8_t>(), n, channels, slot.grid,
                      own_[k], rounding_[k]);
      break;
    case ir::DataType::kUInt8:
      MeasureAndRound(f->data(), t.Data<uint8_t>(), n, channels, slot.grid,
                      own_[k], rounding_[k]);
      break;
    case ir::DataType::kInt16:
      MeasureAndRound(f->data(), t.Data<int16_t>(), n, channels, slot.grid,
                      own_[k], rounding_[k]);
      break;
    default:
      break;
  }
}

RoundedFloats::RoundedFloats(const Plan& plan, const CapturedFloats& floats,
                             std::vector<ErrorSums>& propagated)
    : plan_(plan), floats_(floats), propagated_(propagated) {
  for (size_t k = 0; k < plan.slots.size(); ++k) {
    const Slot& slot = plan.slots[k];
    auto [it, added] = slot_of_capture_.emplace(slot.capture, k);
    if (!added && slot.quantized && !plan.slots[it->second].quantized) {
      it->second = static_cast<int>(k);
    }
  }
}

void RoundedFloats::Replace(int subgraph, int /*op_index*/, int tensor,
                            runtime::RtTensor& t) {
  if (subgraph != 0 || t.data == nullptr || t.type != ir::DataType::kFloat32) {
    return;
  }
  auto c = plan_.capture_of_f.find(tensor);
  if (c == plan_.capture_of_f.end()) return;
  auto it = slot_of_capture_.find(c->second);
  if (it == slot_of_capture_.end()) return;
  const size_t k = static_cast<size_t>(it->second);
  const Slot& slot = plan_.slots[k];
  int64_t channels = 0;
  const std::vector<float>* f = FloatsFor(plan_, floats_, k, t, channels);
  if (f == nullptr) return;
  const int64_t n = t.NumElements();
  float* values = t.Data<float>();
  propagated_[k].AddFloat(f->data(), values, n, channels);
  if (!slot.quantized) {
    std::memcpy(values, f->data(), static_cast<size_t>(n) * sizeof(float));
    return;
  }
  // The value the quantized model's readers see: f on the grid, back in
  // float.
  std::vector<int32_t>& q = grid_values_;
  q.resize(static_cast<size_t>(n));
  RoundOnto(f->data(), q.data(), n, slot.grid);
  for (int64_t i = 0; i < n; ++i) {
    values[i] =
        static_cast<float>((static_cast<double>(q[static_cast<size_t>(i)]) -
                            static_cast<double>(slot.grid.zero_point)) *
                           slot.grid.scale);
  }
}

Attribution Attribute(const ir::Subgraph& qsg, const Plan& plan,
                      const std::vector<ErrorSums>& own,
                      const std::vector<ErrorSums>& rounding,
                      const std::vector<ErrorSums>& propagated) {
  const double inf = std::numeric_limits<double>::infinity();
  const ir::Graph graph(qsg);
  const size_t n_slots = plan.slots.size();
  // The compared tensor an op input stands for: its own slot, or, behind
  // an op that only re-encodes its input (kConverter: the DEQUANTIZE ahead
  // of an op kept float), that of the converter's input.
  auto slot_of_input = [&](int32_t t) -> int {
    if (t < 0) return -1;
    if (auto it = plan.slot_of_q.find(t); it != plan.slot_of_q.end()) {
      return it->second;
    }
    const int p = graph.producer(t);
    if (p < 0) return -1;
    const ir::Operator& op = qsg.operators[static_cast<size_t>(p)];
    if (!ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter) ||
        op.inputs.empty()) {
      return -1;
    }
    auto it = plan.slot_of_q.find(op.inputs[0]);
    return it == plan.slot_of_q.end() ? -1 : it->second;
  };
  std::vector<double> excess(n_slots, 0.0), net(n_slots, 0.0), in(n_slots, 0.0),
      prop(n_slots, 0.0);
  std::vector<int> noisiest(n_slots, -1), op_of(n_slots, -1);
  std::vector<bool> moved(n_slots, false);
  for (size_t s = 0; s < n_slots; ++s) {
    op_of[s] = graph.producer(plan.slots[s].q_tensor);
    if (op_of[s] >= 0) {
      for (int32_t t : qsg.operators[static_cast<size_t>(op_of[s])].inputs) {
        const int k = slot_of_input(t);
        if (k < 0 || k == static_cast<int>(s)) continue;
        const ErrorSums& r = rounding[static_cast<size_t>(k)];
        moved[s] = moved[s] || SameValues(own[s], r);
        const double rn = RelativeNoise(r);
        if (noisiest[s] < 0 || rn > in[s]) {
          in[s] = rn;
          noisiest[s] = k;
        }
      }
    }
    prop[s] = RelativeNoise(propagated[s]);
    net[s] = RelativeNoise(own[s]) - std::max(in[s], prop[s]);
  }
  // What an op makes of its inputs' rounding beyond that rounding itself
  // is the noisiest input's grid: charged to the layer that rounds it,
  // looking back through ops that only move values (a RESHAPE's grid is
  // its input's).
  Attribution a;
  a.grid_reader.assign(n_slots, -1);
  for (size_t s = 0; s < n_slots; ++s) {
    int k = noisiest[s];
    if (k < 0 || moved[s] || prop[s] - in[s] <= 0) continue;
    for (size_t hops = 0; hops < n_slots && moved[static_cast<size_t>(k)] &&
                          noisiest[static_cast<size_t>(k)] >= 0;
         ++hops) {
      k = noisiest[static_cast<size_t>(k)];
    }
    const size_t g = static_cast<size_t>(k);
    if (prop[s] - in[s] > excess[g]) {
      excess[g] = prop[s] - in[s];
      a.grid_reader[g] = op_of[s];
    }
  }
  a.introduced_db.assign(n_slots, inf);
  a.grid_db.assign(n_slots, inf);
  for (size_t s = 0; s < n_slots; ++s) {
    if (excess[s] > 0) a.grid_db[s] = -10.0 * std::log10(excess[s]);
    const double n = std::max(0.0, moved[s] ? 0.0 : net[s]) + excess[s];
    if (n > 0) a.introduced_db[s] = -10.0 * std::log10(n);
  }
  return a;
}

}  // namespace qforge::report
