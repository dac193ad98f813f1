// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// IR -> .tflite (identifier TFL3). Deterministic: the same IR gives the same
// bytes. Models whose constants would push the flatbuffer past its 2 GiB
// limit keep buffer data after the flatbuffer (Buffer.offset/size), as
// TFLite's converter does.
#ifndef QFORGE_FORMATS_TFLITE_WRITER_H_
#define QFORGE_FORMATS_TFLITE_WRITER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "ir/model.h"

namespace qforge::formats {

struct WriteOptions {
  // Keep buffer data after the flatbuffer when the inline total would exceed
  // this many bytes. The default leaves headroom under the 2 GiB limit.
  uint64_t external_buffer_threshold = (uint64_t{1} << 31) - (64u << 20);
  // Always store non-empty buffers after the flatbuffer (tests, tooling).
  bool force_external_buffers = false;
  // Drop buffers no tensor or metadata refers to and op codes no op uses;
  // a copy keeps them, the quantizer drops them.
  bool drop_unused = false;
};

// Receives the file's bytes in order, piece by piece.
using ByteSink = std::function<absl::Status(absl::Span<const uint8_t>)>;

// The whole file. Errors name the rule broken (for example, a tensor type
// the wire format cannot express).
absl::StatusOr<std::vector<uint8_t>> SerializeTflite(
    const ir::Model& model, const WriteOptions& options = {});

// The same bytes, streamed: constant buffers go from the model to `sink`
// without an intermediate copy of the file.
absl::Status SerializeTflite(const ir::Model& model,
                             const WriteOptions& options, const ByteSink& sink);

// As SerializeTflite, freeing each buffer of `model` once it is written: a
// quantized model then never exists twice in memory (its buffers and the
// file's bytes).
absl::Status SerializeTfliteConsuming(ir::Model model,
                                      const WriteOptions& options,
                                      const ByteSink& sink);

// Serializes and writes atomically (temp file + rename), streaming. Refuses
// to write over any of `inputs`.
absl::Status WriteTfliteFile(const ir::Model& model, const std::string& path,
                             const WriteOptions& options = {},
                             absl::Span<const std::string> inputs = {});

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_TFLITE_WRITER_H_
