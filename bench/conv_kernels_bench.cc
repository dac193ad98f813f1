// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Throughput of the conv-family kernels at MobileNet-like shapes, calling
// the prepare/eval functions directly on hand-built tensors (no interpreter
// around them). Counters: GFLOP/s achieved (2 flops per multiply-add) and
// the fraction of one core's FMA peak on the reference machine (Zen 5 with
// AVX-512, 2 x 16-lane FMA per cycle: 221 GFLOP/s per core).
//
//   build/bench/conv_kernels_bench [--benchmark_filter=Conv1x1]
//
// Arguments of the Conv/Depthwise benchmarks: height/width, input channels,
// output channels (depthwise: channels), threads.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "ir/model.h"
#include "ir/options.h"
#include "runtime/kernel.h"
#include "runtime/kernels/conv/conv.h"
#include "runtime/thread_pool.h"

namespace qforge::runtime {
namespace {

constexpr double kPeakGflopsPerCore = 221.0;

// One op with its tensors, prepared once; Eval() runs the kernel.
class Harness {
 public:
  struct TensorSpec {
    Dims shape;
    bool constant = false;
  };

  Harness(ir::OpKind kind, ir::Options options,
          const std::vector<TensorSpec>& inputs, int threads)
      : pool_(threads) {
    op_.kind = kind;
    op_.options = std::move(options);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    ir_tensors_.resize(inputs.size() + 1);
    rt_.resize(inputs.size() + 1);
    buffers_.resize(inputs.size() + 1);
    for (size_t i = 0; i < inputs.size(); ++i) {
      ir_tensors_[i].name = "in" + std::to_string(i);
      RtTensor& t = rt_[i];
      t.ir = &ir_tensors_[i];
      t.shape = inputs[i].shape;
      t.is_constant = inputs[i].constant;
      buffers_[i].resize(static_cast<size_t>(t.NumElements()));
      for (float& v : buffers_[i]) v = u(rng);
      t.data = reinterpret_cast<uint8_t*>(buffers_[i].data());
      t.bytes = buffers_[i].size() * sizeof(float);
    }
    ir_tensors_.back().name = "out";
    rt_.back().ir = &ir_tensors_.back();
    std::vector<RtTensor*> ins, outs;
    for (size_t i = 0; i < inputs.size(); ++i) ins.push_back(&rt_[i]);
    outs.push_back(&rt_.back());
    ctx_ = std::make_unique<OpContext>(op_, 0, 0, ins, outs, &pool_, nullptr,
                                       &state_);
    const KernelDef* def = FindFloatKernel(kind);
    eval_ = def->eval;
    const absl::Status s = def->prepare(*ctx_);
    if (!s.ok()) {
      std::fprintf(stderr, "prepare failed: %s\n", s.ToString().c_str());
      std::abort();
    }
    RtTensor& out = rt_.back();
    buffers_.back().resize(static_cast<size_t>(out.NumElements()));
    out.data = reinterpret_cast<uint8_t*>(buffers_.back().data());
    out.bytes = buffers_.back().size() * sizeof(float);
  }

  void Eval() {
    const absl::Status s = eval_(*ctx_);
    if (!s.ok()) std::abort();
  }

