// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// WHILE, IF, CALL_ONCE, VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE on real
// converter output (testdata/models, corpus/models/litert) and on small
// multi-subgraph models built here. Every expected value is derived by hand
// from the graph (read with `flatc --json` / `qforge inspect`); each case
// spells the derivation out.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "runtime/interpreter.h"
#include "runtime/kernel.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::MakeTensor;
using testing::OpModel;
using testing::Values;

int g_checked = 0;

// The interpreter support these kernels need (resource tensors of one int32
// id per element; ResizeTensor on WHILE's kernel-owned condition tensor) may
// not be wired yet: skip, naming it, rather than fail.
bool MissingInterpreterSupport(const absl::Status& s) {
  return absl::StrContains(s.message(), "ResizeTensor: unknown tensor") ||
         absl::StrContains(s.message(),
                           "has type resource, which qforge cannot run");
}

#define ASSERT_RUN_OK(expr)                                           \
  do {                                                                \
    const absl::Status run_status_ = (expr);                          \
    if (MissingInterpreterSupport(run_status_)) {                     \
      GTEST_SKIP() << "interpreter support missing: " << run_status_; \
    }                                                                 \
    ASSERT_TRUE(run_status_.ok()) << run_status_;                     \
  } while (0)

struct Loaded {
  std::unique_ptr<ir::Model> model;
  std::unique_ptr<runtime::Interpreter> interp;
};

Loaded Load(const std::string& path) {
  Loaded l;
  auto model = formats::ReadTfliteFile(path);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return l;
  l.model = std::make_unique<ir::Model>(std::move(*model));
  auto interp = runtime::Interpreter::Create(*l.model);
  EXPECT_TRUE(interp.ok()) << interp.status();
  if (interp.ok()) l.interp = std::move(*interp);
  return l;
}

ir::HostTensor Scalar(float v) { return MakeTensor<float>({}, {v}); }

ir::HostTensor Bool(bool v) {
  ir::HostTensor t(ir::DataType::kBool, {});
  t.data()[0] = v ? 1 : 0;
  return t;
}

float ScalarOf(const ir::HostTensor& t) {
  ++g_checked;
  return Values<float>(t).at(0);
}

TEST(ControlFlowModelTest, MultiSubgraphsWhile) {
  // main: (a, b, c) = WHILE(0, 0, x); outputs (c, b).
  // cond: b < 2.  body: (a + 1, b + 1, c * 2).
  // (0, 0, x) -> (1, 1, 2x) -> (2, 2, 4x), then 2 < 2 stops: outputs 4x, 2.
  Loaded l = Load(qforge::testing::TestDataDir() +
                  "/models/multi_subgraphs_while.tflite");
  ASSERT_NE(l.interp, nullptr);
  for (float x : {1.5f, -3.f}) {
    ASSERT_RUN_OK(l.interp->Run({Scalar(x)}));
    EXPECT_EQ(ScalarOf(l.interp->OutputHost(0)), 4 * x);
    EXPECT_EQ(Values<int32_t>(l.interp->OutputHost(1)),
              (std::vector<int32_t>{2}));
    ++g_checked;
  }
}

TEST(ControlFlowModelTest, NestedWhile) {
  // outer: while x == x*x { x = inner(x) }; inner: while x == x*x
  // { x = x + x }. x = 1: outer true -> inner: 1 -> 2 (2 != 4 stops) ->
  // outer: 2 != 4 stops: 2. x = 3: 3 != 9, no iteration: 3. (x = 0 would
  // loop forever: 0 + 0 = 0.)
  const std::string corpus = qforge::testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  Loaded l = Load(corpus + "/models/litert/nested_while.tflite");
  ASSERT_NE(l.interp, nullptr);
  const std::pair<float, float> cases[] = {
      {1.f, 2.f}, {3.f, 3.f}, {-2.f, -2.f}};
  for (const auto& [x, want] : cases) {
    ASSERT_RUN_OK(l.interp->Run({Scalar(x)}));
    EXPECT_EQ(ScalarOf(l.interp->OutputHost(0)), want) << "x = " << x;
  }
}

TEST(ControlFlowModelTest, CallOnceMul) {
  // init subgraph: Variable = 2.0. main: CALL_ONCE(init); v = READ(Variable)
  // (2.0); ASSIGN(Variable, x); out = v * x = 2x. Variables are reset at
  // every Run (one run = one sample), so a second run gives 2x again
  // (TFLite, which keeps them, would give x_previous * x).
  Loaded l =
      Load(qforge::testing::TestDataDir() + "/models/call_once_mul.tflite");
  ASSERT_NE(l.interp, nullptr);
  for (float x : {3.f, 5.f, -0.5f}) {
    ASSERT_RUN_OK(l.interp->Run({Scalar(x)}));
    EXPECT_EQ(ScalarOf(l.interp->OutputHost(0)), 2 * x);
  }
}

