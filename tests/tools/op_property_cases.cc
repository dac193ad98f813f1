// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Property cases for the quantizer's legality (tests/interop/
// op_property_litert.mjs runs them in LiteRT): single-op float models of
// every op kind the quantizer quantizes, with random shapes, weights and
// calibration ranges across 40 orders of magnitude, tiny and huge
// constants, zero-width ranges and float sentinels (+/-3.4e38). Each case
// is quantized by qforge (int8 or int16x8, integer model inputs and
// outputs) and run by qforge's interpreter on random integer inputs.
//
//   op_property_cases OUT_DIR --scheme int8|int16x8 --cases N [--seed S]
//
// Writes OUT_DIR/NNNNN.tflite, NNNNN_in_K.npy, NNNNN_out_K.npy (qforge's
// outputs) and OUT_DIR/manifest.jsonl, one JSON line per case:
//   {"case":"00012","op":"ADD","scheme":"int8","status":"ok"|"refused",
//    "kept_float":[...], "detail":"..."}
// "refused": the quantizer or qforge's own interpreter refused the case
// (the reason is in "detail"); the runner counts those and fails on any
// that is not a named legality refusal. Exit 0 unless a case could not be
// written at all.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file_io.h"
#include "base/status_macros.h"
#include "calibration/stats_file.h"
#include "formats/data/npy.h"
#include "formats/tflite_writer.h"
#include "nlohmann/json.hpp"
#include "quantizer/quantize.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"

