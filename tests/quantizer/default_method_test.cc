// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The default range method of `qforge quantize`: mse when the statistics'
// histograms hold every value (--data, or calibrate --histogram-stride 1),
// minmax on subsampled histograms (calibrate's default stride), whose
// histograms can miss whole channels. The summary line names the method.
#include <string>

#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;

TEST(DefaultMethodTest, MseOnExactHistogramsMinmaxOtherwise) {
  const std::string dir = testing::MakeTempDir();
  const std::string model =
      testing::TestDataDir() + "/models/conv_fc_mnist.tflite";
  const std::string digits = testing::TestDataDir() + "/mnist";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + model + " --data " + digits +
                 " -o " + dir + "/a.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("quantize (int8, mse)"), std::string::npos) << r.err;
  for (const char* stride : {"1", "7"}) {
    const std::string stats = dir + "/stats" + stride + ".json";
    ASSERT_EQ(RunCommand(QforgeBinary() + " calibrate " + model + " --data " +
                         digits + " --histogram-stride " + stride + " -o " +
                         stats + " -q")
                  .exit_code,
              0);
    r = RunCommand(QforgeBinary() + " quantize " + model + " --stats " + stats +
                   " -o " + dir + "/b" + stride + ".tflite");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string expected = std::string(stride) == "1"
                                     ? "quantize (int8, mse)"
                                     : "quantize (int8, minmax)";
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  }
  // An explicit method wins.
  r = RunCommand(QforgeBinary() + " quantize " + model + " --data " + digits +
                 " --method minmax -o " + dir + "/c.tflite");
  EXPECT_NE(r.err.find("quantize (int8, minmax)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace qforge
