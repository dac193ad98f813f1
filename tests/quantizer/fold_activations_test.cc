// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Standalone activations folded into the op before them
// (quantizer/fold_activations.h): the producer takes the activation's
// output parameters, the fused activation and the activation's output; the
// folded model computes the unfolded one bit for bit.
#include "quantizer/fold_activations.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/clamp.h"
#include "ir/validate.h"
#include "quantizer/quantize.h"
#include "runtime/interpreter.h"
#include "tests/quantizer/range_stats.h"
#include "tests/support/op_model.h"

namespace qforge::quantizer {
namespace {

using ir::DataType;
using ir::OpKind;
using testing::RangeStats;

// x[1,8,8,2] -> CONV_2D (1x1, one filter (1, -2), no bias) or ADD (x + x)
// -> y -> `act` -> z (the model output).
struct FoldActModel {
  testing::OpModel m;
  int x, y, z;
  FoldActModel(OpKind act, bool add = false) {
    x = m.Input(DataType::kFloat32, {1, 8, 8, 2}, "x");
    y = m.Tensor(DataType::kFloat32, {1, 8, 8, add ? 2 : 1}, "y");
    z = m.Output(DataType::kFloat32, {1, 8, 8, add ? 2 : 1}, "z");
    if (add) {
      m.Op(OpKind::kAdd, {x, x}, {y}, ir::AddSubOptions{});
    } else {
      const int w = m.Constant<float>({1, 1, 1, 2}, {1.0f, -2.0f}, "w");
      ir::Conv2DOptions conv;
      conv.padding = ir::Padding::kValid;
      conv.stride_w = conv.stride_h = 1;
      m.Op(OpKind::kConv2D, {x, w, -1}, {y}, conv);
    }
    m.Op(act, {y}, {z});
  }
  calibration::StatsFile Stats(float ylo, float yhi, float zlo,
                               float zhi) const {
    calibration::StatsFile f;
    f.tensors = {RangeStats(x, 0.0f, 2.55f), RangeStats(y, ylo, yhi),
                 RangeStats(z, zlo, zhi)};
    return f;
  }
};

int FoldOpCount(const ir::Model& m, OpKind kind) {
  int n = 0;
  for (const ir::Operator& op : m.subgraphs[0].operators) n += op.kind == kind;
  return n;
}

// The folded model unfolded again: each producer with a fused activation
// whose output `act_of` names (by tensor name; nullopt: not folded) writes a
// copy of its output tensor (same parameters) with no fused activation, and
// the standalone activation reads it.
template <typename ActOf>
ir::Model FoldUnfoldAll(const ir::Model& folded, const ActOf& act_of) {
  ir::Model m = folded;
  ir::Subgraph& sg = m.subgraphs[0];
  std::vector<ir::Operator> ops;
  for (ir::Operator& p : sg.operators) {
    const std::optional<OpKind> act =
        p.outputs.empty() || p.outputs[0] < 0
            ? std::nullopt
            : act_of(sg.tensors[static_cast<size_t>(p.outputs[0])].name);
    if (!act.has_value() ||
        ir::FusedActivationOf(p.options) == ir::Activation::kNone) {
      ops.push_back(std::move(p));
      continue;
    }
    const int32_t z = p.outputs[0];
    ir::Tensor t = sg.tensors[static_cast<size_t>(z)];
    t.name += "_unfolded";
    sg.tensors.push_back(t);
    const int32_t ti = static_cast<int32_t>(sg.tensors.size() - 1);
    p.outputs[0] = ti;
    ir::SetFusedActivation(p.options, ir::Activation::kNone);
    ir::Operator a;
    a.kind = *act;
    a.inputs = {ti};
    a.outputs = {z};
    a.version = 1;
    ops.push_back(std::move(p));
    ops.push_back(std::move(a));
  }
  sg.operators = std::move(ops);
  return m;
}

ir::Model FoldUnfold(const ir::Model& folded, OpKind act) {
  return FoldUnfoldAll(
      folded, [act](const std::string&) { return std::optional<OpKind>(act); });
}

std::vector<float> FoldRun(const ir::Model& m, const ir::HostTensor& in) {
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> interp =
      runtime::Interpreter::Create(m);
  EXPECT_TRUE(interp.ok()) << interp.status();
  if (!interp.ok()) return {};
  absl::Status s = (*interp)->Run({in});
  EXPECT_TRUE(s.ok()) << s;
  const ir::HostTensor out = (*interp)->OutputHost(0);
  const absl::Span<const float> v = out.Flat<float>();
  return {v.begin(), v.end()};
}

// Inputs beyond the calibrated range too, so that every clamp is reached.
ir::HostTensor FoldInputs(uint32_t seed) {
  ir::HostTensor in(DataType::kFloat32, {1, 8, 8, 2});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 3.0f);
  for (float& v : in.Flat<float>()) v = u(rng);
  return in;
}

TEST(FoldActivationsTest, ReluIntoConvByHand) {
  FoldActModel c(OpKind::kRelu);
  const calibration::StatsFile stats = c.Stats(-4.0f, 6.2f, 0.0f, 6.2f);
  absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  const ir::Subgraph& sg = r->model.subgraphs[0];
  // QUANTIZE, CONV_2D (fused RELU), DEQUANTIZE: no RELU, no tensor y.
  ASSERT_EQ(sg.operators.size(), 3u);
  const ir::Operator& conv = sg.operators[1];
  ASSERT_EQ(conv.kind, OpKind::kConv2D);
  EXPECT_EQ(ir::FusedActivationOf(conv.options), ir::Activation::kRelu);
  // It writes z with z's parameters: [0, 6.2] -> scale 6.2/255, zero
  // point -128 (not y's [-4, 6.2]: 10.2/255, -28).
  const ir::Tensor& out = sg.tensors[static_cast<size_t>(conv.outputs[0])];
  EXPECT_EQ(out.name, "z_int");
  EXPECT_FLOAT_EQ(out.quantization->scale[0], 6.2f / 255);
  EXPECT_EQ(out.quantization->zero_point[0], -128);
  for (const ir::Tensor& t : sg.tensors) EXPECT_NE(t.name, "y");
  ASSERT_EQ(r->folded.size(), 1u);
  EXPECT_EQ(r->folded[0].op_index, 1);
  EXPECT_EQ(r->folded[0].op, "RELU");
  EXPECT_EQ(r->folded[0].into_index, 0);
  EXPECT_EQ(r->folded[0].into, "CONV_2D");
  // The summary's numbering: RELU is still op 1, int8.
  ASSERT_EQ(r->op_choices.size(), 2u);
  EXPECT_EQ(r->op_choices[1].precision, "int8");
  // By hand. x: scale 0.01, zero point -128; weights (1, -2) per channel at
  // 2/127: (64, -127); accumulator scale 0.01 * 2/127.
  //   x = (2.0, 0.5): q (72, -78), acc = 64*200 - 127*50 = 6450, real
  //   1.01575, / (6.2/255) = 41.78 -> 42 -> q -86: z = 42 * 6.2/255.
  //   x = (1.0, 1.0): acc = 64*100 - 127*100 = -6300 < 0: RELU clamps at
  //   the zero point, q -128: z = 0.
  ir::HostTensor in(DataType::kFloat32, {1, 8, 8, 2});
  absl::Span<float> v = in.Flat<float>();
  std::fill(v.begin(), v.end(), 1.0f);
  v[0] = 2.0f;
  v[1] = 0.5f;
  const std::vector<float> z = FoldRun(r->model, in);
  ASSERT_EQ(z.size(), 64u);
  EXPECT_FLOAT_EQ(z[0], 42 * (6.2f / 255));
  EXPECT_EQ(z[1], 0.0f);
}

// The folded model against the same model with the activation standing
// alone after a tensor of the same parameters: bit for bit, on inputs that
// reach every clamp.
void FoldExpectSameAsUnfolded(OpKind act, bool add, float ylo, float yhi,
                              float zlo, float zhi) {
  FoldActModel c(act, add);
  const calibration::StatsFile stats = c.Stats(ylo, yhi, zlo, zhi);
  absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->folded.size(), 1u);
  EXPECT_EQ(FoldOpCount(r->model, act), 0);
  const ir::Model unfolded = FoldUnfold(r->model, act);
  ASSERT_TRUE(ir::ValidateModel(unfolded).ok());
  ASSERT_EQ(FoldOpCount(unfolded, act), 1);
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const ir::HostTensor in = FoldInputs(seed);
    const std::vector<float> a = FoldRun(r->model, in);
    const std::vector<float> b = FoldRun(unfolded, in);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k], b[k]) << "element " << k;
    }
    // The lower clamp is reached (outputs at the clamp's bottom, and above).
    const auto [lo, hi] = std::minmax_element(a.begin(), a.end());
    EXPECT_LT(*lo, *hi);
    EXPECT_GT(std::count(a.begin(), a.end(), *lo), 1);
  }
}

