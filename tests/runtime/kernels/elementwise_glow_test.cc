// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The Glow single-op TFLite models of the shared corpus whose ops all belong
// to the elementwise family (ADD, SUB, MUL, DIV, MAXIMUM, POW, comparisons,
// SELECT, activations, unary maths, CAST, ...), run through the interpreter
// and compared with Glow's golden outputs (data/glow/tests/models/
// tfliteModels/<name>.out0: one pad byte, then the raw little-endian
// tensor). Float outputs must agree within 1e-5 relative; others exactly.
// Which models qualify is decided from elementwise.def, so a new row there
// brings its Glow model in automatically.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/op_kind.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge::testing {
namespace {

namespace fs = std::filesystem;

// The ops of the elementwise kernel family
// (runtime/kernels/elementwise/elementwise.h).
const std::set<ir::OpKind>& FamilyKinds() {
  using K = ir::OpKind;
  static const std::set<ir::OpKind> kinds = {
      K::kAdd,        K::kSub,       K::kMul,       K::kDiv,
      K::kMaximum,    K::kMinimum,   K::kPow,       K::kSquaredDifference,
      K::kAtan2,      K::kFloorDiv,  K::kFloorMod,  K::kPrelu,
      K::kLess,       K::kLessEqual, K::kGreater,   K::kGreaterEqual,
      K::kEqual,      K::kNotEqual,  K::kSelect,    K::kSelectV2,
      K::kLogistic,   K::kTanh,      K::kRelu,      K::kRelu6,
      K::kReluN1To1,  K::kRelu0To1,  K::kLeakyRelu, K::kHardSwish,
      K::kGelu,       K::kElu,       K::kExp,       K::kLog,
      K::kSqrt,       K::kRsqrt,     K::kSquare,    K::kSin,
      K::kCos,        K::kFloor,     K::kCeil,      K::kRound,
      K::kNeg,        K::kAbs,       K::kSign,      K::kCast,
      K::kDequantize,
  };
  return kinds;
}

bool AllOpsInFamily(const ir::Model& model) {
  if (model.subgraphs.size() != 1 || model.subgraphs[0].operators.empty()) {
    return false;
  }
  for (const ir::Operator& op : model.subgraphs[0].operators) {
    if (FamilyKinds().count(op.kind) == 0) return false;
  }
  return true;
}

// A golden tensor file without its pad byte.
absl::StatusOr<std::vector<uint8_t>> ReadGolden(const std::string& path) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  if (bytes->empty()) return absl::DataLossError(path + " is empty");
  bytes->erase(bytes->begin());
  return bytes;
}

// The model input `t` holding `bytes`; a dynamic (-1) dim takes whatever
// size the byte count implies.
absl::StatusOr<ir::HostTensor> MakeInput(const ir::Tensor& t,
                                         const std::vector<uint8_t>& bytes) {
  const std::vector<int32_t>& dims =
      t.shape_signature.empty() ? t.shape : t.shape_signature;
  const int bits = ir::DataTypeBits(t.type).value_or(0);
  if (bits < 8) return absl::UnimplementedError("sub-byte input");
  int64_t known = bits / 8;
  int dynamic = -1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 0) {
      dynamic = static_cast<int>(d);
    } else {
      known *= dims[d];
    }
  }
  std::vector<int64_t> shape(dims.begin(), dims.end());
  if (dynamic >= 0) {
    shape[static_cast<size_t>(dynamic)] =
        known == 0 ? 0 : static_cast<int64_t>(bytes.size()) / known;
  }
  ir::HostTensor h(t.type, shape);
  if (h.ByteSize() != bytes.size()) {
    return absl::DataLossError("golden input of " +
                               std::to_string(bytes.size()) +
                               " bytes does not fit " + h.DebugString());
  }
  std::memcpy(h.data(), bytes.data(), bytes.size());
  return h;
}

TEST(GlowGoldenTest, ElementwiseModelsMatchGoldenOutputs) {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) {
    GTEST_SKIP() << "shared corpus (../shared/corpus) not found; set "
                    "QFORGE_CORPUS_DIR to run the Glow golden models";
  }
  const std::string models_dir = corpus + "/models/glow";
  const std::string data_dir = corpus + "/data/glow/tests/models/tfliteModels";
  int checked = 0;
  std::string names;
  for (const std::string& path : FindFiles(models_dir, ".tflite")) {
    const std::string stem = fs::path(path).stem().string();
    absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(path);
    ASSERT_TRUE(model.ok()) << model.status();
    if (!AllOpsInFamily(*model)) continue;
    const std::string out0 = data_dir + "/" + stem + ".out0";
    if (!fs::exists(out0)) continue;  // no golden data for this model
    SCOPED_TRACE(stem);

    const ir::Subgraph& sg = model->subgraphs[0];
    std::vector<ir::HostTensor> inputs;
    for (size_t i = 0; i < sg.inputs.size(); ++i) {
      absl::StatusOr<std::vector<uint8_t>> bytes =
          ReadGolden(data_dir + "/" + stem + ".inp" + std::to_string(i));
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      absl::StatusOr<ir::HostTensor> in =
          MakeInput(sg.tensors[static_cast<size_t>(sg.inputs[i])], *bytes);
      ASSERT_TRUE(in.ok()) << in.status();
      inputs.push_back(std::move(*in));
    }
    runtime::InterpreterOptions options;
    options.threads = 1;
    absl::StatusOr<std::unique_ptr<runtime::Interpreter>> interpreter =
        runtime::Interpreter::Create(*model, options);
    ASSERT_TRUE(interpreter.ok()) << interpreter.status();
    absl::Status run = (*interpreter)->Run(inputs);
    ASSERT_TRUE(run.ok()) << run;

    for (int o = 0; o < (*interpreter)->num_outputs(); ++o) {
      const std::string golden_path =
          data_dir + "/" + stem + ".out" + std::to_string(o);
      if (!fs::exists(golden_path)) continue;
      absl::StatusOr<std::vector<uint8_t>> golden = ReadGolden(golden_path);
      ASSERT_TRUE(golden.ok()) << golden.status();
      const ir::HostTensor got = (*interpreter)->OutputHost(o);
      ASSERT_EQ(got.ByteSize(), golden->size()) << got.DebugString();
      if (got.type() == ir::DataType::kFloat32) {
        std::vector<float> want(golden->size() / 4);
        std::memcpy(want.data(), golden->data(), golden->size());
        auto g = got.Flat<float>();
        for (size_t i = 0; i < want.size(); ++i) {
          if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(g[i])) << "element " << i;
          } else {
            EXPECT_LE(std::fabs(g[i] - want[i]),
                      1e-5f * std::max(1.0f, std::fabs(want[i])))
                << "element " << i << ": got " << g[i] << ", want " << want[i];
          }
        }
      } else {
        EXPECT_TRUE(got.bytes() == *golden) << got.DebugString();
      }
    }
    ++checked;
    names += (names.empty() ? "" : " ") + stem;
  }
  std::cout << "checked " << checked << " glow models: " << names << "\n";
  // The corpus has 41 elementwise Glow models (abs ... tanh); fewer means
  // a model stopped qualifying.
  EXPECT_GE(checked, 41);
}

}  // namespace
}  // namespace qforge::testing
