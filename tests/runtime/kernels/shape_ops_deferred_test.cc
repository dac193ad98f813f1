// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The data-dependent-shape contract, exercised on the kernels directly: when
// prepare runs before a shape-deciding input has a value (the interpreter
// never does this today, but the kernel interface allows it), the kernel
// marks itself data-dependent, gives its outputs a placeholder shape, and
// eval sizes them through ResizeOutput once the values exist.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/model.h"
#include "ir/options.h"
#include "runtime/kernel.h"
#include "runtime/kernels/shape/shape.h"
#include "runtime/thread_pool.h"

namespace qforge::runtime {
namespace {

// Records MarkShapeDependsOnData and serves ResizeTensor from owned memory.
class FakeRunner : public SubgraphRunner {
 public:
  absl::Status InvokeSubgraph(int, absl::Span<RtTensor* const>,
                              absl::Span<RtTensor* const>) override {
    return absl::UnimplementedError("no subgraphs here");
  }
  absl::Status ResizeTensor(RtTensor* tensor, Dims shape) override {
    ++resizes;
    tensor->shape = std::move(shape);
    const size_t bytes = static_cast<size_t>(tensor->NumElements()) * 4;
    buffers.push_back(std::make_unique<std::vector<uint8_t>>(bytes + 1));
    tensor->data = buffers.back()->data();
    tensor->bytes = bytes;
    return absl::OkStatus();
  }
  void MarkShapeDependsOnData(int, int) override { marked = true; }
  ir::HostTensor* Resource(const std::string&) override { return nullptr; }

  bool marked = false;
  int resizes = 0;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> buffers;
};

// A tensor with 4-byte elements and (optionally) values.
struct Holder {
  ir::Tensor ir;
  RtTensor rt;
  std::vector<uint8_t> bytes;

  template <typename T>
  Holder(ir::DataType type, const Dims& shape, std::vector<T> values) {
    ir.name = "t";
    ir.type = type;
    rt.ir = &ir;
    rt.type = type;
    rt.shape = shape;  // a copy: GCC 12 warns on moving an empty `{}`
    Set(values);
  }
  // Gives the tensor its values (empty: no value yet).
  template <typename T>
  void Set(const std::vector<T>& values) {
    bytes.resize(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    rt.data = values.empty() ? nullptr : bytes.data();
    rt.bytes = bytes.size();
  }
};

struct Harness {
  ThreadPool pool{1};
  FakeRunner runner;
  std::unique_ptr<KernelState> state;
  ir::Operator op;

