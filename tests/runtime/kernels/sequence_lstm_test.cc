// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM against the independent double-precision
// reference of lstm_test_util.h (tolerance |a - b| <= 1e-4 * max(1, |b|)).
//
// Models: tflite-micro's trained MNIST row-LSTM (testdata/models/
// trained_lstm.tflite) on hand-drawn digits and on the example's MNIST
// samples, LiteRT's layer-norm + projection LSTM, and small synthetic
// LSTMs for CIFG, peepholes, projection, clipping, batches and time_major.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "formats/data/image.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "runtime/interpreter.h"
#include "tests/runtime/kernels/lstm_test_util.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using lstm_test::ConstantValues;
using lstm_test::ExpectClose;
using lstm_test::LstmWeights;
using lstm_test::MakeWeights;
using lstm_test::Random;
using lstm_test::ReferenceLstm;
using lstm_test::RunVariant;
using lstm_test::Variant;
using lstm_test::WeightsOfOp;
using testing::MakeTensor;
using testing::Values;

// Records one tensor of subgraph 0 as it is produced.
class Capture : public runtime::TensorObserver {
 public:
  explicit Capture(int tensor) : tensor_(tensor) {}
  void Observe(int subgraph, int, int tensor_index,
               const runtime::RtTensor& t) override {
    if (subgraph != 0 || tensor_index != tensor_) return;
    const float* p = t.Data<float>();
    values.assign(p, p + t.NumElements());
  }
  std::vector<float> values;

 private:
  int tensor_;
};

// -------------------------------------------------------- trained_lstm

// A 28x28 "digit" in [0, 1]: '1' a vertical bar, '0' a ring, '7' a bar on
// top with a diagonal.
std::vector<float> DrawDigit(char digit) {
  std::vector<float> img(28 * 28, 0.f);
  auto put = [&img](int r, int c, float v) {
    if (r >= 0 && r < 28 && c >= 0 && c < 28) {
      img[r * 28 + c] = std::max(img[r * 28 + c], v);
    }
  };
  for (int r = 0; r < 28; ++r) {
    for (int c = 0; c < 28; ++c) {
      if (digit == '1' && r >= 4 && r <= 23 && c >= 13 && c <= 15) {
        put(r, c, c == 14 ? 1.f : 0.6f);
      }
      if (digit == '0') {
        const double d = std::hypot((r - 13.5) / 9.0, (c - 13.5) / 6.5);
        if (std::fabs(d - 1.0) < 0.18) put(r, c, 1.f);
      }
      if (digit == '7') {
        if (r >= 5 && r <= 7 && c >= 7 && c <= 21) put(r, c, 1.f);
        if (r > 7 && r <= 23 && std::abs(c - (21 - (r - 7) * 9 / 16)) <= 1) {
          put(r, c, 1.f);
        }
      }
    }
  }
  return img;
}

struct Classified {
  int label = -1;
  std::vector<float> probs;
};

