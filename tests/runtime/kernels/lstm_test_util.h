// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// LSTM test support shared by sequence_lstm_test.cc (UNIDIRECTIONAL_SEQUENCE_
// LSTM) and sequence_lstm_step_test.cc (LSTM): an independent reference
// written in the most literal form, in double precision, straight from the
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
// ExpectClose's tolerance: |a - b| <= 1e-4 * max(1, |b|).
// Also: weights read from a model's LSTM op, and random synthetic LSTMs
// built and run as one-op models.
#ifndef QFORGE_TESTS_RUNTIME_KERNELS_LSTM_TEST_UTIL_H_
#define QFORGE_TESTS_RUNTIME_KERNELS_LSTM_TEST_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "tests/support/op_model.h"

namespace qforge::lstm_test {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

// Output values compared by ExpectClose (printed by the tests).
inline int g_values_checked = 0;

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

inline double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
inline double Clip(double v, double c) {
  return c > 0 ? std::max(-c, std::min(v, c)) : v;
}

// One gate's pre-activation for all cells.
inline std::vector<double> GatePre(const LstmWeights& w,
                                   const std::vector<float>& W,
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
inline std::vector<double> ReferenceLstm(const LstmWeights& w,
                                         const std::vector<float>& x, int B,
                                         int T) {
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

inline void ExpectClose(const std::vector<float>& got,
                        const std::vector<double>& want, double tol = 1e-4) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
        << "element " << i;
    ++g_values_checked;
  }
}

// ------------------------------------------------------ weights from files

inline std::vector<float> ConstantValues(const ir::Model& model,
                                         int32_t tensor) {
  if (tensor < 0) return {};
  const ir::Tensor& t = model.subgraphs[0].tensors[tensor];
  const ir::Bytes& data = model.buffers[t.buffer].data;
  std::vector<float> v(data.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), data.data(), data.size());
  return v;
}

inline LstmWeights WeightsOfOp(const ir::Model& model, const ir::Operator& op) {
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
  if (op.kind == ir::OpKind::kLstm) {
    const auto opts = ir::OptionsOr<ir::LstmOptions>(op.options);
    w.cell_clip = opts.cell_clip;
    w.proj_clip = opts.proj_clip;
  } else {
    const auto opts = ir::OptionsOr<ir::SequenceLstmOptions>(op.options);
    w.cell_clip = opts.cell_clip;
    w.proj_clip = opts.proj_clip;
  }
  return w;
}

inline std::vector<float> Random(size_t n, std::mt19937& rng,
                                 float scale = 0.5f) {
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

inline LstmWeights MakeWeights(const Variant& v, std::mt19937& rng) {
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
// runs it on x ([B][T][I], transposed for time_major). `single_step`: the
// LSTM op instead (T must be 1; input [B, I], output [B, O]).
inline absl::StatusOr<std::vector<float>> RunVariant(
    const Variant& v, const LstmWeights& w, const std::vector<float>& x,
    int threads, bool single_step = false,
    ir::Activation activation = ir::Activation::kTanh) {
  OpModel m;
  const std::vector<int32_t> in_shape =
      single_step    ? std::vector<int32_t>{v.B, v.I}
      : v.time_major ? std::vector<int32_t>{v.T, v.B, v.I}
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
  out_shape.back() = O;
  const int y = m.Output(ir::DataType::kFloat32, out_shape);
  // Both options tables name these fields alike.
  auto with_cell = [&](auto opts) {
    opts.activation = activation;
    opts.cell_clip = v.cell_clip;
    opts.proj_clip = v.proj_clip;
    return opts;
  };
  if (single_step) {
    m.Op(ir::OpKind::kLstm, ins, {y}, with_cell(ir::LstmOptions{}));
  } else {
    ir::SequenceLstmOptions opts = with_cell(ir::SequenceLstmOptions{});
    opts.time_major = v.time_major;
    m.Op(ir::OpKind::kUnidirectionalSequenceLstm, ins, {y}, opts);
  }
  std::vector<float> fed = x;
  if (v.time_major && !single_step) {
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
  if (v.time_major && !single_step) {  // back to [B][T][O]
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

// A random variant (input x in [-2, 2)) against the reference, with 1 and 4
// threads, which must agree bit for bit.
inline void CheckRandomVariant(const Variant& v, std::mt19937& rng,
                               bool single_step = false) {
  SCOPED_TRACE(v.name);
  const LstmWeights w = MakeWeights(v, rng);
  const std::vector<float> x =
      Random(static_cast<size_t>(v.B * v.T * v.I), rng, 2.f);
  const std::vector<double> want = ReferenceLstm(w, x, v.B, v.T);
  std::vector<float> first;
  for (int threads : {1, 4}) {
    auto got = RunVariant(v, w, x, threads, single_step);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectClose(*got, want);
    if (first.empty()) {
      first = *got;
    } else {
      EXPECT_EQ(first, *got) << "thread count changed the result";
    }
  }
}

}  // namespace qforge::lstm_test

#endif  // QFORGE_TESTS_RUNTIME_KERNELS_LSTM_TEST_UTIL_H_
