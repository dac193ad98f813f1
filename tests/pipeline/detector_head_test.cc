// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The raw detector head kept float for LiteRT (pipeline/detector_head.h),
// on the corpus' MediaPipe detectors.
#include "pipeline/detector_head.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace qforge::pipeline {
namespace {

class DetectorHeadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (qforge::testing::CorpusDir().empty()) GTEST_SKIP() << "no corpus";
  }
  static ir::Model Model(const std::string& name) {
    return qforge::testing::ReadModel(qforge::testing::CorpusDir() +
                                      "/models/mediapipe/" + name);
  }
  static std::vector<std::string> Ops(
      const ir::Model& m, const quantizer::QuantizeOptions& options = {},
      const std::vector<report::TaskOverride>& tasks = {}) {
    absl::StatusOr<DetectorHeadPlan> plan = PlanDetectorHead(m, options, tasks);
    EXPECT_TRUE(plan.ok()) << plan.status();
    if (!plan.ok()) return {};
    EXPECT_EQ(plan->ops.size(), plan->rules.size());
    for (const quantizer::PrecisionRule& r : plan->rules) {
      EXPECT_EQ(r.precision, "float");
      EXPECT_EQ(r.origin, kDetectorHeadFloatReason);
    }
    return plan->ops;
  }
};

// Two score and two box convolutions, their RESHAPEs, the two
// CONCATENATIONs; op indices of the folded model (face_detection_back's
// float16 weights' DEQUANTIZE ops folded away).
TEST_F(DetectorHeadTest, RawDetectorsKeepTheirHeadFloat) {
  EXPECT_EQ(Ops(Model("palm_detection.tflite")),
            (std::vector<std::string>{
                "op 109 CONV_2D", "op 110 CONV_2D", "op 111 CONV_2D",
                "op 112 CONV_2D", "op 113 RESHAPE", "op 114 RESHAPE",
                "op 115 RESHAPE", "op 116 RESHAPE", "op 117 CONCATENATION",
                "op 118 CONCATENATION"}));
  for (const char* m :
       {"face_detection_back.tflite", "pose_detection__20201209.tflite",
        "face_detection_front.tflite"}) {
    const std::vector<std::string> ops = Ops(Model(m));
    ASSERT_EQ(ops.size(), 10u) << m;
    EXPECT_NE(ops.front().find("CONV_2D"), std::string::npos) << m;
    EXPECT_NE(ops.back().find("CONCATENATION"), std::string::npos) << m;
  }
}

TEST_F(DetectorHeadTest, OnlyLitertInt8AndNoOtherModel) {
  const ir::Model palm = Model("palm_detection.tflite");
  quantizer::QuantizeOptions o;
  o.runtime = runtime::Runtime::kTflm;
  EXPECT_TRUE(Ops(palm, o).empty());
  o = {};
  o.scheme = quantizer::Scheme::kInt16x8;
  EXPECT_TRUE(Ops(palm, o).empty());
  o = {};
  o.output_type = ir::DataType::kInt8;
  EXPECT_TRUE(Ops(palm, o).empty());
  // Landmarks and scores, no detector.
  EXPECT_TRUE(Ops(Model("hand_landmark__20201104.tflite")).empty());
  // --task judges the boxes as something else: no detector.
  EXPECT_TRUE(Ops(palm, {}, {{"0", report::TaskKind::kLandmarks}}).empty());
}

TEST_F(DetectorHeadTest, OpsTheUserAskedForKeepTheirPrecision) {
  quantizer::QuantizeOptions o;
  o.rules.push_back({"109", "int8", "--int8-op"});
  const std::vector<std::string> ops = Ops(Model("palm_detection.tflite"), o);
  ASSERT_EQ(ops.size(), 9u);
  EXPECT_EQ(ops.front(), "op 110 CONV_2D");
}

}  // namespace
}  // namespace qforge::pipeline