// Runs trained_lstm.tflite on `image` and checks the LSTM output (tensor 18)
// and the final softmax against the reference.
Classified CheckTrainedLstm(const ir::Model& model,
                            runtime::Interpreter& interp,
                            const std::vector<float>& image) {
  const ir::Subgraph& sg = model.subgraphs[0];
  int lstm_op = -1;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    if (sg.operators[i].kind == ir::OpKind::kUnidirectionalSequenceLstm) {
      lstm_op = static_cast<int>(i);
    }
  }
  EXPECT_GE(lstm_op, 0);
  if (lstm_op < 0) return {};
  const ir::Operator& op = sg.operators[lstm_op];
  const LstmWeights w = WeightsOfOp(model, op);
  Capture capture(op.outputs[0]);
  const absl::Status status =
      interp.Run({MakeTensor<float>({1, 28, 28}, image)}, &capture);
  EXPECT_TRUE(status.ok()) << status;
  if (!status.ok()) return {};
  const std::vector<double> want = ReferenceLstm(w, image, 1, 28);
  ExpectClose(capture.values, want);
  // Reference head: flatten [1,28*20], FULLY_CONNECTED (weights [10,560],
  // bias [10]), SOFTMAX.
  const ir::Operator& fc = sg.operators[lstm_op + 2];
  const std::vector<float> fw = ConstantValues(model, fc.inputs[1]);
  const std::vector<float> fb = ConstantValues(model, fc.inputs[2]);
  std::vector<double> logits(10);
  double max = -1e300;
  for (int k = 0; k < 10; ++k) {
    double s = fb[k];
    for (size_t j = 0; j < want.size(); ++j)
      s += fw[k * want.size() + j] * want[j];
    logits[k] = s;
    max = std::max(max, s);
  }
  double sum = 0;
  for (double& l : logits) sum += (l = std::exp(l - max));
  for (double& l : logits) l /= sum;
  Classified result;
  result.probs = Values<float>(interp.OutputHost(0));
  ExpectClose(result.probs, logits);
  result.label = static_cast<int>(
      std::max_element(result.probs.begin(), result.probs.end()) -
      result.probs.begin());
  return result;
}

TEST(SequenceLstmTest, TrainedMnistLstmOnDrawnDigits) {
  auto model = formats::ReadTfliteFile(testing::TestDataDir() +
                                       "/models/trained_lstm.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  for (int threads : {1, 4}) {
    runtime::InterpreterOptions options;
    options.threads = threads;
    auto interp = runtime::Interpreter::Create(*model, options);
    ASSERT_TRUE(interp.ok()) << interp.status();
    for (char digit : {'1', '0', '7'}) {
      SCOPED_TRACE(std::string("digit ") + digit);
      const Classified c = CheckTrainedLstm(*model, **interp, DrawDigit(digit));
      std::printf("[ lstm ] drawn '%c' -> class %d (p=%.3f), %d threads\n",
                  digit, c.label,
                  c.label >= 0 ? c.probs[static_cast<size_t>(c.label)] : 0.f,
                  threads);
    }
  }
}

TEST(SequenceLstmTest, TrainedMnistLstmOnExampleSamples) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  auto model = formats::ReadTfliteFile(testing::TestDataDir() +
                                       "/models/trained_lstm.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  auto interp = runtime::Interpreter::Create(*model);
  ASSERT_TRUE(interp.ok()) << interp.status();
  const std::string dir = corpus +
                          "/data/tflite-micro/tensorflow/lite/micro/examples/"
                          "mnist_lstm/samples/";
  int correct = 0, samples = 0;
  for (int digit = 0; digit < 10; ++digit) {
    const std::string path = dir + "sample" + std::to_string(digit) + ".png";
    std::ifstream f(path, std::ios::binary);
    if (!f) continue;
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                     std::istreambuf_iterator<char>());
    auto image = formats::DecodeImage(bytes, path);
    ASSERT_TRUE(image.ok()) << image.status();
    const formats::Image gray =
        formats::ConvertColor(*image, 1, formats::ImageOptions::kGray);
    ASSERT_EQ(gray.pixels.size(), 28u * 28u);
    std::vector<float> x(28 * 28);
    for (size_t i = 0; i < x.size(); ++i) x[i] = gray.pixels[i] / 255.f;
    SCOPED_TRACE(path);
    const Classified c = CheckTrainedLstm(*model, **interp, x);
    correct += c.label == digit;
    ++samples;
  }
  std::printf(
      "[ lstm ] MNIST samples: %d of %d classified as their file "
      "name says\n",
      correct, samples);
  EXPECT_EQ(samples, 10);
  // The network is trained; a broken LSTM would not get these right.
  EXPECT_GE(correct, 8);
}