TEST(FoldActivationsTest, ReluIntoConvBitExact) {
  FoldExpectSameAsUnfolded(OpKind::kRelu, false, -4.0f, 6.2f, 0.0f, 6.2f);
}

TEST(FoldActivationsTest, Relu6IntoConvBitExact) {
  // z's range [0, 5]: RELU6's upper bound 6 lies beyond it (clamps at 127).
  FoldExpectSameAsUnfolded(OpKind::kRelu6, false, -4.0f, 8.0f, 0.0f, 5.0f);
  // ... and [0, 7] (calibrated past 6 by a sample): clamps at 6 inside it.
  FoldExpectSameAsUnfolded(OpKind::kRelu6, false, -4.0f, 8.0f, 0.0f, 7.0f);
}

TEST(FoldActivationsTest, ReluN1To1IntoAddBitExact) {
  // z's range [-1, 1]; zero point 0 (not -128): both bounds inside.
  FoldExpectSameAsUnfolded(OpKind::kReluN1To1, true, -3.0f, 5.0f, -1.0f, 1.0f);
  FoldExpectSameAsUnfolded(OpKind::kRelu, true, -3.0f, 5.0f, 0.0f, 5.0f);
}

TEST(FoldActivationsTest, NotWhenTheProducerOutputHasAnotherReader) {
  // y also leaves the model: the producer's output must stay y.
  FoldActModel c(OpKind::kRelu);
  c.m.model().subgraphs[0].outputs.push_back(c.y);
  const calibration::StatsFile stats = c.Stats(-4.0f, 6.2f, 0.0f, 6.2f);
  absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->folded.empty());
  EXPECT_EQ(FoldOpCount(r->model, OpKind::kRelu), 1);
}

