// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Batch splitting (runtime/interpreter_batch.h): a batched run of a model
// whose samples are independent gives, for every sample, exactly the bits
// of the batch-1 run of that sample, whatever the thread count; models
// whose ops mix samples are not split. (Statistics of batched runs:
// tests/calibration/batch_stats_test.cc.)
#include "runtime/interpreter_batch.h"

#include <memory>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/options.h"
#include "runtime/interpreter.h"
#include "tests/support/batch_tensors.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge::testing {
namespace {

using DT = ir::DataType;

absl::StatusOr<ir::Model> CorpusModel(const std::string& rel) {
  return formats::ReadTfliteFile(CorpusDir() + "/" + rel);
}

const char* const kModels[] = {
    "models/tflite-support/mobilenet_v1_0.25_224_1_metadata_1.tflite",
    "models/mlperf-tiny/vww_96_float.tflite",
};

TEST(InterpreterBatch, SplitRunEqualsPerSampleRunsForAnyThreadCount) {
  if (CorpusDir().empty()) GTEST_SKIP() << "shared corpus absent";
  for (const char* rel : kModels) {
    SCOPED_TRACE(rel);
    absl::StatusOr<ir::Model> model = CorpusModel(rel);
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_TRUE(runtime::SamplesAreIndependent(*model, 0));
    constexpr int64_t kBatch = 5;
    const ir::HostTensor input = RandomInput(*model, kBatch, 7);
    // Reference: every sample alone, one thread.
    runtime::InterpreterOptions one;
    one.threads = 1;
    auto single = runtime::Interpreter::Create(*model, one);
    ASSERT_TRUE(single.ok()) << single.status();
    std::vector<ir::HostTensor> want;
    for (int64_t b = 0; b < kBatch; ++b) {
      ASSERT_TRUE((*single)->Run({Sample(input, b)}).ok());
      want.push_back((*single)->OutputHost(0));
    }
    for (int threads : {1, 2, 3}) {
      runtime::InterpreterOptions o;
      o.threads = threads;
      auto interp = runtime::Interpreter::Create(*model, o);
      ASSERT_TRUE(interp.ok()) << interp.status();
      for (int run = 0; run < 2; ++run) {  // workers are reused
        ASSERT_TRUE((*interp)->Run({input}).ok());
        const ir::HostTensor got = (*interp)->OutputHost(0);
        ASSERT_EQ(got.shape()[0], kBatch);
        for (int64_t b = 0; b < kBatch; ++b) {
          const ir::HostTensor s = Sample(got, b);
          ASSERT_EQ(s.shape(), want[b].shape());
          EXPECT_EQ(std::memcmp(s.data(), want[b].data(), s.ByteSize()), 0)
              << "threads " << threads << " sample " << b;
        }
      }
      // A batch-1 run afterwards still works and matches.
      ASSERT_TRUE((*interp)->Run({Sample(input, 3)}).ok());
      const ir::HostTensor again = (*interp)->OutputHost(0);
      EXPECT_EQ(std::memcmp(again.data(), want[3].data(), again.ByteSize()), 0);
    }
  }
}

// MEAN over the batch axis mixes samples: no split, and the result is the
// mean over the batch.
TEST(InterpreterBatch, OpsThatMixSamplesAreNotSplit) {
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 4}, "x");
  const int axes = m.Constant<int32_t>({1}, {0}, "axes");
  const int y = m.Output(DT::kFloat32, {1, 4}, "y");
  ir::ReducerOptions keep;
  keep.keep_dims = true;
  m.Op(ir::OpKind::kMean, {x, axes}, {y}, keep);
  EXPECT_FALSE(runtime::SamplesAreIndependent(m.model(), 0));
  auto out = m.Run({MakeTensor<float>({2, 4}, {1, 2, 3, 4, 3, 4, 5, 6})}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ((*out)[0].shape(), (std::vector<int64_t>{1, 4}));
  auto v = (*out)[0].Flat<float>();
  EXPECT_EQ(std::vector<float>(v.begin(), v.end()),
            (std::vector<float>{2, 3, 4, 5}));
}

TEST(InterpreterBatch, PerSampleOpsQualify) {
  // RELU then MEAN over the non-batch axis: independent.
  OpModel m;
  const int x = m.Input(DT::kFloat32, {1, 4}, "x");
  const int r = m.Tensor(DT::kFloat32, {1, 4}, "r");
  const int axes = m.Constant<int32_t>({1}, {1}, "axes");
  const int y = m.Output(DT::kFloat32, {1, 1}, "y");
  m.Op(ir::OpKind::kRelu, {x}, {r});
  ir::ReducerOptions keep;
  keep.keep_dims = true;
  m.Op(ir::OpKind::kMean, {r, axes}, {y}, keep);
  EXPECT_TRUE(runtime::SamplesAreIndependent(m.model(), 0));
  auto out = m.Run(
      {MakeTensor<float>({3, 4}, {1, -2, 3, 4, -1, -1, -1, 8, 0, 0, 0, 0})}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ((*out)[0].shape(), (std::vector<int64_t>{3, 1}));
  auto v = (*out)[0].Flat<float>();
  EXPECT_EQ(std::vector<float>(v.begin(), v.end()),
            (std::vector<float>{2, 2, 0}));
}

TEST(InterpreterBatch, ReshapeMustKeepTheBatch) {
  for (int32_t first : {-1, 1}) {
    OpModel m;
    const int x = m.Input(DT::kFloat32, {1, 2, 2}, "x");
    const int shape = m.Constant<int32_t>({2}, {first, 4}, "shape");
    const int y = m.Output(DT::kFloat32, {1, 4}, "y");
    m.Op(ir::OpKind::kReshape, {x, shape}, {y});
    EXPECT_EQ(runtime::SamplesAreIndependent(m.model(), 0), first == -1);
  }
}

}  // namespace
}  // namespace qforge::testing
