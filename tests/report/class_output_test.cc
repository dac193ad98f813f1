// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Top-1 / top-5 agreement is reported for outputs that hold class scores
// (SOFTMAX / LOG_SOFTMAX, or named "logit..."), not for every [1, C] output:
// a landmark regressor's [1, 63] has an argmax that means nothing.
#include "report/class_output.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/npy.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "nlohmann/json.hpp"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge::report {
namespace {

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& f : v) f = u(gen);
  return v;
}

// x [1,8] -> FULLY_CONNECTED -> h [1,6], then `tail` (none, SOFTMAX +
// RESHAPE, LOGISTIC, LOG_SOFTMAX) to the output named `name`.
enum class Tail { kNone, kSoftmaxReshape, kLogistic, kLogSoftmax };
ir::Model Head(Tail tail, const std::string& name) {
  testing::OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 8}, "x");
  const int w = m.Constant<float>({6, 8}, Random(48, 1), "w");
  const int b = m.Constant<float>({6}, Random(6, 2), "b");
  if (tail == Tail::kNone) {
    const int y = m.Output(ir::DataType::kFloat32, {1, 6}, name);
    m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {y},
         ir::FullyConnectedOptions{});
    return m.model();
  }
  const int h = m.Tensor(ir::DataType::kFloat32, {1, 6}, "h");
  m.Op(ir::OpKind::kFullyConnected, {x, w, b}, {h},
       ir::FullyConnectedOptions{});
  switch (tail) {
    case Tail::kSoftmaxReshape: {
      const int s = m.Tensor(ir::DataType::kFloat32, {1, 6}, "s");
      ir::SoftmaxOptions so;
      so.beta = 1.f;
      m.Op(ir::OpKind::kSoftmax, {h}, {s}, so);
      const int shape = m.Constant<int32_t>({3}, {1, 1, 6}, "shape");
      const int y = m.Output(ir::DataType::kFloat32, {1, 1, 6}, name);
      m.Op(ir::OpKind::kReshape, {s, shape}, {y}, ir::ReshapeOptions{});
      break;
    }
    case Tail::kLogistic: {
      const int y = m.Output(ir::DataType::kFloat32, {1, 6}, name);
      m.Op(ir::OpKind::kLogistic, {h}, {y});
      break;
    }
    case Tail::kLogSoftmax: {
      const int y = m.Output(ir::DataType::kFloat32, {1, 6}, name);
      m.Op(ir::OpKind::kLogSoftmax, {h}, {y});
      break;
    }
    case Tail::kNone:
      break;
  }
  return m.model();
}

TEST(ClassOutputTest, ScoresClassesRule) {
  auto scores = [](Tail tail, const std::string& name) {
    const ir::Model m = Head(tail, name);
    return ScoresClasses(m.subgraphs[0], 0);
  };
  EXPECT_TRUE(scores(Tail::kSoftmaxReshape, "Identity"));
  EXPECT_TRUE(scores(Tail::kLogSoftmax, "Identity"));
  // Raw scores: only the name tells.
  EXPECT_TRUE(scores(Tail::kNone, "Logits/BiasAdd"));
  EXPECT_FALSE(scores(Tail::kNone, "Identity"));  // a [1, 6] regressor
  // LOGISTIC is per-value (multi-label or a presence flag), not one class.
  EXPECT_FALSE(scores(Tail::kLogistic, "Identity"));
  const ir::Model m = Head(Tail::kNone, "x");
  EXPECT_FALSE(ScoresClasses(m.subgraphs[0], 1));  // no such output
  EXPECT_FALSE(ScoresClasses(m.subgraphs[0], -1));
}

TEST(ClassOutputTest, ClassCountIsTheOnlyNonUnitAxis) {
  EXPECT_EQ(ClassCount({1, 10}), 10);
  EXPECT_EQ(ClassCount({10}), 10);
  EXPECT_EQ(ClassCount({1, 1, 1, 1404}), 1404);
  EXPECT_EQ(ClassCount({1, 1}), 0);
  EXPECT_EQ(ClassCount({2, 10}), 0);
  EXPECT_EQ(ClassCount({}), 0);
}

// Through quantize --report: the regressor's output has no top-1, the
// softmax head's has.
TEST(ClassOutputTest, ReportOmitsTopOneForARegressor) {
  const std::string dir = testing::MakeTempDir();
  ir::HostTensor data(ir::DataType::kFloat32, {16, 8});
  const std::vector<float> v = Random(128, 3);
  std::memcpy(data.Flat<float>().data(), v.data(), v.size() * 4);
  absl::StatusOr<std::vector<uint8_t>> npy = formats::WriteNpy(data);
  ASSERT_TRUE(npy.ok()) << npy.status();
  ASSERT_TRUE(
      WriteFileAtomic(dir + "/x.npy", absl::Span<const uint8_t>(*npy), {})
          .ok());
  for (const Tail tail : {Tail::kNone, Tail::kSoftmaxReshape}) {
    const bool classifier = tail == Tail::kSoftmaxReshape;
    const std::string base = dir + (classifier ? "/cls" : "/reg");
    absl::StatusOr<std::vector<uint8_t>> bytes =
        formats::SerializeTflite(Head(tail, "Identity"));
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    ASSERT_TRUE(
        WriteFileAtomic(base + ".tflite", absl::Span<const uint8_t>(*bytes), {})
            .ok());
    const testing::CommandResult r = testing::RunCommand(
        testing::QforgeBinary() + " quantize " + base + ".tflite --data " +
        dir + "/x.npy -o " + base + "_q.tflite --report " + base + ".json -q");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    absl::StatusOr<std::vector<uint8_t>> text = ReadFileBytes(base + ".json");
    ASSERT_TRUE(text.ok()) << text.status();
    const nlohmann::json o =
        nlohmann::json::parse(text->begin(), text->end())["outputs"][0];
    EXPECT_EQ(o["classifier"], classifier);
    EXPECT_EQ(o.contains("top1_agree"), classifier) << o.dump();
    if (classifier) {
      EXPECT_EQ(o["classes"], 6);
    }
  }
}

}  // namespace
}  // namespace qforge::report
