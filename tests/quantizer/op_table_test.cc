// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The op table (ir/ops.def) is consistent: every integer form the quantizer
// offers has a kernel that runs it, every integer kernel is reachable from a
// spec (or says why not), hybrid forms agree with the spec's weights, no
// kind, name or builtin code is listed twice, and the registries every
// layer builds from the table agree with it. A deliberately broken table
// (testdata/broken_ops.def) shows each rule catches what it should.
#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "quantizer/op_quant_spec.h"
#include "runtime/kernel.h"
#include "tests/quantizer/op_table_check.h"
#include "tests/support/test_paths.h"

namespace qforge::testing {

std::vector<std::string> CheckOpTable(const std::vector<TableRow>& rows) {
  std::vector<std::string> problems;
  auto fail = [&](const TableRow& r, const std::string& what) {
    problems.push_back(absl::StrCat(r.kind, ": ", what));
  };
  std::map<std::string, int> kinds, names;
  std::map<int, int> codes;
  for (const TableRow& r : rows) {
    if (++kinds[r.kind] == 2) fail(r, "kind listed twice");
    if (++names[r.name] == 2) fail(r, "TFLite name listed twice");
    if (r.code >= 0 && ++codes[r.code] == 2)
      fail(r, "builtin code listed twice");
    const bool spec = r.quant == QuantColumn::kSpec;
    if (spec && !r.int_kernel && !r.float_any_type) {
      fail(r, "Q offers an integer form but there is no IK and no FK_ANY");
    }
    if (r.int_kernel && r.quant == QuantColumn::kNone) {
      fail(r, "IK without Q: give its Q(...) or KERNEL_ONLY(why)");
    }
    if (r.quant == QuantColumn::kKernelOnly && !r.int_kernel) {
      fail(r, "KERNEL_ONLY without an IK");
    }
    if (spec && !r.float_kernel) {
      fail(r, "Q without a float kernel: calibration cannot run the op");
    }
    bool has_weight = false;
    for (quantizer::Role role : r.roles) {
      has_weight |= role == quantizer::Role::kWeight;
    }
    if (has_weight && r.weight_axis < 0) fail(r, "Weight role without an axis");
    const bool weights = r.weight_layout != ir::WeightLayout::kNone;
    if (has_weight && !weights) fail(r, "Weight role without a WEIGHTS trait");
    if (spec && weights) {
      const size_t w = static_cast<size_t>(std::max(r.weights_input, 0));
      if (r.roles.empty() || r.roles[std::min(w, r.roles.size() - 1)] !=
                                 quantizer::Role::kWeight) {
        fail(r, "WEIGHTS' input is not a Weight in Q");
      } else if (r.weight_axis >= 0 &&
                 r.weight_axis != ir::OutputChannelAxis(r.weight_layout)) {
        fail(r, "Q's weight axis is not WEIGHTS' output-channel axis");
      }
    }
    if (r.clamp && !(r.clamp_lo < r.clamp_hi)) {
      fail(r, "CLAMP's lower bound is not below its upper bound");
    }
    if (r.hybrid) {
      const size_t w = static_cast<size_t>(std::max(r.hybrid_weight, 0));
      const bool weight =
          spec && !r.roles.empty() &&
          r.roles[std::min(w, r.roles.size() - 1)] == quantizer::Role::kWeight;
      if (!weight) fail(r, "HK's weight input is not a Weight in Q");
      if (weight && r.hybrid_axis != -1 && r.hybrid_axis != r.weight_axis) {
        fail(r, "HK's axis disagrees with Q's weight axis");
      }
    }
    if (r.int4 && (!has_weight || !r.version_fn)) {
      fail(r,
           "kInt4Weights needs a Weight input and a VER column (the int4 "
           "form's op version)");
    }
    if (r.rules && r.quant == QuantColumn::kNone) {
      fail(r, "RULES on an op the quantizer never emits");
    }
    // LiteRT's fast path: a row the quantizer can make integer says whether
    // the XNNPACK delegate takes it (runtime/fast_path.h).
    if (spec && !r.xnn && !r.xnn_never) {
      fail(r, "Q without a fast-path statement: XNN(fn) or XNN_NEVER(why)");
    }
    if (r.xnn && r.xnn_never) fail(r, "both XNN and XNN_NEVER");
    if (r.tflm_rules && !r.tflm) fail(r, "TFLM_RULES without TFLM types");
    if (r.armnn_rules && !r.armnn) fail(r, "ARMNN_RULES without ARMNN types");
  }
  return problems;
}

std::vector<TableRow> RealOpTable() {
  std::vector<TableRow> rows;
#define QF_TABLE_FILE "ir/ops.def"
#include "tests/quantizer/op_table_rows.inc"
#undef QF_TABLE_FILE
  return rows;
}

namespace {

std::vector<TableRow> BrokenOpTable() {
  std::vector<TableRow> rows;
#define QF_TABLE_FILE "tests/quantizer/testdata/broken_ops.def"
#include "tests/quantizer/op_table_rows.inc"
#undef QF_TABLE_FILE
  return rows;
}

TEST(OpTableTest, RealTableIsConsistent) {
  const std::vector<TableRow> rows = RealOpTable();
  EXPECT_EQ(rows.size(), static_cast<size_t>(ir::kNumOpKinds - 2));
  const std::vector<std::string> problems = CheckOpTable(rows);
  EXPECT_TRUE(problems.empty()) << absl::StrJoin(problems, "\n");
}

TEST(OpTableTest, BrokenTableFailsEveryRule) {
  std::vector<std::string> problems = CheckOpTable(BrokenOpTable());
  std::vector<std::string> expected = {
      "SpecWithoutKernel: Q offers an integer form but there is no IK and no "
      "FK_ANY",
      "KernelWithoutSpec: IK without Q: give its Q(...) or KERNEL_ONLY(why)",
      "KernelOnlyWithoutKernel: KERNEL_ONLY without an IK",
      "HybridOnActivation: HK's weight input is not a Weight in Q",
      "WeightWithoutAxis: Weight role without an axis",
      "SpecWithoutFloatKernel: Q without a float kernel: calibration cannot "
      "run the op",
      "RulesWithoutSpec: RULES on an op the quantizer never emits",
      "Int4WithoutWeight: kInt4Weights needs a Weight input and a VER "
      "column (the int4 form's op version)",
      "WeightRoleWithoutWeights: Weight role without a WEIGHTS trait",
      "WeightsNotInSpec: WEIGHTS' input is not a Weight in Q",
      "WeightAxisDisagrees: Q's weight axis is not WEIGHTS' output-channel "
      "axis",
      "ClampReversed: CLAMP's lower bound is not below its upper bound",
      "FastPathUnstated: Q without a fast-path statement: XNN(fn) or "
      "XNN_NEVER(why)",
      "FastPathTwice: both XNN and XNN_NEVER",
      "Fine: kind listed twice",
      "Fine: builtin code listed twice"};
  std::sort(problems.begin(), problems.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(problems, expected);
}

// The registries of runtime/ and quantizer/ are built from the same table;
// walking every kind checks they read the columns they should.
TEST(OpTableTest, RegistriesAgreeWithTheTable) {
  const std::vector<TableRow> rows = RealOpTable();
  for (int k = 0; k < ir::kNumOpKinds - 2; ++k) {
    const auto kind = static_cast<ir::OpKind>(k);
    const TableRow& r = rows[static_cast<size_t>(k)];
    SCOPED_TRACE(r.kind);
    const ir::OpInfo& info = ir::GetOpInfo(kind);
    EXPECT_EQ(info.name, r.name);
    EXPECT_EQ(info.builtin_code, r.code);
    EXPECT_EQ(ir::OpKindFromBuiltinCode(r.code), kind);
    EXPECT_EQ(runtime::FindFloatKernel(kind) != nullptr, r.float_kernel);
    EXPECT_EQ(runtime::FloatKernelTakesAnyType(kind), r.float_any_type);
    EXPECT_EQ(runtime::FindIntegerKernel(kind) != nullptr, r.int_kernel);
    EXPECT_EQ(runtime::FindHybridKernel(kind) != nullptr, r.hybrid);
    const std::optional<quantizer::OpQuantSpec> spec =
        quantizer::GetOpQuantSpec(kind);
    ASSERT_EQ(spec.has_value(), r.quant == QuantColumn::kSpec);
    if (spec.has_value()) {
      EXPECT_EQ(spec->int16, r.int16);
      EXPECT_EQ(spec->weight_axis, r.weight_axis);
      for (size_t i = 0; i < r.roles.size(); ++i) {
        EXPECT_EQ(quantizer::RoleOf(*spec, i), r.roles[i]);
      }
    }
    EXPECT_EQ(quantizer::GetHybridSpec(kind).has_value(), r.hybrid);
    EXPECT_EQ(info.clamps, r.clamp);
    if (r.clamp) {
      EXPECT_EQ(info.clamp.lo, r.clamp_lo);
      EXPECT_EQ(info.clamp.hi, r.clamp_hi);
    }
    EXPECT_EQ(info.weight_input, r.weights_input);
    EXPECT_EQ(info.weight_layout, r.weight_layout);
    const bool kernel_only_reason =
        quantizer::NoIntegerFormReason(kind).find("does not quantize") !=
        std::string::npos;
    EXPECT_EQ(kernel_only_reason, r.quant == QuantColumn::kKernelOnly);
  }
}

TEST(OpTableTest, CustomKernelCodesAreUnique) {
  std::set<std::string> seen;
  for (const std::string& code : runtime::CustomKernelCodes()) {
    EXPECT_TRUE(seen.insert(code).second) << code << " registered twice";
    EXPECT_NE(runtime::FindCustomKernel(code), nullptr);
  }
}

// Every builtin op the corpus models use has a row: nothing real falls to
// kOtherBuiltin (carried, but neither run nor quantized).
TEST(OpTableTest, EveryCorpusOpHasARow) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  std::map<int, std::string> unknown;  // builtin code -> first model
  int models = 0;
  for (const std::string& path : FindFiles(corpus + "/models", ".tflite")) {
    absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(path);
    if (!model.ok()) continue;  // the reader's own tests cover bad files
    ++models;
    for (const ir::Subgraph& sg : model->subgraphs) {
      for (const ir::Operator& op : sg.operators) {
        if (op.kind == ir::OpKind::kOtherBuiltin) {
          unknown.emplace(op.builtin_code, path);
        }
      }
    }
  }
  EXPECT_GT(models, 100);
  for (const auto& [code, path] : unknown) {
    ADD_FAILURE() << "builtin code " << code << " (first in " << path
                  << ") has no row in ir/ops.def";
  }
}

}  // namespace
}  // namespace qforge::testing
