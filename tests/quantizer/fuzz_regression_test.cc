// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Inputs the libFuzzer targets found (testdata/fuzz/TARGET/, see
// docs/robustness.md), replayed the way the target ran them, so the plain
// and sanitizer unit-test builds keep them fixed.
#include <string>

#include "calibration/stats_file.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "quantizer/quantize.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::TestDataDir;

// stats_fuzzer: a shard of the MNIST CNN's statistics without the
// statistics of a tensor whose op (kSameAsInput) could fall back to the
// output's own range. Quantize threw std::out_of_range (an eagerly
// evaluated std::optional::value_or fallback). Every scheme and method the
// target tries must give a status.
TEST(FuzzRegressionTest, StatsWithoutAnOutputsRangeQuantizeWithoutThrowing) {
  absl::StatusOr<ir::Model> model =
      formats::ReadTfliteFile(TestDataDir() + "/models/conv_fc_mnist.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<calibration::StatsFile> stats = calibration::ReadStatsFile(
      TestDataDir() + "/fuzz/stats_fuzzer/quantize_output_without_stats.json");
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_TRUE(calibration::CheckStatsMatchModel(*stats, *model, "fuzz").ok());
  for (bool int16 : {false, true}) {
    for (calibration::RangeMethod method :
         {calibration::RangeMethod::kMinMax,
          calibration::RangeMethod::kPercentile, calibration::RangeMethod::kKl,
          calibration::RangeMethod::kMse}) {
      quantizer::QuantizeOptions options;
      options.scheme =
          int16 ? quantizer::Scheme::kInt16x8 : quantizer::Scheme::kInt8;
      options.range.num_bits = int16 ? 16 : 8;
      options.range.method = method;
      absl::StatusOr<quantizer::QuantizeResult> result =
          quantizer::Quantize(*model, &*stats, options);
      // Ops without statistics stay float (or the quantizer refuses).
      if (result.ok()) {
        EXPECT_FALSE(result->model.subgraphs.empty());
      }
    }
  }
}

// tflite_reader_fuzzer: a zero_point vector (int64) at an offset that is a
// multiple of 4 but not of 8. The verifier of FlatBuffers 2.0 accepts it;
// unpacking it was a misaligned load.
TEST(FuzzRegressionTest, MisalignedZeroPointIsRefused) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      TestDataDir() +
      "/fuzz/tflite_reader_fuzzer/misaligned_zero_point.tflite");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(model.status().message().find(
                "quantization.zero_point (int64) is not 8-byte aligned"),
            std::string::npos)
      << model.status();
}

// tflite_reader_fuzzer: a constant whose element count fits int64 but
// whose byte count does not; the validator's size check overflowed.
TEST(FuzzRegressionTest, ByteSizeBeyondInt64IsRefused) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      TestDataDir() + "/fuzz/tflite_reader_fuzzer/byte_size_overflow.tflite");
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("has more bytes than int64 holds"),
            std::string::npos)
      << model.status();
}

// model_run_fuzzer: a variable tensor of 0 elements whose buffer holds
// bytes. Resetting it before a run passed a null pointer to memset/memcpy
// (undefined even for 0 bytes; the sanitizer build aborts on it).
TEST(FuzzRegressionTest, EmptyVariableWithABufferRuns) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      TestDataDir() +
      "/fuzz/model_run_fuzzer/empty_variable_with_buffer.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  runtime::InterpreterOptions options;
  options.threads = 1;
  absl::StatusOr<std::unique_ptr<runtime::Interpreter>> interpreter =
      runtime::Interpreter::Create(*model, options);
  ASSERT_TRUE(interpreter.ok()) << interpreter.status();
  const ir::HostTensor input(ir::DataType::kFloat32, {1, 28, 28, 1});
  // Any status will do; reaching it without undefined behaviour is the test.
  (void)(*interpreter)->Run({input}, nullptr);
}

}  // namespace
}  // namespace qforge
