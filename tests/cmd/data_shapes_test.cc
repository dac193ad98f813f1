// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Data in the shapes people have, through the CLI: a stacked .npy
// [N, ...S] for an input S without a batch dim, and a long .wav cut into
// windows of the input's length (--window / --hop).
//
// The stacked case uses glow's fully_connected.tflite (input [2,5], output
// [2,10], no batch dim) with its golden I/O (testdata/glow/, from the
// corpus's data/glow: one pad byte, then the raw float32 tensor).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "ir/host_tensor.h"
#include "ir/op_kind.h"
#include "nlohmann/json.hpp"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;
using testing::TestDataDir;

// A glow golden file: one pad byte, then `n` float32 values.
std::vector<float> Golden(const std::string& name, size_t n) {
  const std::vector<uint8_t> bytes =
      testing::ReadBytes(TestDataDir() + "/glow/" + name);
  std::vector<float> v(n);
  EXPECT_EQ(bytes.size(), 1 + 4 * n) << name;
  if (bytes.size() == 1 + 4 * n) std::memcpy(v.data(), bytes.data() + 1, 4 * n);
  return v;
}

void WriteNpy(const std::string& path, const std::vector<int64_t>& shape,
              const std::vector<float>& values) {
  ir::HostTensor t(ir::DataType::kFloat32, shape);
  std::memcpy(t.Flat<float>().data(), values.data(), 4 * values.size());
  absl::StatusOr<std::vector<uint8_t>> npy = formats::WriteNpy(t);
  ASSERT_TRUE(npy.ok()) << npy.status();
  ASSERT_TRUE(WriteFileAtomic(path, absl::Span<const uint8_t>(*npy), {}).ok());
}

ir::HostTensor ReadNpy(const std::string& path) {
  absl::StatusOr<ir::HostTensor> t = formats::ReadNpyFile(path);
  EXPECT_TRUE(t.ok()) << path << ": " << t.status();
  return t.ok() ? *std::move(t) : ir::HostTensor();
}

// The stats entry of tensor `index` of subgraph 0.
nlohmann::json StatsOf(const std::string& stats_path, int index) {
  const std::vector<uint8_t> bytes = testing::ReadBytes(stats_path);
  const nlohmann::json j =
      nlohmann::json::parse(std::string(bytes.begin(), bytes.end()));
  for (const nlohmann::json& t : j["tensors"]) {
    if (t["subgraph"] == 0 && t["tensor"] == index) return t;
  }
  ADD_FAILURE() << "no stats for tensor " << index;
  return {};
}

