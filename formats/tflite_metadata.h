// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// Input normalization a model states in its tflite-support metadata (the
// buffer its "TFLITE_METADATA" entry names): NormalizationOptions process
// units on the entry subgraph's input tensors. --data uses it for images
// when no --mean/--std/--scale is given (cmd/data_flags.cc).
#ifndef QFORGE_FORMATS_TFLITE_METADATA_H_
#define QFORGE_FORMATS_TFLITE_METADATA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "ir/model.h"

namespace qforge::formats {

struct InputNormalization {
  int input = 0;  // position in the entry subgraph's inputs
  // value = (x - mean) / std per channel; one value applies to every
  // channel. Both non-empty, finite, std nonzero.
  std::vector<float> mean, std;
};

struct MetadataNormalization {
  std::vector<InputNormalization> inputs;  // inputs that state one
  // Why metadata that is there was not used (malformed buffer, bad values),
  // one line each.
  std::vector<std::string> notes;
};

// Never fails: a missing metadata buffer gives nothing, a malformed one
// (it fails the FlatBuffers verifier, or states unusable values) a note.
MetadataNormalization ReadInputNormalization(const ir::Model& model);

// The same, from the metadata buffer's bytes; `num_inputs` bounds which
// input_tensor_metadata entries count.
MetadataNormalization ParseInputNormalization(absl::Span<const uint8_t> bytes,
                                              int num_inputs);

// The names tflite-support's metadata gives the entry subgraph's outputs
// ("probability", "segmentation_masks", "location", ...), by output
// position ("" where it names none). Empty without usable metadata (a
// malformed buffer gives nothing: ReadInputNormalization notes it).
std::vector<std::string> ReadOutputNames(const ir::Model& model);
std::vector<std::string> ParseOutputNames(absl::Span<const uint8_t> bytes,
                                          int num_outputs);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_TFLITE_METADATA_H_
