// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Matching the quantized model's tensors to the float model's by name, and
// the choice of output format.
#include "report/tensor_match.h"

#include "gtest/gtest.h"
#include "report/render.h"

namespace qforge::report {
namespace {

TEST(TensorMatchTest, NamesAndQuantizerSuffixes) {
  const std::map<std::string, int> f = {
      {"conv/out", 3}, {"input", 0}, {"probs", 9}, {"probs_int", 12}};
  EXPECT_EQ(MatchFloatName("conv/out", f), "conv/out");
  EXPECT_EQ(MatchFloatName("input_quantized", f), "input");
  EXPECT_EQ(MatchFloatName("conv/out_requantized", f), "conv/out");
  // A float tensor that happens to end in a suffix wins over stripping.
  EXPECT_EQ(MatchFloatName("probs_int", f), "probs_int");
  EXPECT_EQ(MatchFloatName("other_int", f), "");
  EXPECT_EQ(MatchFloatName("conv/out_dequantized", f), "");
}

TEST(TensorMatchTest, FormatFromExtension) {
  EXPECT_EQ(FormatForPath("r.json"), Format::kJson);
  EXPECT_EQ(FormatForPath("dir/R.HTML"), Format::kHtml);
  EXPECT_EQ(FormatForPath("r.md"), Format::kMarkdown);
  EXPECT_EQ(FormatForPath("r.txt"), Format::kText);
  EXPECT_EQ(FormatForPath("report"), Format::kText);
  EXPECT_FALSE(ParseFormat("pdf").ok());
  EXPECT_EQ(*ParseFormat("md"), Format::kMarkdown);
}

}  // namespace
}  // namespace qforge::report
