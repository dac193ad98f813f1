// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A culprit that is a tensor's grid, not a layer's arithmetic (issue 29):
// a shared feature vector T read by two FULLY_CONNECTED heads, one of
// which (head b) cancels large terms into a small output. By construction
// (hand derivation): T = [y, 2y] with y = P x (P 8x8); head b's weights
// are [2c, -c] + u, so in float b = u . T exactly (the c terms cancel),
// while with T on an int8 grid of step s the two halves round
// independently and b gets 2c . e1 - c . e2 of noise, |c| ~ 4 per value
// against |u| ~ 0.05: b's SQNR is near 0 dB in plain int8. Head b itself
// adds almost nothing: given T's rounded values it computes what float
// does (its weights and output are rounded finely for its output range).
// Raising head b to float leaves the noise; a float (or wider) T removes
// it, with head b reading T in float too. The report must name T's
// producer (op 0) with its grid, read by head b, as the worst layer (the
// attribution before named head b), and --target-sqnr must raise op 0 and
// head b, and nothing else.
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

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;

std::vector<float> Uniform(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<float> v(n);
  for (float& f : v) {
    f = lo + (hi - lo) * static_cast<float>(gen() % 1000001) / 1e6f;
  }
  return v;
}

ir::Model SharedGridModel() {
  testing::OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 8}, "x");
  // T = [P x, 2 P x]: FULLY_CONNECTED weights are [out, in].
  const std::vector<float> p = Uniform(64, -0.5f, 0.5f, 1);
  std::vector<float> w1(16 * 8);
  for (int r = 0; r < 8; ++r) {
    for (int i = 0; i < 8; ++i) {
      w1[r * 8 + i] = p[r * 8 + i];
      w1[(r + 8) * 8 + i] = 2 * p[r * 8 + i];
    }
  }
  const int fc1_w = m.Constant<float>({16, 8}, w1, "fc1/w");
  const int fc1_b =
      m.Constant<float>({16}, std::vector<float>(16, 0.f), "fc1/b");
  const int t = m.Tensor(ir::DataType::kFloat32, {1, 16}, "shared");
  m.Op(ir::OpKind::kFullyConnected, {x, fc1_w, fc1_b}, {t},
       ir::FullyConnectedOptions{});
  // Head a: an ordinary layer.
  const int a_w =
      m.Constant<float>({4, 16}, Uniform(64, -0.5f, 0.5f, 2), "head_a/w");
  const int a_b =
      m.Constant<float>({4}, std::vector<float>(4, 0.f), "head_a/b");
  const int a = m.Output(ir::DataType::kFloat32, {1, 4}, "head_a");
  m.Op(ir::OpKind::kFullyConnected, {t, a_w, a_b}, {a},
       ir::FullyConnectedOptions{});
  // Head b: [2c, -c] + u.
  const std::vector<float> c = Uniform(8, -4.f, 4.f, 3);
  const std::vector<float> u = Uniform(16, -0.05f, 0.05f, 4);
  std::vector<float> wb(16);
  for (int i = 0; i < 8; ++i) {
    wb[i] = 2 * c[i] + u[i];
    wb[i + 8] = -c[i] + u[i + 8];
  }
  const int b_w = m.Constant<float>({1, 16}, wb, "head_b/w");
  const int b_b =
      m.Constant<float>({1}, std::vector<float>(1, 0.f), "head_b/b");
  const int b = m.Output(ir::DataType::kFloat32, {1, 1}, "head_b");
  m.Op(ir::OpKind::kFullyConnected, {t, b_w, b_b}, {b},
       ir::FullyConnectedOptions{});
  return m.model();
}

class GridCulpritTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::MakeTempDir();
    model_ = dir_ + "/shared.tflite";
    auto bytes = formats::SerializeTflite(SharedGridModel());
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    ASSERT_TRUE(
        WriteFileAtomic(model_, absl::Span<const uint8_t>(*bytes), {}).ok());
    ir::HostTensor data(ir::DataType::kFloat32, {64, 1, 8});
    const std::vector<float> v = Uniform(64 * 8, -1.f, 1.f, 5);
    std::memcpy(data.data(), v.data(), data.ByteSize());
    auto npy = formats::WriteNpy(data);
    ASSERT_TRUE(npy.ok());
    data_ = dir_ + "/x.npy";
    ASSERT_TRUE(
        WriteFileAtomic(data_, absl::Span<const uint8_t>(*npy), {}).ok());
  }
  std::string dir_, model_, data_;
};

TEST_F(GridCulpritTest, ReportNamesTheSharedTensorsGrid) {
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + model_ + " --data " + data_ +
                 " --keep-integer -o " + dir_ + "/q.tflite -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCommand(QforgeBinary() + " report " + model_ + " " + dir_ +
                 "/q.tflite --data " + data_ + " --format json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  // Head b's output is poor...
  double b_db = 0;
  for (const nlohmann::json& o : j["outputs"]) {
    if (o["name"] == "head_b") b_db = o["sqnr_db"].get<double>();
  }
  EXPECT_LT(b_db, 20.0) << j["outputs"].dump();
  // ...and the worst layer is the shared tensor, for its grid, read by
  // head b (op 2 of the quantized model with float I/O: QUANTIZE first).
  const nlohmann::json& worst = j["layers"][0];
  EXPECT_EQ(worst["float_name"], "shared") << j["layers"].dump(1);
  EXPECT_EQ(worst["float_op"], 0);
  ASSERT_TRUE(worst["grid_db"].is_number()) << worst.dump();
  EXPECT_LT(worst["grid_db"].get<double>(), 20.0);
  EXPECT_EQ(j["suggestions"][0]["float_op"], 0) << j["suggestions"].dump();
  // Head b adds little itself.
  for (const nlohmann::json& l : j["layers"]) {
    if (l["float_name"] == "head_b" && l["introduced_db"].is_number()) {
      EXPECT_GT(l["introduced_db"].get<double>(),
                worst["introduced_db"].get<double>() + 10)
          << l.dump();
    }
  }
}

TEST_F(GridCulpritTest, TargetSqnrRaisesTheSharedTensorsProducer) {
  const testing::CommandResult r =
      RunCommand(QforgeBinary() + " quantize " + model_ + " --data " + data_ +
                 " --keep-integer --target-sqnr 30 -o " + dir_ +
                 "/t.tflite --json " + dir_ + "/t.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j =
      nlohmann::json::parse(testing::ReadText(dir_ + "/t.json"));
  EXPECT_GE(j["target"]["reached"].get<double>(), 30.0);
  // The shared tensor's producer and the head that cancels: head a keeps
  // its int8 form (it reads T requantized, and loses little by it).
  std::vector<int> raised;
  for (const nlohmann::json& row : j["target"]["plan"]) {
    raised.push_back(row["op_index"].get<int>());
  }
  EXPECT_EQ(raised, (std::vector<int>{0, 2})) << j["target"].dump(1);
}

}  // namespace
}  // namespace qforge
