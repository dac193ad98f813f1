// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM against an independent reference written
// here in the most literal form, in double precision, straight from the
// LSTM equations (per batch row b, time t; x input, h output state, c cell
// state, all starting at 0):
//   i = sigmoid(Wi x + Ri h + pi.c + bi)     (CIFG: i = 1 - f)
//   f = sigmoid(Wf x + Rf h + pf.c + bf)
//   g = tanh(Wc x + Rc h + bc)
//   c = clip(f.c + i.g, cell_clip)
//   o = sigmoid(Wo x + Ro h + po.c + bo)     (c: the new cell state)
//   h = clip(P (o.tanh(c)) + pb, proj_clip)  (no projection: o.tanh(c))
// Layer-norm LSTMs replace "... + b" by LN(...) * ln + b, with
// LN(v) = (v - mean(v)) / sqrt(var(v) + 1e-8) over the cells.
// Tolerance: |a - b| <= 1e-4 * max(1, |b|).
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
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

int g_values_checked = 0;

// ------------------------------------------------------------- reference

struct LstmWeights {
  int n_input = 0, n_cell = 0, n_output = 0;
  std::vector<float> wi, wf, wc, wo;      // [N][I]; wi empty: CIFG
  std::vector<float> ri, rf, rc, ro;      // [N][O]
  std::vector<float> pi, pf, po;          // [N]; empty: no peephole
  std::vector<float> bi, bf, bc, bo;      // [N]
  std::vector<float> proj, proj_bias;     // [O][N], [O]; empty: none
  std::vector<float> lni, lnf, lnc, lno;  // [N]; empty: no layer norm
  double cell_clip = 0, proj_clip = 0;
};

double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
double Clip(double v, double c) {
  return c > 0 ? std::max(-c, std::min(v, c)) : v;
}

// One gate's pre-activation for all cells.
std::vector<double> GatePre(const LstmWeights& w, const std::vector<float>& W,
                            const std::vector<float>& R,
                            const std::vector<float>& peep,
                            const std::vector<float>& bias,
                            const std::vector<float>& ln, const float* x,
                            const std::vector<double>& h,
                            const std::vector<double>& c) {
  const int N = w.n_cell, I = w.n_input, O = w.n_output;
  std::vector<double> v(N);
  for (int j = 0; j < N; ++j) {
    double s = 0;
    for (int k = 0; k < I; ++k) s += static_cast<double>(W[j * I + k]) * x[k];
    for (int k = 0; k < O; ++k) s += static_cast<double>(R[j * O + k]) * h[k];
    if (!peep.empty()) s += static_cast<double>(peep[j]) * c[j];
    v[j] = s;
  }
  if (!ln.empty()) {
    double mean = 0, var = 0;
    for (double e : v) mean += e;
    mean /= N;
    for (double e : v) var += (e - mean) * (e - mean);
    var /= N;
    for (int j = 0; j < N; ++j) {
      v[j] = (v[j] - mean) / std::sqrt(var + 1e-8) * ln[j] + bias[j];
    }
  } else {
    for (int j = 0; j < N; ++j) v[j] += bias[j];
  }
  return v;
}

// x is [B][T][I] (batch major); returns [B][T][O].
std::vector<double> ReferenceLstm(const LstmWeights& w,
                                  const std::vector<float>& x, int B, int T) {
  const int N = w.n_cell, I = w.n_input, O = w.n_output;
  std::vector<double> out(static_cast<size_t>(B) * T * O);
  for (int b = 0; b < B; ++b) {
    std::vector<double> h(O, 0.0), c(N, 0.0);
    for (int t = 0; t < T; ++t) {
      const float* xt = x.data() + (static_cast<size_t>(b) * T + t) * I;
      const std::vector<double> f_pre =
          GatePre(w, w.wf, w.rf, w.pf, w.bf, w.lnf, xt, h, c);
      std::vector<double> i_pre;
      if (!w.wi.empty()) {
        i_pre = GatePre(w, w.wi, w.ri, w.pi, w.bi, w.lni, xt, h, c);
      }
      const std::vector<double> g_pre =
          GatePre(w, w.wc, w.rc, {}, w.bc, w.lnc, xt, h, c);
      for (int j = 0; j < N; ++j) {
        const double f = Sigmoid(f_pre[j]);
        const double i = w.wi.empty() ? 1.0 - f : Sigmoid(i_pre[j]);
        c[j] = Clip(f * c[j] + i * std::tanh(g_pre[j]), w.cell_clip);
      }
      const std::vector<double> o_pre =
          GatePre(w, w.wo, w.ro, w.po, w.bo, w.lno, xt, h, c);
      std::vector<double> m(N);
      for (int j = 0; j < N; ++j) m[j] = Sigmoid(o_pre[j]) * std::tanh(c[j]);
      if (!w.proj.empty()) {
        for (int k = 0; k < O; ++k) {
          double s = w.proj_bias.empty() ? 0.0 : w.proj_bias[k];
          for (int j = 0; j < N; ++j)
            s += static_cast<double>(w.proj[k * N + j]) * m[j];
          h[k] = Clip(s, w.proj_clip);
        }
      } else {
        h = m;
      }
      for (int k = 0; k < O; ++k) {
        out[(static_cast<size_t>(b) * T + t) * O + k] = h[k];
      }
    }
  }
  return out;
}

