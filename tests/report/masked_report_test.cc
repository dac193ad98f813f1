// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Masked sentinels in the report (report/metrics.h): the masked-attention
// pattern (testdata/patterns: a padding mask of float lowest() added to
// the scores) quantized with its mask clamped. The mask's QUANTIZE output
// and the masked scores hold lowest() in float and a value on the grid in
// the quantized model; the report counts those values as masked and
// leaves them out, so both layers read as the quantization they are, and
// the counts merge exactly across shards.
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;

TEST(MaskedReportTest, SentinelsAreCountedLeftOutAndMergeExactly) {
  const std::string dir = testing::MakeTempDir();
  const std::string p = testing::TestDataDir() + "/patterns/";
  const std::string data = " --data x=" + p +
                           "masked_attention_x.npy --data mask=" + p +
                           "masked_attention_mask.npy";
  const std::string model = p + "masked_attention.tflite";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " -q quantize " + model + data + " -o " +
                 dir + "/ma.tflite --keep-integer");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string report =
      QforgeBinary() + " -q report " + model + " " + dir + "/ma.tflite" + data;
  r = RunCommand(report + " --format json -o " + dir + "/whole.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j =
      nlohmann::json::parse(testing::ReadText(dir + "/whole.json"));
  uint64_t masked = 0;
  int layers_masked = 0;
  for (const nlohmann::json& l : j["layers"]) {
    const std::string name = l["name"];
    if (!l.contains("masked")) {
      EXPECT_NE(name, "mask_quantized");
      EXPECT_NE(name, "attn/masked");
      continue;
    }
    ++layers_masked;
    masked += l["masked"].get<uint64_t>();
    // What is left is the quantization of the unmasked values: a finite
    // error of a few steps at most, not 1e39 of them.
    EXPECT_LT(l["rmse_over_scale"].get<double>(), 2.0) << l.dump();
    EXPECT_GT(l["float_min"].get<double>(), -1e30) << l.dump();
    if (!l["sqnr_db"].is_null()) {
      EXPECT_GT(l["sqnr_db"].get<double>(), 20.0) << l.dump();
    }
  }
  EXPECT_EQ(layers_masked, 2);  // the mask and the masked scores
  // 71 of the 32 x 8 mask positions are padding; the scores hold them once
  // per query row (8 rows).
  EXPECT_EQ(masked, 71u + 8u * 71u);

  r = RunCommand(report);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  639 masked values left out of the error figures ("),
            std::string::npos)
      << r.out;
  r = RunCommand(report + " --format md");
  EXPECT_NE(r.out.find("639 masked values left out"), std::string::npos);
  r = RunCommand(report + " --format html");
  EXPECT_NE(r.out.find("639 masked values left out"), std::string::npos);

  // Shards merge into the same bytes.
  std::string parts;
  for (int k = 0; k < 3; ++k) {
    const std::string part = dir + "/s" + std::to_string(k) + ".part";
    r = RunCommand(report + " --shard " + std::to_string(k) + "/3 -o " + part);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    parts += " " + part;
  }
  r = RunCommand(QforgeBinary() + " merge-reports" + parts +
                 " --format json -o " + dir + "/merged.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ReadText(dir + "/merged.json"),
            testing::ReadText(dir + "/whole.json"));
}

}  // namespace
}  // namespace qforge
