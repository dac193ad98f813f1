// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// The one --data syntax (docs/data.md) as a value: which files feed which
// input and how images and audio become tensors. run, calibrate, quantize
// and report all open their samples through OpenData.
#ifndef QFORGE_PIPELINE_DATA_SPEC_H_
#define QFORGE_PIPELINE_DATA_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "formats/data/data_source.h"
#include "ir/model.h"
#include "pipeline/hooks.h"

namespace qforge::pipeline {

struct DataSpec {
  std::vector<std::string> specs;  // FILE, DIR, GLOB, list, NAME=SPEC
  std::string resize;              // "HxW"; "": the input's size
  std::vector<float> mean, std;
  float scale = 0.0f;  // 0: unset
  std::string color;   // "": not given (rgb)
  std::string layout = "nhwc";
  int sample_rate = 16000;
  int64_t window = 0, hop = 0;  // wav windows; 0: defaults

  bool empty() const { return specs.empty(); }
};

// The model's entry-subgraph inputs as the data layer sees them.
std::vector<formats::InputDesc> InputDescs(const ir::Model& model);

// Opens `spec`'s samples for `model`'s inputs. Notes (the normalization
// taken from the model's metadata, audio left after the last window) go to
// `hooks`. `fingerprint` false skips hashing the data (for commands that
// record no fingerprint).
absl::StatusOr<formats::SampleSource> OpenData(const DataSpec& spec,
                                               const ir::Model& model,
                                               const Hooks& hooks,
                                               bool fingerprint = true);

// The files `source` reads and the --data paths themselves (lists, folders):
// what an output must not replace.
std::vector<std::string> DataInputPaths(const DataSpec& spec,
                                        const formats::SampleSource& source);

// "224x224" -> 224, 224 (each in 1..65536).
bool ParseResize(const std::string& text, int* h, int* w);

}  // namespace qforge::pipeline

#endif  // QFORGE_PIPELINE_DATA_SPEC_H_
