// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// A model with an op qforge cannot run (a made-up vendor custom op) in the
// middle: calibration covers everything upstream, quantize quantizes that
// part and keeps the custom op and what depends on it float, naming the
// reason; --strict exits 3. The graph:
//   x [1,8,8,3] -> CONV_2D (relu) -> a -> VendorNorm -> b -> CONV_2D -> c
//   a + c -> ADD -> out0          (depends on VendorNorm: stays float)
//   a -> AVERAGE_POOL_2D -> out1  (calibrated: quantized)
// LiteRT cannot load VendorNorm (nor can anything but its vendor's
// runtime), so the check that the rest of the quantized model is well
// formed swaps it for a builtin RELU and runs it in LiteRT.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "formats/data/npy.h"
#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"
#include "gtest/gtest.h"
#include "ir/op_kind.h"
#include "tests/support/op_model.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

using testing::QforgeBinary;
using testing::RunCommand;

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& f : v) f = u(gen);
  return v;
}

ir::Model VendorModel() {
  testing::OpModel m;
  const int x = m.Input(ir::DataType::kFloat32, {1, 8, 8, 3}, "x");
  const int w1 = m.Constant<float>({4, 3, 3, 3}, Random(108, 1), "w1");
  const int b1 = m.Constant<float>({4}, Random(4, 2), "b1");
  const int a = m.Tensor(ir::DataType::kFloat32, {1, 8, 8, 4}, "a");
  ir::Conv2DOptions conv;
  conv.stride_w = conv.stride_h = 1;
  conv.activation = ir::Activation::kRelu;
  m.Op(ir::OpKind::kConv2D, {x, w1, b1}, {a}, conv);
  const int b = m.Tensor(ir::DataType::kFloat32, {1, 8, 8, 4}, "b");
  m.Op(ir::OpKind::kCustom, {a}, {b});
  ir::Operator& vendor = m.model().subgraphs[0].operators.back();
  vendor.custom_code = "VendorNorm";
  vendor.builtin_code = ir::kBuiltinCustom;
  const int w2 = m.Constant<float>({4, 1, 1, 4}, Random(16, 3), "w2");
  const int b2 = m.Constant<float>({4}, Random(4, 4), "b2");
  const int c = m.Tensor(ir::DataType::kFloat32, {1, 8, 8, 4}, "c");
  conv.activation = ir::Activation::kNone;
  m.Op(ir::OpKind::kConv2D, {b, w2, b2}, {c}, conv);
  const int out0 = m.Output(ir::DataType::kFloat32, {1, 8, 8, 4}, "out0");
  m.Op(ir::OpKind::kAdd, {a, c}, {out0}, ir::AddSubOptions{});
  const int out1 = m.Output(ir::DataType::kFloat32, {1, 4, 4, 4}, "out1");
  ir::Pool2DOptions pool;
  pool.stride_w = pool.stride_h = 2;
  pool.filter_width = pool.filter_height = 2;
  m.Op(ir::OpKind::kAveragePool2D, {a}, {out1}, pool);
  return m.model();
}

