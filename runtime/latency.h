// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// An estimate of a model's latency in LiteRT on one CPU thread, batch 1:
// each op costs by its path (XNNPACK, or TFLite's builtin kernels: see
// runtime/fast_path.h), the type it computes in (float32, int8, int16) and
// its size (multiply-accumulates, elements read and written); each
// XNNPACK partition adds a fixed cost. A DEQUANTIZE of constant weights
// costs nothing when XNNPACK folds it at prepare time, nor does a DENSIFY
// of sparse weights (unpacked at init); in a model that computes in float
// only, a 1x1 convolution with such weights counts the multiply-accumulates
// of its stored weights only, as XNNPACK's sparse kernels compute (they run
// only where the whole graph is float).
//
// The coefficients are fitted to LiteRT.js timings of corpus models in
// float32, int8, int16x8 and float16 forms (bench/latency/fit.mjs, which
// writes runtime/latency_fit.inc and states the fit). Its job is to rank
// plans (which of two forms of a model is faster, by how much), not to
// predict milliseconds on a given phone.
#ifndef QFORGE_RUNTIME_LATENCY_H_
#define QFORGE_RUNTIME_LATENCY_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/model.h"

namespace qforge::runtime {

// What an op computes in: its activations' type.
enum class CostType : uint8_t { kFloat32, kInt8, kInt16 };

// The model's features, one entry per coefficient (latency_fit.inc).
enum LatencyFeature : int {
  kXnnOps,       // ops XNNPACK runs
  kXnnMacsF32,   // their multiply-accumulates, float32
  kXnnMacsInt8,  //   int8
  kXnnElements,  // their elements read and written
  kBuiltinOps,   // ops TFLite's builtin kernels run
  kBuiltinMacsF32,
  kBuiltinMacsInt8,
  kBuiltinMacsInt16,
  kBuiltinElementsF32,
  kBuiltinElementsInt8,
  kBuiltinElementsInt16,
  kXnnPartitions,  // delegated partitions (runs of XNNPACK ops)
  kNumLatencyFeatures
};
using LatencyFeatures = std::array<double, kNumLatencyFeatures>;

struct OpLatency {
  int op_index = 0;
  std::string op;        // display name
  bool xnnpack = false;  // on LiteRT's fast path
  bool folded = false;   // a constant DEQUANTIZE XNNPACK folds: free
  // A 1x1 convolution with sparse weights (behind DENSIFY) in a float-only
  // model, which XNNPACK runs with its sparse kernels: `macs` counts the
  // stored weights.
  bool sparse = false;
  std::string why_builtin;  // when not on XNNPACK: the delegate's reason
  CostType type = CostType::kFloat32;
  double macs = 0, elements = 0;
  double ms = 0;  // the estimate
};

struct LatencyEstimate {
  std::vector<OpLatency> ops;  // subgraph 0, in op order
  int partitions = 0;          // XNNPACK partitions
  LatencyFeatures features{};  // sums over the ops
  double ms = 0;               // the estimate for the whole model
};

// The estimate for subgraph 0 of `model` (other subgraphs, run by control
// flow, are not counted). Dynamic dims count as 1.
LatencyEstimate EstimateLitertLatency(const ir::Model& model);

// The coefficients' dot product with `features` (ms).
double LatencyOf(const LatencyFeatures& features);

}  // namespace qforge::runtime

#endif  // QFORGE_RUNTIME_LATENCY_H_
