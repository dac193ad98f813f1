// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "quantizer/layer_inputs.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "runtime/kernels/common/window.h"
#include "runtime/sample_runner.h"

namespace qforge::quantizer {
namespace {

// Samples are reduced in blocks of this many, each block in sample order,
// then the blocks in order: the sums do not depend on the thread count.
constexpr int64_t kBlock = 8;

uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One axis of the layer's window (runtime/kernels/common/window.h); an input
// smaller than a VALID window gives no positions.
struct Window {
  int64_t out = 0, pad = 0;
};
Window MakeWindow(ir::Padding padding, int64_t in, int64_t filter,
                  int64_t stride, int64_t dilation) {
  Window w;
  w.out = std::max<int64_t>(
      0, runtime::WindowOutSize(padding, in, filter, stride, dilation));
  w.pad = runtime::WindowPadBefore(stride, dilation, in, filter, w.out);
  return w;
}

// One capture's running sums over a block of samples.
struct BlockSums {
  std::vector<double> tap_sum;
  int64_t positions = 0;
  bool seen = false;
};

class CaptureObserver : public runtime::TensorObserver {
 public:
  CaptureObserver(absl::Span<const InputCapture> captures, uint64_t seed)
      : captures_(captures), seed_(seed) {
    for (size_t c = 0; c < captures.size(); ++c) {
      by_tensor_[captures[c].layer.input].push_back(c);
    }
  }
  void Start(int64_t sample, std::vector<BlockSums>* sums,
             std::vector<std::vector<float>>* patches) {
    sample_ = sample;
    sums_ = sums;
    patches_ = patches;
  }
  void Observe(int subgraph, int /*op_index*/, int tensor_index,
               const runtime::RtTensor& t) override {
    if (subgraph != 0) return;
    auto it = by_tensor_.find(tensor_index);
    if (it == by_tensor_.end() || t.type != ir::DataType::kFloat32) return;
    for (size_t c : it->second) Capture(c, t);
  }

 private:
  void Capture(size_t c, const runtime::RtTensor& t) {
    const WeightedLayer& l = captures_[c].layer;
    const float* x = t.Data<float>();
    BlockSums& s = (*sums_)[c];
    const bool flat = l.layout == ir::WeightLayout::kFullyConnected;
    const int64_t channels = flat ? l.k : l.in_channels;
    const int64_t width = l.kh * l.kw * channels;
    int64_t n = 0, h = 1, w = 1;
    Window wy, wx;
    if (flat) {
      if (t.NumElements() % l.k != 0) return;
      n = t.NumElements() / l.k;
      wy.out = wx.out = 1;
    } else {
      if (t.rank() != 4 || t.dim(3) != channels) return;
      n = t.dim(0), h = t.dim(1), w = t.dim(2);
      wy = MakeWindow(l.padding, h, l.kh, l.stride_h, l.dilation_h);
      wx = MakeWindow(l.padding, w, l.kw, l.stride_w, l.dilation_w);
    }
    s.seen = true;
    s.tap_sum.resize(static_cast<size_t>(width), 0.0);
    const int64_t per_image = wy.out * wx.out;
    s.positions += n * per_image;
    // Input row of output row `oy` at tap `ky` (or -1: padding).
    auto in_y = [&](int64_t oy, int64_t ky) {
      const int64_t y = oy * l.stride_h + ky * l.dilation_h - wy.pad;
      return y >= 0 && y < h ? y : -1;
    };
    auto in_x = [&](int64_t ox, int64_t kx) {
      const int64_t v = ox * l.stride_w + kx * l.dilation_w - wx.pad;
      return v >= 0 && v < w ? v : -1;
    };
    if (captures_[c].tap_means) {
      std::vector<double> row(static_cast<size_t>(channels));
      for (int64_t b = 0; b < n; ++b) {
        for (int64_t ky = 0; ky < l.kh; ++ky) {
          for (int64_t kx = 0; kx < l.kw; ++kx) {
            double* acc = &s.tap_sum[(ky * l.kw + kx) * channels];
            for (int64_t oy = 0; oy < wy.out; ++oy) {
              const int64_t y = in_y(oy, ky);
              if (y < 0) continue;
              std::fill(row.begin(), row.end(), 0.0);
              for (int64_t ox = 0; ox < wx.out; ++ox) {
                const int64_t xx = in_x(ox, kx);
                if (xx < 0) continue;
                const float* p = x + ((b * h + y) * w + xx) * channels;
                for (int64_t ch = 0; ch < channels; ++ch) row[ch] += p[ch];
              }
              for (int64_t ch = 0; ch < channels; ++ch) acc[ch] += row[ch];
            }
          }
        }
      }
    }
    const int64_t want = captures_[c].patches_per_sample;
    if (want <= 0 || n * per_image == 0) return;
    std::vector<float>& out = (*patches_)[c];
    uint64_t state = SplitMix64(
        seed_ ^ SplitMix64(static_cast<uint64_t>(sample_) ^
                           (static_cast<uint64_t>(l.op_index) << 40)));
    for (int64_t i = 0; i < want; ++i) {
      state = SplitMix64(state);
      const int64_t p =
          static_cast<int64_t>(state % static_cast<uint64_t>(n * per_image));
      const int64_t b = p / per_image, oy = (p % per_image) / wx.out,
                    ox = p % wx.out;
      const size_t base = out.size();
      out.resize(base + static_cast<size_t>(width), 0.0f);
      for (int64_t ky = 0; ky < l.kh; ++ky) {
        for (int64_t kx = 0; kx < l.kw; ++kx) {
          const int64_t y = in_y(oy, ky), xx = in_x(ox, kx);
          if (y < 0 || xx < 0) continue;
          const float* src = x + ((b * h + y) * w + xx) * channels;
          std::copy(src, src + channels,
                    out.begin() + base + (ky * l.kw + kx) * channels);
        }
      }
    }
  }

