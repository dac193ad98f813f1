// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Whole-model float inference time of qforge's interpreter: ms per sample
// and achieved GFLOP/s at batch 1 and 8 with 1 and 2 threads, and the
// overhead of calibration statistics collection. One JSON line per case on
// stdout (bench/run_model_bench.sh adds LiteRT's time and the ratios).
// Usage: model_bench MODEL [--repeat N] [--batch B] [--threads T]
// [--stats 0|1] (--batch/--threads/--stats: run only that case, e.g. under
// perf, or as a whole process timed against a command, bench/speed/cli.sh).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "calibration/calibrate.h"
#include "calibration/collector.h"
#include "formats/tflite_reader.h"
#include "runtime/interpreter.h"

namespace {

using qforge::ir::Model;
using qforge::ir::OpKind;

// Multiply-adds x 2 of the conv-like ops, per batch-1 sample.
double FlopsPerSample(const Model& model) {
  const auto& sg = model.subgraphs[0];
  double flops = 0;
  for (const auto& op : sg.operators) {
    if (op.inputs.size() < 2 || op.outputs.empty()) continue;
    const auto& out = sg.tensors[op.outputs[0]].shape;
    const auto& w = sg.tensors[op.inputs[1]].shape;
    double out_elems = 1;
    for (size_t i = 1; i < out.size(); ++i) out_elems *= out[i];
    if (op.kind == OpKind::kConv2D && w.size() == 4) {
      flops += 2.0 * out_elems * w[1] * w[2] * w[3];
    } else if (op.kind == OpKind::kDepthwiseConv2D && w.size() == 4) {
      flops += 2.0 * out_elems * w[1] * w[2];
    } else if (op.kind == OpKind::kFullyConnected && w.size() == 2) {
      flops += 2.0 * out_elems * w[1];
    }
  }
  return flops;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: model_bench MODEL [--repeat N] [--batch B] [--threads T] "
        "[--stats 0|1] [--arithmetic tflite|xnnpack]\n");
    return 1;
  }
  const std::string path = argv[1];
  int repeat = 50, only_batch = 0, only_threads = 0, only_stats = -1;
  qforge::numerics::Modes modes;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--arithmetic") {
      modes.arithmetic = std::string(argv[i + 1]) == "xnnpack"
                             ? qforge::numerics::Arithmetic::kXnnpack
                             : qforge::numerics::Arithmetic::kTflite;
    } else if (flag == "--repeat") {
      repeat = std::max(1, value);
    } else if (flag == "--batch") {
      only_batch = value;
    } else if (flag == "--threads") {
      only_threads = value;
    } else if (flag == "--stats") {
      only_stats = value != 0 ? 1 : 0;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 1;
    }
  }
  auto model = qforge::formats::ReadTfliteFile(path);
  if (!model.ok()) {
    std::fprintf(stderr, "%s\n", std::string(model.status().message()).c_str());
    return 2;
  }
  const auto& sg = model->subgraphs[0];
  const double flops = FlopsPerSample(*model);
  for (int batch : {1, 8}) {
    if (only_batch != 0 && batch != only_batch) continue;
    // Every input of subgraph 0, random: uniform in [-1, 1) for float,
    // any bytes for integer inputs (every pattern is a valid integer).
    std::vector<qforge::ir::HostTensor> inputs;
    std::mt19937 rng(1);
    for (int32_t t : sg.inputs) {
      const auto& in = sg.tensors[t];
      std::vector<int64_t> shape(in.shape.begin(), in.shape.end());
      for (int64_t& d : shape) d = d < 0 ? 1 : d;
      if (!shape.empty()) shape[0] = shape[0] * batch;
      qforge::ir::HostTensor input(in.type, shape);
      if (in.type == qforge::ir::DataType::kFloat32) {
        std::uniform_real_distribution<float> u(-1, 1);
        for (float& v : input.Flat<float>()) v = u(rng);
      } else {
        for (uint8_t& b : input.bytes()) b = static_cast<uint8_t>(rng());
      }
      inputs.push_back(std::move(input));
    }
    for (int threads : {1, 2}) {
      if (only_threads != 0 && threads != only_threads) continue;
      qforge::runtime::InterpreterOptions options;
      options.threads = threads;
      options.numerics = modes;
      auto interp = qforge::runtime::Interpreter::Create(*model, options);
      if (!interp.ok()) {
        std::fprintf(stderr, "%s\n",
                     std::string(interp.status().message()).c_str());
        return 3;
      }
      qforge::calibration::StatsCollector collector(
          *model, std::getenv("STRIDE")
                      ? std::atoi(std::getenv("STRIDE"))
                      : qforge::calibration::kDefaultHistogramStride);
      // Plain and observed runs alternate, so that both see the same
      // machine (other jobs come and go on a shared one); best of each.
      auto run = [&](bool observe) {
        return (*interp)->Run(inputs, observe ? &collector : nullptr);
      };
      for (int i = 0; i < 3; ++i) {  // warm-up: plans memory, packs weights
        for (bool observe : {false, true}) {
          if (only_stats >= 0 && observe != (only_stats == 1)) continue;
          if (absl::Status s = run(observe); !s.ok()) {
            std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
            return 4;
          }
        }
      }
      // Every repeat's time: the best is the least disturbed run; the
      // median is the same kind of figure as a command's average over many
      // samples, which per-sample jitter raises above the best.
      std::vector<double> times[2];
      for (int i = 0; i < repeat; ++i) {
        for (bool observe : {false, true}) {
          if (only_stats >= 0 && observe != (only_stats == 1)) continue;
          const auto t0 = std::chrono::steady_clock::now();
          if (!run(observe).ok()) return 4;
          times[observe].push_back(std::chrono::duration<double, std::milli>(
                                       std::chrono::steady_clock::now() - t0)
                                       .count());
        }
      }
      for (bool observe : {false, true}) {
        if (only_stats >= 0 && observe != (only_stats == 1)) continue;
        std::vector<double>& t = times[observe];
        std::sort(t.begin(), t.end());
        const double per_sample = t.front() / batch;
        const double median = t[t.size() / 2] / batch;
        std::printf(
            "{\"model\":\"%s\",\"batch\":%d,\"threads\":%d,\"stats\":%s,"
            "\"ms_per_sample\":%.4f,\"ms_per_sample_median\":%.4f,"
            "\"gflops\":%.1f,\"gop\":%.6f}\n",
            path.c_str(), batch, threads, observe ? "true" : "false",
            per_sample, median, flops / (per_sample * 1e6), flops * 1e-9);
      }
    }
  }
  return 0;
}
