// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Whole quantized models run end to end through the integer (and hybrid)
// kernels: the bundled testdata/models/vww_96_int8.tflite always, and the
// official quantized twins of the shared corpus (corpus/twins/**, and
// corpus/int_refs/tflite-micro) when present. Inputs are deterministic
// pseudo-random values over each input's type range (floats in [0, 1]).
// Every model must run without error, give identical outputs with 1 and 4
// threads, and (int8 classifiers) produce outputs inside the type range.
// Two malformed test models are refused by name, with the reason.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

std::vector<ir::HostTensor> MakeInputs(const ir::Model& model, uint32_t seed) {
  const ir::Subgraph& sg = model.subgraphs[0];
  std::mt19937 rng(seed);
  std::vector<ir::HostTensor> inputs;
  for (int32_t idx : sg.inputs) {
    const ir::Tensor& t = sg.tensors[static_cast<size_t>(idx)];
    std::vector<int64_t> shape(t.shape.begin(), t.shape.end());
    for (int64_t& d : shape) d = d < 0 ? 1 : d;  // dynamic batch -> 1
    ir::HostTensor h(t.type, shape);
    const int64_t n = h.NumElements();
    for (int64_t i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      switch (t.type) {
        case ir::DataType::kFloat32:
          h.Flat<float>()[k] =
              std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
          break;
        case ir::DataType::kInt8:
          h.Flat<int8_t>()[k] = static_cast<int8_t>(
              std::uniform_int_distribution<int>(-128, 127)(rng));
          break;
        case ir::DataType::kUInt8:
          h.Flat<uint8_t>()[k] = static_cast<uint8_t>(
              std::uniform_int_distribution<int>(0, 255)(rng));
          break;
        case ir::DataType::kInt16:
          h.Flat<int16_t>()[k] = static_cast<int16_t>(
              std::uniform_int_distribution<int>(-32768, 32767)(rng));
          break;
        case ir::DataType::kInt32:
          h.Flat<int32_t>()[k] = std::uniform_int_distribution<int>(0, 9)(rng);
          break;
        default:
          break;
      }
    }
    inputs.push_back(std::move(h));
  }
  return inputs;
}

// Runs `path` with 1 and 4 threads; "" on success, else the error.
std::string RunModel(const std::string& path) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(path);
  if (!model.ok()) return std::string(model.status().message());
  const std::vector<ir::HostTensor> inputs = MakeInputs(*model, 42);
  std::vector<std::vector<ir::HostTensor>> outs;
  for (int threads : {1, 4}) {
    runtime::InterpreterOptions opts;
    opts.threads = threads;
    auto interp = runtime::Interpreter::Create(*model, opts);
    if (!interp.ok()) return std::string(interp.status().message());
    absl::Status s = (*interp)->Run(inputs);
    if (!s.ok()) return std::string(s.message());
    // A second run on the same interpreter (planned arena) must agree.
    s = (*interp)->Run(inputs);
    if (!s.ok()) return std::string(s.message());
    std::vector<ir::HostTensor> o;
    for (int i = 0; i < (*interp)->num_outputs(); ++i) {
      o.push_back((*interp)->OutputHost(i));
    }
    outs.push_back(std::move(o));
  }
  for (size_t i = 0; i < outs[0].size(); ++i) {
    if (!(outs[0][i] == outs[1][i])) {
      return absl::StrCat("output ", i, " differs between 1 and 4 threads");
    }
  }
  return "";
}

// Runs the float model and its quantized twin (same weights) on the same
// real-valued inputs, uniform in [lo, hi]; returns the largest difference
// between the float outputs and the twin's dequantized outputs, or -1 on
// error.
double TwinDifference(const std::string& float_path,
                      const std::string& quant_path, float lo, float hi) {
  absl::StatusOr<ir::Model> fm = formats::ReadTfliteFile(float_path);
  absl::StatusOr<ir::Model> qm = formats::ReadTfliteFile(quant_path);
  if (!fm.ok() || !qm.ok()) return -1;
  std::vector<ir::HostTensor> f_in = MakeInputs(*fm, 7);
  for (ir::HostTensor& t : f_in) {
    for (float& v : t.Flat<float>()) v = lo + (hi - lo) * v;
  }
  std::vector<ir::HostTensor> q_in;
  const ir::Subgraph& qsg = qm->subgraphs[0];
  for (size_t i = 0; i < qsg.inputs.size(); ++i) {
    const ir::Tensor& t = qsg.tensors[static_cast<size_t>(qsg.inputs[i])];
    ir::HostTensor h(t.type, f_in[i].shape());
    const auto fv = f_in[i].Flat<float>();
    for (size_t k = 0; k < fv.size(); ++k) {
      if (t.type == ir::DataType::kFloat32) {
        h.Flat<float>()[k] = fv[k];
        continue;
      }
      const double q = std::round(fv[k] / t.quantization->scale[0]) +
                       static_cast<double>(t.quantization->zero_point[0]);
      if (t.type == ir::DataType::kInt8) {
        h.Flat<int8_t>()[k] =
            static_cast<int8_t>(std::max(-128.0, std::min(127.0, q)));
      } else {
        h.Flat<uint8_t>()[k] =
            static_cast<uint8_t>(std::max(0.0, std::min(255.0, q)));
      }
    }
    q_in.push_back(std::move(h));
  }
  auto fi = runtime::Interpreter::Create(*fm, {});
  auto qi = runtime::Interpreter::Create(*qm, {});
  if (!fi.ok() || !qi.ok() || !(*fi)->Run(f_in).ok() ||
      !(*qi)->Run(q_in).ok()) {
    return -1;
  }
  const ir::HostTensor fo = (*fi)->OutputHost(0);
  const ir::HostTensor qo = (*qi)->OutputHost(0);
  const ir::Tensor& qt = qsg.tensors[static_cast<size_t>(qsg.outputs[0])];
  double worst = 0;
  for (int64_t k = 0; k < fo.NumElements(); ++k) {
    const size_t i = static_cast<size_t>(k);
    double q = 0;
    switch (qo.type()) {
      case ir::DataType::kFloat32:
        q = qo.Flat<float>()[i];
        break;
      case ir::DataType::kInt8:
        q = (qo.Flat<int8_t>()[i] - qt.quantization->zero_point[0]) *
            double{qt.quantization->scale[0]};
        break;
      case ir::DataType::kUInt8:
        q = (qo.Flat<uint8_t>()[i] - qt.quantization->zero_point[0]) *
            double{qt.quantization->scale[0]};
        break;
      default:
        return -1;
    }
    worst = std::max(worst, std::abs(q - fo.Flat<float>()[i]));
  }
  return worst;
}

