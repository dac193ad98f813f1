// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The strided histogram starts each sample at index (sample % stride), so
// `stride` consecutive samples count every position of every tensor exactly
// once (a stride that restarted at 0 would only ever see positions 0,
// stride, ...: on small tensors a few fixed channels).
#include <vector>

#include "calibration/collector.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge::calibration {
namespace {

TEST(CollectorStrideTest, StrideConsecutiveSamplesCountEveryValueOnce) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      testing::TestDataDir() + "/models/hello_world_no_quant.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  auto interp = runtime::Interpreter::Create(*model);
  ASSERT_TRUE(interp.ok()) << interp.status();
  constexpr int kStride = 3;
  StatsCollector collector(*model, kStride);
  ir::HostTensor x(ir::DataType::kFloat32, {1, 1});
  x.Flat<float>()[0] = 1.25f;
  for (uint64_t sample = 0; sample < kStride; ++sample) {
    collector.SetSample(sample + 6);  // any run of `stride` indices
    ASSERT_TRUE((*interp)->Run({x}, &collector).ok());
  }
  const std::vector<TensorStats> stats = collector.Finish();
  ASSERT_FALSE(stats.empty());
  bool saw_small = false, saw_wide = false;
  for (const TensorStats& t : stats) {
    // count = every value of the 3 runs; the histogram: each position once.
    ASSERT_EQ(t.count % kStride, 0u) << t.name;
    EXPECT_EQ(t.histogram.Total(), t.count / kStride) << t.name;
    saw_small |= t.count / kStride == 1;
    saw_wide |= t.count / kStride >= 16;
  }
  EXPECT_TRUE(saw_small);  // the 1-value output: seen by one sample of 3
  EXPECT_TRUE(saw_wide);   // the 16-wide hidden layers
}

}  // namespace
}  // namespace qforge::calibration
