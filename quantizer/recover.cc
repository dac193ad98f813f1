// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/recover.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "quantizer/gptq.h"
#include "quantizer/graph_edit.h"
#include "quantizer/layer_inputs.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/weight_grid.h"
#include "quantizer/weighted_layer.h"
#include "runtime/thread_pool.h"

namespace qforge::quantizer {
namespace {

// Gives `layer`'s op a zero float bias when it has none, so that a
// correction has somewhere to go.
void EnsureBias(ir::Model& model, WeightedLayer& layer) {
  if (layer.bias >= 0) return;
  ir::Subgraph& sg = model.subgraphs[0];
  ir::Tensor t;
  t.name = sg.tensors[layer.output].name + "_bias";
  t.type = ir::DataType::kFloat32;
  t.shape = {static_cast<int32_t>(layer.rows)};
  t.buffer = AddTypedBuffer(
      model, std::vector<float>(static_cast<size_t>(layer.rows), 0.0f));
  sg.tensors.push_back(std::move(t));
  layer.bias = static_cast<int32_t>(sg.tensors.size() - 1);
  ir::Operator& op = sg.operators[static_cast<size_t>(layer.op_index)];
  if (op.inputs.size() < 3) op.inputs.resize(3, -1);
  op.inputs[2] = layer.bias;
}

// The windows of one row's input as a matrix [windows, k]: the whole patch
// for CONV_2D / FC, the row's channel at every tap for depthwise.
Eigen::MatrixXf RowInputs(const WeightedLayer& l, const CapturedInput& c,
                          int64_t row) {
  const int64_t n = c.num_patches;
  Eigen::MatrixXf m(n, l.k);
  for (int64_t i = 0; i < n; ++i) {
    const float* p = c.patches.data() + i * c.width;
    if (l.layout == ir::WeightLayout::kDepthwise) {
      const int64_t ch = row / l.multiplier;
      for (int64_t t = 0; t < l.k; ++t) m(i, t) = p[t * l.in_channels + ch];
    } else {
      for (int64_t j = 0; j < l.k; ++j) m(i, j) = p[j];
    }
  }
  return m;
}

// X^T X / n of a row's input windows (depthwise rows: their channel's).
Eigen::MatrixXd InputGram(const WeightedLayer& l, const CapturedInput& c,
                          int64_t row) {
  const Eigen::MatrixXf x = RowInputs(l, c, row);
  Eigen::MatrixXf g = Eigen::MatrixXf::Zero(l.k, l.k);
  g.selfadjointView<Eigen::Lower>().rankUpdate(x.transpose());
  g.triangularView<Eigen::StrictlyUpper>() = g.transpose();
  return g.cast<double>() /
         static_cast<double>(std::max<int64_t>(1, c.num_patches));
}

// --weight-clip and --gptq on one layer: its scales (clipped per row) and
// integers [flat weight index], from the layer's input windows `now`.
absl::StatusOr<std::vector<int32_t>> RoundLayer(
    const WeightedLayer& l, const std::vector<float>& w, const WeightGrid& grid,
    bool per_tensor, const WeightRounding& rounding, const CapturedInput& now,
    runtime::ThreadPool* pool, Eigen::MatrixXf& scales, RecoveredLayer& done) {
  GptqLayer problem;
  problem.grid = grid;
  problem.weights.resize(l.rows, l.k);
  for (int64_t r = 0; r < l.rows; ++r) {
    for (int64_t j = 0; j < l.k; ++j) {
      problem.weights(r, j) = w[l.WeightIndex(r, j)];
    }
  }
  const bool depthwise = l.layout == ir::WeightLayout::kDepthwise;
  for (int64_t r = 0; r < (depthwise ? l.rows : 1); ++r) {
    problem.hessians.push_back(InputGram(l, now, r));
  }
  if (rounding.clip_mse && !per_tensor) {
    // Each weight's error weighs by its input's mean square, diag(H).
    Eigen::MatrixXf importance(problem.hessians.size(), l.k);
    for (size_t r = 0; r < problem.hessians.size(); ++r) {
      importance.row(static_cast<Eigen::Index>(r)) =
          problem.hessians[r].diagonal().transpose().cast<float>();
    }
    Eigen::MatrixXf ratio;
    scales = ClipScales(problem.weights, problem.grid, importance,
                        DefaultClipRatios(), &ratio);
    done.mean_clip = ratio.mean();
  }
  problem.scales = scales;
  std::vector<int32_t> q(w.size());
  if (!rounding.gptq) {
    for (int64_t r = 0; r < l.rows; ++r) {
      for (int64_t j = 0; j < l.k; ++j) {
        const int64_t i = l.WeightIndex(r, j);
        q[i] = grid.Round(w[i], scales(r, grid.GroupOf(j)));
      }
    }
    return q;
  }
  GptqOptions go;
  go.damp = rounding.gptq_damp;
  go.pool = pool;
  GptqStats stats;
  ASSIGN_OR_RETURN(std::vector<int32_t> rows_q, Gptq(problem, go, &stats));
  for (int64_t r = 0; r < l.rows; ++r) {
    for (int64_t j = 0; j < l.k; ++j) {
      q[l.WeightIndex(r, j)] = rows_q[r * l.k + j];
    }
  }
  done.loss_nearest = stats.loss_nearest;
  done.loss_gptq = stats.loss_gptq;
  done.flipped = stats.changed;
  return q;
}

// Blockwise forms store float16 scales that the writer derives from the
// weights it is given, GridScale(max |s q|). That gives s back whenever
// some integer of the group is +-qmax (s qmax / qmax is exact in float);
// rounding puts the largest weight there except when the float16 scale
// was flushed or rounded coarsely (subnormal). Such a group gets its
// largest weight moved to +-qmax, so that the file holds exactly the
// integers and scales chosen here. Float32 per-channel scales come back
// within a float rounding, which leaves the integers as chosen.
void PinGroupMaxima(const WeightedLayer& l, const std::vector<float>& w,
                    const WeightGrid& grid, const Eigen::MatrixXf& scales,
                    std::vector<int32_t>& q) {
  if (grid.scale_type == ScaleType::kFloat32) return;
  const int64_t groups = grid.Groups(l.k);
  for (int64_t r = 0; r < l.rows; ++r) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t j0 = grid.group_size > 0 ? g * grid.group_size : 0;
      const int64_t j1 =
          grid.group_size > 0 ? std::min(l.k, j0 + grid.group_size) : l.k;
      const float s = scales(r, g);
      float written = 0, largest = -1;
      int64_t arg = j0;
      for (int64_t j = j0; j < j1; ++j) {
        const int64_t i = l.WeightIndex(r, j);
        written = std::max(written, std::fabs(s * static_cast<float>(q[i])));
        if (std::fabs(w[i]) > largest) {
          largest = std::fabs(w[i]);
          arg = j;
        }
      }
      // All zero: the writer stores zeros whatever its scale.
      if (written == 0 || GridScale(written, grid.qmax, grid.scale_type) == s) {
        continue;
      }
      const int64_t i = l.WeightIndex(r, arg);
      q[i] = w[i] < 0 ? -grid.qmax : grid.qmax;
    }
  }
}

}  // namespace

