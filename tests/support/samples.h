// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Sample data for tests that calibrate or recover on real inputs: a
// --data spec opened for a model's first input, and MLPerf Tiny's ToyCar
// autoencoder (corpus) with its real log-mel feature file.
#ifndef QFORGE_TESTS_SUPPORT_SAMPLES_H_
#define QFORGE_TESTS_SUPPORT_SAMPLES_H_

#include <optional>
#include <string>

#include "formats/data/data_source.h"
#include "ir/model.h"

namespace qforge::testing {

// `spec` (a --data spec) opened for the first input of `m`'s subgraph 0;
// a failure to open is a test failure.
formats::SampleSource OpenFirstInputSamples(const ir::Model& m,
                                            const std::string& spec);

struct ModelWithData {
  ir::Model model;
  std::string data;  // a --data spec
};

// model_ToyCar.tflite and one of its dcase01 feature files; nullopt
// without the corpus.
std::optional<ModelWithData> LoadToyCar();

}  // namespace qforge::testing

#endif  // QFORGE_TESTS_SUPPORT_SAMPLES_H_
