// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Every bias qforge writes has the scales TFLite's quantization spec gives
// it: input scale x weight scale, one per weight scale (per channel when
// the weights are per channel, one for the tensor when they are per
// tensor). TFLite's kernels tolerate a per-channel bias of per-tensor
// weights; Arm NN refuses it (its bias-type rule), so this is checked on
// every written model of the bundled CNN and of corpus models with real
// data, with and without --fc-per-tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/model.h"
#include "pipeline/quantize.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

const ir::Quantization* QuantOf(const ir::Subgraph& sg, int32_t t) {
  if (t < 0 || static_cast<size_t>(t) >= sg.tensors.size()) return nullptr;
  const auto& q = sg.tensors[static_cast<size_t>(t)].quantization;
  return q.has_value() && q->HasScale() ? &*q : nullptr;
}

// Why each integer bias of `model` breaks the rule; empty when none does.
// A bias is an int32 / int64 input right after a quantized int8 / int4
// weight, and the op's input 0 is the activation.
std::vector<std::string> BiasScaleProblems(const ir::Model& model) {
  std::vector<std::string> out;
  for (const ir::Subgraph& sg : model.subgraphs) {
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      const ir::Operator& op = sg.operators[i];
      for (size_t k = 1; k + 1 < op.inputs.size(); ++k) {
        const int32_t w = op.inputs[k], b = op.inputs[k + 1];
        if (w < 0 || b < 0) continue;
        const ir::DataType wt = sg.tensors[static_cast<size_t>(w)].type;
        const ir::DataType bt = sg.tensors[static_cast<size_t>(b)].type;
        if ((wt != ir::DataType::kInt8 && wt != ir::DataType::kInt4) ||
            (bt != ir::DataType::kInt32 && bt != ir::DataType::kInt64)) {
          continue;
        }
        const ir::Quantization* in = QuantOf(sg, op.inputs[0]);
        const ir::Quantization* wq = QuantOf(sg, w);
        const ir::Quantization* bq = QuantOf(sg, b);
        const std::string where = absl::StrCat("op ", i, " ", op.DisplayName());
        if (in == nullptr || wq == nullptr || bq == nullptr) {
          out.push_back(where + ": unquantized input, weights or bias");
          continue;
        }
        if (bq->scale.size() != wq->scale.size()) {
          out.push_back(absl::StrCat(where, ": ", bq->scale.size(),
                                     " bias scales for ", wq->scale.size(),
                                     " weight scales"));
          continue;
        }
        for (size_t c = 0; c < bq->scale.size(); ++c) {
          const double want = static_cast<double>(in->scale[0]) * wq->scale[c];
          // TFLite's kernels accept 1e-6 relative (kernel_util.cc).
          if (std::fabs(bq->scale[c] - want) > 1e-6 * want) {
            out.push_back(absl::StrCat(where, ": channel ", c, " bias scale ",
                                       bq->scale[c], ", want ", want));
            break;
          }
        }
      }
    }
  }
  return out;
}

struct Case {
  std::string name, model;
  std::vector<std::string> data;
  float scale = 0.0f;
};

std::vector<Case> Cases() {
  const std::string t = testing::TestDataDir();
  std::vector<Case> cases = {{"conv_fc_mnist",
                              t + "/models/conv_fc_mnist.tflite",
                              {t + "/mnist/*.png"},
                              0.003921569f}};
  const std::string c = testing::CorpusDir();
  if (c.empty()) return cases;
  cases.push_back({"toycar",
                   c + "/models/mlperf-tiny/model_ToyCar.tflite",
                   {c + "/data/mlperf-tiny/benchmark/reference_submissions/"
                        "anomaly_detection/datasets/dcase01/"
                        "normal_id_01_00000000_hist_librosa.bin"}});
  cases.push_back({"vww_96",
                   c + "/models/mlperf-tiny/vww_96_float.tflite",
                   {c + "/data/tflite-micro/tensorflow/lite/micro/examples/"
                        "person_detection/testdata/*.bmp"},
                   0.003921569f});
  cases.push_back({"trained_lstm",
                   c + "/models/tflite-micro/trained_lstm.tflite",
                   {t + "/mnist/*.png"},
                   0.003921569f});
  return cases;
}

TEST(BiasScaleTest, EveryWrittenBiasHasInputTimesWeightScales) {
  const std::string dir = testing::MakeTempDir();
  int written = 0;
  for (const Case& c : Cases()) {
    for (const char* scheme : {"int8", "int16x8"}) {
      for (const bool fc_per_tensor : {false, true}) {
        for (const int bits : {8, 4}) {
          if (bits == 4 && std::string(scheme) != "int8") continue;
          pipeline::QuantizeJob job;
          job.model = c.model;
          job.data.specs = c.data;
          job.data.scale = c.scale;
          job.scheme = scheme;
          job.fc_per_tensor = fc_per_tensor;
          job.weight_bits = bits;
          job.output = dir + "/" + c.name + ".tflite";
          const std::string label = absl::StrCat(
              c.name, " ", scheme, fc_per_tensor ? " fc/tensor" : "",
              bits == 4 ? " int4" : "");
          absl::StatusOr<pipeline::QuantizeOutcome> o =
              pipeline::RunQuantizeJob(job, pipeline::Hooks{});
          ASSERT_TRUE(o.ok()) << label << ": " << o.status();
          const std::vector<std::string> problems =
              BiasScaleProblems(testing::ReadModel(job.output));
          EXPECT_TRUE(problems.empty())
              << label << ": " << ::testing::PrintToString(problems);
          ++written;
        }
      }
    }
  }
  EXPECT_GE(written, 6);
}

}  // namespace
}  // namespace qforge