  absl::Span<const InputCapture> captures_;
  uint64_t seed_;
  std::map<int32_t, std::vector<size_t>> by_tensor_;
  int64_t sample_ = 0;
  std::vector<BlockSums>* sums_ = nullptr;
  std::vector<std::vector<float>>* patches_ = nullptr;
};

}  // namespace

absl::StatusOr<std::vector<CapturedInput>> CaptureLayerInputs(
    const ir::Model& model, const formats::SampleSource& data,
    absl::Span<const int64_t> samples, absl::Span<const InputCapture> captures,
    const CaptureOptions& options) {
  const int64_t num_samples = static_cast<int64_t>(samples.size());
  const int64_t num_blocks = (num_samples + kBlock - 1) / kBlock;
  // Per block: sums per capture; per sample: patches per capture.
  std::vector<std::vector<BlockSums>> block_sums(
      static_cast<size_t>(num_blocks), std::vector<BlockSums>(captures.size()));
  std::vector<std::vector<std::vector<float>>> sample_patches(
      samples.size(), std::vector<std::vector<float>>(captures.size()));
  runtime::SampleRunnerOptions ro;
  ro.threads = options.threads;
  ro.block = kBlock;
  ro.interpreter.skip_unrunnable = true;
  ro.interpreter.numerics = options.numerics;
  ASSIGN_OR_RETURN(runtime::SampleRunner runner,
                   runtime::SampleRunner::Create({&model}, data, samples, ro));
  std::vector<CaptureObserver> observers(
      static_cast<size_t>(runner.workers()),
      CaptureObserver(captures, options.seed));
  RETURN_IF_ERROR(runner.Run([&](runtime::SampleWorker& w, int64_t i) {
    CaptureObserver& observer = observers[static_cast<size_t>(w.index)];
    observer.Start(samples[static_cast<size_t>(i)],
                   &block_sums[static_cast<size_t>(i / kBlock)],
                   &sample_patches[static_cast<size_t>(i)]);
    return w.interpreters[0]->Run(w.inputs, &observer);
  }));

  std::vector<CapturedInput> out(captures.size());
  for (size_t c = 0; c < captures.size(); ++c) {
    const WeightedLayer& l = captures[c].layer;
    CapturedInput& o = out[c];
    const int64_t channels =
        l.layout == ir::WeightLayout::kFullyConnected ? l.k : l.in_channels;
    o.width = l.kh * l.kw * channels;
    o.tap_mean.assign(static_cast<size_t>(o.width), 0.0);
    bool seen = false;
    for (const std::vector<BlockSums>& block : block_sums) {
      const BlockSums& s = block[c];
      if (!s.seen) continue;
      seen = true;
      o.positions += s.positions;
      for (size_t j = 0; j < s.tap_sum.size(); ++j)
        o.tap_mean[j] += s.tap_sum[j];
    }
    if (!seen && num_samples > 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "op ", l.op_index, " ", ir::GetOpInfo(l.kind).name, ": its input '",
          model.subgraphs[0].tensors[l.input].name,
          "' was not computed as a float32 tensor of the weights' shape"));
    }
    if (o.positions > 0) {
      for (double& v : o.tap_mean) v /= static_cast<double>(o.positions);
    }
    for (const auto& per_sample : sample_patches) {
      o.patches.insert(o.patches.end(), per_sample[c].begin(),
                       per_sample[c].end());
    }
    o.num_patches = static_cast<int64_t>(o.patches.size()) / o.width;
  }
  return out;
}

}  // namespace qforge::quantizer
