// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// How the interpreter holds the caller's inputs: a plain input is read where
// the caller keeps it (no copy), which is only sound because kernels never
// write their inputs and nothing reads the input after Run; an input that is
// also a subgraph output is copied, since the caller may free its tensor
// before reading the outputs.
#include <cstring>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "ir/model.h"
#include "runtime/interpreter.h"
#include "tests/support/op_model.h"

// A named namespace: unity builds put several test files in one
// translation unit, where anonymous-namespace helpers would collide.
namespace qforge::testing::interpreter_inputs {

std::unique_ptr<runtime::Interpreter> Make(const ir::Model& model) {
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> i =
      runtime::Interpreter::Create(model);
  EXPECT_TRUE(i.ok()) << i.status();
  return i.ok() ? std::move(*i) : nullptr;
}

std::vector<float> Floats(const ir::HostTensor& t) {
  const auto v = t.Flat<float>();
  return std::vector<float>(v.begin(), v.end());
}

// x -> RELU -> y: the caller's x is unchanged, and a second run on other
// values reads those (the interpreter does not keep the first run's memory).
TEST(InterpreterInputs, ReadInPlaceAndLeftUnchanged) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 6}, "x");
  const int y = m.Output(ir::DataType::kFloat32, {1, 6}, "y");
  m.Op(ir::OpKind::kRelu, {x}, {y});
  std::unique_ptr<runtime::Interpreter> interp = Make(m.model());
  ASSERT_NE(interp, nullptr);
  const std::vector<float> a = {-3, -1, 0, 1, 2, -5};
  std::vector<ir::HostTensor> in = {MakeTensor<float>({1, 6}, a)};
  ASSERT_TRUE(interp->Run(in).ok());
  EXPECT_EQ(Floats(in[0]), a);
  EXPECT_EQ(Floats(interp->OutputHost(0)),
            (std::vector<float>{0, 0, 0, 1, 2, 0}));
  std::vector<ir::HostTensor> other = {
      MakeTensor<float>({1, 6}, std::vector<float>{4, -4, 3, -3, 2, -2})};
  ASSERT_TRUE(interp->Run(other).ok());
  EXPECT_EQ(Floats(interp->OutputHost(0)),
            (std::vector<float>{4, 0, 3, 0, 2, 0}));
}

// x is both an input and an output: after the caller's tensor is wiped and
// freed, output 0 still holds x's values (ASan would also catch a read of
// the freed memory).
TEST(InterpreterInputs, InputThatIsAnOutputIsCopied) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 4}, "x");
  const int y = m.Output(ir::DataType::kFloat32, {1, 4}, "y");
  m.Op(ir::OpKind::kRelu, {x}, {y});
  m.model().subgraphs[0].outputs = {x, y};
  std::unique_ptr<runtime::Interpreter> interp = Make(m.model());
  ASSERT_NE(interp, nullptr);
  {
    std::vector<ir::HostTensor> in = {
        MakeTensor<float>({1, 4}, std::vector<float>{-1, 2, -3, 4})};
    ASSERT_TRUE(interp->Run(in).ok());
    std::memset(in[0].data(), 0, in[0].ByteSize());
  }
  EXPECT_EQ(Floats(interp->OutputHost(0)), (std::vector<float>{-1, 2, -3, 4}));
  EXPECT_EQ(Floats(interp->OutputHost(1)), (std::vector<float>{0, 2, 0, 4}));
}

// An observer that replaces values (TensorObserver::Replace) changes what
// later ops read: x -> RELU -> h -> NEG -> y, with h replaced by 10 + its
// index, gives y = -(10 + i) whatever x was. The report's exact-input run
// (report/attribution.h) relies on it.
class ReplaceHidden : public runtime::TensorObserver {
 public:
  explicit ReplaceHidden(int tensor) : tensor_(tensor) {}
  void Observe(int, int, int, const runtime::RtTensor&) override {}
  bool ReplacesValues() const override { return true; }
  void Replace(int, int, int tensor, runtime::RtTensor& t) override {
    if (tensor != tensor_) return;
    float* v = t.Data<float>();
    for (int64_t i = 0; i < t.NumElements(); ++i)
      v[i] = 10.0f + static_cast<float>(i);
  }

 private:
  int tensor_;
};

TEST(InterpreterInputs, ObserverReplacementIsWhatLaterOpsRead) {
  OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 3}, "x");
  const int h = m.Tensor(ir::DataType::kFloat32, {1, 3}, "h");
  const int y = m.Output(ir::DataType::kFloat32, {1, 3}, "y");
  m.Op(ir::OpKind::kRelu, {x}, {h});
  m.Op(ir::OpKind::kNeg, {h}, {y});
  std::unique_ptr<runtime::Interpreter> interp = Make(m.model());
  ASSERT_NE(interp, nullptr);
  std::vector<ir::HostTensor> in = {
      MakeTensor<float>({1, 3}, std::vector<float>{-1, 2, 3})};
  ReplaceHidden replace(h);
  ASSERT_TRUE(interp->Run(in, &replace).ok());
  EXPECT_EQ(Floats(interp->OutputHost(0)), (std::vector<float>{-10, -11, -12}));
  // Without the observer the model computes as before.
  ASSERT_TRUE(interp->Run(in).ok());
  EXPECT_EQ(Floats(interp->OutputHost(0)), (std::vector<float>{0, -2, -3}));
}

}  // namespace qforge::testing::interpreter_inputs
