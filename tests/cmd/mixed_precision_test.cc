// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Per-op precision from the command line on the bundled MNIST CNN
// (testdata/models/conv_fc_mnist.tflite: CONV_2D, AVERAGE_POOL_2D, RESHAPE,
// FULLY_CONNECTED x2, SOFTMAX) and its ten digits: --int16-op, recipes
// (--save-recipe reproduces a model byte for byte), --target-sqnr.
// LiteRT runs these forms in tests/interop/pattern_litert.sh.
#include <filesystem>
#include <fstream>
#include <string>

#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

std::string Quantize(const std::string& flags) {
  return testing::QuantizeMnistCommand(flags);
}

ir::Model Read(const std::string& path) { return testing::ReadModel(path); }

// The type of the first output of the first op of kind `kind`.
ir::DataType OutputType(const ir::Model& m, ir::OpKind kind) {
  const ir::Subgraph& sg = m.subgraphs[0];
  for (const ir::Operator& op : sg.operators) {
    if (op.kind == kind) return sg.tensors[op.outputs[0]].type;
  }
  return ir::DataType::kBool;  // absent
}

TEST(MixedPrecisionTest, Int16OpRunsThatOpInInt16WithQuantizeAtBorders) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r =
      RunCommand(Quantize("--int16-op CONV_2D -o " + dir + "/m.tflite -q"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ir::Model m = Read(dir + "/m.tflite");
  EXPECT_EQ(OutputType(m, ir::OpKind::kConv2D), ir::DataType::kInt16);
  EXPECT_EQ(OutputType(m, ir::OpKind::kFullyConnected), ir::DataType::kInt8);
  // float -> int16 in front of the conv, int16 -> int8 behind it.
  int quantizes = 0;
  for (const ir::Operator& op : m.subgraphs[0].operators) {
    quantizes += op.kind == ir::OpKind::kQuantize;
  }
  EXPECT_EQ(quantizes, 2);
}

TEST(MixedPrecisionTest, SavedRecipeReproducesTheModel) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r = RunCommand(
      Quantize("--int16-op FULLY_CONNECTED --float-op SOFTMAX -o " + dir +
               "/a.tflite --save-recipe " + dir + "/r.json -q"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json recipe =
      nlohmann::json::parse(testing::ReadText(dir + "/r.json"));
  ASSERT_EQ(recipe["rules"].size(), 6u);
  EXPECT_EQ(recipe["rules"][3]["op"], "FULLY_CONNECTED");
  EXPECT_EQ(recipe["rules"][3]["precision"], "int16");
  EXPECT_EQ(recipe["rules"][5]["precision"], "float");
  EXPECT_EQ(recipe["rules"][0]["precision"], "int8");
  r = RunCommand(
      Quantize("--recipe " + dir + "/r.json -o " + dir + "/b.tflite -q"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ReadText(dir + "/a.tflite"),
            testing::ReadText(dir + "/b.tflite"));
}

TEST(MixedPrecisionTest, BadRecipesAreOneLineErrorsNamingTheField) {
  const std::string dir = testing::MakeTempDir();
  const std::pair<std::string, std::string> cases[] = {
      {R"({"format": "qforge-recipe", "version": 1, "rules": [{"select":
         "CONV_2D", "precision": "int2"}]})",
       "rule 0: precision 'int2': expected int8, int4, int16 or float"},
      {R"({"format": "qforge-recipe", "version": 2, "rules": []})",
       "version: 2 is not supported"},
      {R"({"format": "qforge-recipe", "version": 1, "rules": [{"select":
         "NO_SUCH_OP", "precision": "int8"}]})",
       "rule 0 NO_SUCH_OP: matches no op"},
      {R"({"format": "qforge-recipe", "version": 1, "rules": [{"select": 3,
         "precision": "int8"}]})",
       "rules[0].select: must be a string"},
      {R"({"format": "qforge-recipe", "version": 1, "rules": [],
         "extra": 1})",
       "extra: unknown key"},
  };
  for (const auto& [text, want] : cases) {
    {
      std::ofstream f(dir + "/bad.json");
      f << text;
    }
    const testing::CommandResult r = RunCommand(
        Quantize("--recipe " + dir + "/bad.json -o " + dir + "/x.tflite"));
    EXPECT_EQ(r.exit_code, 2) << text;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/x.tflite"));
  }
}

// All int8 reaches ~50 dB on the check digits (3 and 7), all int16x8 ~60
// (interop_quantize_bundled measures both in LiteRT); a 55 dB target needs
// some int16 ops. 200 dB needs every op float (float outputs are exact);
// allowed one float op, the search fails: nothing written, exit 4.
TEST(MixedPrecisionTest, TargetSqnrRaisesOpsUntilMetOrExitsFour) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r =
      RunCommand(Quantize("--target-sqnr 55 -o " + dir +
                          "/t.tflite --save-recipe " + dir + "/t.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("target-sqnr: as asked: worst output"),
            std::string::npos)
      << r.err;
  const nlohmann::json recipe =
      nlohmann::json::parse(testing::ReadText(dir + "/t.json"));
  int int16 = 0;
  for (const auto& rule : recipe["rules"])
    int16 += rule["precision"] == "int16";
  EXPECT_GT(int16, 0);
  r = RunCommand(
      Quantize("--target-sqnr 200 --target-steps 1 -o " + dir + "/u.tflite"));
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("--target-sqnr 200.00 dB not met"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/u.tflite"));
}

// --float-weights float16: the ops a mixed model keeps float read their
// weights through DEQUANTIZE from float16 constants, as in the float16
// scheme; the integer ops are untouched.
TEST(MixedPrecisionTest, FloatWeightsFloat16HalvesTheFloatOpsWeights) {
  const std::string dir = testing::MakeTempDir();
  for (const char* f : {"float32", "float16"}) {
    const testing::CommandResult r = RunCommand(
        Quantize(std::string("--float-op FULLY_CONNECTED --float-weights ") +
                 f + " -o " + dir + "/" + f + ".tflite -q"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const ir::Model m = Read(dir + "/float16.tflite");
  const ir::Subgraph& sg = m.subgraphs[0];
  int fc = 0;
  for (const ir::Operator& op : sg.operators) {
    if (op.kind != ir::OpKind::kFullyConnected) continue;
    ++fc;
    EXPECT_EQ(sg.tensors[op.outputs[0]].type, ir::DataType::kFloat32);
    // The weight comes from a DEQUANTIZE of a float16 constant.
    const int32_t w = op.inputs[1];
    bool from_half = false;
    for (const ir::Operator& d : sg.operators) {
      if (d.kind == ir::OpKind::kDequantize && d.outputs[0] == w) {
        from_half = sg.tensors[d.inputs[0]].type == ir::DataType::kFloat16;
      }
    }
    EXPECT_TRUE(from_half) << sg.tensors[w].name;
  }
  EXPECT_EQ(fc, 2);
  EXPECT_EQ(OutputType(m, ir::OpKind::kConv2D), ir::DataType::kInt8);
  // The two FC weight matrices (50,176 + 320 floats) shrink by 2 bytes a
  // value; the DEQUANTIZE ops and float16 tensors cost a few hundred bytes.
  const size_t f32 = testing::ReadText(dir + "/float32.tflite").size();
  const size_t f16 = testing::ReadText(dir + "/float16.tflite").size();
  EXPECT_GE(f32 - f16, 2u * (50176 + 320) - 1024);
  const testing::CommandResult r = RunCommand(Quantize(
      "--scheme dynamic --float-weights float16 -o " + dir + "/d.tflite"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

}  // namespace
}  // namespace qforge
