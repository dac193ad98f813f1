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
       "rule 0: precision 'int2': expected int8, int4, int16, float, float16 "
       "or float32"},
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
// (interop_quantize_bundled measures both in LiteRT); on TFLite Micro,
// whose ladder is int8 -> int16x8 (no float), where all int8 reaches ~45
// dB and all int16x8 ~53, a 50 dB target needs some int16 ops, and 200 dB,
// which needs every op float (float outputs are exact), cannot be met: nothing
// written, exit 4.
TEST(MixedPrecisionTest, TargetSqnrRaisesOpsUntilMetOrExitsFour) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r =
      RunCommand(Quantize("--runtime tflm --target-sqnr 50 -o " + dir +
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
      Quantize("--runtime tflm --target-sqnr 200 -o " + dir + "/u.tflite"));
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

// Whether op `op`'s weight (input 1) is read through a DEQUANTIZE of a
// float16 constant.
bool WeightFromHalf(const ir::Model& m, const ir::Operator& op) {
  const ir::Subgraph& sg = m.subgraphs[0];
  for (const ir::Operator& d : sg.operators) {
    if (d.kind == ir::OpKind::kDequantize && d.outputs[0] == op.inputs[1]) {
      return sg.tensors[d.inputs[0]].type == ir::DataType::kFloat16;
    }
  }
  return false;
}

// Recipe precisions "float16" and "float32" choose the weights of one float
// op, over --float-weights: MNIST's FCs are ops 3 and 4.
TEST(MixedPrecisionTest, Float16AndFloat32PrecisionsPerOp) {
  const std::string dir = testing::MakeTempDir();
  {
    std::ofstream f(dir + "/r.json");
    f << R"({"format": "qforge-recipe", "version": 1, "rules": [
      {"select": "3", "precision": "float16"},
      {"select": "4", "precision": "float32"}]})";
  }
  for (const char* weights : {"float32", "float16"}) {
    const std::string out = dir + "/" + weights + ".tflite";
    const testing::CommandResult r = RunCommand(
        Quantize("--recipe " + dir + "/r.json --float-weights " + weights +
                 " -o " + out + " --save-recipe " + dir + "/saved.json -q"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const ir::Model m = Read(out);
    std::vector<const ir::Operator*> fcs;
    for (const ir::Operator& op : m.subgraphs[0].operators) {
      if (op.kind == ir::OpKind::kFullyConnected) fcs.push_back(&op);
    }
    ASSERT_EQ(fcs.size(), 2u);
    EXPECT_TRUE(WeightFromHalf(m, *fcs[0])) << weights;
    EXPECT_FALSE(WeightFromHalf(m, *fcs[1])) << weights;
    EXPECT_EQ(m.subgraphs[0].tensors[fcs[1]->inputs[1]].type,
              ir::DataType::kFloat32);
    const nlohmann::json saved =
        nlohmann::json::parse(testing::ReadText(dir + "/saved.json"));
    EXPECT_EQ(saved["rules"][3]["precision"], "float16");
    EXPECT_EQ(saved["rules"][4]["precision"], "float32");
  }
  EXPECT_EQ(testing::ReadText(dir + "/float32.tflite"),
            testing::ReadText(dir + "/float16.tflite"));
}

// --target-sqnr with weight recovery: the search quantizes the recovered
// weights, and an op it raises to float takes the float model's own
// weights back. 200 dB needs every op float32, whose outputs are then
// exactly the float model's: met only if no recovered weight is left.
TEST(MixedPrecisionTest, TargetSqnrWithRecoveryRestoresFloatWeights) {
  const std::string dir = testing::MakeTempDir();
  const testing::CommandResult r = RunCommand(
      Quantize("--target-sqnr 200 --target-steps 64 --bias-correction -o " +
               dir + "/t.tflite --save-recipe " + dir + "/t.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("op 3 FULLY_CONNECTED -> float32"), std::string::npos)
      << r.err;
  const nlohmann::json recipe =
      nlohmann::json::parse(testing::ReadText(dir + "/t.json"));
  // Ops with weights end in float32; the others in float (the same).
  for (const auto& rule : recipe["rules"]) {
    EXPECT_TRUE(rule["precision"] == "float32" || rule["precision"] == "float")
        << rule.dump();
  }
}

// The same on weights stored as float16 behind DEQUANTIZE (MediaPipe's
// form; made here by --scheme float16): the rules and the search name ops
// of the model with those DEQUANTIZE ops folded, recovery and the
// restoring of float weights work on the file's ops, so indices must be
// mapped between the two. Before they were, the search restored the wrong
// ops (the file's op 3 is not the folded model's op 3), recovered weights
// stayed in ops raised to float32, and 200 dB was never met (exit 4).
TEST(MixedPrecisionTest, TargetSqnrWithRecoveryRestoresFloat16Weights) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --scheme float16 -q -o " + dir +
                 "/f16.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " quantize " + dir + "/f16.tflite --data '" +
                 TestDataDir() +
                 "/mnist/*.png' --scale 0.003921569 --target-sqnr 200 "
                 "--target-steps 64 --bias-correction -o " +
                 dir + "/t.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("bias-correction: 3 layers"), std::string::npos)
      << r.err;
}

// The recipe --target-sqnr saves records its check set (holdout_every 4), so
// --recipe on the same data calibrates on the same samples and writes the
// same bytes.
TEST(MixedPrecisionTest, TargetSqnrRecipeReproducesTheModel) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r =
      RunCommand(Quantize("--target-sqnr 55 -o " + dir +
                          "/t.tflite --save-recipe " + dir + "/t.json -q"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json recipe =
      nlohmann::json::parse(testing::ReadText(dir + "/t.json"));
  EXPECT_EQ(recipe["holdout_every"], 4);
  r = RunCommand(
      Quantize("--recipe " + dir + "/t.json -o " + dir + "/r.tflite -q"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ReadText(dir + "/t.tflite"),
            testing::ReadText(dir + "/r.tflite"));
}

// The report -> fix loop: the report's suggestions name ops by the float
// model's op index (the op that writes the tensor they name, as inspect
// --ops lists it) with a quantize flag; each flag pasted back into quantize
// gives that op the precision it suggests.
TEST(MixedPrecisionTest, ReportSuggestionsPasteBackIntoQuantize) {
  const std::string dir = testing::MakeTempDir();
  const std::string model = TestDataDir() + "/models/conv_fc_mnist.tflite";
  testing::CommandResult r = RunCommand(Quantize("-o " + dir + "/q.tflite -q"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " report " + model + " " + dir +
                 "/q.tflite --data '" + TestDataDir() +
                 "/mnist/*.png' --scale 0.003921569 -q --format json -o " +
                 dir + "/r.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report =
      nlohmann::json::parse(testing::ReadText(dir + "/r.json"));
  r = RunCommand(QforgeBinary() + " inspect " + model + " --ops --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json ops = nlohmann::json::parse(r.out)["op_list"];
  ASSERT_EQ(ops.size(), 6u);
  const nlohmann::json& suggestions = report["suggestions"];
  ASSERT_FALSE(suggestions.empty()) << report.dump();
  for (const auto& g : suggestions) {
    const int op = g["float_op"].get<int>();
    ASSERT_GE(op, 0);
    ASSERT_LT(op, 6);
    EXPECT_EQ(ops[op]["outputs"][0], g["output"]) << g.dump();
    EXPECT_EQ(ops[op]["op"], g["op"]) << g.dump();
    const std::string flag = g["flag"].get<std::string>();
    r = RunCommand(Quantize(flag + " -o " + dir + "/f.tflite --save-recipe " +
                            dir + "/f.json -q"));
    ASSERT_EQ(r.exit_code, 0) << flag << ": " << r.err;
    const nlohmann::json recipe =
        nlohmann::json::parse(testing::ReadText(dir + "/f.json"));
    EXPECT_EQ(recipe["rules"][op]["precision"],
              flag.rfind("--int16-op", 0) == 0 ? "int16" : "float")
        << flag;
  }
}

// The same loop on weights stored as float16 behind DEQUANTIZE (made here
// by --scheme float16). quantize numbers ops with those DEQUANTIZE ops
// folded away, so the report must too: each suggestion's index names, in
// the recipe quantize saves, the op and output the suggestion names, at
// the precision it asks. (The report used the file's index, which the
// DEQUANTIZE ops shift: the flag raised another op.)
TEST(MixedPrecisionTest, ReportSuggestionsPasteBackOnFloat16Weights) {
  const std::string dir = testing::MakeTempDir();
  const std::string data =
      " --data '" + TestDataDir() + "/mnist/*.png' --scale 0.003921569 -q ";
  const std::string f16 = dir + "/f16.tflite";
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + TestDataDir() +
                 "/models/conv_fc_mnist.tflite --scheme float16 -q -o " + f16);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " quantize " + f16 + data + "-o " + dir +
                 "/q.tflite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " report " + f16 + " " + dir + "/q.tflite" +
                 data + "--format json -o " + dir + "/r.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json suggestions =
      nlohmann::json::parse(testing::ReadText(dir + "/r.json"))["suggestions"];
  ASSERT_FALSE(suggestions.empty());
  for (const auto& g : suggestions) {
    const std::string flag = g["flag"].get<std::string>();
    r = RunCommand(QforgeBinary() + " quantize " + f16 + data + flag + " -o " +
                   dir + "/f.tflite --save-recipe " + dir + "/f.json");
    ASSERT_EQ(r.exit_code, 0) << flag << ": " << r.err;
    const nlohmann::json rules =
        nlohmann::json::parse(testing::ReadText(dir + "/f.json"))["rules"];
    const int op = g["float_op"].get<int>();
    ASSERT_GE(op, 0);
    ASSERT_LT(op, static_cast<int>(rules.size())) << g.dump();
    EXPECT_EQ(rules[op]["output"], g["output"]) << g.dump();
    EXPECT_EQ(rules[op]["op"], g["op"]) << g.dump();
    EXPECT_EQ(rules[op]["precision"],
              flag.rfind("--int16-op", 0) == 0 ? "int16" : "float")
        << flag;
  }
}

// --target-metric top1: MNIST's SOFTMAX output is a classifier; int8 agrees
// with float on both check digits, so 100% is met as asked. mean: the one
// output's SQNR, as worst.
TEST(MixedPrecisionTest, TargetMetricTop1AndMean) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r = RunCommand(Quantize(
      "--target-sqnr 100 --target-metric top1 -o " + dir + "/a.tflite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("as asked: top-1 agreement 100.0%"), std::string::npos)
      << r.err;
  r = RunCommand(Quantize("--target-sqnr 55 --target-metric mean -o " + dir +
                          "/b.tflite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("as asked: mean output"), std::string::npos) << r.err;
  r = RunCommand(Quantize("--max-size 1000 -o " + dir + "/c.tflite"));
  EXPECT_EQ(r.exit_code, 1) << r.err;  // a bound without a search
}

// Bounds: 200 dB needs every op float; --max-float-ops 0 and a --max-size
// below the float model's stop the search (exit 4, nothing written, the
// bound named).
TEST(MixedPrecisionTest, TargetSqnrBoundsStopTheSearch) {
  const std::string dir = testing::MakeTempDir();
  const std::pair<std::string, std::string> cases[] = {
      {"--max-float-ops 0", "over --max-float-ops 0"},
      {"--max-size 120000", "over --max-size 120000"},
  };
  for (const auto& [flag, want] : cases) {
    const testing::CommandResult r =
        RunCommand(Quantize("--target-sqnr 200 --target-steps 64 " + flag +
                            " -o " + dir + "/x.tflite"));
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/x.tflite"));
  }
}

// A target not met names the layers still adding the most noise by the
// float model's op index, as --float-op takes them: each pasted back into
// quantize makes that op float.
TEST(MixedPrecisionTest, UnmetTargetNamesCulpritsQuantizeTakesBack) {
  const std::string dir = testing::MakeTempDir();
  testing::CommandResult r = RunCommand(
      Quantize("--runtime tflm --target-sqnr 200 --target-steps 0 -o " + dir +
               "/x.tflite"));
  ASSERT_EQ(r.exit_code, 4) << r.err;
  const size_t at = r.err.find("the noisiest layers left: ");
  ASSERT_NE(at, std::string::npos) << r.err;
  std::vector<std::string> ops;
  for (size_t p = r.err.find("op ", at); p != std::string::npos;
       p = r.err.find("; op ", p + 1)) {
    const size_t start = r.err.find("op ", p) + 3;
    ops.push_back(r.err.substr(start, r.err.find(' ', start) - start));
  }
  ASSERT_FALSE(ops.empty()) << r.err;
  for (const std::string& op : ops) {
    r = RunCommand(Quantize("--float-op " + op + " -o " + dir +
                            "/f.tflite --save-recipe " + dir + "/f.json -q"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json recipe =
        nlohmann::json::parse(testing::ReadText(dir + "/f.json"));
    EXPECT_EQ(recipe["rules"][std::stoi(op)]["precision"], "float") << op;
  }
}

}  // namespace
}  // namespace qforge
