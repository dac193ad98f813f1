// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes a SYNTHETIC transformer decoder block (random weights, not a
// trained model) with a few outlier input channels, as large language
// models show after their LayerNorms (Dettmers et al. 2022, "LLM.int8()";
// Xiao et al. 2022, "SmoothQuant"), and calibration / evaluation inputs
// for it. Used by bench/weights/rounding.sh to show what activation-aware
// scaling (--awq) does.
//
//   x [T, D] -> LN1 -> Q, K, V (FULLY_CONNECTED) -> softmax(Q K^T / sqrt(D))
//   V -> FULLY_CONNECTED -> + x = h -> LN2 -> FULLY_CONNECTED (D -> 4D,
//   RELU) -> FULLY_CONNECTED (4D -> D) -> + h
//
// One head, no causal mask. Each LayerNorm is MEAN, SUB, MUL, MEAN, ADD,
// RSQRT, MUL, then MUL by gamma and ADD of beta, as converters lower it.
// The outliers: gamma is 1 + N(0, 0.1) except on kOutliers channels (the
// same for both LayerNorms), where it is 20, so those channels of the
// projections' inputs are about 20 times larger than the others on every
// token. Weights are N(0, 1/fan_in), biases and beta N(0, 0.02); inputs
// are N(0, 1). A fixed seed: the same files on every run and machine.
//
//   make_decoder_block OUT.tflite CALIB.npy EVAL.npy
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "formats/tflite_writer.h"
#include "ir/model.h"
#include "ir/options.h"

namespace {

using qforge::ir::DataType;
using qforge::ir::OpKind;

constexpr int kTokens = 32, kDim = 64, kHidden = 256, kOutliers = 4;
constexpr int kCalib = 32, kEval = 32;

class Builder {
 public:
  Builder() {
    model_.buffers.emplace_back();
    model_.subgraphs.emplace_back();
  }
  int Tensor(std::vector<int32_t> shape, const std::string& name) {
    qforge::ir::Tensor t;
    t.type = DataType::kFloat32;
    t.shape = std::move(shape);
    t.name = name;
    sg().tensors.push_back(std::move(t));
    return static_cast<int>(sg().tensors.size() - 1);
  }
  int Constant(std::vector<int32_t> shape, std::vector<float> values,
               const std::string& name, DataType type = DataType::kFloat32) {
    const int t = Tensor(std::move(shape), name);
    sg().tensors[t].type = type;
    model_.buffers.push_back(
        qforge::ir::Buffer{qforge::ir::Bytes::Adopt(std::move(values)), false});
    sg().tensors[t].buffer = static_cast<uint32_t>(model_.buffers.size() - 1);
    return t;
  }
  int Axis() {
    std::vector<int32_t> v = {-1};
    const int t = Tensor({1}, "axis" + std::to_string(sg().tensors.size()));
    sg().tensors[t].type = DataType::kInt32;
    model_.buffers.push_back(
        qforge::ir::Buffer{qforge::ir::Bytes::Adopt(std::move(v)), false});
    sg().tensors[t].buffer = static_cast<uint32_t>(model_.buffers.size() - 1);
    return t;
  }
  int Op(OpKind kind, std::vector<int32_t> in, std::vector<int32_t> shape,
         const std::string& name, qforge::ir::Options options = {}) {
    const int out = Tensor(std::move(shape), name);
    qforge::ir::Operator op;
    op.kind = kind;
    op.builtin_code = qforge::ir::GetOpInfo(kind).builtin_code;
    op.inputs = std::move(in);
    op.outputs = {out};
    op.options = std::move(options);
    sg().operators.push_back(std::move(op));
    return out;
  }
  qforge::ir::Subgraph& sg() { return model_.subgraphs[0]; }
  qforge::ir::Model& model() { return model_; }