TEST(FoldActivationsTest, NotWhenTheActivationIsNotInt8) {
  FoldActModel c(OpKind::kRelu);
  const calibration::StatsFile stats = c.Stats(-4.0f, 6.2f, 0.0f, 6.2f);
  for (const char* precision : {"int16", "float"}) {
    QuantizeOptions o;
    o.rules.push_back({"1", precision, "test"});
    absl::StatusOr<QuantizeResult> r = Quantize(c.m.model(), &stats, o);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->folded.empty()) << precision;
    EXPECT_EQ(FoldOpCount(r->model, OpKind::kRelu), 1) << precision;
    // The conv keeps its own range: y's [-4, 6.2] -> zero point -28.
    const ir::Subgraph& sg = r->model.subgraphs[0];
    for (const ir::Operator& op : sg.operators) {
      if (op.kind != OpKind::kConv2D) continue;
      EXPECT_EQ(sg.tensors[static_cast<size_t>(op.outputs[0])]
                    .quantization->zero_point[0],
                -28)
          << precision;
    }
  }
}

// Real models (QFORGE_FOLD_CHECK="MODEL.tflite|STATS.json;..." with
// statistics from `qforge calibrate`; ctest's fold_real_models sets it for
// the 8 corpus models with standalone RELUs): the int8 model with its
// standalone activations folded computes, on seeded inputs in [-1, 1], what the
// same model with them unfolded again computes, bit for bit.
TEST(FoldActivationsTest, RealModelsBitIdentical) {
  const char* env = std::getenv("QFORGE_FOLD_CHECK");
  if (env == nullptr || *env == 0) GTEST_SKIP() << "QFORGE_FOLD_CHECK unset";
  for (absl::string_view item : absl::StrSplit(env, ';', absl::SkipEmpty())) {
    const std::vector<std::string> parts = absl::StrSplit(item, '|');
    ASSERT_EQ(parts.size(), 2u) << item;
    absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(parts[0]);
    ASSERT_TRUE(model.ok()) << model.status();
    absl::StatusOr<calibration::StatsFile> stats =
        calibration::ReadStatsFile(parts[1]);
    ASSERT_TRUE(stats.ok()) << stats.status();
    absl::StatusOr<QuantizeResult> r = Quantize(*model, &*stats, {});
    ASSERT_TRUE(r.ok()) << r.status();
    // The float model's activation writing each folded output.
    std::map<std::string, OpKind> act_of;
    for (const ir::Operator& op : model->subgraphs[0].operators) {
      if (ir::GetOpInfo(op.kind).clamps && !op.outputs.empty()) {
        act_of[model->subgraphs[0].tensors[op.outputs[0]].name] = op.kind;
      }
    }
    const ir::Model unfolded =
        FoldUnfoldAll(r->model, [&](const std::string& name) {
          auto it = act_of.find(name);
          return it == act_of.end() ? std::nullopt
                                    : std::optional<OpKind>(it->second);
        });
    ASSERT_TRUE(ir::ValidateModel(unfolded).ok());
    int converters = 0;
    for (const ir::Operator& op : r->model.subgraphs[0].operators) {
      converters += ir::GetOpInfo(op.kind).Has(ir::op_flags::kConverter);
    }
    const int folded_ops = static_cast<int>(r->folded.size());
    EXPECT_EQ(unfolded.subgraphs[0].operators.size(),
              r->model.subgraphs[0].operators.size() + folded_ops);
    absl::StatusOr<std::unique_ptr<runtime::Interpreter>> a =
        runtime::Interpreter::Create(r->model);
    absl::StatusOr<std::unique_ptr<runtime::Interpreter>> b =
        runtime::Interpreter::Create(unfolded);
    ASSERT_TRUE(a.ok() && b.ok());
    int64_t compared = 0;
    for (uint32_t seed = 1; seed <= 2; ++seed) {
      std::vector<ir::HostTensor> inputs;
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> u(-1.0f, 1.0f);
      for (int32_t in : r->model.subgraphs[0].inputs) {
        std::vector<int64_t> shape;
        for (int32_t d : r->model.subgraphs[0].tensors[in].shape) {
          shape.push_back(std::max(d, 1));
        }
        ir::HostTensor t(DataType::kFloat32, shape);
        for (float& v : t.Flat<float>()) v = u(rng);
        inputs.push_back(std::move(t));
      }
      ASSERT_TRUE((*a)->Run(inputs).ok());
      ASSERT_TRUE((*b)->Run(inputs).ok());
      for (int k = 0; k < (*a)->num_outputs(); ++k) {
        EXPECT_EQ((*a)->OutputHost(k).bytes(), (*b)->OutputHost(k).bytes())
            << parts[0] << " output " << k;
        compared += (*a)->OutputHost(k).NumElements();
      }
    }
    std::printf(
        "%s: %d activations folded, %d QUANTIZE/DEQUANTIZE left; "
        "%lld output values bit-identical to the unfolded model\n",
        parts[0].c_str(), folded_ops, converters,
        static_cast<long long>(compared));
  }
}

}  // namespace
}  // namespace qforge::quantizer