std::string Write(const std::string& path, const ir::Model& model) {
  auto bytes = formats::SerializeTflite(model);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_TRUE(
      WriteFileAtomic(path, absl::Span<const uint8_t>(*bytes), {}).ok());
  return path;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PartialQuantizeTest, UnknownCustomOpKeepsItsRegionFloat) {
  const std::string dir = testing::MakeTempDir();
  const std::string model = Write(dir + "/vendor.tflite", VendorModel());
  ir::HostTensor data(ir::DataType::kFloat32, {16, 8, 8, 3});
  const std::vector<float> values = Random(16 * 8 * 8 * 3, 5);
  std::memcpy(data.data(), values.data(), data.ByteSize());
  auto npy = formats::WriteNpy(data);
  ASSERT_TRUE(npy.ok());
  ASSERT_TRUE(
      WriteFileAtomic(dir + "/data.npy", absl::Span<const uint8_t>(*npy), {})
          .ok());

  // calibrate: statistics of the upstream part, and a note.
  testing::CommandResult r =
      RunCommand(QforgeBinary() + " calibrate " + model + " --data " + dir +
                 "/data.npy -o " + dir + "/stats.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "calibrate: not calibrated: op 1 VendorNorm (qforge "
                       "has no kernel for it) and the 2 ops that depend on "
                       "it: 2 CONV_2D, 3 ADD"))
      << r.err;

  for (const char* scheme : {"int8", "int16x8"}) {
    SCOPED_TRACE(scheme);
    const std::string q = dir + "/q_" + scheme + ".tflite";
    r = RunCommand(QforgeBinary() + " quantize " + model + " --stats " + dir +
                   "/stats.json --scheme " + scheme + " --keep-integer -o " +
                   q);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Contains(r.err, "2 ops quantized, 3 kept float")) << r.err;
    EXPECT_TRUE(Contains(r.err,
                         "float: op 1 VendorNorm: qforge has no kernel for "
                         "it: not calibrated"))
        << r.err;
    EXPECT_TRUE(Contains(r.err,
                         "float: op 2 CONV_2D: no calibration statistics for "
                         "input 'b': downstream of VendorNorm (output 'b'), "
                         "which qforge cannot run"))
        << r.err;
    EXPECT_TRUE(Contains(r.err, "float: op 3 ADD: no calibration statistics"))
        << r.err;

    // The upstream conv and the pool are integer; the custom op reads
    // float (a DEQUANTIZE in front of it).
    absl::StatusOr<ir::Model> qm = formats::ReadTfliteFile(q);
    ASSERT_TRUE(qm.ok()) << qm.status();
    const ir::Subgraph& sg = qm->subgraphs[0];
    int integer_convs = 0, vendor = -1;
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      const ir::Operator& op = sg.operators[i];
      const ir::Tensor& out = sg.tensors[static_cast<size_t>(op.outputs[0])];
      if (op.kind == ir::OpKind::kConv2D && out.type != ir::DataType::kFloat32)
        ++integer_convs;
      if (op.custom_code == "VendorNorm") vendor = static_cast<int>(i);
    }
    EXPECT_EQ(integer_convs, 1);
    ASSERT_GE(vendor, 0);
    EXPECT_EQ(
        sg.tensors[static_cast<size_t>(
                       sg.operators[static_cast<size_t>(vendor)].inputs[0])]
            .type,
        ir::DataType::kFloat32);

    // --strict: exit 3, one line naming the float ops.
    r = RunCommand(QforgeBinary() + " quantize " + model + " --stats " + dir +
                   "/stats.json --scheme " + scheme + " --strict -o " + dir +
                   "/strict.tflite");
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(Contains(r.err, "VendorNorm")) << r.err;

    // LiteRT loads and runs the rest once VendorNorm is a builtin RELU.
    const std::string interop = testing::TestDataDir() + "/../tests/interop";
    const testing::CommandResult setup =
        RunCommand("bash " + interop + "/setup.sh");
    if (setup.exit_code != 0 || Contains(setup.out, "node absent")) continue;
    ir::Model swapped = *qm;
    ir::Operator& op =
        swapped.subgraphs[0].operators[static_cast<size_t>(vendor)];
    op.kind = ir::OpKind::kRelu;
    op.builtin_code = ir::GetOpInfo(ir::OpKind::kRelu).builtin_code;
    op.custom_code.clear();
    op.source_opcode_index = -1;
    const std::string relu =
        Write(dir + "/relu_" + scheme + ".tflite", swapped);
    r = RunCommand("node " + interop + "/run_model.mjs " + relu +
                   " --runtime litert --seed 1 --out-dir " + dir + "/lr_" +
                   scheme);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(Contains(r.out, "\"ok\":true")) << r.out;
  }
}

}  // namespace
}  // namespace qforge
