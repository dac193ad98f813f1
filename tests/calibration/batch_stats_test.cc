// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Calibration statistics of a batched run (split into samples by the
// interpreter, runtime/interpreter_batch.h) equal those of the same samples
// run one by one, field by field and bucket by bucket, with 1 and 2
// threads.
#include <string>
#include <vector>

#include "calibration/collector.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "runtime/interpreter.h"
#include "tests/support/batch_tensors.h"
#include "tests/support/test_paths.h"

namespace qforge::testing {
namespace {

const char kModel[] = "models/mlperf-tiny/vww_96_float.tflite";

TEST(InterpreterBatch, StatisticsOfBatchedRunEqualPerSampleRuns) {
  if (CorpusDir().empty()) GTEST_SKIP() << "shared corpus absent";
  absl::StatusOr<ir::Model> model =
      formats::ReadTfliteFile(CorpusDir() + "/" + kModel);
  ASSERT_TRUE(model.ok()) << model.status();
  const ir::HostTensor input = RandomInput(*model, 4, 11);
  calibration::StatsCollector batched(*model, 7), single(*model, 7);
  for (int threads : {1, 2}) {
    runtime::InterpreterOptions o;
    o.threads = threads;
    auto interp = runtime::Interpreter::Create(*model, o);
    ASSERT_TRUE(interp.ok()) << interp.status();
    ASSERT_TRUE((*interp)->Run({input}, &batched).ok());
    for (int64_t b = 0; b < 4; ++b) {
      ASSERT_TRUE((*interp)->Run({Sample(input, b)}, &single).ok());
    }
  }
  const std::vector<calibration::TensorStats> a = batched.Finish();
  const std::vector<calibration::TensorStats> b = single.Finish();
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(a[i] == b[i]) << a[i].name;
    EXPECT_EQ(a[i].count, b[i].count) << a[i].name;
  }
}

}  // namespace
}  // namespace qforge::testing