TEST(ControlFlowModelTest, ResourceVarsCalibrated) {
  // init: Variable = C, 5x5 with C[j][k] = 25 - 5j - k (the constant's
  // bytes are 25.0, 24.0, ..., 1.0). main, with x [1,5] and b the constant
  // bias [5]:
  //   out1 = FULLY_CONNECTED(x, TRANSPOSE(READ(Variable)), b)
  //        = sum_j x[j] C[j][k] + b[k]
  //   out0 = x + b
  //   ASSIGN(Variable, CONCAT(GATHER(READ, [1,2,3,4]), x))  (after reads)
  const std::string corpus = qforge::testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  for (ir::OpKind k :
       {ir::OpKind::kFullyConnected, ir::OpKind::kGather,
        ir::OpKind::kTranspose, ir::OpKind::kConcatenation, ir::OpKind::kAdd}) {
    if (runtime::FindFloatKernel(k) == nullptr) {
      GTEST_SKIP() << "a kernel this model needs is not registered yet";
    }
  }
  Loaded l = Load(corpus + "/models/litert/resource_vars_calibrated.tflite");
  ASSERT_NE(l.interp, nullptr);
  // The bias: tensor 1 of subgraph 0.
  const ir::Tensor& bias_t = l.model->subgraphs[0].tensors[1];
  std::vector<float> b(5);
  std::memcpy(b.data(), l.model->buffers[bias_t.buffer].data.data(), 20);
  for (const std::vector<float>& x :
       {std::vector<float>{1, 0, 0, 0, 0}, std::vector<float>{1, 2, 3, 4, 5}}) {
    ASSERT_RUN_OK(l.interp->Run({MakeTensor<float>({1, 5}, x)}));
    std::vector<float> want0(5), want1(5);
    for (int k = 0; k < 5; ++k) {
      want0[k] = x[k] + b[k];
      double dot = 0;
      for (int j = 0; j < 5; ++j) dot += x[j] * (25.0 - 5 * j - k);
      want1[k] = static_cast<float>(dot + b[k]);
    }
    const std::vector<float> got0 = Values<float>(l.interp->OutputHost(0));
    const std::vector<float> got1 = Values<float>(l.interp->OutputHost(1));
    ASSERT_EQ(got0.size(), 5u);
    ASSERT_EQ(got1.size(), 5u);
    for (int k = 0; k < 5; ++k) {
      EXPECT_FLOAT_EQ(got0[k], want0[k]);
      EXPECT_NEAR(got1[k], want1[k], 1e-4 * std::max(1.f, std::fabs(want1[k])));
      g_checked += 2;
    }
  }
}

// ------------------------------------------------ hand-built models

// Helpers for models with several subgraphs.
int AddTensor(ir::Subgraph& sg, ir::DataType type, std::vector<int32_t> shape,
              std::string name) {
  ir::Tensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.name = std::move(name);
  sg.tensors.push_back(std::move(t));
  return static_cast<int>(sg.tensors.size() - 1);
}

template <typename T>
int AddConstant(ir::Model& model, ir::Subgraph& sg, ir::DataType type,
                std::vector<int32_t> shape, const std::vector<T>& values,
                std::string name) {
  const int t = AddTensor(sg, type, std::move(shape), std::move(name));
  ir::Buffer buf;
  buf.data.resize(values.size() * sizeof(T));
  std::memcpy(buf.data.mutable_data(), values.data(), buf.data.size());
  model.buffers.push_back(std::move(buf));
  sg.tensors[t].buffer = static_cast<uint32_t>(model.buffers.size() - 1);
  return t;
}

void AddOp(ir::Subgraph& sg, ir::OpKind kind, std::vector<int32_t> in,
           std::vector<int32_t> out, ir::Options options = {}) {
  ir::Operator op;
  op.kind = kind;
  op.builtin_code = ir::GetOpInfo(kind).builtin_code;
  op.inputs = std::move(in);
  op.outputs = std::move(out);
  op.options = std::move(options);
  sg.operators.push_back(std::move(op));
}