void ExpectClose(const std::vector<float>& got, const std::vector<double>& want,
                 double tol = 1e-4) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
        << "element " << i;
    ++g_values_checked;
  }
}

// ------------------------------------------------------ weights from files

std::vector<float> ConstantValues(const ir::Model& model, int32_t tensor) {
  if (tensor < 0) return {};
  const ir::Tensor& t = model.subgraphs[0].tensors[tensor];
  const std::vector<uint8_t>& data = model.buffers[t.buffer].data;
  std::vector<float> v(data.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), data.data(), data.size());
  return v;
}

LstmWeights WeightsOfOp(const ir::Model& model, const ir::Operator& op) {
  auto in = [&](int i) {
    return i < static_cast<int>(op.inputs.size()) ? op.inputs[i] : -1;
  };
  LstmWeights w;
  const ir::Tensor& wo = model.subgraphs[0].tensors[in(4)];
  const ir::Tensor& ro = model.subgraphs[0].tensors[in(8)];
  w.n_cell = wo.shape[0];
  w.n_input = wo.shape[1];
  w.n_output = ro.shape[1];
  std::vector<float>* slots[24] = {
      nullptr, &w.wi,        &w.wf,   &w.wc,   &w.wo,  &w.ri,  &w.rf,  &w.rc,
      &w.ro,   &w.pi,        &w.pf,   &w.po,   &w.bi,  &w.bf,  &w.bc,  &w.bo,
      &w.proj, &w.proj_bias, nullptr, nullptr, &w.lni, &w.lnf, &w.lnc, &w.lno};
  for (int i = 0; i < 24; ++i) {
    if (slots[i] != nullptr) *slots[i] = ConstantValues(model, in(i));
  }
  const auto opts = ir::OptionsOr<ir::SequenceLstmOptions>(op.options);
  w.cell_clip = opts.cell_clip;
  w.proj_clip = opts.proj_clip;
  return w;
}

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

std::vector<float> Random(size_t n, std::mt19937& rng, float scale = 0.5f) {
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (float& e : v) e = dist(rng);
  return v;
}

struct Variant {
  const char* name;
  bool cifg, peephole, projection, layer_norm, time_major;
  int B, T, I, N, O;
  float cell_clip, proj_clip;
};

LstmWeights MakeWeights(const Variant& v, std::mt19937& rng) {
  LstmWeights w;
  w.n_input = v.I;
  w.n_cell = v.N;
  w.n_output = v.O;
  const size_t NI = static_cast<size_t>(v.N * v.I);
  const size_t NO = static_cast<size_t>(v.N * v.O);
  const size_t N = static_cast<size_t>(v.N);
  if (!v.cifg) {
    w.wi = Random(NI, rng);
    w.ri = Random(NO, rng);
    w.bi = Random(N, rng);
  }
  w.wf = Random(NI, rng);
  w.wc = Random(NI, rng);
  w.wo = Random(NI, rng);
  w.rf = Random(NO, rng);
  w.rc = Random(NO, rng);
  w.ro = Random(NO, rng);
  w.bf = Random(N, rng);
  w.bc = Random(N, rng);
  w.bo = Random(N, rng);
  if (v.peephole) {
    if (!v.cifg) w.pi = Random(N, rng);
    w.pf = Random(N, rng);
    w.po = Random(N, rng);
  }
  if (v.projection) {
    w.proj = Random(static_cast<size_t>(v.O * v.N), rng);
    w.proj_bias = Random(static_cast<size_t>(v.O), rng);
  }
  if (v.layer_norm) {
    if (!v.cifg) w.lni = Random(N, rng, 1.5f);
    w.lnf = Random(N, rng, 1.5f);
    w.lnc = Random(N, rng, 1.5f);
    w.lno = Random(N, rng, 1.5f);
  }
  w.cell_clip = v.cell_clip;
  w.proj_clip = v.proj_clip;
  return w;
}

