// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "report/attribution.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ir/graph.h"

namespace qforge::report {
namespace {

// `f` on `grid`: round to nearest (half away from zero, as TFLite's
// QUANTIZE), clamped to the integer range; NaN goes to the zero point.
template <typename T>
void RoundOnto(const float* f, T* q, int64_t n, const QuantGrid& grid) {
  const double lo = static_cast<double>(grid.qmin);
  const double hi = static_cast<double>(grid.qmax);
  const double zp = static_cast<double>(grid.zero_point);
  for (int64_t i = 0; i < n; ++i) {
    double v = zp;
    if (!std::isnan(f[i])) {
      v = std::clamp(std::round(static_cast<double>(f[i]) / grid.scale) + zp,
                     lo, hi);
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

}  // namespace

void ExactInputs::Replace(int subgraph, int /*op_index*/, int tensor,
                          runtime::RtTensor& t) {
  if (subgraph != 0 || t.data == nullptr) return;
  auto it = plan_.slot_of_q.find(tensor);
  if (it == plan_.slot_of_q.end()) return;
  const size_t k = static_cast<size_t>(it->second);
  const Slot& slot = plan_.slots[k];
  const std::vector<float>* f = floats_.Get(slot.capture);
  const int64_t n = t.NumElements();
  if (f == nullptr || static_cast<int64_t>(f->size()) != n) return;
  const int64_t channels =
      slot.channels && t.rank() > 0 ? t.dim(t.rank() - 1) : 0;
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

std::vector<double> IntroducedDb(const ir::Subgraph& qsg, const Plan& plan,
                                 const std::vector<ErrorSums>& own,
                                 const std::vector<ErrorSums>& rounding) {
  const double inf = std::numeric_limits<double>::infinity();
  const ir::Graph graph(qsg);
  std::vector<double> out(plan.slots.size(), inf);
  for (size_t s = 0; s < plan.slots.size(); ++s) {
    const int op = graph.producer(plan.slots[s].q_tensor);
    double in = 0;
    bool moved = false;
    if (op >= 0) {
      for (int32_t t : qsg.operators[static_cast<size_t>(op)].inputs) {
        auto it = plan.slot_of_q.find(t);
        if (t < 0 || it == plan.slot_of_q.end() ||
            it->second == static_cast<int>(s))
          continue;
        const ErrorSums& r = rounding[static_cast<size_t>(it->second)];
        moved = moved || SameValues(own[s], r);
        in = std::max(in, RelativeNoise(r));
      }
    }
    const double n = RelativeNoise(own[s]);
    if (!moved && n > in) out[s] = -10.0 * std::log10(n - in);
  }
  return out;
}

}  // namespace qforge::report