namespace qforge {
namespace {

using testing::OpModel;
using F = ir::DataType;
constexpr F kF32 = ir::DataType::kFloat32;

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  std::mt19937& rng() { return rng_; }
  double U(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  int I(int lo, int hi) {  // inclusive
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool P(double p) { return U(0, 1) < p; }
  // A magnitude across 40 orders: 10^U(-20, 20).
  float Mag() { return static_cast<float>(std::pow(10.0, U(-20, 20))); }

  // A calibration range: ordinary ranges at any magnitude, one-sided,
  // zero-width, sentinel-bounded and huge ones.
  std::pair<float, float> Range() {
    constexpr float kLowest = std::numeric_limits<float>::lowest();
    constexpr float kMax = std::numeric_limits<float>::max();
    const float m = Mag();
    switch (I(0, 9)) {
      case 0:
        return {0.0f, m};
      case 1:
        return {-m, 0.0f};
      case 2: {
        const float c = P(0.5) ? 0.0f : static_cast<float>(U(-1, 1)) * m;
        return {c, c};
      }
      case 3:
        return {kLowest, P(0.5) ? 0.0f : m};  // masks: lowest() where padded
      case 4:
        return {P(0.5) ? -m : 0.0f, kMax};
      case 5: {
        const float h = static_cast<float>(std::pow(10.0, U(30, 38.5)));
        return {-h, h};
      }
      case 6: {  // offset range, not containing 0
        const float a = static_cast<float>(U(0.5, 4)) * m;
        return P(0.5) ? std::pair<float, float>{a, 2 * a}
                      : std::pair<float, float>{-2 * a, -a};
      }
      default: {
        const float lo = -static_cast<float>(U(0, 1)) * m;
        const float hi = static_cast<float>(U(0, 1)) * m;
        return {lo, std::max(hi, lo)};
      }
    }
  }

  // Constant values: N(0, 1) x magnitude, sometimes with a zero channel,
  // one huge value, or all equal.
  std::vector<float> Values(size_t n) {
    std::normal_distribution<float> d(0.0f, 1.0f);
    const float m = Mag();
    std::vector<float> v(n);
    for (float& x : v) x = d(rng_) * m;
    const int style = I(0, 7);
    if (style == 0 && n > 0) v[I(0, static_cast<int>(n) - 1)] = 3e38f;
    if (style == 1) {
      const float c = d(rng_) * m;
      for (float& x : v) x = c;
    }
    if (style == 2) {
      for (size_t i = 0; i < n / 2; ++i) v[i] = 0.0f;
    }
    return v;
  }

 private:
  std::mt19937 rng_;
};

// A single-op float model; `act` lists its non-constant float tensors.
struct Case {
  std::string op;
  OpModel m;
};

std::vector<int32_t> Shape4(Gen& g) {
  return {1, g.I(1, 6), g.I(1, 6), g.I(1, 5)};
}

int In(OpModel& m, std::vector<int32_t> shape) {
  return m.Input(kF32, std::move(shape));
}
int Out(OpModel& m, std::vector<int32_t> shape) {
  return m.Output(kF32, std::move(shape));
}
int Const(Gen& g, OpModel& m, std::vector<int32_t> shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= d;
  return m.Constant<float>(std::move(shape), g.Values(n));
}
int Ints(OpModel& m, std::vector<int32_t> values) {
  return m.Constant<int32_t>({static_cast<int32_t>(values.size())}, values);
}

ir::Activation Act(Gen& g) {
  switch (g.I(0, 5)) {
    case 0:
      return ir::Activation::kRelu;
    case 1:
      return ir::Activation::kRelu6;
    case 2:
      return ir::Activation::kReluN1To1;
    default:
      return ir::Activation::kNone;
  }
}

void Unary(Gen& g, Case& c, ir::OpKind kind, ir::Options options = {}) {
  std::vector<int32_t> s =
      g.P(0.5) ? Shape4(g) : std::vector<int32_t>{1, g.I(1, 40)};
  const int x = In(c.m, s);
  c.m.Op(kind, {x}, {Out(c.m, s)}, std::move(options));
}

// ADD / SUB / MUL / MAXIMUM / MINIMUM: the second operand is an activation
// or a constant (often a scalar: epsilons, masks, scale factors).
void Binary(Gen& g, Case& c, ir::OpKind kind, ir::Options options) {
  const std::vector<int32_t> s = Shape4(g);
  const int a = In(c.m, s);
  int b;
  if (g.P(0.5)) {
    b = In(c.m, g.P(0.3) ? std::vector<int32_t>{1, 1, 1, s[3]} : s);
  } else if (g.P(0.5)) {
    const float eps = static_cast<float>(std::pow(10.0, g.U(-12, -4)));
    const float v = g.P(0.7) ? eps : (g.P(0.5) ? -3.4e38f : g.Mag());
    b = c.m.Constant<float>({1}, {v});
  } else {
    b = Const(g, c.m, {s[3]});
  }
  const int y = Out(c.m, s);
  c.m.Op(kind,
         g.P(0.5) ? std::vector<int32_t>{a, b} : std::vector<int32_t>{b, a},
         {y}, std::move(options));
}

// Conv inputs {x, w} or {x, w, b}.
std::vector<int32_t> Operands(int x, int w, int b) {
  if (b < 0) return {x, w};
  return {x, w, b};
}

void Conv(Gen& g, Case& c, bool depthwise) {
  const int h = g.I(1, 6), w = g.I(1, 6), ci = g.I(1, 4);
  const int kh = g.I(1, 3), kw = g.I(1, 3);
  const int x = In(c.m, {1, h, w, ci});
  const bool valid = g.P(0.5) && kh <= h && kw <= w;
  const int oh = valid ? h - kh + 1 : h, ow = valid ? w - kw + 1 : w;
  const ir::Padding pad = valid ? ir::Padding::kValid : ir::Padding::kSame;
  if (depthwise) {
    const int mult = g.I(1, 2);
    const int co = ci * mult;
    const int wt = Const(g, c.m, {1, kh, kw, co});
    const int b = g.P(0.8) ? Const(g, c.m, {co}) : -1;
    ir::DepthwiseConv2DOptions o;
    o.padding = pad;
    o.stride_w = o.stride_h = 1;
    o.depth_multiplier = mult;
    o.activation = Act(g);
    // No bias: two inputs. LiteRT's float kernels refuse a -1 bias
    // ("optional but was expected"), so a conv kept float would fail.
    c.m.Op(ir::OpKind::kDepthwiseConv2D, Operands(x, wt, b),
           {Out(c.m, {1, oh, ow, co})}, o);
  } else {
    const int co = g.I(1, 5);
    const int wt = Const(g, c.m, {co, kh, kw, ci});
    // LiteRT's float CONV_2D requires a bias (conv.cc: has_bias), and a
    // conv kept float stays float.
    const int b = Const(g, c.m, {co});
    ir::Conv2DOptions o;
    o.padding = pad;
    o.stride_w = o.stride_h = 1;
    o.activation = Act(g);
    c.m.Op(ir::OpKind::kConv2D, Operands(x, wt, b), {Out(c.m, {1, oh, ow, co})},
           o);
  }
}

void FullyConnected(Gen& g, Case& c) {
  const int n = g.I(1, 16), k = g.I(1, 8);
  const int x = In(c.m, {1, n});
  const int w = Const(g, c.m, {k, n});
  const int b = g.P(0.8) ? Const(g, c.m, {k}) : -1;
  ir::FullyConnectedOptions o;
  o.activation = Act(g);
  c.m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {Out(c.m, {1, k})}, o);
}

void TransposeConv(Gen& g, Case& c) {
  const int h = g.I(1, 4), w = g.I(1, 4), ci = g.I(1, 3), co = g.I(1, 3);
  const int k = g.I(1, 3), stride = g.I(1, 2);
  const int oh = h * stride, ow = w * stride;
  const int shape = Ints(c.m, {1, oh, ow, co});
  const int wt = Const(g, c.m, {co, k, k, ci});
  const int x = In(c.m, {1, h, w, ci});
  const int b = g.P(0.5) ? Const(g, c.m, {co}) : -1;
  ir::TransposeConvOptions o;
  o.padding = ir::Padding::kSame;
  o.stride_w = o.stride_h = stride;
  c.m.Op(ir::OpKind::kTransposeConv, {shape, wt, x, b},
         {Out(c.m, {1, oh, ow, co})}, o);
}

void BatchMatMul(Gen& g, Case& c) {
  const int m = g.I(1, 5), k = g.I(1, 6), n = g.I(1, 5);
  const int a = In(c.m, {1, m, k});
  const int b = g.P(0.5) ? In(c.m, {1, k, n}) : Const(g, c.m, {1, k, n});
  c.m.Op(ir::OpKind::kBatchMatMul, {a, b}, {Out(c.m, {1, m, n})},
         ir::BatchMatMulOptions{});
}

void Pool(Gen& g, Case& c, ir::OpKind kind) {
  const int h = g.I(1, 6), w = g.I(1, 6), ch = g.I(1, 4);
  const int f = g.I(1, std::min(3, std::min(h, w)));
  const int x = In(c.m, {1, h, w, ch});
  ir::Pool2DOptions o;
  o.padding = ir::Padding::kValid;
  o.stride_w = o.stride_h = 1;
  o.filter_width = o.filter_height = f;
  o.activation = Act(g);
  c.m.Op(kind, {x}, {Out(c.m, {1, h - f + 1, w - f + 1, ch})}, o);
}

void Mean(Gen& g, Case& c) {
  const std::vector<int32_t> s = Shape4(g);
  const int x = In(c.m, s);
  ir::ReducerOptions o;
  o.keep_dims = true;
  c.m.Op(ir::OpKind::kMean, {x, Ints(c.m, {1, 2})}, {Out(c.m, {1, 1, 1, s[3]})},
         o);
}

void Concat(Gen& g, Case& c, bool pack) {
  const int n = g.I(2, 3);
  const std::vector<int32_t> s = {1, g.I(1, 4), g.I(1, 4)};
  std::vector<int32_t> ins;
  for (int i = 0; i < n; ++i) {
    ins.push_back(g.P(0.8) ? In(c.m, s) : Const(g, c.m, s));
  }
  if (pack) {
    ir::PackOptions o;
    o.values_count = n;
    o.axis = 0;
    c.m.Op(ir::OpKind::kPack, ins, {Out(c.m, {n, 1, s[1], s[2]})}, o);
  } else {
    ir::ConcatenationOptions o;
    o.axis = 2;
    c.m.Op(ir::OpKind::kConcatenation, ins, {Out(c.m, {1, s[1], s[2] * n})}, o);
  }
}

void Movement(Gen& g, Case& c, ir::OpKind kind) {
  const int a = g.I(1, 4), b = g.I(1, 4), d = g.I(1, 4);
  switch (kind) {
    case ir::OpKind::kReshape: {
      const int x = In(c.m, {1, a, b, d});
      ir::ReshapeOptions o;
      o.new_shape = {1, a * b * d};
      c.m.Op(kind, {x, Ints(c.m, {1, a * b * d})}, {Out(c.m, {1, a * b * d})},
             o);
      return;
    }
    case ir::OpKind::kTranspose: {
      const int x = In(c.m, {1, a, b, d});
      c.m.Op(kind, {x, Ints(c.m, {0, 3, 1, 2})}, {Out(c.m, {1, d, a, b})});
      return;
    }
    case ir::OpKind::kPad: {
      const int x = In(c.m, {1, a, b, d});
      const int pads = c.m.Constant<int32_t>({4, 2}, {0, 0, 1, 1, 0, 2, 0, 0});
      c.m.Op(kind, {x, pads}, {Out(c.m, {1, a + 2, b + 2, d})});
      return;
    }
    case ir::OpKind::kSlice: {
      const int x = In(c.m, {1, a + 1, b, d});
      c.m.Op(kind, {x, Ints(c.m, {0, 1, 0, 0}), Ints(c.m, {1, a, b, d})},
             {Out(c.m, {1, a, b, d})});
      return;
    }
    case ir::OpKind::kGather: {
      const int x = In(c.m, {a + 1, b});
      ir::GatherOptions o;
      o.axis = 0;
      c.m.Op(kind, {x, Ints(c.m, {a, 0})}, {Out(c.m, {2, b})}, o);
      return;
    }
    case ir::OpKind::kSpaceToDepth: {
      const int x = In(c.m, {1, 2 * a, 2 * b, d});
      ir::BlockSizeOptions o;
      o.block_size = 2;
      o.is_space_to_depth = true;
      c.m.Op(kind, {x}, {Out(c.m, {1, a, b, 4 * d})}, o);
      return;
    }
    case ir::OpKind::kMatrixSetDiag: {
      // d matrices of a x b; the diagonal an activation or a constant.
      const int x = In(c.m, {d, a, b});
      const std::vector<int32_t> ds = {d, std::min(a, b)};
      const int diag = g.P(0.7) ? In(c.m, ds) : Const(g, c.m, ds);
      c.m.Op(kind, {x, diag}, {Out(c.m, {d, a, b})});
      return;
    }
    case ir::OpKind::kResizeBilinear:
    case ir::OpKind::kResizeNearestNeighbor: {
      const int x = In(c.m, {1, a, b, d});
      ir::ResizeOptions o;
      o.is_nearest = kind == ir::OpKind::kResizeNearestNeighbor;
      o.half_pixel_centers = g.P(0.5);
      c.m.Op(kind, {x, Ints(c.m, {2 * a, 2 * b})},
             {Out(c.m, {1, 2 * a, 2 * b, d})}, o);
      return;
    }
    default:
      return;
  }
}

using Builder = std::function<void(Gen&, Case&)>;

struct OpRow {
  const char* name;
  Builder build;
};

std::vector<OpRow> Rows() {
  using K = ir::OpKind;
  auto unary = [](K k) { return [k](Gen& g, Case& c) { Unary(g, c, k); }; };
  auto movement = [](K k) {
    return [k](Gen& g, Case& c) { Movement(g, c, k); };
  };
  return {
      {"CONV_2D", [](Gen& g, Case& c) { Conv(g, c, false); }},
      {"DEPTHWISE_CONV_2D", [](Gen& g, Case& c) { Conv(g, c, true); }},
      {"FULLY_CONNECTED", FullyConnected},
      {"TRANSPOSE_CONV", TransposeConv},
      {"BATCH_MATMUL", BatchMatMul},
      {"ADD",
       [](Gen& g, Case& c) {
         Binary(g, c, K::kAdd, ir::AddSubOptions{Act(g), true, false});
       }},
      {"SUB",
       [](Gen& g, Case& c) {
         Binary(g, c, K::kSub, ir::AddSubOptions{Act(g), true, true});
       }},
      {"MUL",
       [](Gen& g, Case& c) {
         ir::ActivationOptions o;
         o.activation = Act(g);
         Binary(g, c, K::kMul, o);
       }},
      {"MAXIMUM", [](Gen& g, Case& c) { Binary(g, c, K::kMaximum, {}); }},
      {"MINIMUM", [](Gen& g, Case& c) { Binary(g, c, K::kMinimum, {}); }},
      {"MEAN", Mean},
      {"RELU", unary(K::kRelu)},
      {"RELU6", unary(K::kRelu6)},
      {"RELU_N1_TO_1", unary(K::kReluN1To1)},
      {"HARD_SWISH", unary(K::kHardSwish)},
      {"LEAKY_RELU",
       [](Gen& g, Case& c) {
         ir::LeakyReluOptions o;
         o.alpha = static_cast<float>(g.U(0.0, 1.0));
         Unary(g, c, K::kLeakyRelu, o);
       }},
      {"RSQRT", unary(K::kRsqrt)},
      {"LOGISTIC", unary(K::kLogistic)},
      {"TANH", unary(K::kTanh)},
      {"SOFTMAX",
       [](Gen& g, Case& c) {
         ir::SoftmaxOptions o;
         o.beta = static_cast<float>(std::pow(10.0, g.U(-2, 2)));
         Unary(g, c, K::kSoftmax, o);
       }},
      {"AVERAGE_POOL_2D",
       [](Gen& g, Case& c) { Pool(g, c, K::kAveragePool2D); }},
      {"MAX_POOL_2D", [](Gen& g, Case& c) { Pool(g, c, K::kMaxPool2D); }},
      {"CONCATENATION", [](Gen& g, Case& c) { Concat(g, c, false); }},
      {"PACK", [](Gen& g, Case& c) { Concat(g, c, true); }},
      {"RESHAPE", movement(K::kReshape)},
      {"TRANSPOSE", movement(K::kTranspose)},
      {"PAD", movement(K::kPad)},
      {"SLICE", movement(K::kSlice)},
      {"GATHER", movement(K::kGather)},
      {"SPACE_TO_DEPTH", movement(K::kSpaceToDepth)},
      {"RESIZE_BILINEAR", movement(K::kResizeBilinear)},
      {"RESIZE_NEAREST_NEIGHBOR", movement(K::kResizeNearestNeighbor)},
      {"MATRIX_SET_DIAG", movement(K::kMatrixSetDiag)},
  };
}

// Calibration statistics with a random range for every non-constant float
// tensor of subgraph 0.
calibration::StatsFile RandomStats(Gen& g, const ir::Model& model) {
  calibration::StatsFile stats;
  stats.samples = 1;
  const ir::Subgraph& sg = model.subgraphs[0];
  for (size_t t = 0; t < sg.tensors.size(); ++t) {
    const ir::Tensor& tensor = sg.tensors[t];
    const bool constant =
        tensor.buffer != 0 && !model.buffers[tensor.buffer].data.empty();
    if (tensor.type != kF32 || constant) continue;
    calibration::TensorStats s;
    s.subgraph = 0;
    s.tensor = static_cast<int>(t);
    s.name = tensor.name;
    s.count = 1;
    const auto [lo, hi] = g.Range();
    s.min = lo;
    s.max = hi;
    stats.tensors.push_back(std::move(s));
  }
  return stats;
}

// Random inputs of the quantized model's input types.
std::vector<ir::HostTensor> RandomInputs(Gen& g, const ir::Model& model) {
  const ir::Subgraph& sg = model.subgraphs[0];
  std::vector<ir::HostTensor> out;
  for (int32_t in : sg.inputs) {
    const ir::Tensor& t = sg.tensors[in];
    std::vector<int64_t> shape(t.shape.begin(), t.shape.end());
    ir::HostTensor h(t.type, shape);
    switch (t.type) {
      case ir::DataType::kInt8:
        for (int8_t& v : h.Flat<int8_t>())
          v = static_cast<int8_t>(g.I(-128, 127));
        break;
      case ir::DataType::kInt16:
        for (int16_t& v : h.Flat<int16_t>())
          v = static_cast<int16_t>(g.I(-32768, 32767));
        break;
      default:  // float32: an input the quantizer left float
        for (float& v : h.Flat<float>()) v = static_cast<float>(g.U(-4, 4));
        break;
    }
    out.push_back(std::move(h));
  }
  return out;
}

absl::Status WriteNpy(const ir::HostTensor& t, const std::string& path) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, formats::WriteNpy(t));
  return WriteFileAtomic(path, absl::Span<const uint8_t>(bytes));
}

