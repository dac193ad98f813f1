// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The integer LSTM kernels (UNIDIRECTIONAL_SEQUENCE_LSTM, LSTM) against
// LiteRT's builtin kernels, exactly, on the bundled fixtures of
// testdata/lstm (see its README for their origin and how the goldens were
// produced):
//  - trained_lstm_int8 (MNIST row-LSTM, int16 cell state 2^-12, no layer
//    norm): the LSTM op alone (3 digits x 28 steps x 20 units) and the
//    whole model's output;
//  - LiteRT's quantize_model test models with layer norm, projection and
//    int8 states whose zero point is -128, as the sequence op and as LSTM;
//  - dtln_noise_suppression from the shared corpus (skipped without it): two
//    stacked LSTMs of 128 cells, the second with output-state zero point -4,
//    which TFLite starts at its zero point (starting at 0 is off by up to
//    12 LSB).
// Every sample runs in a fresh state, with 1 and 2 threads.
#include <cstring>
#include <string>
#include <vector>

#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/extract.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

std::string Fixture(const std::string& name) {
  return testing::TestDataDir() + "/lstm/" + name;
}

// Runs `model` on every sample (leading axis of `batch`) and returns the
// outputs concatenated, as raw bytes.
std::vector<uint8_t> RunSamples(const ir::Model& model,
                                const ir::HostTensor& batch, int threads) {
  runtime::InterpreterOptions opts;
  opts.threads = threads;
  auto interp = runtime::Interpreter::Create(model, opts);
  EXPECT_TRUE(interp.ok()) << interp.status();
  if (!interp.ok()) return {};
  const ir::Tensor& in =
      model.subgraphs[0]
          .tensors[static_cast<size_t>(model.subgraphs[0].inputs[0])];
  const int64_t n = batch.shape()[0];
  const size_t sample_bytes = batch.ByteSize() / static_cast<size_t>(n);
  std::vector<uint8_t> out;
  for (int64_t k = 0; k < n; ++k) {
    ir::HostTensor x(in.type,
                     std::vector<int64_t>(in.shape.begin(), in.shape.end()));
    EXPECT_EQ(x.ByteSize(), sample_bytes);
    std::memcpy(x.data(), batch.data() + k * sample_bytes, sample_bytes);
    absl::Status s = (*interp)->Run({x});
    EXPECT_TRUE(s.ok()) << s;
    if (!s.ok()) return {};
    const ir::HostTensor y = (*interp)->OutputHost(0);
    out.insert(out.end(), y.data(), y.data() + y.ByteSize());
  }
  return out;
}

// Counts differing elements of two equally long buffers of T.
template <typename T>
int CountDiffering(const std::vector<uint8_t>& got,
                   const ir::HostTensor& golden) {
  EXPECT_EQ(got.size(), golden.ByteSize());
  if (got.size() != golden.ByteSize()) return -1;
  const T* a = reinterpret_cast<const T*>(got.data());
  const T* b = reinterpret_cast<const T*>(golden.data());
  int differ = 0;
  for (size_t i = 0; i < got.size() / sizeof(T); ++i) differ += a[i] != b[i];
  return differ;
}

struct Loaded {
  ir::Model model;
  ir::HostTensor input, golden;
};

Loaded Load(const std::string& model, const std::string& stem,
            const std::string& golden_suffix = "_golden.npy") {
  Loaded l;
  auto m = formats::ReadTfliteFile(
      model.find('/') == std::string::npos ? Fixture(model) : model);
  EXPECT_TRUE(m.ok()) << m.status();
  if (m.ok()) l.model = *std::move(m);
  auto in = formats::ReadNpyFile(Fixture(stem + "_input.npy"));
  EXPECT_TRUE(in.ok()) << in.status();
  if (in.ok()) l.input = *std::move(in);
  auto g = formats::ReadNpyFile(Fixture(stem + golden_suffix));
  EXPECT_TRUE(g.ok()) << g.status();
  if (g.ok()) l.golden = *std::move(g);
  return l;
}

TEST(IntegerLstmTest, TrainedLstmInt8SequenceOpEqualsLiteRT) {
  Loaded l =
      Load("trained_lstm_int8.tflite", "trained_lstm_int8", "_lstm_golden.npy");
  ASSERT_EQ(l.golden.NumElements(), 3 * 28 * 20);
  // Op 0 is the UNIDIRECTIONAL_SEQUENCE_LSTM; cut it out to see its output.
  auto lstm = ir::ExtractOps(l.model, 0, 0);
  ASSERT_TRUE(lstm.ok()) << lstm.status();
  for (int threads : {1, 2}) {
    EXPECT_EQ(
        CountDiffering<int8_t>(RunSamples(*lstm, l.input, threads), l.golden),
        0)
        << "threads " << threads;
  }
}

TEST(IntegerLstmTest, TrainedLstmInt8ModelEqualsLiteRT) {
  Loaded l = Load("trained_lstm_int8.tflite", "trained_lstm_int8");
  ASSERT_EQ(l.golden.NumElements(), 3 * 10);
  EXPECT_EQ(CountDiffering<int8_t>(RunSamples(l.model, l.input, 1), l.golden),
            0);
}

TEST(IntegerLstmTest, LayerNormProjectionSequenceLstmEqualsLiteRT) {
  Loaded l = Load("unidirectional_sequence_lstm_quantized.tflite",
                  "unidirectional_sequence_lstm_quantized");
  ASSERT_EQ(l.golden.NumElements(), 4 * 2 * 2);
  EXPECT_EQ(CountDiffering<float>(RunSamples(l.model, l.input, 1), l.golden),
            0);
}

TEST(IntegerLstmTest, LayerNormProjectionLstmOpEqualsLiteRT) {
  Loaded l = Load("lstm_quantized.tflite", "lstm_quantized");
  ASSERT_EQ(l.golden.NumElements(), 4 * 2);
  EXPECT_EQ(CountDiffering<float>(RunSamples(l.model, l.input, 1), l.golden),
            0);
}

TEST(IntegerLstmTest, DtlnStackedLstmsEqualLiteRT) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus absent (../shared/corpus)";
  Loaded l =
      Load(corpus + "/int_refs/tflite-micro/dtln_noise_suppression.tflite",
           "dtln_noise_suppression");
  ASSERT_EQ(l.golden.NumElements(), 4 * 257);
  for (int threads : {1, 2}) {
    EXPECT_EQ(
        CountDiffering<int8_t>(RunSamples(l.model, l.input, threads), l.golden),
        0)
        << "threads " << threads;
  }
}

}  // namespace
}  // namespace qforge
