// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for the .tflite reader. Any input must be either
// rejected with a status or accepted; an accepted model must serialise and
// read back. Crashes, leaks, sanitizer reports and hangs are bugs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "formats/tflite_reader.h"
#include "formats/tflite_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::StatusOr<qforge::ir::Model> model =
      qforge::formats::ParseTflite(absl::MakeConstSpan(data, size), "fuzz");
  if (!model.ok()) return 0;
  absl::StatusOr<std::vector<uint8_t>> bytes =
      qforge::formats::SerializeTflite(*model);
  if (!bytes.ok()) std::abort();
  absl::StatusOr<qforge::ir::Model> again =
      qforge::formats::ParseTflite(*bytes, "fuzz-copy");
  if (!again.ok()) std::abort();
  return 0;
}
