// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
#include "tests/support/samples.h"

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/file_io.h"
#include "formats/tflite_reader.h"
#include "gtest/gtest.h"
#include "tests/support/test_paths.h"

namespace qforge::testing {

formats::SampleSource OpenFirstInputSamples(const ir::Model& m,
                                            const std::string& spec) {
  const ir::Tensor& in = m.subgraphs[0].tensors[m.subgraphs[0].inputs[0]];
  formats::InputDesc d;
  d.name = in.name;
  d.type = in.type;
  d.shape = in.shape;
  absl::StatusOr<formats::SampleSource> s =
      formats::SampleSource::Open({spec}, {d}, {});
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

std::optional<ModelWithData> LoadToyCar() {
  const std::string corpus = CorpusDir();
  if (corpus.empty()) return std::nullopt;
  const std::string path = corpus + "/models/mlperf-tiny/model_ToyCar.tflite";
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileBytes(path);
  if (!bytes.ok()) return std::nullopt;
  absl::StatusOr<ir::Model> model = formats::ParseTflite(*bytes, path);
  if (!model.ok()) return std::nullopt;
  return ModelWithData{*std::move(model),
                       corpus +
                           "/data/mlperf-tiny/benchmark/reference_submissions/"
                           "anomaly_detection/datasets/dcase01/"
                           "normal_id_01_00000000_hist_librosa.bin"};
}

}  // namespace qforge::testing