TEST(DataShapesCliTest, StackedNpyForAnInputWithoutBatchDim) {
  const std::string model =
      TestDataDir() + "/models/glow_fully_connected.tflite";
  absl::StatusOr<ir::Model> m = formats::ReadTfliteFile(model);
  ASSERT_TRUE(m.ok()) << m.status();
  const ir::Subgraph& sg = m->subgraphs[0];
  ASSERT_EQ(sg.tensors[sg.inputs[0]].shape, (std::vector<int32_t>{2, 5}));
  const std::vector<float> in = Golden("fully_connected.inp0", 10);
  const std::vector<float> out = Golden("fully_connected.out0", 20);

  // Three samples [3, 2, 5]: the golden input, its negation, twice it.
  std::vector<float> stacked = in;
  for (float v : in) stacked.push_back(-v);
  for (float v : in) stacked.push_back(2 * v);
  const std::string dir = testing::MakeTempDir();
  WriteNpy(dir + "/three.npy", {3, 2, 5}, stacked);
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " run " + model + " --data " + dir +
                 "/three.npy --output-dir " + dir + "/out3 -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ir::HostTensor o3 = ReadNpy(dir + "/out3/output_0.npy");
  ASSERT_EQ(o3.shape(), (std::vector<int64_t>{3, 2, 10}));
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_NEAR(o3.Flat<float>()[i], out[i], 1e-5) << i;  // sample 0 = golden
  }

  // The input's own shape [2, 5] is one sample (exact match wins).
  WriteNpy(dir + "/one.npy", {2, 5}, in);
  r = RunCommand(QforgeBinary() + " run " + model + " --data " + dir +
                 "/one.npy --output-dir " + dir + "/out1 -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ir::HostTensor o1 = ReadNpy(dir + "/out1/output_0.npy");
  ASSERT_EQ(o1.shape(), (std::vector<int64_t>{2, 10}));
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_NEAR(o1.Flat<float>()[i], out[i], 1e-5) << i;
  }

  // Calibration sees 3 samples: the input's range is that of all 30 values,
  // from -max(in) (sample 1) to 2 * max(in) (sample 2); max(in) = 0.9636627.
  r = RunCommand(QforgeBinary() + " calibrate " + model + " --data " + dir +
                 "/three.npy -o " + dir + "/stats.json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json x = StatsOf(dir + "/stats.json", sg.inputs[0]);
  EXPECT_EQ(x["count"], 30);
  EXPECT_FLOAT_EQ(x["min"].get<float>(), -0.9636627435684204f);
  EXPECT_FLOAT_EQ(x["max"].get<float>(), 2 * 0.9636627435684204f);

  // A shape that fits no reading names the ones that would.
  WriteNpy(dir + "/bad.npy", {3, 2, 4}, std::vector<float>(24, 0.f));
  r = RunCommand(QforgeBinary() + " calibrate " + model + " --data " + dir +
                 "/bad.npy -o " + dir + "/bad.json -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.npy: shape [3,2,4] does not fit input"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(want [2,5] or [N,2,5])"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A 16-bit mono PCM wav.
std::vector<uint8_t> Wav(const std::vector<int16_t>& samples) {
  auto u32 = [](std::vector<uint8_t>& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  auto u16 = [](std::vector<uint8_t>& b, uint16_t v) {
    b.push_back(static_cast<uint8_t>(v));
    b.push_back(static_cast<uint8_t>(v >> 8));
  };
  const uint32_t data = static_cast<uint32_t>(2 * samples.size());
  std::vector<uint8_t> b = {'R', 'I', 'F', 'F'};
  u32(b, 36 + data);
  for (char c : std::string("WAVEfmt ")) b.push_back(static_cast<uint8_t>(c));
  u32(b, 16);
  u16(b, 1);  // PCM
  u16(b, 1);  // mono
  u32(b, 16000);
  u32(b, 32000);
  u16(b, 2);
  u16(b, 16);
  for (char c : std::string("data")) b.push_back(static_cast<uint8_t>(c));
  u32(b, data);
  for (int16_t s : samples) u16(b, static_cast<uint16_t>(s));
  return b;
}

TEST(DataShapesCliTest, WavCutIntoWindowsOfTheInputsLength) {
  // wave [5360] -> RELU -> out [5360]: a keyword model's 335 ms input.
  testing::OpModel om;
  const int x = om.Input(ir::DataType::kFloat32, {5360}, "wave");
  const int y = om.Output(ir::DataType::kFloat32, {5360}, "out");
  om.Op(ir::OpKind::kRelu, {x}, {y});
  const std::string dir = testing::MakeTempDir();
  const std::string model = dir + "/wave.tflite";
  absl::StatusOr<std::vector<uint8_t>> bytes =
      formats::SerializeTflite(om.model());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_TRUE(
      WriteFileAtomic(model, absl::Span<const uint8_t>(*bytes), {}).ok());

  // 68360 samples = 12 * 5360 + 4040. The first 64320 stay within +-1000;
  // the last 4040 are 30000, so whether they were fed shows in the range.
  std::vector<int16_t> pcm(68360, 30000);
  for (int i = 0; i < 64320; ++i)
    pcm[i] = static_cast<int16_t>(i % 2001 - 1000);
  const std::string wav = dir + "/long.wav";
  const std::vector<uint8_t> w = Wav(pcm);
  ASSERT_TRUE(WriteFileAtomic(wav, absl::Span<const uint8_t>(w), {}).ok());

  testing::CommandResult r =
      RunCommand(QforgeBinary() + " calibrate " + model + " --data " + wav +
                 " -o " + dir + "/stats.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("data: " + wav +
                       ": 68360 samples -> 12 windows of 5360 (hop 5360); "
                       "the last 4040 samples are dropped\n"),
            std::string::npos)
      << r.err;
  nlohmann::json s = StatsOf(dir + "/stats.json", x);
  EXPECT_EQ(s["count"], 12 * 5360);
  EXPECT_FLOAT_EQ(s["max"].get<float>(), 1000 / 32768.f);
  EXPECT_FLOAT_EQ(s["min"].get<float>(), -1000 / 32768.f);

  // --hop 2680: windows at 0, 2680, ..., 23 * 2680 ((68360 - 5360) / 2680 =
  // 23.5), so 24; the last, 61640..67000, reaches into the loud tail;
  // 68360 - 67000 = 1360 samples are left.
  r = RunCommand(QforgeBinary() + " calibrate " + model + " --data " + wav +
                 " --hop 2680 -o " + dir + "/hop.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("24 windows of 5360 (hop 2680); the last 1360 samples "
                       "are dropped"),
            std::string::npos)
      << r.err;
  s = StatsOf(dir + "/hop.json", x);
  EXPECT_EQ(s["count"], 24 * 5360);
  EXPECT_FLOAT_EQ(s["max"].get<float>(), 30000 / 32768.f);

  // -q: no note.
  r = RunCommand(QforgeBinary() + " calibrate " + model + " --data " + wav +
                 " -q -o " + dir + "/quiet.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");

  // A window that is not the input's length is refused (exit 2).
  r = RunCommand(QforgeBinary() + " calibrate " + model + " --data " + wav +
                 " --window 1000 -o " + dir + "/bad.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--window 1000 does not match input 'wave' "
                       "float32[5360], which takes 5360 values per sample"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace qforge
