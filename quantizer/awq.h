// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Activation-aware weight scaling (the AWQ / SmoothQuant family: Lin et
// al. 2023, Xiao et al. 2022). A layer B's weights reading input channel c
// are multiplied by s_c and its input divided by s_c, which leaves B's
// float output unchanged; with s_c = mean|x_c|^alpha the weights of
// channels that carry large inputs get more of the grid, at the cost of
// the others and of the input's own (per-tensor) range. alpha is searched
// per layer over 0, 0.1, ..., 1 on B's output error over the --data
// windows: both B's weights (nearest rounding on their grid) and its
// input (8 bits over the windows' range, as the int8 activation) are
// rounded, so that the search sees what the scales cost the activation
// too; with float inputs (weight-only and dynamic forms), the weights
// only. alpha = 0 (no scaling) is a candidate, so a layer is only scaled
// when that lowers its error.
//
// The division of the input is folded into what makes it, only where that
// is exact:
//  - a layer A before B (A's output channel c and bias divided by s_c):
//    the pairs of cross-layer equalization (equalize.h: A's output feeds
//    only B, through at most a RELU);
//  - a LayerNorm's affine end, MUL by a per-channel constant gamma, then
//    optionally ADD / SUB of a per-channel constant beta (gamma and beta
//    divided by s), whose output only weighted layers read (a
//    transformer's Q, K and V projections: one s for all of them, searched
//    on the sum of their output errors).
//  - with float inputs (weight-only and dynamic forms) and insert_muls
//    (--awq-mul: measured to help on some models and hurt on others,
//    bench/weights/forms_rounding.md), any other
//    input of CONV_2D / FULLY_CONNECTED readers (a GELU's or an attention
//    product's output, a graph input, a pair behind RELU6): a new float
//    MUL by the constant 1/s goes before the readers, which read its
//    output. Where the readers' input is an int8 activation, such a MUL
//    would add a requantization of its own, so there it is not inserted.
// The readers must be CONV_2D or FULLY_CONNECTED (a depthwise row reads
// one channel, so a scale per channel only moves its range).
#ifndef QFORGE_QUANTIZER_AWQ_H_
#define QFORGE_QUANTIZER_AWQ_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "numerics/modes.h"
#include "quantizer/weight_grid.h"

namespace qforge::quantizer {

struct AwqOptions {
  std::vector<bool> keep_float;  // by op index: layers left alone
  std::vector<int> weight_bits;  // by op index; absent: 8
  bool fc_per_tensor = false;
  // By op index: the grid of the weight-only and dynamic forms
  // (weight_forms.h), which overrides weight_bits; absent: per channel.
  std::vector<std::optional<WeightGrid>> grids;
  // The readers' inputs stay float (weight-only and dynamic forms): the
  // search rounds the weights only.
  bool float_inputs = false;
  // With float_inputs: a new MUL where no fold is exact (--awq-mul).
  bool insert_muls = false;
  int64_t max_samples = 64;  // evenly spaced over `samples`; 0: all
  int64_t windows = 4096;    // input windows per layer, about
  int threads = 0;
  uint64_t seed = 0;
  numerics::Modes numerics;
};

struct AwqLayer {
  int op_index = -1;  // B (the first reader), in the model before any MUL
  std::string op;     // was inserted
  int readers = 1;
  bool affine = false;    // folded into a MUL (+ ADD) by constants
  bool inserted = false;  // 1/s in a new MUL
  float alpha = 0;
  double error_unscaled = 0, error_scaled = 0;  // mean squared output error
};

struct AwqResult {
  int pairs = 0;                 // candidate pairs and affine sites
  int skipped_clamped = 0;       // pairs behind RELU6 and the like
  std::vector<AwqLayer> layers;  // the pairs searched, in op order
  // The op indices, in the model after, of the MULs inserted (ascending);
  // the ops after each moved up by one.
  std::vector<int> inserted_ops;
};

// The search on one input. `x` [n, k] are the readers' input windows;
// each reader's weights are [rows, k] on its own grid; channel_of[j] is
// the input channel of column j (< channels).
struct AwqReader {
  Eigen::MatrixXf weights;
  int qmax = 127;
  bool per_tensor = false;
  int64_t group_size = 0;  // > 0: one scale per group of inputs of a row
};
struct AwqSearch {
  Eigen::VectorXf scales;  // [channels]; all 1 when alpha is 0
  float alpha = 0;
  // Mean over windows of the squared output error, summed over readers.
  double error_unscaled = 0, error_scaled = 0;
};
AwqSearch SearchAwqScales(const Eigen::MatrixXf& x,
                          const std::vector<AwqReader>& readers,
                          const std::vector<int64_t>& channel_of,
                          int64_t channels, bool round_input = true);

// Scales every pair of subgraph 0 of the float `model` in place.
absl::StatusOr<AwqResult> ScaleActivationAware(
    ir::Model& model, const formats::SampleSource& data,
    absl::Span<const int64_t> samples, const AwqOptions& options);

}  // namespace qforge::quantizer

#endif  // QFORGE_QUANTIZER_AWQ_H_