// main: y = IF(c, x) with then: x + x, else: x * x.
OpModel IfModel(ir::DataType cond_type) {
  OpModel m;
  const int c = m.Input(cond_type, {});
  const int x = m.Input(ir::DataType::kFloat32, {2});
  const int y = m.Output(ir::DataType::kFloat32, {2});
  m.Op(ir::OpKind::kIf, {c, x}, {y}, ir::IfOptions{1, 2});
  ir::Model& model = m.model();
  for (ir::OpKind kind : {ir::OpKind::kAdd, ir::OpKind::kMul}) {
    model.subgraphs.emplace_back();
    ir::Subgraph& sg = model.subgraphs.back();
    const int a = AddTensor(sg, ir::DataType::kFloat32, {2}, "a");
    const int r = AddTensor(sg, ir::DataType::kFloat32, {2}, "r");
    sg.inputs = {a};
    sg.outputs = {r};
    AddOp(sg, kind, {a, a}, {r},
          kind == ir::OpKind::kAdd ? ir::Options(ir::AddSubOptions{})
                                   : ir::Options(ir::ActivationOptions{}));
  }
  return m;
}

TEST(ControlFlowBuiltTest, IfPicksTheBranch) {
  // x = {3, -2}: then x + x = {6, -4}; else x * x = {9, 4}.
  OpModel m = IfModel(ir::DataType::kBool);
  auto interp = runtime::Interpreter::Create(m.model());
  ASSERT_TRUE(interp.ok()) << interp.status();
  const std::pair<bool, std::vector<float>> cases[] = {
      {true, {6, -4}}, {false, {9, 4}}, {true, {6, -4}}};
  for (const auto& [c, want] : cases) {
    ASSERT_RUN_OK((*interp)->Run({Bool(c), MakeTensor<float>({2}, {3, -2})}));
    EXPECT_EQ(Values<float>((*interp)->OutputHost(0)), want);
    g_checked += 2;
  }
}

TEST(ControlFlowBuiltTest, IfRejectsNonBoolCondition) {
  OpModel m = IfModel(ir::DataType::kFloat32);
  auto out =
      m.Run({MakeTensor<float>({}, {1.f}), MakeTensor<float>({2}, {1, 2})});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
      << out.status();
}

// main: (n, v) = WHILE(0, v0); s = SUM(v, axis 0).
// cond: n < 3. body: (n + 1, CONCATENATION(v, v)).
OpModel GrowingWhileModel() {
  OpModel m;
  const int v0 = m.Input(ir::DataType::kFloat32, {2}, "v0");
  const int zero = m.Constant<int32_t>({}, {0}, "zero");
  const int n_out = m.Tensor(ir::DataType::kInt32, {}, "n");
  const int v_out = m.Output(ir::DataType::kFloat32, {2}, "v");
  const int axis = m.Constant<int32_t>({1}, {0}, "axis");
  const int sum = m.Output(ir::DataType::kFloat32, {}, "sum");
  m.Op(ir::OpKind::kWhile, {zero, v0}, {n_out, v_out}, ir::WhileOptions{1, 2});
  m.Op(ir::OpKind::kSum, {v_out, axis}, {sum}, ir::ReducerOptions{false});
  ir::Model& model = m.model();
  {
    model.subgraphs.emplace_back();
    ir::Subgraph& cond = model.subgraphs.back();
    const int n = AddTensor(cond, ir::DataType::kInt32, {}, "n");
    const int v = AddTensor(cond, ir::DataType::kFloat32, {2}, "v");
    const int three =
        AddConstant<int32_t>(model, cond, ir::DataType::kInt32, {}, {3}, "3");
    const int less = AddTensor(cond, ir::DataType::kBool, {}, "less");
    cond.inputs = {n, v};
    cond.outputs = {less};
    AddOp(cond, ir::OpKind::kLess, {n, three}, {less});
  }
  {
    model.subgraphs.emplace_back();
    ir::Subgraph& body = model.subgraphs.back();
    const int n = AddTensor(body, ir::DataType::kInt32, {}, "n");
    const int v = AddTensor(body, ir::DataType::kFloat32, {2}, "v");
    const int one =
        AddConstant<int32_t>(model, body, ir::DataType::kInt32, {}, {1}, "1");
    const int n1 = AddTensor(body, ir::DataType::kInt32, {}, "n+1");
    const int vv = AddTensor(body, ir::DataType::kFloat32, {4}, "vv");
    body.inputs = {n, v};
    body.outputs = {n1, vv};
    AddOp(body, ir::OpKind::kAdd, {n, one}, {n1}, ir::AddSubOptions{});
    AddOp(body, ir::OpKind::kConcatenation, {v, v}, {vv},
          ir::ConcatenationOptions{0, ir::Activation::kNone});
  }
  return m;
}

