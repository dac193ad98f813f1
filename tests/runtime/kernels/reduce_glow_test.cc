// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The Glow single-op TFLite models of the reduce family (ARG_MAX, ARG_MIN,
// MEAN, SOFTMAX, LOG_SOFTMAX) against their golden outputs
// (corpus/data/glow/tests/models/tfliteModels/<name>.inp0/.out0: one pad
// byte, then the raw little-endian tensor). Float outputs must agree
// within 1e-5 relative (|a - b| <= 1e-5 * max(1, |b|)), index outputs
// exactly.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

// Every Glow model whose op is in the reduce family.
const char* const kModels[] = {
    "arg_max",
    "arg_min",
    "log_softmax",
    "softmax",
    "mean_keep_dims",
    "mean_no_keep_dims",
    "mean_multiple_axis_keep_dims",
    "mean_multiple_axis_no_keep_dims",
};

bool ReadGolden(const std::string& path, std::vector<uint8_t>* bytes) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::vector<uint8_t> all((std::istreambuf_iterator<char>(f)),
                           std::istreambuf_iterator<char>());
  if (all.empty()) return false;
  bytes->assign(all.begin() + 1, all.end());  // drop the pad byte
  return true;
}

TEST(ReduceGlowTest, GoldenOutputs) {
  const std::string corpus = testing::CorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "shared corpus not found";
  const std::string data = corpus + "/data/glow/tests/models/tfliteModels/";
  int models = 0, values = 0;
  for (const char* name : kModels) {
    SCOPED_TRACE(name);
    auto model =
        formats::ReadTfliteFile(corpus + "/models/glow/" + name + ".tflite");
    ASSERT_TRUE(model.ok()) << model.status();
    auto interp = runtime::Interpreter::Create(*model);
    ASSERT_TRUE(interp.ok()) << interp.status();
    ASSERT_EQ((*interp)->num_inputs(), 1);
    const ir::Tensor& in_desc =
        model->subgraphs[0].tensors[model->subgraphs[0].inputs[0]];
    ir::HostTensor input(
        in_desc.type,
        std::vector<int64_t>(in_desc.shape.begin(), in_desc.shape.end()));
    std::vector<uint8_t> in_bytes, want;
    ASSERT_TRUE(ReadGolden(data + name + ".inp0", &in_bytes));
    ASSERT_TRUE(ReadGolden(data + name + ".out0", &want));
    ASSERT_EQ(in_bytes.size(), input.ByteSize());
    std::memcpy(input.data(), in_bytes.data(), in_bytes.size());
    ASSERT_TRUE((*interp)->Run({input}).ok());
    const ir::HostTensor out = (*interp)->OutputHost(0);
    ASSERT_EQ(out.ByteSize(), want.size());
    switch (out.type()) {
      case ir::DataType::kFloat32: {
        std::vector<float> w(want.size() / 4);
        std::memcpy(w.data(), want.data(), want.size());
        auto got = out.Flat<float>();
        for (size_t i = 0; i < w.size(); ++i) {
          EXPECT_NEAR(got[i], w[i], 1e-5 * std::max(1.f, std::fabs(w[i])))
              << "element " << i;
          ++values;
        }
        break;
      }
      case ir::DataType::kInt64:
      case ir::DataType::kInt32:
        EXPECT_EQ(std::memcmp(out.data(), want.data(), want.size()), 0);
        values += static_cast<int>(out.NumElements());
        break;
      default:
        FAIL() << "unexpected output type";
    }
    ++models;
  }
  std::printf("[ glow ] %d reduce-family models, %d output values checked\n",
              models, values);
}

}  // namespace
}  // namespace qforge