absl::StatusOr<RecoverResult> RecoverWeights(
    ir::Model& model, const formats::SampleSource& data,
    absl::Span<const int64_t> all_samples, const RecoverOptions& options) {
  RecoverResult result;
  if (model.subgraphs.empty() || all_samples.empty()) return result;
  std::vector<int64_t> samples(all_samples.begin(), all_samples.end());
  const int64_t n = static_cast<int64_t>(all_samples.size());
  if (options.max_samples > 0 && n > options.max_samples) {
    samples.resize(static_cast<size_t>(options.max_samples));
    for (int64_t i = 0; i < options.max_samples; ++i) {
      samples[i] = all_samples[i * n / options.max_samples];
    }
  }
  result.samples = static_cast<int64_t>(samples.size());
  const WeightRounding& rounding = options.rounding;
  if (rounding.gptq && options.adaround) {
    return absl::InvalidArgumentError(
        "GPTQ cannot go with AdaRound: both choose the integers");
  }
  if (options.one_pass && options.adaround) {
    return absl::InvalidArgumentError(
        "one-pass bias correction cannot go with AdaRound, which needs the "
        "rounded model's inputs");
  }
  for (int bits : options.weight_bits) {
    if (bits < 2 || bits > 8) {
      return absl::InvalidArgumentError(
          absl::StrCat("weight bits ", bits, ": 2 to 8"));
    }
  }
  WidenHalfWeights(model, options.keep_float);
  std::vector<WeightedLayer> layers;
  for (const WeightedLayer& l : FindWeightedLayers(model)) {
    const size_t i = static_cast<size_t>(l.op_index);
    if (i < options.keep_float.size() && options.keep_float[i]) continue;
    layers.push_back(l);
  }
  const ir::Model reference = model;  // the float model, untouched
  CaptureOptions co;
  co.threads = options.threads;
  co.seed = options.seed;
  co.numerics = options.numerics;
  const int64_t per_sample =
      options.patches_per_sample > 0
          ? options.patches_per_sample
          : std::max<int64_t>(
                1, (4096 + static_cast<int64_t>(samples.size()) - 1) /
                       static_cast<int64_t>(samples.size()));
  // The float model's tap means of every layer, in one pass.
  std::vector<CapturedInput> float_means;
  if (options.bias_correction) {
    std::vector<InputCapture> all;
    for (const WeightedLayer& l : layers) all.push_back({l, true, 0});
    ASSIGN_OR_RETURN(float_means,
                     CaptureLayerInputs(reference, data, samples, all, co));
  }
  const int threads =
      options.threads > 0
          ? options.threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  runtime::ThreadPool pool(threads);
  for (size_t li = 0; li < layers.size(); ++li) {
    WeightedLayer& l = layers[li];
    RecoveredLayer done;
    done.op_index = l.op_index;
    done.op = std::string(ir::GetOpInfo(l.kind).name);
    done.output = model.subgraphs[0].tensors[l.output].name;
    const size_t op = static_cast<size_t>(l.op_index);
    WeightGrid grid;
    int bits = op < options.weight_bits.size() ? options.weight_bits[op] : 8;
    grid.qmax = (1 << (bits - 1)) - 1;
    if (op < options.grids.size() && options.grids[op].has_value()) {
      grid = *options.grids[op];
      bits = grid.qmax <= 7 ? 4 : 8;
    }
    const int qmax = grid.qmax;
    const std::vector<float> w = LayerWeights(model, l.weights);
    RETURN_IF_ERROR(
        CheckFinite(model.subgraphs[0].tensors[l.weights], w, "recover"));
    const bool per_tensor = WeightsPerTensor(l.kind, options.fc_per_tensor);
    const int64_t groups = grid.Groups(l.k);
    Eigen::MatrixXf scales(l.rows, groups);
    if (grid.group_size == 0 && grid.scale_type == ScaleType::kFloat32) {
      const std::vector<float> rows = RowScales(l, w, qmax, per_tensor);
      for (int64_t r = 0; r < l.rows; ++r) scales(r, 0) = rows[r];
    } else {
      Eigen::MatrixXf m(l.rows, l.k);
      for (int64_t r = 0; r < l.rows; ++r) {
        for (int64_t j = 0; j < l.k; ++j) m(r, j) = w[l.WeightIndex(r, j)];
      }
      scales = GroupScales(m, grid);
    }
    // The integers: nearest, or AdaRound's choice.
    std::vector<int32_t> q(w.size());
    for (int64_t r = 0; r < l.rows; ++r) {
      for (int64_t j = 0; j < l.k; ++j) {
        const int64_t i = l.WeightIndex(r, j);
        q[i] = static_cast<int32_t>(std::clamp<float>(
            std::round(w[i] / scales(r, grid.GroupOf(j))),
            static_cast<float>(-qmax), static_cast<float>(qmax)));
      }
    }
    // This layer's input in the model rounded so far (and, for AdaRound,
    // the float model's at the same windows); one pass: the float model's.
    WeightRounding layer_rounding = rounding;
    layer_rounding.gptq = rounding.gptq || (options.gptq_low_bits && bits <= 4);
    const bool adaround = options.adaround && !layer_rounding.gptq;
    const bool windows =
        adaround || layer_rounding.gptq || layer_rounding.clip_mse;
    std::vector<InputCapture> want = {
        {l, options.bias_correction, windows ? per_sample : 0}};
    std::vector<CapturedInput> now;
    if (!options.one_pass || windows) {
      ASSIGN_OR_RETURN(now, CaptureLayerInputs(model, data, samples, want, co));
    }
    if (layer_rounding.gptq || layer_rounding.clip_mse) {
      ASSIGN_OR_RETURN(q, RoundLayer(l, w, grid, per_tensor, layer_rounding,
                                     now[0], &pool, scales, done));
    }
    if (adaround && groups > 1) {
      return absl::InvalidArgumentError(
          "AdaRound takes one weight scale per output channel, not blocks");
    }
    if (adaround) {
      want[0].tap_means = false;
      ASSIGN_OR_RETURN(std::vector<CapturedInput> ref,
                       CaptureLayerInputs(reference, data, samples, want, co));
      AdaRoundLayer problem;
      problem.weights.resize(l.rows, l.k);
      for (int64_t r = 0; r < l.rows; ++r) {
        for (int64_t j = 0; j < l.k; ++j) {
          problem.weights(r, j) = w[l.WeightIndex(r, j)];
        }
      }
      problem.scales.assign(scales.data(), scales.data() + l.rows);
      problem.qmin = -qmax;
      problem.qmax = qmax;
      problem.target.resize(ref[0].num_patches, l.rows);
      if (l.layout == ir::WeightLayout::kDepthwise) {
        for (int64_t r = 0; r < l.rows; ++r) {
          problem.inputs.push_back(RowInputs(l, now[0], r));
          problem.target.col(r) =
              RowInputs(l, ref[0], r) * problem.weights.row(r).transpose();
        }
      } else {
        problem.inputs.push_back(RowInputs(l, now[0], 0));
        problem.target = RowInputs(l, ref[0], 0) * problem.weights.transpose();
      }
      AdaRoundOptions ao = options.adaround_options;
      ao.seed = options.seed ^ static_cast<uint64_t>(l.op_index);
      ao.pool = &pool;
      AdaRoundStats stats;
      ASSIGN_OR_RETURN(std::vector<int32_t> rows_q,
                       AdaRound(problem, ao, &stats));
      for (int64_t r = 0; r < l.rows; ++r) {
        for (int64_t j = 0; j < l.k; ++j) {
          q[l.WeightIndex(r, j)] = rows_q[r * l.k + j];
        }
      }
      done.loss_nearest = stats.loss_nearest;
      done.loss_adaround = stats.loss_adaround;
      done.flipped = stats.flipped;
    }
    PinGroupMaxima(l, w, grid, scales, q);
    std::vector<float> snapped(w.size());
    for (int64_t r = 0; r < l.rows; ++r) {
      for (int64_t j = 0; j < l.k; ++j) {
        const int64_t i = l.WeightIndex(r, j);
        snapped[i] = scales(r, grid.GroupOf(j)) * static_cast<float>(q[i]);
      }
    }
    if (options.bias_correction) {
      // Mean pre-activation output now minus in the float model:
      // sum(Wq * mean input now) - sum(W * mean float input).
      const CapturedInput& fm = float_means[li];
      const CapturedInput& nm = options.one_pass ? fm : now[0];
      EnsureBias(model, l);
      std::vector<float> bias = LayerWeights(model, l.bias);
      double total = 0;
      for (int64_t r = 0; r < l.rows; ++r) {
        double shift = 0;
        for (int64_t j = 0; j < l.k; ++j) {
          const int64_t i = l.WeightIndex(r, j);
          const int64_t m = l.layout == ir::WeightLayout::kDepthwise
                                ? j * l.in_channels + r / l.multiplier
                                : j;
          shift += double{snapped[i]} * nm.tap_mean[m] -
                   double{w[i]} * fm.tap_mean[m];
        }
        bias[r] = static_cast<float>(bias[r] - shift);
        total += std::fabs(shift);
      }
      done.mean_abs_bias_shift = total / static_cast<double>(l.rows);
      SetTensorValues(model, l.bias, bias);
    }
    SetTensorValues(model, l.weights, snapped);
    result.layers.push_back(done);
    if (options.progress) {
      options.progress(static_cast<int64_t>(li + 1),
                       static_cast<int64_t>(layers.size()));
    }
  }
  return result;
}

}  // namespace qforge::quantizer
