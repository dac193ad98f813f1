// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The Glow single-op TFLite models of the shape_ops family, run through the
// interpreter and compared with Glow's golden outputs (corpus
// data/glow/tests/models/tfliteModels/<name>.inpN / .outN: one pad byte, then
// the raw little-endian tensor). Data movement must match bit for bit;
// the resize ops within 1e-5. Skipped when ../shared/corpus is absent.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

struct GlowCase {
  const char* name;
  bool tolerance;  // compare within 1e-5 instead of exactly
  // The output shape when the file declares none (TOCO wrote [] for an
  // unknown shape); derived by hand below.
  std::vector<int64_t> shape = {};
};

// Every Glow model whose only op belongs to this family.
const GlowCase kCases[] = {
    {"batchToSpaceNd", false},
    {"concat", false},
    {"concat_neg_axis", false},
    {"depth_to_space", false},
    {"gather_axis0", false},
    {"gather_axis1", false},
    {"gather_nd", false},
    {"pack", false},
    {"pad", false},
    {"reshape", false},
    {"reshape_neg_shape", false},
    {"resize_bilinear", true},
    {"resize_nearest", true},
    {"slice", false},
    {"slice_neg_size", false},
    {"spaceToBatchNd", false},
    {"space_to_depth", false},
    {"split", false},
    {"strided_slice_test0", false},
    {"strided_slice_test1", false},
    {"strided_slice_test2", false},
    {"strided_slice_test3", false},
    // begin [0,0,0] end [1,0,1] ellipsis_mask 2: x[0:1, ..., 0:1] on
    // [1,3,4] -> [1,3,1].
    {"strided_slice_test4", false, {1, 3, 1}},
    // begin [0,0,0] end [1,2,3] new_axis_mask 2: x[0:1, newaxis, 0:3] on
    // [1,3,4] -> [1,1,3,4] (the last input dim is kept whole).
    {"strided_slice_test5", false, {1, 1, 3, 4}},
    {"strided_slice_test6", false},
    {"tile", false},
    {"transpose", false},
    {"unpack", false},
};

// The tensor bytes of a golden file (after its pad byte).
absl::StatusOr<std::vector<uint8_t>> GoldenBytes(const std::string& path) {
  absl::StatusOr<std::vector<uint8_t>> raw = ReadFileBytes(path);
  if (!raw.ok()) return raw.status();
  if (raw->empty()) return absl::DataLossError(path + " is empty");
  return std::vector<uint8_t>(raw->begin() + 1, raw->end());
}

// Runs one case; returns "" on success or what went wrong.
std::string RunCase(const std::string& corpus, const GlowCase& c, int threads) {
  const std::string model_path =
      absl::StrCat(corpus, "/models/glow/", c.name, ".tflite");
  const std::string data =
      absl::StrCat(corpus, "/data/glow/tests/models/tfliteModels/", c.name);
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(model_path);
  if (!model.ok()) return absl::StrCat("read: ", model.status().message());
  const ir::Subgraph& sg = model->subgraphs[0];

  std::vector<ir::HostTensor> inputs;
  for (size_t i = 0; i < sg.inputs.size(); ++i) {
    const ir::Tensor& t = sg.tensors[static_cast<size_t>(sg.inputs[i])];
    ir::HostTensor host(t.type,
                        std::vector<int64_t>(t.shape.begin(), t.shape.end()));
    absl::StatusOr<std::vector<uint8_t>> bytes =
        GoldenBytes(absl::StrCat(data, ".inp", i));
    if (!bytes.ok()) return std::string(bytes.status().message());
    if (bytes->size() != host.ByteSize()) {
      return absl::StrCat("input ", i, " file holds ", bytes->size(),
                          " bytes, the model wants ", host.ByteSize());
    }
    std::memcpy(host.data(), bytes->data(), bytes->size());
    inputs.push_back(std::move(host));
  }

  runtime::InterpreterOptions options;
  options.threads = threads;
  auto interpreter = runtime::Interpreter::Create(*model, options);
  if (!interpreter.ok()) {
    return absl::StrCat("create: ", interpreter.status().message());
  }
  absl::Status run = (*interpreter)->Run(inputs);
  if (!run.ok()) return absl::StrCat("run: ", run.message());

  for (int o = 0; o < (*interpreter)->num_outputs(); ++o) {
    const ir::HostTensor got = (*interpreter)->OutputHost(o);
    absl::StatusOr<std::vector<uint8_t>> want =
        GoldenBytes(absl::StrCat(data, ".out", o));
    if (!want.ok()) return std::string(want.status().message());
    const ir::Tensor& t = sg.tensors[static_cast<size_t>(sg.outputs[o])];
    const std::vector<int64_t> shape =
        t.shape.empty() ? c.shape
                        : std::vector<int64_t>(t.shape.begin(), t.shape.end());
    if (got.shape() != shape) {
      return absl::StrCat("output ", o, " has shape ",
                          ir::ShapeString(got.shape()), ", expected ",
                          ir::ShapeString(shape));
    }
    if (got.bytes().size() != want->size()) {
      return absl::StrCat("output ", o, " has ", got.bytes().size(),
                          " bytes, golden ", want->size());
    }
    if (!c.tolerance) {
      if (got.bytes() != *want) {
        return absl::StrCat("output ", o, " differs from the golden bytes");
      }
      continue;
    }
    const size_t n = want->size() / sizeof(float);
    const float* g = reinterpret_cast<const float*>(got.data());
    const float* w = reinterpret_cast<const float*>(want->data());
    for (size_t k = 0; k < n; ++k) {
      if (!(std::fabs(g[k] - w[k]) <= 1e-5f)) {
        return absl::StrCat("output ", o, " element ", k, ": got ", g[k],
                            ", golden ", w[k]);
      }
    }
  }
  return "";
}

TEST(GlowShapeOps, GoldenOutputs) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  int passed = 0;
  for (const GlowCase& c : kCases) {
    for (int threads : {1, 4}) {
      const std::string error = RunCase(corpus, c, threads);
      EXPECT_EQ(error, "") << c.name << " (" << threads << " threads)";
      if (error.empty() && threads == 1) ++passed;
    }
  }
  std::printf("glow shape_ops models matching their golden outputs: %d/%zu\n",
              passed, sizeof(kCases) / sizeof(kCases[0]));
}

}  // namespace
}  // namespace qforge