 private:
  ThreadPool pool_;
  ir::Operator op_;
  std::vector<ir::Tensor> ir_tensors_;
  std::vector<RtTensor> rt_;
  std::vector<std::vector<float>> buffers_;
  std::unique_ptr<KernelState> state_;
  std::unique_ptr<OpContext> ctx_;
  EvalFn eval_ = nullptr;
};

void Report(benchmark::State& state, double flops, int threads) {
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["peak_frac"] =
      benchmark::Counter(flops * 1e-9 / (kPeakGflopsPerCore * threads),
                         benchmark::Counter::kIsIterationInvariantRate);
}

void RunConv(benchmark::State& state, int k, int stride) {
  const int64_t hw = state.range(0), cin = state.range(1),
                cout = state.range(2);
  const int threads = static_cast<int>(state.range(3));
  ir::Conv2DOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_h = o.stride_w = stride;
  o.activation = ir::Activation::kRelu6;
  Harness h(
      ir::OpKind::kConv2D, o,
      {{{1, hw, hw, cin}, false}, {{cout, k, k, cin}, true}, {{cout}, true}},
      threads);
  const int64_t out_hw = (hw + stride - 1) / stride;
  const double flops = 2.0 * out_hw * out_hw * cout * k * k * cin;
  for (auto _ : state) h.Eval();
  Report(state, flops, threads);
}

void BM_Conv1x1(benchmark::State& state) { RunConv(state, 1, 1); }
void BM_Conv3x3(benchmark::State& state) { RunConv(state, 3, 1); }
void BM_Conv3x3Stride2(benchmark::State& state) { RunConv(state, 3, 2); }

void BM_Depthwise3x3(benchmark::State& state) {
  const int64_t hw = state.range(0), c = state.range(1);
  const int64_t stride = state.range(2);
  const int threads = static_cast<int>(state.range(3));
  ir::DepthwiseConv2DOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_h = o.stride_w = static_cast<int32_t>(stride);
  o.depth_multiplier = 1;
  o.activation = ir::Activation::kRelu6;
  Harness h(ir::OpKind::kDepthwiseConv2D, o,
            {{{1, hw, hw, c}, false}, {{1, 3, 3, c}, true}, {{c}, true}},
            threads);
  const int64_t out_hw = (hw + stride - 1) / stride;
  const double flops = 2.0 * out_hw * out_hw * c * 9;
  for (auto _ : state) h.Eval();
  Report(state, flops, threads);
}

void BM_FullyConnected(benchmark::State& state) {
  const int64_t batch = state.range(0), in = state.range(1),
                out = state.range(2);
  const int threads = static_cast<int>(state.range(3));
  Harness h(ir::OpKind::kFullyConnected, ir::FullyConnectedOptions{},
            {{{batch, in}, false}, {{out, in}, true}, {{out}, true}}, threads);
  const double flops = 2.0 * batch * in * out;
  for (auto _ : state) h.Eval();
  Report(state, flops, threads);
}

// MobileNet v1 0.25 at 224: the pointwise layers (input size, cin, cout).
BENCHMARK(BM_Conv1x1)
    ->ArgNames({"hw", "cin", "cout", "threads"})
    ->Args({112, 8, 16, 1})
    ->Args({56, 16, 32, 1})
    ->Args({56, 32, 32, 1})
    ->Args({28, 32, 64, 1})
    ->Args({28, 64, 64, 1})
    ->Args({14, 64, 128, 1})
    ->Args({14, 128, 128, 1})
    ->Args({7, 128, 256, 1})
    ->Args({7, 256, 256, 1})
    ->Args({56, 128, 128, 1})
    ->Args({56, 128, 128, 2});
// The stem (3 -> 8/32 channels, stride 2) and a ResNet-style 3x3.
BENCHMARK(BM_Conv3x3Stride2)
    ->ArgNames({"hw", "cin", "cout", "threads"})
    ->Args({224, 3, 8, 1})
    ->Args({224, 3, 32, 1})
    ->Args({96, 3, 8, 1});
BENCHMARK(BM_Conv3x3)
    ->ArgNames({"hw", "cin", "cout", "threads"})
    ->Args({56, 64, 64, 1})
    ->Args({28, 128, 128, 1})
    ->Args({28, 128, 128, 2});
BENCHMARK(BM_Depthwise3x3)
    ->ArgNames({"hw", "c", "stride", "threads"})
    ->Args({112, 8, 1, 1})
    ->Args({112, 16, 2, 1})
    ->Args({56, 32, 1, 1})
    ->Args({28, 64, 1, 1})
    ->Args({14, 128, 1, 1})
    ->Args({112, 32, 1, 1})
    ->Args({112, 32, 1, 2});
BENCHMARK(BM_FullyConnected)
    ->ArgNames({"batch", "in", "out", "threads"})
    ->Args({1, 256, 1001, 1})
    ->Args({1, 1024, 1001, 1})
    ->Args({64, 640, 128, 1})
    ->Args({256, 1024, 1024, 1})
    ->Args({256, 1024, 1024, 2});

}  // namespace
}  // namespace qforge::runtime
