// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The one --data syntax (docs/data.md), shared by run, calibrate,
// quantize and report: flags, and the sample source built from them.
#ifndef QFORGE_CMD_DATA_FLAGS_H_
#define QFORGE_CMD_DATA_FLAGS_H_

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "formats/data/data_source.h"
#include "ir/model.h"

namespace qforge::cmd {

struct DataFlags {
  std::vector<std::string> specs;
  std::string resize;  // "HxW"
  std::vector<float> mean, std;
  float scale = 0.0f;  // 0: unset
  std::string color;   // "": not given (rgb)
  std::string layout = "nhwc";
  int sample_rate = 16000;
  int64_t window = 0, hop = 0;  // wav windows; 0: defaults
};

// Adds --data (required when `required`), --resize, --mean, --std,
// --scale, --color, --layout, --sample-rate, --window, --hop.
void AddDataFlags(CLI::App* app, DataFlags& flags, bool required);

// The model's entry-subgraph inputs as the data layer sees them.
std::vector<formats::InputDesc> InputDescs(const ir::Model& model);

// Prints the data layer's notes (audio left after the last window) to
// stderr unless `quiet`. `fingerprint` false skips hashing the data (for
// commands that record no fingerprint).
absl::StatusOr<formats::SampleSource> OpenData(const DataFlags& flags,
                                               const ir::Model& model,
                                               bool quiet,
                                               bool fingerprint = true);

// The files `source` reads and the --data paths themselves (lists, folders):
// what an output must not replace.
std::vector<std::string> DataInputPaths(const DataFlags& flags,
                                        const formats::SampleSource& source);

// "224x224" -> 224, 224 (each in 1..65536).
bool ParseResize(const std::string& text, int* h, int* w);

}  // namespace qforge::cmd

#endif  // QFORGE_CMD_DATA_FLAGS_H_