 private:
  qforge::ir::Model model_;
};

std::vector<float> Normal(std::mt19937& rng, size_t n, float stddev) {
  std::normal_distribution<float> d(0.0f, stddev);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

int LayerNorm(Builder& b, int x, const std::vector<float>& gamma,
              std::mt19937& rng, const std::string& name) {
  qforge::ir::ReducerOptions keep;
  keep.keep_dims = true;
  const std::vector<int32_t> row = {kTokens, 1}, full = {kTokens, kDim};
  const int mean =
      b.Op(OpKind::kMean, {x, b.Axis()}, row, name + "/mean", keep);
  const int centred = b.Op(
      OpKind::kSub, {x, mean}, full, name + "/centred",
      qforge::ir::AddSubOptions{qforge::ir::Activation::kNone, true, true});
  const int square = b.Op(OpKind::kMul, {centred, centred}, full,
                          name + "/square", qforge::ir::ActivationOptions{});
  const int var =
      b.Op(OpKind::kMean, {square, b.Axis()}, row, name + "/var", keep);
  const int eps = b.Constant({1}, {1e-5f}, name + "/eps");
  const int var_eps = b.Op(OpKind::kAdd, {var, eps}, row, name + "/var_eps",
                           qforge::ir::AddSubOptions{});
  const int inv = b.Op(OpKind::kRsqrt, {var_eps}, row, name + "/rsqrt");
  const int norm = b.Op(OpKind::kMul, {centred, inv}, full, name + "/norm",
                        qforge::ir::ActivationOptions{});
  const int g = b.Constant({kDim}, gamma, name + "/gamma");
  const int scaled = b.Op(OpKind::kMul, {norm, g}, full, name + "/scaled",
                          qforge::ir::ActivationOptions{});
  const int beta = b.Constant({kDim}, Normal(rng, kDim, 0.02f), name + "/beta");
  return b.Op(OpKind::kAdd, {scaled, beta}, full, name + "/out",
              qforge::ir::AddSubOptions{});
}

int Dense(Builder& b, int x, int in, int out, std::mt19937& rng,
          const std::string& name,
          qforge::ir::Activation act = qforge::ir::Activation::kNone) {
  const int w = b.Constant({out, in},
                           Normal(rng, static_cast<size_t>(out) * in,
                                  1.0f / std::sqrt(static_cast<float>(in))),
                           name + "/weights");
  const int bias = b.Constant({out}, Normal(rng, out, 0.02f), name + "/bias");
  qforge::ir::FullyConnectedOptions o;
  o.activation = act;
  return b.Op(OpKind::kFullyConnected, {x, w, bias}, {kTokens, out}, name, o);
}

bool WriteNpy(const char* path, int n, std::mt19937& rng) {
  char dict[128];
  std::snprintf(dict, sizeof dict,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d, "
                "%d), }",
                n, kTokens, kDim);
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  FILE* f = std::fopen(path, "wb");
  if (f == nullptr) return false;
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  std::fwrite(magic, 1, 8, f);
  const uint16_t len = static_cast<uint16_t>(header.size());
  const unsigned char len_bytes[2] = {static_cast<unsigned char>(len & 0xff),
                                      static_cast<unsigned char>(len >> 8)};
  std::fwrite(len_bytes, 1, 2, f);
  std::fwrite(header.data(), 1, header.size(), f);
  const std::vector<float> v =
      Normal(rng, static_cast<size_t>(n) * kTokens * kDim, 1.0f);
  std::fwrite(v.data(), sizeof(float), v.size(), f);
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr,
                 "usage: make_decoder_block OUT.tflite CALIB.npy "
                 "EVAL.npy\n");
    return 2;
  }
  std::mt19937 rng(2026);
  std::vector<float> gamma = Normal(rng, kDim, 0.1f);
  for (float& g : gamma) g += 1.0f;
  // Spread-out fixed outlier channels.
  for (int i = 0; i < kOutliers; ++i) gamma[(i * 37 + 5) % kDim] = 20.0f;
  Builder b;
  const int x = b.Tensor({kTokens, kDim}, "x");
  b.sg().inputs.push_back(x);
  const int ln1 = LayerNorm(b, x, gamma, rng, "ln1");
  const int q = Dense(b, ln1, kDim, kDim, rng, "attn/q");
  const int k = Dense(b, ln1, kDim, kDim, rng, "attn/k");
  const int v = Dense(b, ln1, kDim, kDim, rng, "attn/v");
  qforge::ir::BatchMatMulOptions qk;
  qk.adj_y = true;
  const int scores =
      b.Op(OpKind::kBatchMatMul, {q, k}, {kTokens, kTokens}, "attn/qk", qk);
  const int temp =
      b.Constant({1}, {1.0f / std::sqrt(static_cast<float>(kDim))}, "attn/t");
  const int scaled = b.Op(OpKind::kMul, {scores, temp}, {kTokens, kTokens},
                          "attn/scaled", qforge::ir::ActivationOptions{});
  qforge::ir::SoftmaxOptions sm;
  sm.beta = 1.0f;
  const int probs =
      b.Op(OpKind::kSoftmax, {scaled}, {kTokens, kTokens}, "attn/probs", sm);
  const int mixed = b.Op(OpKind::kBatchMatMul, {probs, v}, {kTokens, kDim},
                         "attn/mixed", qforge::ir::BatchMatMulOptions{});
  const int o = Dense(b, mixed, kDim, kDim, rng, "attn/out");
  const int h = b.Op(OpKind::kAdd, {x, o}, {kTokens, kDim}, "residual1",
                     qforge::ir::AddSubOptions{});
  const int ln2 = LayerNorm(b, h, gamma, rng, "ln2");
  const int up = Dense(b, ln2, kDim, kHidden, rng, "mlp/up",
                       qforge::ir::Activation::kRelu);
  const int down = Dense(b, up, kHidden, kDim, rng, "mlp/down");
  const int y = b.Op(OpKind::kAdd, {h, down}, {kTokens, kDim}, "y",
                     qforge::ir::AddSubOptions{});
  b.sg().outputs.push_back(y);
  absl::Status s = qforge::formats::WriteTfliteFile(b.model(), argv[1]);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  std::mt19937 data_rng(7);
  if (!WriteNpy(argv[2], kCalib, data_rng) ||
      !WriteNpy(argv[3], kEval, data_rng)) {
    std::fprintf(stderr, "cannot write the samples\n");
    return 1;
  }
  return 0;
}
