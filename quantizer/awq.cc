// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/awq.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "base/status_macros.h"
#include "ir/graph.h"
#include "quantizer/equalize.h"
#include "quantizer/graph_edit.h"
#include "quantizer/layer_inputs.h"
#include "quantizer/op_quant_spec.h"
#include "quantizer/weighted_layer.h"

namespace qforge::quantizer {
namespace {

using Eigen::Index;
using Eigen::MatrixXf;

// Scales are bounded to 2^+-4, as cross-layer equalization's: larger ones
// starve the other channels of the input's per-tensor range.
constexpr float kAwqMaxScale = 16.0f;

// Nearest rounding of each row on its symmetric grid (one grid for all
// rows when per_tensor), dequantized.
MatrixXf RoundRowsNearest(const MatrixXf& w, int qmax, bool per_tensor) {
  Eigen::VectorXf absmax = w.cwiseAbs().rowwise().maxCoeff();
  if (per_tensor) absmax.setConstant(absmax.maxCoeff());
  MatrixXf out(w.rows(), w.cols());
  for (Index r = 0; r < w.rows(); ++r) {
    const double s = absmax[r] > 0 ? double{absmax[r]} / qmax : 1.0;
    for (Index j = 0; j < w.cols(); ++j) {
      const double q =
          std::clamp(std::round(w(r, j) / s), static_cast<double>(-qmax),
                     static_cast<double>(qmax));
      out(r, j) = static_cast<float>(q * s);
    }
  }
  return out;
}

// The same per group of `group` inputs of each row.
MatrixXf RoundGroupsNearest(const MatrixXf& w, int qmax, Index group) {
  MatrixXf out(w.rows(), w.cols());
  for (Index r = 0; r < w.rows(); ++r) {
    for (Index j0 = 0; j0 < w.cols(); j0 += group) {
      const Index n = std::min(group, w.cols() - j0);
      const float absmax = w.row(r).segment(j0, n).cwiseAbs().maxCoeff();
      const double s = absmax > 0 ? double{absmax} / qmax : 1.0;
      for (Index j = j0; j < j0 + n; ++j) {
        const double q =
            std::clamp(std::round(w(r, j) / s), static_cast<double>(-qmax),
                       static_cast<double>(qmax));
        out(r, j) = static_cast<float>(q * s);
      }
    }
  }
  return out;
}

// x on 256 levels over [min(x, 0), max(x, 0)], as an int8 activation.
MatrixXf RoundActivation(const MatrixXf& x) {
  const float lo = std::min(0.0f, x.minCoeff());
  const float hi = std::max(0.0f, x.maxCoeff());
  if (!(hi > lo)) return x;
  const float step = (hi - lo) / 255.0f;
  return x.unaryExpr(
      [&](float v) { return lo + step * std::round((v - lo) / step); });
}

// Where 1/s goes: a layer's output rows, or a MUL's (and ADD's) constant.
struct AwqSite {
  std::vector<WeightedLayer> readers;
  int64_t channels = 0;
  bool has_layer = false;
  WeightedLayer layer;     // has_layer: the pair's A
  int32_t gamma = -1;      // else: MUL's constant, and
  int32_t beta = -1;       // ADD / SUB's constant, or -1
  std::vector<int> ops;    // ops whose precision must not be float
  int32_t insert_on = -1;  // else: the readers' input, before a new MUL
};

// A constant float32 operand of `op` holding one value per channel (any
// shape of `channels` elements whose last dimension is `channels`), read by
// `op` alone; -1 if none. `other` receives the other input.
int32_t ChannelConstant(const ir::Model& m, const ir::Graph& graph,
                        const ir::Operator& op, int64_t channels,
                        int32_t* other) {
  if (op.inputs.size() != 2 || op.outputs.size() != 1) return -1;
  const ir::Subgraph& sg = m.subgraphs[0];
  for (int side = 0; side < 2; ++side) {
    const int32_t c = op.inputs[side], x = op.inputs[1 - side];
    if (c < 0 || x < 0) return -1;
    const ir::Tensor& t = sg.tensors[c];
    if (!IsConstant(m, t) || t.type != ir::DataType::kFloat32 ||
        t.shape.empty() || t.shape.back() != channels ||
        graph.consumers(c).size() != 1) {
      continue;
    }
    int64_t n = 1;
    for (int32_t d : t.shape) n *= d;
    if (n != channels) continue;
    *other = x;
    return c;
  }
  return -1;
}

bool NoActivation(const ir::Operator& op) {
  if (const auto* o = std::get_if<ir::ActivationOptions>(&op.options)) {
    return o->activation == ir::Activation::kNone;
  }
  if (const auto* o = std::get_if<ir::AddSubOptions>(&op.options)) {
    return o->activation == ir::Activation::kNone;
  }
  return false;
}

// Inputs read only by CONV_2D / FULLY_CONNECTED layers (as their input 0)
// and made by MUL by a per-channel constant, optionally followed by ADD /
// SUB of one.
std::vector<AwqSite> FindAffineSites(const ir::Model& model,
                                     const std::vector<WeightedLayer>& layers) {
  const ir::Subgraph& sg = model.subgraphs[0];
  const ir::Graph graph(sg);
  std::map<int32_t, std::vector<WeightedLayer>> by_input;
  for (const WeightedLayer& l : layers) {
    if (l.layout != ir::WeightLayout::kDepthwise)
      by_input[l.input].push_back(l);
  }
  std::vector<AwqSite> sites;
  for (const auto& [t, readers] : by_input) {
    if (graph.consumers(t).size() != readers.size()) continue;
    if (std::find(sg.outputs.begin(), sg.outputs.end(), t) != sg.outputs.end())
      continue;
    const ir::Tensor& tensor = sg.tensors[t];
    if (tensor.shape.empty()) continue;
    const int64_t channels = tensor.shape.back();
    bool fits = true;
    for (const WeightedLayer& r : readers) {
      fits = fits && r.k % channels == 0 && readers[0].k == r.k;
    }
    const int producer = graph.producer(t);
    if (!fits || producer < 0) continue;
    AwqSite site;
    site.readers = readers;
    site.channels = channels;
    const ir::Operator* op = &sg.operators[producer];
    int32_t x = -1;
    if (ir::GetOpInfo(op->kind).Has(ir::op_flags::kSumOfInputs)) {
      site.beta = ChannelConstant(model, graph, *op, channels, &x);
      if (site.beta < 0 || !NoActivation(*op) ||
          graph.consumers(x).size() != 1 || graph.producer(x) < 0) {
        continue;
      }
      site.ops.push_back(producer);
      op = &sg.operators[graph.producer(x)];
      site.ops.push_back(graph.producer(x));
    } else {
      site.ops.push_back(producer);
    }
    if (op->kind != ir::OpKind::kMul || !NoActivation(*op)) continue;
    site.gamma = ChannelConstant(model, graph, *op, channels, &x);
    if (site.gamma < 0) continue;
    sites.push_back(site);
  }
  return sites;
}

// Float32 inputs read by CONV_2D / FULLY_CONNECTED layers (as input 0)
// that no other site covers: a new MUL can carry their 1/s.
std::vector<AwqSite> FindMulSites(const ir::Model& model,
                                  const std::vector<WeightedLayer>& layers,
                                  const std::set<int32_t>& covered) {
  const ir::Subgraph& sg = model.subgraphs[0];
  std::map<int32_t, std::vector<WeightedLayer>> by_input;
  for (const WeightedLayer& l : layers) {
    if (l.layout != ir::WeightLayout::kDepthwise && l.input >= 0) {
      by_input[l.input].push_back(l);
    }
  }
  std::vector<AwqSite> sites;
  for (const auto& [t, readers] : by_input) {
    const ir::Tensor& tensor = sg.tensors[t];
    if (covered.count(t) > 0 || tensor.type != ir::DataType::kFloat32 ||
        tensor.shape.empty() || tensor.shape.back() < 2) {
      continue;
    }
    const int64_t channels = tensor.shape.back();
    bool fits = true;
    for (const WeightedLayer& r : readers) {
      fits = fits && r.k % channels == 0 && readers[0].k == r.k;
    }
    if (!fits) continue;
    AwqSite site;
    site.readers = readers;
    site.channels = channels;
    site.insert_on = t;
    sites.push_back(std::move(site));
  }
  return sites;
}

// A MUL of `input` by the constant 1 / scales (per last-dimension
// channel), to go before the first of `readers`, which now read its
// output. Returns that position and the op, not yet inserted.
std::pair<int, ir::Operator> MakeScaleMul(
    ir::Model& model, int32_t input, const Eigen::VectorXf& scales,
    const std::vector<WeightedLayer>& readers) {
  ir::Subgraph& sg = model.subgraphs[0];
  std::vector<float> inverse(static_cast<size_t>(scales.size()));
  for (Index c = 0; c < scales.size(); ++c) inverse[c] = 1.0f / scales[c];
  ir::Tensor constant;
  constant.name = sg.tensors[input].name + "/awq_inverse_scale";
  constant.type = ir::DataType::kFloat32;
  constant.shape = {static_cast<int32_t>(scales.size())};
  constant.buffer = AddTypedBuffer(model, std::move(inverse));
  sg.tensors.push_back(std::move(constant));
  const int32_t c = static_cast<int32_t>(sg.tensors.size() - 1);
  const int32_t out =
      AddTensorLike(sg, sg.tensors[input], ir::DataType::kFloat32, "/awq");
  ir::Operator mul;
  mul.kind = ir::OpKind::kMul;
  mul.builtin_code = ir::GetOpInfo(ir::OpKind::kMul).builtin_code;
  mul.inputs = {input, c};
  mul.outputs = {out};
  mul.options = ir::ActivationOptions{};
  int first = readers[0].op_index;
  for (const WeightedLayer& r : readers) {
    sg.operators[static_cast<size_t>(r.op_index)].inputs[0] = out;
    first = std::min(first, r.op_index);
  }
  return {first, std::move(mul)};
}

}  // namespace

AwqSearch SearchAwqScales(const MatrixXf& x,
                          const std::vector<AwqReader>& readers,
                          const std::vector<int64_t>& channel_of,
                          int64_t channels, bool round_input) {
  const Index k = x.cols();
  Eigen::VectorXd mean_abs = Eigen::VectorXd::Zero(channels);
  Eigen::VectorXd count = Eigen::VectorXd::Zero(channels);
  const Eigen::VectorXf col_abs = x.cwiseAbs().colwise().sum().transpose();
  for (Index j = 0; j < k; ++j) {
    mean_abs[channel_of[j]] += col_abs[j];
    count[channel_of[j]] += static_cast<double>(x.rows());
  }
  for (Index c = 0; c < channels; ++c) {
    mean_abs[c] = count[c] > 0 ? mean_abs[c] / count[c] : 0.0;
  }
  std::vector<MatrixXf> reference;
  for (const AwqReader& r : readers) {
    reference.push_back(x * r.weights.transpose());
  }
  AwqSearch best;
  best.scales = Eigen::VectorXf::Ones(channels);
  double best_error = -1;
  for (int step = 0; step <= 10; ++step) {
    const float alpha = static_cast<float>(step) / 10;
    Eigen::VectorXf s = Eigen::VectorXf::Ones(channels);
    if (step > 0) {
      double lo = 0, hi = 0;
      bool any = false;
      for (Index c = 0; c < channels; ++c) {
        if (!(mean_abs[c] > 0)) continue;
        const double v = std::pow(mean_abs[c], alpha);
        s[c] = static_cast<float>(v);
        lo = any ? std::min(lo, v) : v;
        hi = any ? std::max(hi, v) : v;
        any = true;
      }
      // Centred on 1 in the log domain (AWQ's s / sqrt(max s * min s)).
      const float mid = any ? static_cast<float>(std::sqrt(lo * hi)) : 1.0f;
      for (Index c = 0; c < channels; ++c) {
        s[c] = mean_abs[c] > 0
                   ? std::clamp(s[c] / mid, 1 / kAwqMaxScale, kAwqMaxScale)
                   : 1.0f;
      }
    }
    MatrixXf xs = x;
    for (Index j = 0; j < k; ++j) xs.col(j) /= s[channel_of[j]];
    const MatrixXf xq = round_input ? RoundActivation(xs) : xs;
    double error = 0;
    for (size_t i = 0; i < readers.size(); ++i) {
      MatrixXf ws = readers[i].weights;
      for (Index j = 0; j < k; ++j) ws.col(j) *= s[channel_of[j]];
      const AwqReader& rd = readers[i];
      const MatrixXf y =
          xq * (rd.group_size > 0
                    ? RoundGroupsNearest(ws, rd.qmax, rd.group_size)
                    : RoundRowsNearest(ws, rd.qmax, rd.per_tensor))
                   .transpose();
      error += static_cast<double>((y - reference[i]).squaredNorm());
    }
    error /= static_cast<double>(std::max<Index>(1, x.rows()));
    if (step == 0) best.error_unscaled = error;
    if (best_error < 0 || error < best_error) {
      best_error = error;
      best.alpha = alpha;
      best.scales = s;
    }
  }
  best.error_scaled = best_error;
  return best;
}

absl::StatusOr<AwqResult> ScaleActivationAware(
    ir::Model& model, const formats::SampleSource& data,
    absl::Span<const int64_t> all_samples, const AwqOptions& options) {
  AwqResult result;
  if (model.subgraphs.empty() || all_samples.empty()) return result;
  std::vector<int64_t> samples(all_samples.begin(), all_samples.end());
  const int64_t n = static_cast<int64_t>(all_samples.size());
  if (options.max_samples > 0 && n > options.max_samples) {
    samples.resize(static_cast<size_t>(options.max_samples));
    for (int64_t i = 0; i < options.max_samples; ++i) {
      samples[i] = all_samples[i * n / options.max_samples];
    }
  }
  WidenHalfWeights(model, options.keep_float);
  auto kept = [&](int op) {
    const size_t i = static_cast<size_t>(op);
    return i < options.keep_float.size() && options.keep_float[i];
  };
  std::vector<AwqSite> sites;
  for (const LayerPair& p : FindLayerPairs(model, &result.skipped_clamped)) {
    if (p.b.layout == ir::WeightLayout::kDepthwise) continue;
    AwqSite site;
    site.readers = {p.b};
    site.channels = p.a.rows;
    site.has_layer = true;
    site.layer = p.a;
    site.ops = {p.a.op_index};
    sites.push_back(site);
  }
  const std::vector<WeightedLayer> weighted = FindWeightedLayers(model);
  for (AwqSite& s : FindAffineSites(model, weighted)) {
    sites.push_back(std::move(s));
  }
  if (options.float_inputs && options.insert_muls) {
    std::set<int32_t> covered;
    for (const AwqSite& s : sites) covered.insert(s.readers[0].input);
    for (AwqSite& s : FindMulSites(model, weighted, covered)) {
      sites.push_back(std::move(s));
    }
  }
  // Sites whose ops all get quantized; in op order of their first reader.
  std::vector<AwqSite> kept_sites;
  for (AwqSite& s : sites) {
    bool any_float = false;
    for (int op : s.ops) any_float = any_float || kept(op);
    for (const WeightedLayer& r : s.readers) {
      any_float = any_float || kept(r.op_index);
    }
    if (!any_float) kept_sites.push_back(std::move(s));
  }
  sites = std::move(kept_sites);
  std::stable_sort(sites.begin(), sites.end(),
                   [](const AwqSite& a, const AwqSite& b) {
                     return a.readers[0].op_index < b.readers[0].op_index;
                   });
  result.pairs = static_cast<int>(sites.size());
  if (sites.empty()) return result;
  // Every site's input windows in the float model, in one pass. A site's
  // scales change only its readers' input, so the others' windows stay
  // valid.
  std::vector<InputCapture> want;
  const int64_t per_sample = std::max<int64_t>(
      1, (options.windows + static_cast<int64_t>(samples.size()) - 1) /
             static_cast<int64_t>(samples.size()));
  for (const AwqSite& s : sites) {
    want.push_back({s.readers[0], false, per_sample});
  }
  CaptureOptions co;
  co.threads = options.threads;
  co.seed = options.seed;
  co.numerics = options.numerics;
  ASSIGN_OR_RETURN(std::vector<CapturedInput> inputs,
                   CaptureLayerInputs(model, data, samples, want, co));
  std::vector<std::pair<size_t, Eigen::VectorXf>> muls;  // site, its s
  for (size_t si = 0; si < sites.size(); ++si) {
    const AwqSite& site = sites[si];
    const CapturedInput& in = inputs[si];
    const int64_t k = site.readers[0].k;
    std::vector<int64_t> channel_of(static_cast<size_t>(k));
    for (int64_t j = 0; j < k; ++j) channel_of[j] = j % site.channels;
    std::vector<AwqReader> readers;
    for (const WeightedLayer& b : site.readers) {
      const std::vector<float> wb = LayerWeights(model, b.weights);
      AwqReader r;
      r.weights.resize(b.rows, b.k);
      for (int64_t o = 0; o < b.rows; ++o) {
        for (int64_t j = 0; j < b.k; ++j) {
          r.weights(o, j) = wb[b.WeightIndex(o, j)];
        }
      }
      const size_t op = static_cast<size_t>(b.op_index);
      const int bits =
          op < options.weight_bits.size() ? options.weight_bits[op] : 8;
      r.qmax = (1 << (bits - 1)) - 1;
      r.per_tensor = WeightsPerTensor(b.kind, options.fc_per_tensor);
      if (op < options.grids.size() && options.grids[op].has_value()) {
        r.qmax = options.grids[op]->qmax;
        r.group_size = options.grids[op]->group_size;
      }
      readers.push_back(std::move(r));
    }
    const MatrixXf x =
        Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic,
                                       Eigen::RowMajor>>(
            in.patches.data(), in.num_patches, in.width);
    const AwqSearch found = SearchAwqScales(
        x, readers, channel_of, site.channels, !options.float_inputs);
    AwqLayer done;
    done.op_index = site.readers[0].op_index;
    done.op = std::string(ir::GetOpInfo(site.readers[0].kind).name);
    done.readers = static_cast<int>(site.readers.size());
    done.affine = !site.has_layer && site.insert_on < 0;
    done.inserted = site.insert_on >= 0;
    done.alpha = found.alpha;
    done.error_unscaled = found.error_unscaled;
    done.error_scaled = found.error_scaled;
    result.layers.push_back(done);
    if (found.alpha == 0) continue;
    for (const WeightedLayer& b : site.readers) {
      std::vector<float> wb = LayerWeights(model, b.weights);
      for (int64_t o = 0; o < b.rows; ++o) {
        for (int64_t j = 0; j < b.k; ++j) {
          wb[b.WeightIndex(o, j)] *= found.scales[channel_of[j]];
        }
      }
      SetTensorValues(model, b.weights, wb);
    }
    auto divide = [&](int32_t tensor, bool rows_of_layer) {
      if (tensor < 0) return;
      std::vector<float> v = LayerWeights(model, tensor);
      if (rows_of_layer) {
        const WeightedLayer& a = site.layer;
        for (int64_t o = 0; o < a.rows; ++o) {
          for (int64_t j = 0; j < a.k; ++j) {
            v[a.WeightIndex(o, j)] /= found.scales[o];
          }
        }
      } else {
        for (size_t c = 0; c < v.size(); ++c) v[c] /= found.scales[c];
      }
      SetTensorValues(model, tensor, v);
    };
    if (site.has_layer) {
      divide(site.layer.weights, true);
      divide(site.layer.bias, false);
    } else if (site.insert_on < 0) {
      divide(site.gamma, false);
      divide(site.beta, false);
    } else {
      muls.push_back({si, found.scales});
    }
  }
  // The MULs last: every reader is rewired first, by the op indices the
  // sites hold, then the ops go in from the back so that the positions
  // still to come stay valid.
  std::vector<std::pair<int, ir::Operator>> inserts;
  for (const auto& [si, scales] : muls) {
    inserts.push_back(
        MakeScaleMul(model, sites[si].insert_on, scales, sites[si].readers));
  }
  std::sort(inserts.begin(), inserts.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<ir::Operator>& ops = model.subgraphs[0].operators;
  for (auto& [at, op] : inserts) ops.insert(ops.begin() + at, std::move(op));
  // Positions in the final model: each moves by the MULs inserted before.
  for (size_t i = inserts.size(); i-- > 0;) {
    result.inserted_ops.push_back(inserts[i].first +
                                  static_cast<int>(inserts.size() - 1 - i));
  }
  return result;
}

}  // namespace qforge::quantizer