TEST(ControlFlowBuiltTest, WhileLoopVariableGrows) {
  // v doubles its length 3 times: {a, b} -> 16 elements... no: 2 -> 4 ->
  // 8 -> 16 elements, a repeating {a, b}; the SUM after the loop sees the
  // final shape: 8 * (a + b).
  OpModel m = GrowingWhileModel();
  auto interp = runtime::Interpreter::Create(m.model());
  ASSERT_TRUE(interp.ok()) << interp.status();
  for (int run = 0; run < 2; ++run) {
    ASSERT_RUN_OK((*interp)->Run({MakeTensor<float>({2}, {1.5f, -0.25f})}));
    const ir::HostTensor v = (*interp)->OutputHost(0);
    EXPECT_EQ(v.shape(), (std::vector<int64_t>{16}));
    std::vector<float> want;
    for (int i = 0; i < 8; ++i) {
      want.push_back(1.5f);
      want.push_back(-0.25f);
    }
    EXPECT_EQ(Values<float>(v), want) << "run " << run;
    EXPECT_EQ(ScalarOf((*interp)->OutputHost(1)), 8 * 1.25f);
    g_checked += 16;
  }
}

TEST(ControlFlowBuiltTest, RejectsSelfCallsAndUnassignedReads) {
  {
    // WHILE whose body is its own subgraph.
    OpModel m;
    const int x = m.Input(ir::DataType::kFloat32, {});
    const int y = m.Output(ir::DataType::kFloat32, {});
    m.Op(ir::OpKind::kWhile, {x}, {y}, ir::WhileOptions{1, 0});
    m.model().subgraphs.emplace_back();  // an (invalid) empty cond
    auto out = m.Run({Scalar(1.f)});
    EXPECT_FALSE(out.ok());
  }
  {
    // CALL_ONCE of its own subgraph.
    OpModel m;
    const int x = m.Input(ir::DataType::kFloat32, {});
    const int y = m.Output(ir::DataType::kFloat32, {});
    m.Op(ir::OpKind::kCallOnce, {}, {}, ir::CallOnceOptions{0});
    m.Op(ir::OpKind::kAdd, {x, x}, {y}, ir::AddSubOptions{});
    auto out = m.Run({Scalar(1.f)});
    EXPECT_FALSE(out.ok());
  }
  {
    // READ_VARIABLE before any ASSIGN_VARIABLE.
    OpModel m;
    const int x = m.Input(ir::DataType::kFloat32, {});
    const int h = m.Tensor(ir::DataType::kResource, {}, "handle");
    const int v = m.Tensor(ir::DataType::kFloat32, {}, "value");
    const int y = m.Output(ir::DataType::kFloat32, {});
    ir::VarHandleOptions opts;
    opts.shared_name = "never_assigned";
    m.Op(ir::OpKind::kVarHandle, {}, {h}, opts);
    m.Op(ir::OpKind::kReadVariable, {h}, {v});
    m.Op(ir::OpKind::kAdd, {v, x}, {y}, ir::AddSubOptions{});
    auto out = m.Run({Scalar(1.f)});
    if (MissingInterpreterSupport(out.status())) {
      GTEST_SKIP() << "interpreter support missing: " << out.status();
    }
    EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument)
        << out.status();
  }
}

TEST(ControlFlowBuiltTest, VariablesAreSharedByNameAndKeepTheirLastValue) {
  // Two handles named "acc" (one in container "", one in "c") are different
  // variables; two VAR_HANDLEs with the same names are the same one.
  //   ASSIGN(h1, x); ASSIGN(h2, 10); ASSIGN(h1', x + x)  (h1' = same as h1)
  //   out = READ(h1) + READ(h2) = 2x + 10
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {});
  const int ten = m.Constant<float>({}, {10.f});
  const int h1 = m.Tensor(ir::DataType::kResource, {}, "h1");
  const int h2 = m.Tensor(ir::DataType::kResource, {}, "h2");
  const int h1b = m.Tensor(ir::DataType::kResource, {}, "h1b");
  const int xx = m.Tensor(ir::DataType::kFloat32, {}, "xx");
  const int r1 = m.Tensor(ir::DataType::kFloat32, {}, "r1");
  const int r2 = m.Tensor(ir::DataType::kFloat32, {}, "r2");
  const int y = m.Output(ir::DataType::kFloat32, {});
  ir::VarHandleOptions a, c;
  a.shared_name = "acc";
  c.container = "c";
  c.shared_name = "acc";
  m.Op(ir::OpKind::kVarHandle, {}, {h1}, a);
  m.Op(ir::OpKind::kVarHandle, {}, {h2}, c);
  m.Op(ir::OpKind::kVarHandle, {}, {h1b}, a);
  m.Op(ir::OpKind::kAssignVariable, {h1, x}, {});
  m.Op(ir::OpKind::kAssignVariable, {h2, ten}, {});
  m.Op(ir::OpKind::kAdd, {x, x}, {xx}, ir::AddSubOptions{});
  m.Op(ir::OpKind::kAssignVariable, {h1b, xx}, {});
  m.Op(ir::OpKind::kReadVariable, {h1}, {r1});
  m.Op(ir::OpKind::kReadVariable, {h2}, {r2});
  m.Op(ir::OpKind::kAdd, {r1, r2}, {y}, ir::AddSubOptions{});
  auto out = m.Run({Scalar(4.f)});
  ASSERT_RUN_OK(out.status());
  EXPECT_EQ(ScalarOf((*out)[0]), 18.f);
}

