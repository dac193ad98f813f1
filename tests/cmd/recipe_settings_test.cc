// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Recipe settings beside the per-op precision (docs/recipe.md): the range
// method, weight bits, block size and FULLY_CONNECTED granularity for the
// whole job, and a range method per rule. On the bundled MNIST CNN
// (testdata/models/conv_fc_mnist.tflite: CONV_2D, AVERAGE_POOL_2D, RESHAPE,
// FULLY_CONNECTED x2, SOFTMAX) and its ten digits. Each setting is checked
// against the flag it stands for: the same bytes.
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::RunCommand;

std::string Quantize(const std::string& flags) {
  return testing::QuantizeMnistCommand(flags);
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

// Quantizes with `flags` into dir/name and returns the file's bytes.
std::string QuantizeTo(const std::string& dir, const std::string& name,
                       const std::string& flags) {
  const testing::CommandResult r =
      RunCommand(Quantize(flags + " -o " + dir + "/" + name + " -q"));
  EXPECT_EQ(r.exit_code, 0) << flags << ": " << r.err;
  return testing::ReadText(dir + "/" + name);
}

// The quantization of the first output of the first op of `kind`.
ir::Quantization OutputParams(const std::string& path, ir::OpKind kind) {
  const ir::Model m = testing::ReadModel(path);
  const ir::Subgraph& sg = m.subgraphs[0];
  for (const ir::Operator& op : sg.operators) {
    if (op.kind == kind && sg.tensors[op.outputs[0]].quantization) {
      return *sg.tensors[op.outputs[0]].quantization;
    }
  }
  ADD_FAILURE() << "no quantized " << ir::GetOpInfo(kind).name << " output";
  return {};
}

TEST(RecipeSettingsTest, WeightOnlyRecipeSavesItsSettingsAndReproduces) {
  const std::string dir = testing::MakeTempDir();
  const std::string a =
      QuantizeTo(dir, "a.tflite",
                 "--scheme weight-only --weight-bits 4 --block-size 32 "
                 "--save-recipe " +
                     dir + "/r.json");
  const nlohmann::json r =
      nlohmann::json::parse(testing::ReadText(dir + "/r.json"));
  EXPECT_EQ(r["scheme"], "weight-only");
  EXPECT_EQ(r["weight_bits"], 4);
  EXPECT_EQ(r["block_size"], 32);
  EXPECT_TRUE(r["rules"].empty());
  EXPECT_EQ(QuantizeTo(dir, "b.tflite", "--recipe " + dir + "/r.json"), a);
  // Not the per-channel int8 form the flags' defaults would give.
  EXPECT_NE(QuantizeTo(dir, "c.tflite", "--scheme weight-only"), a);
}

TEST(RecipeSettingsTest, MethodAndFcGranularityAsTheFlags) {
  const std::string dir = testing::MakeTempDir();
  Write(dir + "/m.json", R"({"format": "qforge-recipe", "version": 1,
      "method": "minmax", "fc_granularity": "per-tensor", "rules": []})");
  const std::string flags =
      QuantizeTo(dir, "flags.tflite", "--method minmax --fc-per-tensor");
  EXPECT_EQ(QuantizeTo(dir, "recipe.tflite", "--recipe " + dir + "/m.json"),
            flags);
  // With --data the default method is mse: the settings are not a no-op.
  const std::string plain = QuantizeTo(dir, "plain.tflite", "");
  EXPECT_NE(plain, flags);
  // A flag given on the command line wins over the recipe's setting.
  EXPECT_EQ(
      QuantizeTo(dir, "mse.tflite", "--recipe " + dir + "/m.json --method mse"),
      QuantizeTo(dir, "mse_flags.tflite", "--method mse --fc-per-tensor"));
  // --save-recipe records the method given, and the granularity.
  QuantizeTo(
      dir, "s.tflite",
      "--method minmax --fc-per-tensor --save-recipe " + dir + "/s.json");
  const nlohmann::json s =
      nlohmann::json::parse(testing::ReadText(dir + "/s.json"));
  EXPECT_EQ(s["method"], "minmax");
  EXPECT_EQ(s["fc_granularity"], "per-tensor");
  EXPECT_EQ(QuantizeTo(dir, "s2.tflite", "--recipe " + dir + "/s.json"), flags);
}

// A rule's method sets the range of the outputs of the ops it selects: the
// conv's output takes the minmax model's parameters, while the fully
// connected layers (after AVERAGE_POOL_2D and RESHAPE, which share the
// conv's range) keep the default (mse) model's.
TEST(RecipeSettingsTest, RuleMethodSetsTheRangeOfThoseOpsOnly) {
  const std::string dir = testing::MakeTempDir();
  Write(dir + "/c.json", R"({"format": "qforge-recipe", "version": 1,
      "rules": [{"select": "CONV_2D", "method": "minmax"}]})");
  QuantizeTo(dir, "c.tflite", "--recipe " + dir + "/c.json");
  QuantizeTo(dir, "mse.tflite", "");
  QuantizeTo(dir, "minmax.tflite", "--method minmax");
  // The output parameters of the first `kind` op of model `name`.
  const auto params = [&](const std::string& name, ir::OpKind kind) {
    const ir::Quantization q = OutputParams(dir + "/" + name, kind);
    return std::make_pair(q.scale, q.zero_point);
  };
  EXPECT_EQ(params("c.tflite", ir::OpKind::kConv2D),
            params("minmax.tflite", ir::OpKind::kConv2D));
  // The rule is not a no-op: minmax and mse differ on the conv's output.
  ASSERT_NE(params("minmax.tflite", ir::OpKind::kConv2D),
            params("mse.tflite", ir::OpKind::kConv2D));
  EXPECT_EQ(params("c.tflite", ir::OpKind::kFullyConnected),
            params("mse.tflite", ir::OpKind::kFullyConnected));
}

TEST(RecipeSettingsTest, BadSettingsAreOneLineErrorsNamingTheField) {
  const std::string dir = testing::MakeTempDir();
  const std::string head = R"({"format": "qforge-recipe", "version": 1, )";
  const std::pair<std::string, std::string> cases[] = {
      {head + R"("block_size": 48, "rules": []})", "block_size: must be"},
      {head + R"("weight_bits": 2, "rules": []})", "weight_bits: must be"},
      {head + R"("fc_granularity": "rows", "rules": []})",
       "fc_granularity: must be"},
      {head + R"("method": "median", "rules": []})", "method: must be"},
      {head + R"("rules": [{"select": "CONV_2D", "method": "auto"}]})",
       "rules[0].method: 'auto': expected minmax"},
      {head + R"("rules": [{"select": "CONV_2D"}]})",
       "rules[0]: needs a precision, a method or both"},
      {head + R"("scheme": "weight-only", "rules": [{"select": "CONV_2D",
         "precision": "int8"}]})",
       "need scheme int8 or int16x8"},
  };
  for (const auto& [text, want] : cases) {
    Write(dir + "/bad.json", text);
    const testing::CommandResult r = RunCommand(
        Quantize("--recipe " + dir + "/bad.json -o " + dir + "/x.tflite"));
    EXPECT_EQ(r.exit_code, 2) << text << ": " << r.err;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/x.tflite"));
  }
}

}  // namespace
}  // namespace qforge