TEST(IntegerModelsTest, QuantizedTwinsAgreeWithFloatModels) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus absent (../shared/corpus)";
  struct Pair {
    const char* float_model;
    const char* quant_model;
    float lo, hi;  // input range (from the twins' input quantization)
    double bound;  // on |float - dequantized| of output 0
  };
  // Classifier outputs are probabilities; the autoencoder reconstructs
  // log-mel values of magnitude ~10-80. Uniform-noise inputs are far from
  // the calibration data (ResNet), so the bounds only catch gross errors.
  const Pair pairs[] = {
      {"models/mlperf-tiny/vww_96_float.tflite",
       "twins/mlperf-tiny/vww_96_int8.tflite", 0, 1, 0.1},
      {"models/mlperf-tiny/pretrainedResnet.tflite",
       "twins/mlperf-tiny/pretrainedResnet_quant.tflite", 0, 255, 0.35},
      {"models/mlperf-tiny/model_ToyCar.tflite",
       "twins/mlperf-tiny/model_ToyCar_quant_fullint.tflite", -80, 10, 8.0},
      {"models/mlperf-tiny/model_ToyCar.tflite",
       "twins/mlperf-tiny/model_ToyCar_quant.tflite", -80, 10, 3.0},
  };
  for (const Pair& p : pairs) {
    const double d = TwinDifference(corpus + "/" + p.float_model,
                                    corpus + "/" + p.quant_model, p.lo, p.hi);
    std::printf("%s vs float: max |difference| %.4f (bound %.2f)\n",
                p.quant_model, d, p.bound);
    EXPECT_GE(d, 0) << p.quant_model << " did not run";
    EXPECT_LE(d, p.bound) << p.quant_model;
  }
}

TEST(IntegerModelsTest, BundledVww96Int8) {
  const std::string path =
      testing::TestDataDir() + "/models/vww_96_int8.tflite";
  EXPECT_EQ(RunModel(path), "");
}

TEST(IntegerModelsTest, CorpusQuantizedTwins) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus absent (../shared/corpus)";
  std::vector<std::string> files =
      testing::FindFiles(corpus + "/twins", ".tflite");
  for (const std::string& f :
       testing::FindFiles(corpus + "/int_refs/tflite-micro", ".tflite")) {
    files.push_back(f);
  }
  // Models that must fail, and why (LiteRT refuses or fails them too); any
  // other failure fails the test.
  struct Refused {
    const char* model;
    const char* error;
  };
  const Refused refused[] = {
      // Declares a [1, 9] state for memory 7 x 6 filters (LiteRT: same).
      {"twins/litert/svdf_quantized.tflite", "must be [1,42]"},
      // An RSQRT test model: the random input has negative values, outside
      // the op's domain (TFLite's kernel fails on them as well).
      {"twins/litert/single_rsqrt_default_a16w8_recipe_quantized.tflite",
       "RSQRT is only defined for positive values"},
  };
  int ran = 0;
  std::vector<std::string> skipped;
  for (const std::string& f : files) {
    const std::string err = RunModel(f);
    const std::string name = f.substr(corpus.size() + 1);
    if (err.empty()) {
      ++ran;
      std::printf("ok    %s\n", name.c_str());
      continue;
    }
    bool known = false;
    for (const Refused& r : refused) {
      known =
          known || (name == r.model && err.find(r.error) != std::string::npos);
    }
    std::printf("%s %s: %s\n", known ? "skip " : "FAIL ", name.c_str(),
                err.c_str());
    if (known) {
      skipped.push_back(name);
    } else {
      ADD_FAILURE() << name << ": " << err;
    }
  }
  std::printf("quantized twins: %d ran, %zu refused as expected\n", ran,
              skipped.size());
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace qforge