// Builds the op as a converter would (20 inputs without layer norm) and
// runs it on x ([B][T][I], transposed for time_major).
absl::StatusOr<std::vector<float>> RunVariant(const Variant& v,
                                              const LstmWeights& w,
                                              const std::vector<float>& x,
                                              int threads) {
  OpModel m;
  const std::vector<int32_t> in_shape =
      v.time_major ? std::vector<int32_t>{v.T, v.B, v.I}
                   : std::vector<int32_t>{v.B, v.T, v.I};
  const int input = m.Input(ir::DataType::kFloat32, in_shape);
  auto c = [&m](std::vector<int32_t> shape, const std::vector<float>& data) {
    return data.empty() ? -1 : m.Constant<float>(std::move(shape), data);
  };
  const int N = v.N, I = v.I, O = v.O;
  std::vector<int32_t> ins = {
      input,           c({N, I}, w.wi),   c({N, I}, w.wf),
      c({N, I}, w.wc), c({N, I}, w.wo),   c({N, O}, w.ri),
      c({N, O}, w.rf), c({N, O}, w.rc),   c({N, O}, w.ro),
      c({N}, w.pi),    c({N}, w.pf),      c({N}, w.po),
      c({N}, w.bi),    c({N}, w.bf),      c({N}, w.bc),
      c({N}, w.bo),    c({O, N}, w.proj), c({O}, w.proj_bias)};
  const int h = m.Tensor(ir::DataType::kFloat32, {v.B, O}, "output_state");
  const int cs = m.Tensor(ir::DataType::kFloat32, {v.B, N}, "cell_state");
  m.tensor(h).is_variable = true;
  m.tensor(cs).is_variable = true;
  ins.push_back(h);
  ins.push_back(cs);
  if (v.layer_norm) {
    ins.push_back(c({N}, w.lni));
    ins.push_back(c({N}, w.lnf));
    ins.push_back(c({N}, w.lnc));
    ins.push_back(c({N}, w.lno));
  }
  std::vector<int32_t> out_shape = in_shape;
  out_shape[2] = O;
  const int y = m.Output(ir::DataType::kFloat32, out_shape);
  ir::SequenceLstmOptions opts;
  opts.activation = ir::Activation::kTanh;
  opts.cell_clip = v.cell_clip;
  opts.proj_clip = v.proj_clip;
  opts.time_major = v.time_major;
  m.Op(ir::OpKind::kUnidirectionalSequenceLstm, ins, {y}, opts);
  std::vector<float> fed = x;
  if (v.time_major) {
    for (int b = 0; b < v.B; ++b) {
      for (int t = 0; t < v.T; ++t) {
        std::copy_n(x.begin() + (b * v.T + t) * I, I,
                    fed.begin() + (t * v.B + b) * I);
      }
    }
  }
  auto out = m.Run({MakeTensor<float>({in_shape.begin(), in_shape.end()}, fed)},
                   threads);
  if (!out.ok()) return out.status();
  std::vector<float> got = Values<float>((*out)[0]);
  if (v.time_major) {  // back to [B][T][O]
    std::vector<float> bm(got.size());
    for (int b = 0; b < v.B; ++b) {
      for (int t = 0; t < v.T; ++t) {
        std::copy_n(got.begin() + (t * v.B + b) * O, O,
                    bm.begin() + (b * v.T + t) * O);
      }
    }
    got = bm;
  }
  return got;
}

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
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.name);
    const LstmWeights w = MakeWeights(v, rng);
    const std::vector<float> x =
        Random(static_cast<size_t>(v.B * v.T * v.I), rng, 2.f);
    const std::vector<double> want = ReferenceLstm(w, x, v.B, v.T);
    std::vector<float> first;
    for (int threads : {1, 4}) {
      auto got = RunVariant(v, w, x, threads);
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectClose(*got, want);
      if (first.empty()) {
        first = *got;
      } else {
        EXPECT_EQ(first, *got) << "thread count changed the result";
      }
    }
  }
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
              g_values_checked);
}

}  // namespace
}  // namespace qforge
