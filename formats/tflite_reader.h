// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// .tflite -> IR. The FlatBuffers verifier runs before anything is touched;
// then every semantic rule of ir/validate.h. Errors are one line, prefixed
// with the file name, and map to exit code 2 (InvalidArgument / DataLoss).
#ifndef QFORGE_FORMATS_TFLITE_READER_H_
#define QFORGE_FORMATS_TFLITE_READER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "base/mapped_file.h"
#include "ir/model.h"

namespace qforge::formats {

// A model file mapped into memory and parsed: the model's constant buffers
// are views of `file` (they keep it mapped), so loading costs no copy of the
// weights and touches only the pages something reads.
struct ModelFile {
  std::shared_ptr<const MappedFile> file;
  ir::Model model;
  absl::Span<const uint8_t> bytes() const { return file->bytes(); }
};

// Maps, parses and validates a model file.
absl::StatusOr<ModelFile> OpenTfliteFile(const std::string& path);

// The same, for callers that need only the model.
absl::StatusOr<ir::Model> ReadTfliteFile(const std::string& path);

// Parses and validates model bytes; `source` names them in error messages.
// With an `owner` that keeps `bytes` alive, constant buffers are views of
// `bytes` (where aligned); without, they are copies.
absl::StatusOr<ir::Model> ParseTflite(absl::Span<const uint8_t> bytes,
                                      absl::string_view source,
                                      std::shared_ptr<const void> owner = {});

// TFLite's name of a builtin op code ("CONV_2D"); "BUILTIN_<code>" for codes
// the schema does not know.
std::string BuiltinOpName(int32_t builtin_code);

// The op's display name: builtin name, or the custom code for custom ops.
std::string OpName(const ir::Operator& op);

// The op's options; for an op that carries none, the defaults of the options
// table its ir/ops.def row names (OptionsTable), as the reader decodes that
// table with no field set: FULLY_CONNECTED's FullyConnectedOptions, SUB's
// AddSubOptions with is_sub. Ops without a table keep std::monostate.
ir::Options OptionsOrDefaults(const ir::Operator& op);

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_TFLITE_READER_H_
