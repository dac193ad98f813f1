// Copyright 2026 The qforge Authors. SPDX-License-Identifier: Apache-2.0
//
// RIFF WAVE audio, the one flavour speech models are fed: 16-bit PCM, mono,
// at a known sample rate. Anything else is refused with the reason, rather
// than silently mixed down or resampled (which would change what the model
// sees without the user asking).
#ifndef QFORGE_FORMATS_DATA_WAV_H_
#define QFORGE_FORMATS_DATA_WAV_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace qforge::formats {

struct WavOptions {
  int expected_sample_rate = 16000;  // 0 accepts any rate
};

struct WavInfo {
  int sample_rate = 0;
  size_t data_offset = 0;   // offset of the first sample in the file
  int64_t num_samples = 0;  // 16-bit little-endian samples from there
};

// Validates the WAVE file held in `bytes` (`file` names it in errors).
absl::StatusOr<WavInfo> ParseWav(absl::Span<const uint8_t> bytes,
                                 absl::string_view file,
                                 const WavOptions& options = {});

// All samples as x / 32768, in [-1, 1).
absl::StatusOr<std::vector<float>> ReadWavFloat(absl::Span<const uint8_t> bytes,
                                                absl::string_view file,
                                                const WavOptions& options = {});

// All samples as stored.
absl::StatusOr<std::vector<int16_t>> ReadWavInt16(
    absl::Span<const uint8_t> bytes, absl::string_view file,
    const WavOptions& options = {});

}  // namespace qforge::formats

#endif  // QFORGE_FORMATS_DATA_WAV_H_