TEST(ControlFlowBuiltTest, ResourceHandleThroughWhile) {
  // main: h = VAR_HANDLE("counter"); ASSIGN(h, 0.5);
  //       (n, h2) = WHILE(0, h); y = READ(h2)
  // cond: n < 3.  body: ASSIGN(h, READ(h) + 1); (n + 1, h).
  // The handle crosses subgraphs; three iterations: 0.5 + 3 = 3.5.
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {}, "x");
  const int h = m.Tensor(ir::DataType::kResource, {}, "h");
  const int zero = m.Constant<int32_t>({}, {0}, "zero");
  const int n_out = m.Tensor(ir::DataType::kInt32, {}, "n");
  const int h_out = m.Tensor(ir::DataType::kResource, {}, "h2");
  const int y = m.Output(ir::DataType::kFloat32, {}, "y");
  ir::VarHandleOptions name;
  name.shared_name = "counter";
  m.Op(ir::OpKind::kVarHandle, {}, {h}, name);
  m.Op(ir::OpKind::kAssignVariable, {h, x}, {});
  m.Op(ir::OpKind::kWhile, {zero, h}, {n_out, h_out}, ir::WhileOptions{1, 2});
  m.Op(ir::OpKind::kReadVariable, {h_out}, {y});
  ir::Model& model = m.model();
  {
    model.subgraphs.emplace_back();
    ir::Subgraph& cond = model.subgraphs.back();
    const int n = AddTensor(cond, ir::DataType::kInt32, {}, "n");
    const int hh = AddTensor(cond, ir::DataType::kResource, {}, "h");
    const int three =
        AddConstant<int32_t>(model, cond, ir::DataType::kInt32, {}, {3}, "3");
    const int less = AddTensor(cond, ir::DataType::kBool, {}, "less");
    cond.inputs = {n, hh};
    cond.outputs = {less};
    AddOp(cond, ir::OpKind::kLess, {n, three}, {less});
  }
  {
    model.subgraphs.emplace_back();
    ir::Subgraph& body = model.subgraphs.back();
    const int n = AddTensor(body, ir::DataType::kInt32, {}, "n");
    const int hh = AddTensor(body, ir::DataType::kResource, {}, "h");
    const int one_i =
        AddConstant<int32_t>(model, body, ir::DataType::kInt32, {}, {1}, "1");
    const int one_f = AddConstant<float>(model, body, ir::DataType::kFloat32,
                                         {}, {1.f}, "1f");
    const int n1 = AddTensor(body, ir::DataType::kInt32, {}, "n+1");
    const int r = AddTensor(body, ir::DataType::kFloat32, {}, "r");
    const int r1 = AddTensor(body, ir::DataType::kFloat32, {}, "r+1");
    body.inputs = {n, hh};
    body.outputs = {n1, hh};
    AddOp(body, ir::OpKind::kReadVariable, {hh}, {r});
    AddOp(body, ir::OpKind::kAdd, {r, one_f}, {r1}, ir::AddSubOptions{});
    AddOp(body, ir::OpKind::kAssignVariable, {hh, r1}, {});
    AddOp(body, ir::OpKind::kAdd, {n, one_i}, {n1}, ir::AddSubOptions{});
  }
  auto out = m.Run({Scalar(0.5f)});
  ASSERT_RUN_OK(out.status());
  EXPECT_EQ(ScalarOf((*out)[0]), 3.5f);
}

TEST(ControlFlowBuiltTest, PrintCount) {
  std::printf("[ control_flow ] %d output values checked\n", g_checked);
}

}  // namespace
}  // namespace qforge
