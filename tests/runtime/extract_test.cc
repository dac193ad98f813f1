// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// ir::ExtractOps: a run of ops cut out of the bundled MNIST CNN computes,
// fed its upstream tensor, exactly what those ops compute in the whole
// model (the whole model is run with that tensor exposed as an output).
#include "ir/extract.h"

#include <cstring>

#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "runtime/interpreter.h"
#include "tests/support/test_paths.h"

namespace qforge {
namespace {

absl::StatusOr<std::vector<ir::HostTensor>> RunModel(
    const ir::Model& model, const std::vector<ir::HostTensor>& in) {
  auto interp = runtime::Interpreter::Create(model);
  if (!interp.ok()) return interp.status();
  if (absl::Status s = (*interp)->Run(in); !s.ok()) return s;
  std::vector<ir::HostTensor> out;
  for (int i = 0; i < (*interp)->num_outputs(); ++i) {
    out.push_back((*interp)->OutputHost(i));
  }
  return out;
}

TEST(ExtractTest, CutOpsComputeWhatTheyDoInTheWholeModel) {
  absl::StatusOr<ir::Model> model = formats::ReadTfliteFile(
      testing::TestDataDir() + "/models/conv_fc_mnist.tflite");
  ASSERT_TRUE(model.ok()) << model.status();
  const ir::Subgraph& sg = model->subgraphs[0];
  ASSERT_GE(sg.operators.size(), 3u);
  // Whole model, with op 0's output exposed too.
  ir::Model exposed = *model;
  const int32_t mid = sg.operators[0].outputs[0];
  exposed.subgraphs[0].outputs.push_back(mid);
  exposed.signature_defs.clear();
  ir::HostTensor x(sg.tensors[sg.inputs[0]].type, {1, 28, 28, 1});
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    x.Flat<float>()[i] = static_cast<float>(i % 17) / 17.0f;
  }
  auto whole = RunModel(exposed, {x});
  ASSERT_TRUE(whole.ok()) << whole.status();

  // Ops 1.. end, fed op 0's output.
  const int32_t last = static_cast<int32_t>(sg.operators.size()) - 1;
  absl::StatusOr<ir::Model> cut = ir::ExtractOps(*model, 1, last);
  ASSERT_TRUE(cut.ok()) << cut.status();
  ASSERT_EQ(cut->subgraphs[0].operators.size(), sg.operators.size() - 1);
  ASSERT_EQ(cut->subgraphs[0].inputs.size(), 1u);
  EXPECT_TRUE(cut->signature_defs.empty());
  auto part = RunModel(*cut, {whole->back()});
  ASSERT_TRUE(part.ok()) << part.status();
  ASSERT_EQ(part->size(), 1u);
  ASSERT_EQ((*part)[0].ByteSize(), (*whole)[0].ByteSize());
  EXPECT_EQ(
      std::memcmp((*part)[0].data(), (*whole)[0].data(), (*part)[0].ByteSize()),
      0);

  EXPECT_FALSE(ir::ExtractOps(*model, 2, 1).ok());
  EXPECT_FALSE(ir::ExtractOps(*model, 0, last + 1).ok());
}

}  // namespace
}  // namespace qforge