absl::StatusOr<nlohmann::json> OneCase(Gen& g, const OpRow& row,
                                       quantizer::Scheme scheme,
                                       const std::string& dir,
                                       const std::string& id) {
  Case c;
  c.op = row.name;
  row.build(g, c);
  nlohmann::json line = {{"case", id},
                         {"op", row.name},
                         {"scheme", quantizer::SchemeName(scheme)}};
  const calibration::StatsFile stats = RandomStats(g, c.m.model());
  nlohmann::json ranges = nlohmann::json::array();
  for (const calibration::TensorStats& s : stats.tensors) {
    ranges.push_back({s.name, s.min, s.max});
  }
  line["ranges"] = ranges;
  quantizer::QuantizeOptions options;
  options.scheme = scheme;
  const ir::DataType q = scheme == quantizer::Scheme::kInt16x8
                             ? ir::DataType::kInt16
                             : ir::DataType::kInt8;
  options.input_type = q;
  options.output_type = q;
  absl::StatusOr<quantizer::QuantizeResult> r =
      quantizer::Quantize(c.m.model(), &stats, options);
  if (!r.ok()) {
    line["status"] = "refused";
    line["detail"] = absl::StrCat("quantize: ", r.status().message());
    return line;
  }
  nlohmann::json kept = nlohmann::json::array();
  for (const quantizer::KeptFloat& k : r->kept_float) {
    kept.push_back(absl::StrCat(k.op_name, ": ", k.reason));
  }
  line["kept_float"] = kept;
  const std::vector<ir::HostTensor> inputs = RandomInputs(g, r->model);
  runtime::InterpreterOptions io;
  io.threads = 1;
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> interp =
      runtime::Interpreter::Create(r->model, io);
  absl::Status run = interp.ok() ? (*interp)->Run(inputs) : interp.status();
  RETURN_IF_ERROR(
      formats::WriteTfliteFile(r->model, dir + "/" + id + ".tflite", {}));
  for (size_t k = 0; k < inputs.size(); ++k) {
    RETURN_IF_ERROR(
        WriteNpy(inputs[k], absl::StrCat(dir, "/", id, "_in_", k, ".npy")));
  }
  if (!run.ok()) {
    line["status"] = "refused";
    line["detail"] = absl::StrCat("qforge run: ", run.message());
    return line;
  }
  for (int k = 0; k < (*interp)->num_outputs(); ++k) {
    RETURN_IF_ERROR(WriteNpy((*interp)->OutputHost(k),
                             absl::StrCat(dir, "/", id, "_out_", k, ".npy")));
  }
  line["status"] = "ok";
  return line;
}

}  // namespace
}  // namespace qforge

