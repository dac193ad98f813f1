// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes the float models and data of testdata/patterns/: two graph
// patterns common in real audio/NLP models whose naive int8 / int16x8
// quantization LiteRT refuses or aborts on.
//   masked_attention.tflite  one self-attention block whose scores get a
//                            padding mask holding float lowest() (-3.4e38)
//                            at padded positions, as Keras/TF attention
//                            layers write it;
//   log_eps.tflite           log(x * x + 1e-9) of a magnitude spectrum up to
//                            ~316 (power up to 1e5), then a dense layer.
// Weights and data come from a fixed-seed generator, so the files are
// reproducible:  make_pattern_models OUT_DIR
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "base/status_macros.h"
#include "formats/data/npy.h"
#include "formats/tflite_writer.h"
#include "ir/validate.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::OpModel;

std::vector<float> Normal(std::mt19937& rng, size_t n, float stddev) {
  std::normal_distribution<float> d(0.0f, stddev);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

int Fc(OpModel& m, int x, int in, int out, std::mt19937& rng,
       std::vector<int32_t> out_shape, const std::string& name) {
  const float stddev = 1.0f / std::sqrt(static_cast<float>(in));
  const int w = m.Constant<float>({out, in}, Normal(rng, out * in, stddev),
                                  name + "/kernel");
  const int b =
      m.Constant<float>({out}, Normal(rng, out, 0.1f), name + "/bias");
  const int y = m.Tensor(ir::DataType::kFloat32, std::move(out_shape), name);
  ir::FullyConnectedOptions o;
  o.keep_num_dims = true;
  m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y}, o);
  return y;
}

absl::Status Write(OpModel& m, const std::string& path) {
  RETURN_IF_ERROR(ir::ValidateModel(m.model()));
  return formats::WriteTfliteFile(m.model(), path);
}

absl::Status WriteNpy(const ir::HostTensor& t, const std::string& path) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, formats::WriteNpy(t));
  return WriteFileAtomic(path, absl::Span<const uint8_t>(bytes));
}

constexpr int kT = 8, kD = 16, kSamples = 32;

absl::Status MaskedAttention(const std::string& dir) {
  std::mt19937 rng(20261204);
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, kT, kD}, "x");
  const int mask = m.Input(ir::DataType::kFloat32, {1, 1, kT}, "mask");
  const int q = Fc(m, x, kD, kD, rng, {1, kT, kD}, "attn/query");
  const int k = Fc(m, x, kD, kD, rng, {1, kT, kD}, "attn/key");
  const int v = Fc(m, x, kD, kD, rng, {1, kT, kD}, "attn/value");
  const int scores =
      m.Tensor(ir::DataType::kFloat32, {1, kT, kT}, "attn/scores");
  ir::BatchMatMulOptions adj_y;
  adj_y.adj_y = true;
  m.Op(ir::OpKind::kBatchMatMul, {q, k}, {scores}, adj_y);
  const int scale = m.Constant<float>({1}, {0.25f}, "attn/scale");
  const int scaled =
      m.Tensor(ir::DataType::kFloat32, {1, kT, kT}, "attn/scaled");
  m.Op(ir::OpKind::kMul, {scores, scale}, {scaled}, ir::ActivationOptions{});
  const int masked =
      m.Tensor(ir::DataType::kFloat32, {1, kT, kT}, "attn/masked");
  m.Op(ir::OpKind::kAdd, {scaled, mask}, {masked}, ir::AddSubOptions{});
  const int probs = m.Tensor(ir::DataType::kFloat32, {1, kT, kT}, "attn/probs");
  ir::SoftmaxOptions sm;
  sm.beta = 1.0f;
  m.Op(ir::OpKind::kSoftmax, {masked}, {probs}, sm);
  const int ctx = m.Tensor(ir::DataType::kFloat32, {1, kT, kD}, "attn/context");
  m.Op(ir::OpKind::kBatchMatMul, {probs, v}, {ctx}, ir::BatchMatMulOptions{});
  const int out = Fc(m, ctx, kD, kD, rng, {1, kT, kD}, "attn/output");
  m.model().subgraphs[0].outputs.push_back(out);
  RETURN_IF_ERROR(Write(m, dir + "/masked_attention.tflite"));

  // Samples: x ~ N(0, 1); the first L in [3, 8] positions are real, the
  // rest padding (lowest()).
  ir::HostTensor xs(ir::DataType::kFloat32, {kSamples, kT, kD});
  ir::HostTensor ms(ir::DataType::kFloat32, {kSamples, 1, kT});
  std::vector<float> xv = Normal(rng, xs.NumElements(), 1.0f);
  std::copy(xv.begin(), xv.end(), xs.Flat<float>().begin());
  std::uniform_int_distribution<int> len(3, kT);
  auto mv = ms.Flat<float>();
  for (int s = 0; s < kSamples; ++s) {
    const int l = len(rng);
    for (int t = 0; t < kT; ++t) {
      mv[s * kT + t] = t < l ? 0.0f : std::numeric_limits<float>::lowest();
    }
  }
  RETURN_IF_ERROR(WriteNpy(xs, dir + "/masked_attention_x.npy"));
  return WriteNpy(ms, dir + "/masked_attention_mask.npy");
}

constexpr int kFrames = 16, kBins = 64, kOut = 16;

absl::Status LogEps(const std::string& dir) {
  std::mt19937 rng(20261205);
  OpModel m;
  const int x =
      m.Input(ir::DataType::kFloat32, {1, kFrames, kBins}, "magnitude");
  const int power =
      m.Tensor(ir::DataType::kFloat32, {1, kFrames, kBins}, "power");
  m.Op(ir::OpKind::kMul, {x, x}, {power}, ir::ActivationOptions{});
  const int eps = m.Constant<float>({1}, {1e-9f}, "epsilon");
  const int shifted =
      m.Tensor(ir::DataType::kFloat32, {1, kFrames, kBins}, "power_eps");
  m.Op(ir::OpKind::kAdd, {power, eps}, {shifted}, ir::AddSubOptions{});
  const int logp =
      m.Tensor(ir::DataType::kFloat32, {1, kFrames, kBins}, "log_power");
  m.Op(ir::OpKind::kLog, {shifted}, {logp});
  const int out = Fc(m, logp, kBins, kOut, rng, {1, kFrames, kOut}, "dense");
  m.model().subgraphs[0].outputs.push_back(out);
  RETURN_IF_ERROR(Write(m, dir + "/log_eps.tflite"));

  // |N(0, 100)| capped at 316, with a silent (all-zero) frame in every
  // fourth sample.
  ir::HostTensor xs(ir::DataType::kFloat32, {kSamples, kFrames, kBins});
  std::vector<float> v = Normal(rng, xs.NumElements(), 100.0f);
  auto flat = xs.Flat<float>();
  for (size_t i = 0; i < v.size(); ++i) {
    const int sample = static_cast<int>(i / (kFrames * kBins));
    const int frame = static_cast<int>(i / kBins) % kFrames;
    const bool silent = sample % 4 == 0 && frame == 0;
    flat[i] = silent ? 0.0f : std::min(std::fabs(v[i]), 316.0f);
  }
  return WriteNpy(xs, dir + "/log_eps_x.npy");
}

}  // namespace
}  // namespace qforge

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_pattern_models OUT_DIR\n");
    return 1;
  }
  const std::string dir = argv[1];
  for (absl::Status s : {qforge::MaskedAttention(dir), qforge::LogEps(dir)}) {
    if (!s.ok()) {
      std::fprintf(stderr, "make_pattern_models: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }
  return 0;
}
