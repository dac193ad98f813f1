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

}  // namespace qforge::testing::interpreter_inputs