  OpContext Context(std::vector<RtTensor*> in, std::vector<RtTensor*> out) {
    return OpContext(op, 0, 0, std::move(in), std::move(out), &pool, &runner,
                     &state);
  }
};

// RESHAPE [2,3] by a shape tensor that has no value at prepare time.
TEST(Deferred, Reshape) {
  Harness h;
  h.op.kind = ir::OpKind::kReshape;
  Holder x(ir::DataType::kFloat32, {2, 3},
           std::vector<float>{1, 2, 3, 4, 5, 6});
  Holder s(ir::DataType::kInt32, {2}, std::vector<int32_t>{});
  Holder y(ir::DataType::kFloat32, {-1, 2}, std::vector<float>{});
  OpContext ctx = h.Context({&x.rt, &s.rt}, {&y.rt});
  ASSERT_TRUE(PrepareReshape(ctx).ok());
  EXPECT_TRUE(h.runner.marked);
  EXPECT_EQ(y.rt.shape, Dims{0});
  s.Set(std::vector<int32_t>{3, -1});
  ASSERT_TRUE(EvalReshape(ctx).ok());
  EXPECT_EQ(h.runner.resizes, 1);
  EXPECT_EQ(y.rt.shape, (Dims{3, 2}));
  std::vector<float> got(6);
  std::memcpy(got.data(), y.rt.data, 24);
  EXPECT_EQ(got, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // A bad value found in eval is an error, not a crash.
  s.Set(std::vector<int32_t>{4, -1});
  EXPECT_FALSE(EvalReshape(ctx).ok());
}

// STRIDED_SLICE of [0..5] with begin unknown at prepare; then begin [1],
// end [6], strides [2] -> 1, 3, 5.
TEST(Deferred, StridedSlice) {
  Harness h;
  h.op.kind = ir::OpKind::kStridedSlice;
  h.op.options = ir::StridedSliceOptions{};
  Holder x(ir::DataType::kInt32, {6}, std::vector<int32_t>{0, 1, 2, 3, 4, 5});
  Holder b(ir::DataType::kInt32, {1}, std::vector<int32_t>{});
  Holder e(ir::DataType::kInt32, {1}, std::vector<int32_t>{6});
  Holder st(ir::DataType::kInt32, {1}, std::vector<int32_t>{2});
  Holder y(ir::DataType::kInt32, {-1}, std::vector<int32_t>{});
  OpContext ctx = h.Context({&x.rt, &b.rt, &e.rt, &st.rt}, {&y.rt});
  ASSERT_TRUE(PrepareStridedSlice(ctx).ok());
  EXPECT_TRUE(h.runner.marked);
  b.Set(std::vector<int32_t>{1});
  ASSERT_TRUE(EvalStridedSlice(ctx).ok());
  EXPECT_EQ(y.rt.shape, Dims{3});
  std::vector<int32_t> got(3);
  std::memcpy(got.data(), y.rt.data, 12);
  EXPECT_EQ(got, (std::vector<int32_t>{1, 3, 5}));
}

// SPLIT_V with sizes unknown at prepare: both outputs get placeholders, then
// sizes [1,2] split [7,8,9] into [7] and [8,9].
TEST(Deferred, SplitVResizesEveryOutput) {
  Harness h;
  h.op.kind = ir::OpKind::kSplitV;
  h.op.options = ir::SplitOptions{2, true};
  Holder x(ir::DataType::kFloat32, {3}, std::vector<float>{7, 8, 9});
  Holder sizes(ir::DataType::kInt32, {2}, std::vector<int32_t>{});
  Holder axis(ir::DataType::kInt32, {}, std::vector<int32_t>{0});
  Holder y0(ir::DataType::kFloat32, {1}, std::vector<float>{});
  Holder y1(ir::DataType::kFloat32, {2}, std::vector<float>{});
  OpContext ctx = h.Context({&x.rt, &sizes.rt, &axis.rt}, {&y0.rt, &y1.rt});
  ASSERT_TRUE(PrepareSplitV(ctx).ok());
  EXPECT_TRUE(h.runner.marked);
  EXPECT_EQ(y0.rt.shape, Dims{0});
  EXPECT_EQ(y1.rt.shape, Dims{0});
  sizes.Set(std::vector<int32_t>{1, 2});
  ASSERT_TRUE(EvalSplitV(ctx).ok());
  EXPECT_EQ(h.runner.resizes, 2);
  EXPECT_EQ(y0.rt.shape, Dims{1});
  EXPECT_EQ(y1.rt.shape, Dims{2});
  float a = 0, b[2] = {};
  std::memcpy(&a, y0.rt.data, 4);
  std::memcpy(b, y1.rt.data, 8);
  EXPECT_EQ(a, 7);
  EXPECT_EQ(b[0], 8);
  EXPECT_EQ(b[1], 9);
}

// With the value known at prepare, nothing is deferred and eval does not
// resize: PAD [5] by (1,1) -> [0,5,0].
TEST(Deferred, KnownValuesAreNotDeferred) {
  Harness h;
  h.op.kind = ir::OpKind::kPad;
  Holder x(ir::DataType::kFloat32, {1}, std::vector<float>{5});
  Holder p(ir::DataType::kInt32, {1, 2}, std::vector<int32_t>{1, 1});
  Holder y(ir::DataType::kFloat32, {3}, std::vector<float>{});
  OpContext ctx = h.Context({&x.rt, &p.rt}, {&y.rt});
  ASSERT_TRUE(PreparePad(ctx).ok());
  EXPECT_FALSE(h.runner.marked);
  EXPECT_EQ(y.rt.shape, Dims{3});
  y.Set(std::vector<float>{-1, -1, -1});  // the interpreter's allocation
  ASSERT_TRUE(EvalPad(ctx).ok());
  EXPECT_EQ(h.runner.resizes, 0);
  std::vector<float> got(3);
  std::memcpy(got.data(), y.rt.data, 12);
  EXPECT_EQ(got, (std::vector<float>{0, 5, 0}));
}

}  // namespace
}  // namespace qforge::runtime