TEST(SequenceLstmTest, LitertLayerNormProjectionLstm) {
  // 24 inputs: input gate, layer norm, projection, cell_clip 10.
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  auto model = formats::ReadTfliteFile(
      corpus + "/models/litert/unidirectional_sequence_lstm.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  const ir::Operator& op = model->subgraphs[0].operators[0];
  const LstmWeights w = WeightsOfOp(*model, op);
  ASSERT_FALSE(w.lnf.empty());
  ASSERT_FALSE(w.proj.empty());
  auto interp = runtime::Interpreter::Create(*model);
  ASSERT_TRUE(interp.ok()) << interp.status();
  for (const std::vector<float>& x :
       {std::vector<float>{0.5f, -1.f, 2.f, 0.25f},
        std::vector<float>{-3.f, 3.f, 0.f, 1.5f}}) {
    ASSERT_TRUE((*interp)->Run({MakeTensor<float>({1, 2, 2}, x)}).ok());
    ExpectClose(Values<float>((*interp)->OutputHost(0)),
                ReferenceLstm(w, x, 1, 2));
  }
}

// -------------------------------------------------- synthetic variants

TEST(SequenceLstmTest, SyntheticVariantsMatchReference) {
  const Variant variants[] = {
      // name            cifg  peep   proj   ln     tmaj   B  T  I   N   O cclip
      // pclip
      {"basic", false, false, false, false, false, 1, 5, 3, 4, 4, 0.f, 0.f},
      {"cifg", true, false, false, false, false, 2, 4, 3, 5, 5, 0.f, 0.f},
      {"peephole", false, true, false, false, false, 2, 4, 3, 5, 5, 0.f, 0.f},
      {"cifg+peephole", true, true, false, false, false, 3, 3, 2, 4, 4, 0.f,
       0.f},
      {"projection", false, false, true, false, false, 2, 4, 3, 6, 3, 0.f, 0.f},
      {"proj_clip", false, true, true, false, false, 2, 4, 3, 6, 3, 0.f, 0.05f},
      {"cell_clip", false, false, false, false, false, 2, 6, 3, 4, 4, 0.1f,
       0.f},
      {"layer_norm", false, true, true, true, false, 2, 4, 3, 5, 4, 3.f, 0.f},
      {"ln+cifg", true, false, false, true, false, 2, 4, 3, 5, 5, 0.f, 0.f},
      {"time_major", false, true, true, false, true, 3, 4, 3, 5, 4, 0.f, 0.f},
      {"big (parallel)", false, false, true, false, false, 4, 3, 96, 160, 64,
       0.f, 0.f},
  };
  std::mt19937 rng(2026);
  for (const Variant& v : variants) lstm_test::CheckRandomVariant(v, rng);
}

TEST(SequenceLstmTest, RejectsInconsistentInputs) {
  std::mt19937 rng(1);
  Variant v = {"bad", false, false, false, false, false, 1,
               2,     3,     4,     4,     0.f,   0.f};
  LstmWeights w = MakeWeights(v, rng);
  // Only half of the peephole set.
  w.pf = Random(4, rng);
  const std::vector<float> x = Random(6, rng);
  auto peep = RunVariant(v, w, x, 1);
  EXPECT_EQ(peep.status().code(), absl::StatusCode::kInvalidArgument)
      << peep.status();
  // Input gate weights without recurrent input weights.
  w = MakeWeights(v, rng);
  w.ri.clear();
  auto cifg = RunVariant(v, w, x, 1);
  EXPECT_EQ(cifg.status().code(), absl::StatusCode::kInvalidArgument)
      << cifg.status();
  // Negative cell_clip.
  w = MakeWeights(v, rng);
  v.cell_clip = -1.f;
  auto clip = RunVariant(v, w, x, 1);
  EXPECT_EQ(clip.status().code(), absl::StatusCode::kInvalidArgument)
      << clip.status();
}

TEST(SequenceLstmTest, PrintCount) {
  std::printf("[ lstm ] %d output values compared with the double reference\n",
              lstm_test::g_values_checked);
}

}  // namespace
}  // namespace qforge