int main(int argc, char** argv) {
  using namespace qforge;
  std::string dir, scheme_name = "int8";
  int cases = 100;
  uint32_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--scheme" && has_value) {
      scheme_name = argv[++i];
    } else if (a == "--cases" && has_value) {
      cases = std::atoi(argv[++i]);
    } else if (a == "--seed" && has_value) {
      seed = static_cast<uint32_t>(std::atoll(argv[++i]));
    } else if (dir.empty() && a[0] != '-') {
      dir = a;
    } else {
      std::fprintf(stderr,
                   "usage: op_property_cases OUT_DIR --scheme int8|int16x8 "
                   "--cases N [--seed S]\n");
      return 1;
    }
  }
  absl::StatusOr<quantizer::Scheme> scheme =
      quantizer::ParseScheme(scheme_name);
  if (dir.empty() || !scheme.ok() || cases < 1) {
    std::fprintf(stderr, "op_property_cases: bad arguments\n");
    return 1;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "op_property_cases: %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 1;
  }
  const std::vector<OpRow> rows = Rows();
  Gen g(seed);
  std::ofstream manifest(dir + "/manifest.jsonl");
  for (int i = 0; i < cases; ++i) {
    const OpRow& row = rows[static_cast<size_t>(i) % rows.size()];
    const std::string id = absl::StrFormat("%05d", i);
    absl::StatusOr<nlohmann::json> line = OneCase(g, row, *scheme, dir, id);
    if (!line.ok()) {
      std::fprintf(stderr, "op_property_cases: case %s (%s): %s\n", id.c_str(),
                   row.name, std::string(line.status().message()).c_str());
      return 2;
    }
    manifest << line->dump() << "\n";
  }
  return 0;
}
